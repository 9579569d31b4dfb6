// The Debug Adapter Protocol session of one pod lifecycle run: a translator over the engine's Simulation, whose
// "statements" are trace entries. Every answer (threads, frames, variables, output) comes from the engine.
import {
  BreakpointEvent, Event, ExitedEvent, InitializedEvent, InvalidatedEvent, Logger, logger, LoggingDebugSession, OutputEvent,
  ProgressEndEvent, ProgressStartEvent, Source, StackFrame, StoppedEvent, TerminatedEvent, Thread, ThreadEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename, resolve } from 'node:path';
import { DEFAULT_CLUSTER_YAML } from '../engine/cluster/default-cluster';
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { TraceEntry } from '../engine/runtime/recorder';
import { argumentProblem } from './arguments';
import { BreakpointSet, liveReader } from './breakpoint-set';
import { entryResolver } from './breakpoints';
import { ConsoleError, completeConsole, evaluateConsole } from './console';
import { dataBreakpointInfo } from './data';
import { CAPABILITIES } from './capabilities';
import { exceptionInfo, type ExceptionStop } from './exceptions';
import { evaluate, ExpressionLimitError, parseExpression } from './expressions';
import { EMBEDDED_CLUSTER_SOURCE, entryFrame, type FrameSpec, framesOf, GENERATED_SOURCE, sourceOfFile } from './frames';
import { generatedManifest, kubectlLines } from '../engine/kubectl/generate/load';
import { ErrorId, type LaunchArguments, LaunchError, type LaunchPlan, loadLaunch, planLaunch, unknownAttributes } from './launch';
import { type ConsoleLine, endLines, eventLine, exitCode, reportLines, statusLine, stepLine, waitBetween } from './output';
import { LifecycleRun, type ThreadChanges } from './run';
import { scopesOf } from './scopes';
import { stepTargets } from './targets';
import { CONTROL_PLANE_THREAD } from './threads';
import { preview, SessionHandles, VariableStore } from './variables';
import { whatIf } from './whatif';
import { deleteAgain, type Redelete } from './redelete';
import { isDeleteCommand } from '../engine/console/delete';
import { isNodeCommand } from '../engine/console/node-command';
import { runNodeCommand } from './node-command';
import { buildStateView, type StateView } from '../webview/state';
import { GOTO_REQUEST, SOURCE_REQUEST, STATE_EVENT, STATE_REQUEST } from '../webview/view';

/** CONFIGURATION_TIMEOUT_MS is how long launch waits for configurationDone before it starts anyway (as mock-debug does). */
const CONFIGURATION_TIMEOUT_MS = 2000;
/** CHUNK is how many entries a resumed run goes through before it lets other requests (pause) in. */
const CHUNK = 25;

/** StepMode is how far a resume goes: to a breakpoint, the next phase, or the next entry of any level. */
type StepMode = 'continue' | 'next' | 'stepIn' | 'stepOut';

/** PodLifecycleSession is the debug adapter of the `pod-lifecycle` debug type, run inline by the extension or over stdio. */
export class PodLifecycleSession extends LoggingDebugSession {
  private run: LifecycleRun | undefined;
  private plan: LaunchPlan | undefined;
  private launched = false;
  private disconnected = false;
  private readonly breakpoints = new BreakpointSet({
    toEngine: (line) => this.convertClientLineToDebugger(line),
    toClient: (line) => this.convertDebuggerLineToClient(line),
    pathToClient: (path) => this.convertDebuggerPathToClient(path),
  });
  private readonly variables = new VariableStore();
  private readonly frames = new SessionHandles<FrameSpec>();
  private stopped: { exception?: ExceptionStop; targets: Map<number, number>; threadId: number } = { targets: new Map(), threadId: CONTROL_PLANE_THREAD };
  private pauseRequested = false;
  private resumeToken = 0;
  private progressSupported = false;
  /** stateEvents is set once a client asked for the state tree's view: from then on every stop sends it. */
  private stateEvents = false;
  private progressIds = 0;
  private markConfigured: () => void = () => undefined;
  private readonly configured = new Promise<void>((resolve) => (this.markConfigured = resolve));

