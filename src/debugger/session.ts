// The Debug Adapter Protocol session of one pod lifecycle run: a translator over the engine's Simulation, whose
// "statements" are trace entries. Every answer (threads, frames, variables, output) comes from the engine.
import {
  ExitedEvent, Handles, InitializedEvent, Logger, logger, LoggingDebugSession, OutputEvent, Scope, Source,
  StackFrame, StoppedEvent, TerminatedEvent, Thread, ThreadEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { refOf, type KubeObject } from '../engine/api/types';
import { DEFAULT_CLUSTER_YAML } from '../engine/cluster/default-cluster';
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { TraceEntry } from '../engine/runtime/recorder';
import { Simulation } from '../engine/simulation';
import { type PhaseBreakpoint, PhaseBreakpoints } from './breakpoints';
import { type ConsoleLine, endLines, eventLine, exitCode, reportLines } from './console';
import { EMBEDDED_CLUSTER_SOURCE, entryFrame, type FrameSpec, framesOf, refOfDocument, SourceMapper, sourceOfFile } from './frames';
import { ErrorId, type LaunchArguments, LaunchError, type LaunchPlan, loadLaunch, planLaunch } from './launch';
import { CONTROL_PLANE_THREAD, Threads } from './threads';
import { VariableStore } from './variables';

/** CONFIGURATION_TIMEOUT_MS is how long launch waits for configurationDone before it starts anyway (as mock-debug does). */
const CONFIGURATION_TIMEOUT_MS = 2000;

/** StepMode is how far a resume goes: to a breakpoint, the next phase, or the next entry of any level. */
type StepMode = 'continue' | 'next' | 'stepIn' | 'stepOut';

/** Run is the state of a launched lifecycle. */
interface Run {
  sim: Simulation;
  plan: LaunchPlan;
  sources: SourceMapper;
  threads: Threads;
  state: 'stopped' | 'ended';
  /** previous is the last entry the run went through (for the breakpoints' "entering a phase" rule). */
  previous?: TraceEntry;
  /** entryThread is the thread shown before the first phase: the manifest's pod, or the control plane. */
  entryThread: number;
  printedEvents: number;
}

/** PodLifecycleSession is the debug adapter of the `pod-lifecycle` debug type, run inline by the extension or over stdio. */
export class PodLifecycleSession extends LoggingDebugSession {
  private run: Run | undefined;
  private launched = false;
  private disconnected = false;
  private readonly breakpoints = new PhaseBreakpoints();
  private readonly variables = new VariableStore();
  private readonly frames = new Handles<FrameSpec>();
  private markConfigured: () => void = () => undefined;
  private readonly configured = new Promise<void>((resolve) => (this.markConfigured = resolve));

  constructor() {
    super();
    // The engine's ranges are zero-based, as editors count; the base class converts to the client's convention.
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      ...response.body,
      // launch waits for configurationDone, so breakpoints set before the first phase are honoured.
      supportsConfigurationDoneRequest: true,
      // breakpoints on phase names, aliases and prefixes (`scheduler.bind`, `sandbox`, `kubelet.*`).
      supportsFunctionBreakpoints: true,
      // not yet: a condition on a phase breakpoint (e.g. the pod) comes with the rest of the debugger.
      supportsConditionalBreakpoints: false,
      // not yet: stepping back through the recorded snapshots comes with the rest of the debugger.
      supportsStepBack: false,
      // the Stop button ends the simulated run with a terminate request, then disconnects.
      supportsTerminateRequest: true,
      // stackTrace honours startFrame and levels.
      supportsDelayedStackTraceLoading: true,
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.markConfigured();
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    if (this.launched) return this.fail(response, ErrorId.alreadyLaunched, 'This debug session has already launched a lifecycle: start a new session.');
    this.launched = true;
    let plan: LaunchPlan;
    let inputs: SimulationInputs;
    // Log the protocol traffic only when asked; until this call the logger queues every message.
    logger.setup(args.trace === true ? Logger.LogLevel.Verbose : Logger.LogLevel.Stop, false);
    try {
      plan = planLaunch(args);
      inputs = loadLaunch(plan);
    } catch (err) {
      if (err instanceof LaunchError) return this.fail(response, err.id, err.message);
      return this.fail(response, ErrorId.engineFailure, `Cannot load the inputs: ${describeError(err)}`);
    }
    await waitAtMost(this.configured, CONFIGURATION_TIMEOUT_MS);
    if (this.disconnected) return this.fail(response, ErrorId.notLaunched, 'The session was disconnected before the lifecycle started.');
    let sim: Simulation;
    try {
      sim = new Simulation(inputs, { ...plan.options, snapshots: !plan.noDebug });
    } catch (err) {
      return this.fail(response, ErrorId.engineFailure, `Cannot start the simulation: ${describeError(err)}`);
    }
    const threads = new Threads();
    const firstDoc = sim.inputs.manifest[0];
    const entryThread = threads.threadOf(firstDoc ? refOfDocument(firstDoc) : undefined).thread.id;
    const run: Run = { sim, plan, sources: new SourceMapper(sim), threads, state: 'stopped', entryThread, printedEvents: 0 };
    this.run = run;
    this.sendResponse(response);
    if (plan.noDebug) this.runToEnd(run);
    else if (plan.stopOnEntry) this.stopAt(run, undefined, entryThread, 'entry');
    else this.resume(run, 'continue');
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse): void {
    this.fail(response, ErrorId.unsupported, 'A pod lifecycle cannot be attached to: use a "launch" configuration with a manifest.');
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.set(args.breakpoints ?? []) };
    this.sendResponse(response);
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const lines = args.breakpoints?.map((b) => b.line) ?? args.lines ?? [];
    const message = 'Line breakpoints are not supported yet: add a function breakpoint on a phase (e.g. kubelet.preStop) in the Breakpoints view.';
    response.body = { breakpoints: lines.map((line) => ({ verified: false, line, message })) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse): void {
    response.body = { breakpoints: [] };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.step(response, 'continue');
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.step(response, 'next');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.step(response, 'stepIn');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.step(response, 'stepOut');
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    // Resuming runs synchronously to the next stop, so a pause always finds the run already paused (or ended).
    if (!this.requireRun(response)) return;
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const threads = this.run?.threads.list() ?? [{ id: CONTROL_PLANE_THREAD, name: 'control plane' }];
    response.body = { threads: threads.map((t) => new Thread(t.id, t.name)) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const run = this.requireStopped(response);
    if (!run) return;
    const thread = run.threads.get(args.threadId);
    if (!thread) return this.fail(response, ErrorId.unknownReference, `There is no thread ${args.threadId}.`);
    const specs = thread.last ? framesOf(thread.last, run.sources) : thread.id === run.entryThread ? [entryFrame(run.sim, run.plan.files.manifest)] : [];
    const start = Math.max(0, args.startFrame ?? 0);
    const end = args.levels ? start + args.levels : specs.length;
    response.body = { stackFrames: specs.slice(start, end).map((spec) => this.stackFrame(spec)), totalFrames: specs.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const run = this.requireStopped(response);
    if (!run) return;
    const frame = this.frames.get(args.frameId);
    if (!frame) return this.fail(response, ErrorId.unknownReference, `There is no stack frame ${args.frameId}: the run has moved on since.`);
    const scopes: DebugProtocol.Scope[] = [];
    const object = this.objectOf(run, frame);
    if (object) scopes.push(new Scope(object.name, this.variables.reference(object.value), false));
    if (frame.entry) scopes.push(new Scope('Decision', this.variables.reference(decisionOf(frame.entry)), false));
    scopes.push(new Scope('Events', this.variables.reference([...run.sim.events]), false));
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    if (!this.requireStopped(response)) return;
    const variables = args.variablesReference === 0 ? [] : this.variables.children(args.variablesReference, args);
    if (!variables) return this.fail(response, ErrorId.unknownReference, `There are no variables ${args.variablesReference}: the run has moved on since.`);
    response.body = { variables };
    this.sendResponse(response);
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const ref = args.source?.sourceReference ?? args.sourceReference;
    if (ref !== EMBEDDED_CLUSTER_SOURCE) return this.fail(response, ErrorId.unknownReference, `There is no source ${ref}.`);
    response.body = { content: DEFAULT_CLUSTER_YAML, mimeType: 'text/x-yaml' };
    this.sendResponse(response);
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.fail(response, ErrorId.unsupported, 'Stepping back is not supported yet.');
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.fail(response, ErrorId.unsupported, 'Reverse continue is not supported yet.');
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse): void {
    this.fail(response, ErrorId.unsupported, 'Expressions are not supported yet: expand the Pod, Decision and Events scopes in the Variables view.');
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    if (this.run?.state === 'ended') return;
    if (this.run) this.run.state = 'ended';
    this.sendEvent(new TerminatedEvent());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): void {
    if (this.run) this.run.state = 'ended';
    this.disconnected = true;
    this.markConfigured();
    super.disconnectRequest(response, args, request);
  }

  /** step answers a continue or step request, then runs to the next stop (events follow the response). */
  private step(response: DebugProtocol.Response, mode: StepMode): void {
    const run = this.requireStopped(response);
    if (!run) return;
    if (mode === 'continue') (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.resume(run, mode);
  }

  /**
   * resume advances the simulation entry by entry: `continue` to the next breakpoint, `next` and `stepOut` to the
   * next phase-level entry (one without a sub-step) of any thread, `stepIn` to the next entry of any level. A
   * breakpoint met on the way stops a step too. The end of the run terminates the session.
   */
  private resume(run: Run, mode: StepMode): void {
    try {
      for (;;) {
        const entry = run.sim.step();
        if (!entry) return this.end(run);
        const previous = run.previous;
        run.previous = entry;
        const { thread, created } = run.threads.observe(entry);
        if (created) this.sendEvent(new ThreadEvent('started', thread.id));
        this.printEvents(run);
        const hits = this.breakpoints.hits(entry, previous);
        if (hits.length > 0) return this.stopAt(run, entry, thread.id, 'function breakpoint', hits);
        if (mode === 'stepIn' || (mode !== 'continue' && !entry.step)) return this.stopAt(run, entry, thread.id, 'step');
      }
    } catch (err) {
      this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
      run.state = 'ended';
      this.sendEvent(new TerminatedEvent());
    }
  }

  private stopAt(run: Run, entry: TraceEntry | undefined, threadId: number, reason: string, hits: PhaseBreakpoint[] = []): void {
    run.state = 'stopped';
    this.variables.reset();
    this.frames.reset();
    const event = new StoppedEvent(reason, threadId) as DebugProtocol.StoppedEvent;
    event.body.allThreadsStopped = true;
    event.body.description = entry ? `Paused on ${entry.phase}` : 'Paused before kubectl apply';
    if (entry) event.body.text = entry.result;
    if (hits.length > 0) event.body.hitBreakpointIds = hits.map((h) => h.id);
    this.sendEvent(event);
  }

  private end(run: Run): void {
    run.state = 'ended';
    this.printEvents(run);
    const deleting = run.plan.options.delete !== undefined;
    const result = run.sim.result();
    this.output(endLines(result, run.plan.files.manifest, deleting));
    this.sendEvent(new ExitedEvent(exitCode(result, deleting)));
    this.sendEvent(new TerminatedEvent());
  }

  /** runToEnd is "Run Without Debugging": the whole lifecycle, then the CLI's report in the Debug Console. */
  private runToEnd(run: Run): void {
    run.state = 'ended';
    const deleting = run.plan.options.delete !== undefined;
    try {
      const result = run.sim.run();
      this.output(reportLines(result, run.plan.files.manifest, deleting));
      this.sendEvent(new ExitedEvent(exitCode(result, deleting)));
    } catch (err) {
      this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
    }
    this.sendEvent(new TerminatedEvent());
  }

  /** printEvents prints the Kubernetes events recorded since the last call. */
  private printEvents(run: Run): void {
    const events = run.sim.events;
    for (; run.printedEvents < events.length; run.printedEvents++) this.output([eventLine(events[run.printedEvents]!)]);
  }

  private output(lines: readonly ConsoleLine[]): void {
    for (const line of lines) this.sendEvent(new OutputEvent(line.text, line.category));
  }

  private stackFrame(spec: FrameSpec): DebugProtocol.StackFrame {
    const id = this.frames.create(spec);
    if (!spec.location) return new StackFrame(id, spec.name);
    const file = sourceOfFile(spec.location.file);
    const source = new Source(file.name, file.path && this.convertDebuggerPathToClient(file.path), file.sourceReference, file.origin);
    const { start, end } = spec.location;
    const frame: DebugProtocol.StackFrame = new StackFrame(id, spec.name, source, this.convertDebuggerLineToClient(start.line), this.convertDebuggerColumnToClient(start.character));
    if (end) {
      frame.endLine = this.convertDebuggerLineToClient(end.line);
      frame.endColumn = this.convertDebuggerColumnToClient(end.character);
    }
    return frame;
  }

  /** objectOf is the object a frame works on: as stored right after its entry, else as the manifest wrote it. */
  private objectOf(run: Run, frame: FrameSpec): { name: string; value: KubeObject } | undefined {
    if (!frame.object) return undefined;
    const kind = frame.object.split('/')[0] ?? 'Object';
    if (frame.entry) {
      const stored = run.sim.snapshot(frame.entry.seq).find((o) => refOf(o) === frame.object);
      if (stored) return { name: kind, value: stored };
    }
    const written = run.sources.documentOf(frame.object);
    return written && written.prefix === '' ? { name: `${kind} (as written)`, value: written.doc.object } : undefined;
  }

  private requireRun(response: DebugProtocol.Response): Run | undefined {
    if (this.run) return this.run;
    this.fail(response, ErrorId.notLaunched, `No lifecycle is running yet: "${response.command}" needs a launch first.`);
    return undefined;
  }

  private requireStopped(response: DebugProtocol.Response): Run | undefined {
    const run = this.requireRun(response);
    if (run && run.state !== 'stopped') {
      this.fail(response, ErrorId.notStopped, `The lifecycle has ended: "${response.command}" needs a paused run.`);
      return undefined;
    }
    return run;
  }

  /** fail answers a request with an error shown to the user: a stable id and a message that needs no template. */
  private fail(response: DebugProtocol.Response, id: number, message: string): void {
    // The message is the template; an empty variables map leaves any `{...}` it quotes from a file as it is.
    this.sendErrorResponse(response, { id, format: message, variables: {}, showUser: true });
  }
}

/** decisionOf is the Decision scope: what the entry decided, from which field, with its data. */
function decisionOf(entry: TraceEntry): Record<string, unknown> {
  return {
    result: entry.result, phase: entry.phase, object: entry.object, field: entry.field,
    step: entry.step ? `${entry.step.kind} ${entry.step.name}` : undefined, outcome: entry.outcome, at: `${entry.at}s`, detail: entry.detail,
  };
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** waitAtMost resolves when `promise` does or after `ms`, whichever comes first, leaving no timer behind. */
function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
