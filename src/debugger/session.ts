// The Debug Adapter Protocol session of one pod lifecycle run: a translator over the engine's Simulation, whose
// "statements" are trace entries. Every answer (threads, frames, variables, output) comes from the engine; the run
// control it answers with is in control.ts, the Debug Console's in console-session.ts.
import { InitializedEvent, InvalidatedEvent, Logger, logger, OutputEvent, Source, StackFrame, TerminatedEvent, Thread, ThreadEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename, resolve } from 'node:path';
import { DEFAULT_CLUSTER_YAML } from '../engine/cluster/default-cluster';
import { argumentProblem } from './arguments';
import { liveReader } from './breakpoint-set';
import { CAPABILITIES } from './capabilities';
import { ConsoleSession } from './console-session';
import { describeError } from './control';
import { dataBreakpointInfo } from './data';
import { exceptionInfo } from './exceptions';
import { EMBEDDED_CLUSTER_SOURCE, entryFrame, type FrameSpec, framesOf, GENERATED_SOURCE, sourceOfFile } from './frames';
import { generatedManifest } from '../engine/kubectl/generate/load';
import { ErrorId, type LaunchArguments, unknownAttributes } from './launch';
import { scopesOf } from './scopes';
import { SERVED_NO_WHATIF } from './served-history';
import { stepTargets } from './targets';
import { CONTROL_PLANE_THREAD } from './threads';
import { preview, VariableStore } from './variables';
import { whatIf } from './whatif';
import { GOTO_REQUEST, SOURCE_REQUEST, STATE_REQUEST } from '../webview/view';

/** CONFIGURATION_TIMEOUT_MS is how long launch waits for configurationDone before it starts anyway (as mock-debug does). */
const CONFIGURATION_TIMEOUT_MS = 2000;

/** PodLifecycleSession is the debug adapter of the `pod-lifecycle` debug type, run inline by the extension or over stdio. */
export class PodLifecycleSession extends ConsoleSession {
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
    if (this.serving) return this.fail(response, ErrorId.unsupported, 'A served cluster is not restarted in place: stop the session and start it again (its kubeconfig changes).');
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
    // A running lifecycle stops at its next chunk boundary; a paused or ended one has nothing to pause. A served
    // cluster waiting for work stops at once, where it stands.
    const waiting = run.state === 'running' && this.serving?.idleNow === true;
    if (run.state === 'running' && !waiting) this.pauseRequested = true;
    this.sendResponse(response);
    if (waiting) this.stopAt(run, run.current, this.threadOf(run, run.current), 'pause');
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
    if (this.serving) return this.fail(response, ErrorId.unsupported, SERVED_NO_WHATIF);
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

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.resumeToken++;
    void this.serving?.close();
    this.sendResponse(response);
    if (this.run?.state === 'ended') return;
    if (this.run) this.run.state = 'ended';
    this.sendEvent(new TerminatedEvent());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): void {
    this.resumeToken++;
    void this.serving?.close();
    if (this.run) this.run.state = 'ended';
    this.disconnected = true;
    this.markConfigured();
    super.disconnectRequest(response, args, request);
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
      const moved = this.moveTo(run, (e) => e.seq === seq);
      if (!moved.reached) this.sendEvent(new OutputEvent(`The lifecycle has no step ${seq}: ${this.serving ? 'the served cluster has not come to it' : 'it ended before'}.\n`, 'console'));
      this.stopAt(moved.run, moved.run.current, this.threadOf(moved.run, moved.run.current), 'goto');
    } else {
      super.customRequest(command, response, args);
    }
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

}

/** waitAtMost resolves when `promise` does or after `ms`, whichever comes first, leaving no timer behind. */
function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