  constructor() {
    super();
    // The engine's ranges are zero-based, as editors count; the base class converts to the client's convention.
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  /** dispatchRequest answers a request whose handler throws with an error instead of ending the adapter. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const response: DebugProtocol.Response = { seq: 0, type: 'response', request_seq: request.seq, command: String(request.command), success: false };
    const problem = argumentProblem(response.command, request.arguments);
    if (problem) return this.fail(response, ErrorId.badArguments, `${problem}.`);
    try {
      super.dispatchRequest(request);
    } catch (err) {
      this.fail(response, ErrorId.engineFailure, `"${request.command}" failed: ${describeError(err)}`);
    }
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.progressSupported = args.supportsProgressReporting === true;
    response.body = { ...response.body, ...CAPABILITIES };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.markConfigured();
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): void {
    // The handler waits for configurationDone: a failure after that wait is answered too, never left to end the process.
    this.launch(response, args).catch((err: unknown) => this.fail(response, ErrorId.engineFailure, `"launch" failed: ${describeError(err)}`));
  }

  private async launch(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    if (this.launched) return this.fail(response, ErrorId.alreadyLaunched, 'This debug session has already launched a lifecycle: start a new session.');
    this.launched = true;
    // Log the protocol traffic only when asked; until this call the logger queues every message.
    logger.setup(args.trace === true ? Logger.LogLevel.Verbose : Logger.LogLevel.Stop, false);
    const run = this.load(response, args);
    if (!run) return;
    await waitAtMost(this.configured, CONFIGURATION_TIMEOUT_MS);
    if (this.disconnected) return this.fail(response, ErrorId.notLaunched, 'The session was disconnected before the lifecycle started.');
    this.sendResponse(response);
    const unknown = unknownAttributes(args);
    if (unknown.length > 0) this.output([{ text: `Ignored unknown launch attribute(s): ${unknown.join(', ')}. See the "pod-lifecycle" attributes in launch.json's IntelliSense.\n`, category: 'stderr' }]);
    this.begin(run);
  }

  protected override restartRequest(response: DebugProtocol.RestartResponse, args: DebugProtocol.RestartArguments): void {
    if (!this.plan || !this.run) return this.fail(response, ErrorId.notLaunched, 'No lifecycle is running yet: "restart" needs a launch first.');
    const old = this.run;
    const next = this.load(response, (args?.arguments as LaunchArguments | undefined) ?? undefined);
    if (!next) return;
    this.resumeToken++;
    for (const thread of old.threads.list()) if (thread.id !== CONTROL_PLANE_THREAD) this.sendEvent(new ThreadEvent('exited', thread.id));
    this.sendResponse(response);
    this.begin(next);
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse): void {
    this.fail(response, ErrorId.unsupported, 'A pod lifecycle cannot be attached to: use a "launch" configuration with a manifest.');
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.functions.set(args.breakpoints ?? []) };
    this.sendResponse(response);
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const path = args.source.path;
    if (!path) {
      const requested = args.breakpoints ?? [];
      const message = args.source.sourceReference === GENERATED_SOURCE
        ? 'What kubectl generated has no file: use a function breakpoint on a phase, such as kubectl.generate or scheduler.bind.'
        : 'The embedded default cluster has no file: put breakpoints in the manifest, or in a cluster file given by "cluster".';
      response.body = { breakpoints: requested.map((b) => ({ verified: false, line: b.line, message })) };
      return this.sendResponse(response);
    }
    if (!/\.ya?ml$/i.test(path)) return this.fail(response, ErrorId.notAnInput, `${basename(path)} is not YAML: line breakpoints go in the manifest or a cluster file.`);
    const requested = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
    response.body = { breakpoints: this.breakpoints.setLines(resolve(this.convertClientPathToDebugger(path)), requested, this.run) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.exceptions.set([...args.filters, ...(args.filterOptions ?? []).map((o) => o.filterId)]) };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse, args: DebugProtocol.ExceptionInfoArguments): void {
    if (!this.requireStopped(response)) return;
    const exception = this.stopped.exception;
    if (!exception || args.threadId !== this.stopped.threadId) return this.fail(response, ErrorId.unknownReference, `Thread ${args.threadId} is not stopped on an exception.`);
    response.body = exceptionInfo(exception);
    this.sendResponse(response);
  }

  protected override dataBreakpointInfoRequest(response: DebugProtocol.DataBreakpointInfoResponse, args: DebugProtocol.DataBreakpointInfoArguments): void {
    const run = this.requireRun(response);
    if (!run) return;
    if (args.variablesReference !== undefined && args.variablesReference !== 0) {
      if (!this.variables.has(args.variablesReference)) return this.fail(response, ErrorId.unknownReference, `There are no variables ${args.variablesReference}: the run has moved on since.`);
      const owner = this.variables.ownerOf(args.variablesReference, args.name);
      response.body = dataBreakpointInfo(owner?.ref, owner ? VariableStore.fieldOf(owner) : undefined);
    } else {
      const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
      const pod = frame?.object?.startsWith('Pod/') ? frame.object : run.threads.get(this.stopped.threadId)?.ref;
      response.body = dataBreakpointInfo(pod, args.name.replace(/^pod\./, ''));
    }
    this.sendResponse(response);
  }

  protected override setDataBreakpointsRequest(response: DebugProtocol.SetDataBreakpointsResponse, args: DebugProtocol.SetDataBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.data.set(args.breakpoints, this.run ? liveReader(this.run) : undefined) };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.step(response, 'continue');
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.step(response, 'next');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    if (args.targetId === undefined) return this.step(response, 'stepIn');
    const seq = this.stopped.targets.get(args.targetId);
    if (seq === undefined) return this.fail(response, ErrorId.unknownTarget, `There is no step-in target ${args.targetId}: ask for the targets of the current stop.`);
    this.step(response, 'stepIn', seq);
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.step(response, 'stepOut');
  }

  protected override stepInTargetsRequest(response: DebugProtocol.StepInTargetsResponse, args: DebugProtocol.StepInTargetsArguments): void {
    const run = this.requireStopped(response);
    if (!run) return;
    const frame = this.frames.get(args.frameId);
    if (!frame) return this.fail(response, ErrorId.unknownReference, `There is no stack frame ${args.frameId}: the run has moved on since.`);
    const current = frame.entry && frame.entry.seq === run.current?.seq ? frame.entry : undefined;
    const targets = current ? stepTargets(run.probe().trace, current) : [];
    this.stopped.targets = new Map(targets.map((t, i) => [i + 1, t.seq]));
    response.body = { targets: targets.map((t, i) => ({ id: i + 1, label: t.label })) };
    this.sendResponse(response);
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.reverse(response, 'stepBack');
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.reverse(response, 'reverseContinue');
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    const run = this.requireRun(response);
    if (!run) return;
    // A running lifecycle stops at its next chunk boundary; a paused or ended one has nothing to pause.
    if (run.state === 'running') this.pauseRequested = true;
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const run = this.run;
    // The control plane is listed once it has a step to show (a ReplicaSet's sync, a Service's endpoints), or when
    // the session starts on it: listed before, it would show as paused with no frame and no variables.
    const threads = run
      ? run.threads.list().filter((t) => t.id !== CONTROL_PLANE_THREAD || t.last !== undefined || t.id === run.entryThread)
      : [{ id: CONTROL_PLANE_THREAD, name: 'control plane' }];
    response.body = { threads: threads.map((t) => new Thread(t.id, t.name)) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const run = this.requireStopped(response);
    if (!run) return;
    const thread = run.threads.get(args.threadId);
    if (!thread) return this.fail(response, ErrorId.unknownReference, `There is no thread ${args.threadId}.`);
    const specs = thread.last ? framesOf(thread.last, run.sources, run.exceptions.get(thread.last.seq)?.field) : thread.id === run.entryThread ? [entryFrame(run.sim, run.files.manifest)] : [];
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
    response.body = { scopes: scopesOf(run, frame, this.variables) };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    if (!this.requireStopped(response)) return;
    const variables = args.variablesReference === 0 ? [] : this.variables.children(args.variablesReference, args);
    if (!variables) return this.fail(response, ErrorId.unknownReference, `There are no variables ${args.variablesReference}: the run has moved on since.`);
    response.body = { variables };
    this.sendResponse(response);
  }

  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    const run = this.requireStopped(response);
    if (!run) return;
    if (!this.variables.has(args.variablesReference)) return this.fail(response, ErrorId.unknownReference, `There are no variables ${args.variablesReference}: the run has moved on since.`);
    const owner = this.variables.ownerOf(args.variablesReference, args.name);
    if (!owner) return this.fail(response, ErrorId.readOnlyVariable, `${args.name} is read-only: it is what the engine decided or recorded. Change an input instead: a field in the Pod, Node or Cluster scope.`);
    const outcome = whatIf(run, owner, args.value);
    if (typeof outcome === 'string') return this.fail(response, ErrorId.readOnlyVariable, outcome);
    response.body = { value: preview(outcome.value) };
    this.sendResponse(response);
    this.output(outcome.lines.map((text) => ({ text: `${text}\n`, category: 'console' })));
    this.threadEvents(outcome.changes);
    this.breakpoints.data.rebase(liveReader(run));
    this.variables.reset();
    this.frames.reset();
    this.sendEvent(new InvalidatedEvent(['all']));
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const ref = args.source?.sourceReference ?? args.sourceReference;
    const generated = ref === GENERATED_SOURCE && this.run ? generatedManifest(this.run.inputs) : undefined;
    if (generated !== undefined) {
      response.body = { content: generated, mimeType: 'text/x-yaml' };
      return this.sendResponse(response);
    }
    if (ref !== EMBEDDED_CLUSTER_SOURCE) return this.fail(response, ErrorId.unknownReference, `There is no source ${ref}.`);
    response.body = { content: DEFAULT_CLUSTER_YAML, mimeType: 'text/x-yaml' };
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const run = this.requireRun(response);
    if (!run) return;
    if (run.state === 'running') return this.fail(response, ErrorId.notStopped, 'The lifecycle is running: pause it to evaluate.');
    const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
    if (args.frameId !== undefined && !frame) return this.fail(response, ErrorId.unknownReference, `There is no stack frame ${args.frameId}: the run has moved on since.`);
    if (isDeleteCommand(args.expression)) return this.replayWith(response, run, 'kubectl delete', () => deleteAgain(run, args.expression));
    if (isNodeCommand(args.expression)) return this.replayWith(response, run, 'a kubectl command on a node', () => runNodeCommand(run, args.expression));
    const pod = frame?.object?.startsWith('Pod/') ? frame.object : run.threads.get(this.stopped.threadId)?.ref;
    try {
      const answer = evaluateConsole(run.sim, args.expression, pod ? { pod } : {});
      response.body = { result: answer.text, variablesReference: this.variables.reference(answer.value) };
    } catch (err) {
      // A name of the step itself (`plugin`, `detail.nodes`, `node == "worker-2"`) answers as a condition would.
      const entry = frame?.entry ?? run.current;
      let value: unknown;
      try {
        value = entry ? tryEntryExpression(entry, args.expression) : undefined;
      } catch (limit) {
        return this.fail(response, ErrorId.badExpression, describeError(limit));
      }
      if (value === undefined) return this.fail(response, ErrorId.badExpression, err instanceof ConsoleError || err instanceof Error ? err.message : String(err));
      response.body = { result: typeof value === 'string' ? value : JSON.stringify(value), variablesReference: this.variables.reference(value) };
    }
    this.sendResponse(response);
  }

  /**
   * replayWith answers a console command the debugger runs by replaying the run with it while paused (`kubectl delete
   * pod`, `kubectl drain`): the run replayed and paused on the command's first step.
   */
  private replayWith(response: DebugProtocol.EvaluateResponse, run: LifecycleRun, what: string, answer: () => Redelete | string): void {
    if (run.state !== 'stopped') return this.fail(response, ErrorId.notStopped, `The lifecycle has ended: ${what} replays a paused run.`);
    const outcome = answer();
    if (typeof outcome === 'string') return this.fail(response, ErrorId.badExpression, outcome);
    response.body = { result: outcome.lines.join('\n'), variablesReference: 0 };
    this.sendResponse(response);
    this.threadEvents(outcome.changes);
    this.breakpoints.data.rebase(liveReader(run));
    this.stopAt(run, run.current, this.threadOf(run, run.current), 'goto');
  }

  protected override completionsRequest(response: DebugProtocol.CompletionsResponse, args: DebugProtocol.CompletionsArguments): void {
    const run = this.requireRun(response);
    if (!run) return;
    const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
    const pod = frame?.object?.startsWith('Pod/') ? frame.object : run.threads.get(this.stopped.threadId)?.ref;
    const column = this.convertClientColumnToDebugger(args.column);
    const items = completeConsole(run.sim, args.text, column, pod ? { pod } : {});
    response.body = {
      targets: items.map((i) => ({
        label: i.label, ...(i.text !== undefined ? { text: i.text } : {}), ...(i.type ? { type: i.type } : {}),
        ...(i.start !== undefined ? { start: this.convertDebuggerColumnToClient(i.start) } : {}), ...(i.length !== undefined ? { length: i.length } : {}),
      })),
    };
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.resumeToken++;
    this.sendResponse(response);
    if (this.run?.state === 'ended') return;
    if (this.run) this.run.state = 'ended';
    this.sendEvent(new TerminatedEvent());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): void {
    this.resumeToken++;
    if (this.run) this.run.state = 'ended';
    this.disconnected = true;
    this.markConfigured();
    super.disconnectRequest(response, args, request);
  }

  /** load checks the launch attributes, reads the files and creates the run (not started); it answers errors itself. */
  private load(response: DebugProtocol.Response, args: LaunchArguments | undefined): LifecycleRun | undefined {
    let plan: LaunchPlan;
    let inputs: SimulationInputs;
    try {
      plan = args ? planLaunch(args) : this.plan!;
      inputs = loadLaunch(plan);
    } catch (err) {
      if (err instanceof LaunchError) return void this.fail(response, err.id, err.message);
      return void this.fail(response, ErrorId.engineFailure, `Cannot load the inputs: ${describeError(err)}`);
    }
    let run: LifecycleRun;
    try {
      run = new LifecycleRun(inputs, { ...plan.options, snapshots: !plan.noDebug }, plan.files);
    } catch (err) {
      return void this.fail(response, ErrorId.engineFailure, `Cannot start the simulation: ${describeError(err)}`);
    }
    this.plan = plan;
    this.run = run;
    this.stopped = { targets: new Map(), threadId: run.entryThread };
    // Line breakpoints sent before the files were read are bound now, and the client told.
    for (const bp of this.breakpoints.rebind(run)) this.sendEvent(new BreakpointEvent('changed', bp));
    this.breakpoints.restart(liveReader(run));
    return run;
  }

  /** begin starts a loaded run: to the end without debugging, paused on entry, or running to the first breakpoint. */
  private begin(run: LifecycleRun): void {
    if (this.plan?.noDebug) this.runToEnd(run);
    else if (this.plan?.stopOnEntry) this.stopAt(run, undefined, run.entryThread, 'entry');
    else this.resume(run, 'continue');
  }

  /** step answers a continue or step request, then runs to the next stop (events follow the response). */
  private step(response: DebugProtocol.Response, mode: StepMode, targetSeq?: number): void {
    const run = this.requireStopped(response);
    if (!run) return;
    if (mode === 'continue') (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.resume(run, mode, targetSeq);
  }

  /**
   * resume advances the simulation entry by entry: `continue` to the next breakpoint, `next` and `stepOut` to the
   * next phase-level entry (one without a sub-step) of any thread, `stepIn` to the next entry of any level (or to the
   * chosen target). Breakpoints and exceptions met on the way stop it too. It yields to other requests every CHUNK
   * entries, so a pause is heard; the end of the run terminates the session.
   */
  private resume(run: LifecycleRun, mode: StepMode, targetSeq?: number): void {
    run.state = 'running';
    this.pauseRequested = false;
    const token = ++this.resumeToken;
    const loop = (): void => {
      if (token !== this.resumeToken || this.run !== run || run.state !== 'running') return;
      try {
        for (let i = 0; i < CHUNK; i++) if (!this.advance(run, mode, targetSeq)) return;
      } catch (err) {
        this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
        run.state = 'ended';
        return void this.sendEvent(new TerminatedEvent());
      }
      if (this.pauseRequested) return void this.stopAt(run, run.current, this.threadOf(run, run.current), 'pause');
      setImmediate(loop);
    };
    loop();
  }

  /** advance runs one entry and reports it; false when the run stopped or ended there. */
  private advance(run: LifecycleRun, mode: StepMode, targetSeq: number | undefined): boolean {
    const previous = run.current;
    const stepped = run.step();
    if (!stepped) {
      this.end(run);
      return false;
    }
    const { entry, thread, created } = stepped;
    if (created) this.sendEvent(new ThreadEvent('started', thread.id));
    for (const gone of run.goneThreads(thread.id)) this.sendEvent(new ThreadEvent('exited', gone.id));
    this.progress(previous, entry);
    const events = run.newEvents();
    this.output(events.map(eventLine));
    this.output(run.statusChanges().map((c) => statusLine(entry.at, c.ref, c.before, c.after)));
    const { logs, stop } = this.breakpoints.forward(run, entry, events, liveReader(run));
    this.output(logs.map((text) => ({ text: `${text}\n`, category: 'console' })));
    if (stop) return this.stopAt(run, entry, thread.id, stop.reason, stop.ids, stop.exception);
    const arrived = targetSeq !== undefined ? entry.seq >= targetSeq : mode === 'stepIn' || (mode !== 'continue' && !entry.step);
    if (arrived) return this.stopAt(run, entry, thread.id, 'step');
    return true;
  }

  /**
   * reverse runs backwards through the recorded trace: stepBack to the previous phase-level entry, reverseContinue to
   * the previous entry a breakpoint, data breakpoint or exception stopped (or would stop) on, else to the entry. It
   * replays the simulation to that entry.
   */
  private reverse(response: DebugProtocol.Response, kind: 'stepBack' | 'reverseContinue'): void {
    const run = this.requireStopped(response);
    if (!run) return;
    const goal = this.breakpoints.backward(run, kind);
    this.sendResponse(response);
    const { changes } = run.replayTo(goal ? (e) => e.seq === goal.seq : undefined);
    this.threadEvents(changes);
    this.breakpoints.data.rebase(liveReader(run));
    if (!goal) return void this.stopAt(run, undefined, run.entryThread, 'entry');
    this.stopAt(run, run.current, this.threadOf(run, run.current), goal.reason, goal.ids, goal.exception);
  }

  /** customRequest serves the state tree: its view of the run, where an object's field is written, and going to a step. */
  protected override customRequest(command: string, response: DebugProtocol.Response, args: unknown): void {
    const a = (args ?? {}) as { ref?: unknown; field?: unknown; seq?: unknown };
    if (command === STATE_REQUEST) {
      // Asked before the run exists (a panel open as the session starts): the view comes with the first stop.
      this.stateEvents = true;
      const run = this.requireRun(response);
      if (!run) return;
      response.body = this.stateView(run);
      this.sendResponse(response);
    } else if (command === SOURCE_REQUEST) {
      const run = this.requireRun(response);
      if (!run) return;
      if (typeof a.ref !== 'string' || (a.field !== undefined && typeof a.field !== 'string')) return this.fail(response, ErrorId.badExpression, `${SOURCE_REQUEST} takes {ref: "Kind/namespace/name", field?: "spec.containers[0]"}.`);
      const location = run.sources.locate(a.ref, a.field as string | undefined);
      const path = location ? sourceOfFile(location.file).path : undefined;
      // Zero-based lines and characters, as the editor's API counts them.
      response.body = location && path ? { path, range: { start: location.start, end: location.end ?? location.start } } : {};
      this.sendResponse(response);
    } else if (command === GOTO_REQUEST) {
      const run = this.requireStopped(response);
      if (!run) return;
      const seq = a.seq;
      if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return this.fail(response, ErrorId.badExpression, `${GOTO_REQUEST} takes {seq: N}, the number of a step of the trace.`);
      this.sendResponse(response);
      const { changes, reached } = run.replayTo((e) => e.seq === seq);
      this.threadEvents(changes);
      this.breakpoints.data.rebase(liveReader(run));
      if (!reached) this.sendEvent(new OutputEvent(`The lifecycle has no step ${seq}: it ended before.\n`, 'console'));
      this.stopAt(run, run.current, this.threadOf(run, run.current), 'goto');
    } else {
      super.customRequest(command, response, args);
    }
  }

  /** stateView is the state tree's view of the run as it stands. */
  private stateView(run: LifecycleRun): StateView {
    return buildStateView({ objects: run.sim.snapshot(), trace: run.sim.trace, events: run.sim.events });
  }

  private stopAt(run: LifecycleRun, entry: TraceEntry | undefined, threadId: number, reason: string, hitIds: number[] = [], exception?: ExceptionStop): false {
    run.state = 'stopped';
    this.variables.reset();
    this.frames.reset();
    this.stopped = { targets: new Map(), threadId, ...(exception ? { exception } : {}) };
    const event = new StoppedEvent(reason, threadId) as DebugProtocol.StoppedEvent;
    event.body.allThreadsStopped = true;
    event.body.description = exception ? `Paused on ${exception.reason}` : entry ? `Paused on ${entry.phase}` : 'Paused before kubectl apply';
    if (exception) event.body.text = exception.message;
    else if (entry) event.body.text = entry.result;
    if (hitIds.length > 0) event.body.hitBreakpointIds = hitIds;
    // What the step did, in the Debug Console as it happens: the line the timeline prints for it.
    if (entry) this.output([stepLine(entry)]);
    this.sendEvent(event);
    if (this.stateEvents) this.sendEvent(new Event(STATE_EVENT, this.stateView(run)));
    return false;
  }

  private threadOf(run: LifecycleRun, entry: TraceEntry | undefined): number {
    return entry ? run.threads.threadOf(entry.object).thread.id : run.entryThread;
  }

  private threadEvents(changes: ThreadChanges): void {
    for (const t of changes.exited) this.sendEvent(new ThreadEvent('exited', t.id));
    for (const t of changes.started) this.sendEvent(new ThreadEvent('started', t.id));
  }

  /** progress shows a long virtual wait (an image pull, a grace period, a back-off) as a finished progress notification. */
  private progress(previous: TraceEntry | undefined, entry: TraceEntry): void {
    const wait = this.progressSupported && previous ? waitBetween(previous, entry) : undefined;
    if (!wait) return;
    const id = `wait-${++this.progressIds}`;
    this.sendEvent(new ProgressStartEvent(id, wait.title, wait.message));
    this.sendEvent(new ProgressEndEvent(id, wait.end));
  }

  private end(run: LifecycleRun): void {
    run.state = 'ended';
    for (const gone of run.goneThreads(undefined)) this.sendEvent(new ThreadEvent('exited', gone.id));
    this.output(run.newEvents().map(eventLine));
    const deleting = run.options.delete !== undefined;
    const result = run.sim.result();
    this.output(endLines(result, run.files.manifest, deleting, kubectlLines(run.inputs)));
    this.sendFinalState(run);
    this.sendEvent(new ExitedEvent(exitCode(result, deleting)));
    this.sendEvent(new TerminatedEvent());
  }

  /** sendFinalState gives the state tree the run as it ended, which no stop showed. */
  private sendFinalState(run: LifecycleRun): void {
    if (this.stateEvents) this.sendEvent(new Event(STATE_EVENT, this.stateView(run)));
  }

  /** runToEnd is "Run Without Debugging": the whole lifecycle, then the CLI's report in the Debug Console. */
  private runToEnd(run: LifecycleRun): void {
    run.state = 'ended';
    const deleting = run.options.delete !== undefined;
    try {
      const result = run.sim.run();
      this.output(reportLines(result, run.files.manifest, deleting, kubectlLines(run.inputs)));
      this.sendFinalState(run);
      this.sendEvent(new ExitedEvent(exitCode(result, deleting)));
    } catch (err) {
      this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
    }
    this.sendEvent(new TerminatedEvent());
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

  private requireRun(response: DebugProtocol.Response): LifecycleRun | undefined {
    if (this.run) return this.run;
    this.fail(response, ErrorId.notLaunched, `No lifecycle is running yet: "${response.command}" needs a launch first.`);
    return undefined;
  }

  private requireStopped(response: DebugProtocol.Response): LifecycleRun | undefined {
    const run = this.requireRun(response);
    if (run && run.state !== 'stopped') {
      const why = run.state === 'running' ? 'is running: pause it first' : 'has ended';
      this.fail(response, ErrorId.notStopped, `The lifecycle ${why}: "${response.command}" needs a paused run.`);
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

/** tryEntryExpression evaluates a line as a condition over the step's names; undefined when it names nothing. */
function tryEntryExpression(entry: TraceEntry, text: string): unknown {
  try {
    const value = evaluate(parseExpression(text), entryResolver(entry));
    return value === undefined || value === null ? undefined : value;
  } catch (err) {
    // Over the limits, the expression is refused whatever else it could have been.
    if (err instanceof ExpressionLimitError) throw err;
    return undefined;
  }
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
