// The run control of a pod lifecycle debug session: loading a launch, running the simulation entry by entry to the
// next stop, going back through the recorded history, the Debug Console's lines and what is typed there. The other
// request handlers of the Debug Adapter Protocol (session.ts) sit on top of it; every answer comes from the engine.
import {
  BreakpointEvent, Event, ExitedEvent, LoggingDebugSession, OutputEvent, ProgressEndEvent, ProgressStartEvent, StoppedEvent, TerminatedEvent,
  ThreadEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { TraceEntry } from '../engine/runtime/recorder';
import { isDeleteCommand } from '../engine/console/delete';
import { BreakpointSet, liveReader } from './breakpoint-set';
import { entryResolver } from './breakpoints';
import { ConsoleError, completeConsole, evaluateConsole } from './console';
import type { ExceptionStop } from './exceptions';
import { evaluate, ExpressionLimitError, parseExpression } from './expressions';
import type { FrameSpec } from './frames';
import { ErrorId, type LaunchArguments, LaunchError, type LaunchPlan, loadLaunch, planLaunch } from './launch';
import { applyCommand, rewindLine, stepLines } from './narration';
import { type ConsoleLine, endLines, exitCode, reportLines, stepLine, waitBetween } from './output';
import { deleteAgain, type Redelete } from './redelete';
import { isNodeCommand } from '../engine/console/node-command';
import { runNodeCommand } from './node-command';
import { kubectlLines } from '../engine/kubectl/generate/load';
import { LifecycleRun, type ThreadChanges } from './run';
import { ServedSession, servedOptions } from './serving';
import type { ServePki } from '../serve/pki';
import { CONTROL_PLANE_THREAD } from './threads';
import { SessionHandles, VariableStore } from './variables';
import { buildStateView, type StateView } from '../webview/state';
import { STATE_EVENT } from '../webview/view';

/** CHUNK is how many entries a resumed run goes through before it lets other requests (pause) in. */
const CHUNK = 25;

/** StepMode is how far a resume goes: to a breakpoint, the next phase, or the next entry of any level. */
type StepMode = 'continue' | 'next' | 'stepIn' | 'stepOut';

/**
 * QUIET_REQUESTS are the requests whose errors are not the user's to read in a notification: the Debug Console, the
 * Watch view and hovers show an evaluation's error in place; and VS Code asks for the stack, scopes and variables of
 * a stop the user has already continued from (a race the answer "the run has moved on" is for the client, not them).
 */
const QUIET_REQUESTS = new Set(['evaluate', 'completions', 'stackTrace', 'scopes', 'variables', 'exceptionInfo', 'stepInTargets', 'dataBreakpointInfo']);

/** SERVED_NO_REPLAY is why a served session cannot go back or try a what-if: it would replay the run from its start. */
export const SERVED_NO_REPLAY = 'Not on a served cluster: going back (or trying a what-if) replays the run from its start, and the requests your kubectl sent cannot be replayed.';

/** ControlSession is the part of the session that drives the run; PodLifecycleSession answers the requests. */
export abstract class ControlSession extends LoggingDebugSession {
  protected run: LifecycleRun | undefined;
  /** serving is the served side of a session launched with `serve`: the user's kubectl drives it. */
  protected serving: ServedSession | undefined;
  private servePki: ServePki | undefined;
  protected plan: LaunchPlan | undefined;
  protected launched = false;
  protected disconnected = false;
  protected readonly breakpoints = new BreakpointSet({
    toEngine: (line) => this.convertClientLineToDebugger(line),
    toClient: (line) => this.convertDebuggerLineToClient(line),
    pathToClient: (path) => this.convertDebuggerPathToClient(path),
  });
  protected readonly variables = new VariableStore();
  protected readonly frames = new SessionHandles<FrameSpec>();
  protected stopped: { exception?: ExceptionStop; targets: Map<number, number>; threadId: number } = { targets: new Map(), threadId: CONTROL_PLANE_THREAD };
  protected pauseRequested = false;
  protected resumeToken = 0;
  protected progressSupported = false;
  /** stateEvents is set once a client asked for the state tree's view: from then on every stop sends it. */
  protected stateEvents = false;
  protected progressIds = 0;
  protected markConfigured: () => void = () => undefined;
  protected readonly configured = new Promise<void>((resolve) => (this.markConfigured = resolve));

  /** load checks the launch attributes, reads the files and creates the run (not started); it answers errors itself. */
  protected load(response: DebugProtocol.Response, args: LaunchArguments | undefined): LifecycleRun | undefined {
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
      const served = plan.serve ? servedOptions(inputs, plan) : undefined;
      this.servePki = served?.pki;
      run = new LifecycleRun(inputs, served ? served.options : { ...plan.options, snapshots: !plan.noDebug }, plan.files);
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
  protected begin(run: LifecycleRun): void {
    if (this.plan?.serve && this.servePki) return void this.beginServing(run, this.plan.serve, this.servePki);
    if (this.plan?.noDebug) return this.runToEnd(run);
    // The command the run stands for comes first, as at a terminal; what kubectl prints follows as it prints it.
    this.output([applyCommand(run.files.manifest, kubectlLines(run.inputs))]);
    if (this.plan?.stopOnEntry) this.stopAt(run, undefined, run.entryThread, 'entry');
    else this.resume(run, 'continue');
  }

  /** step answers a continue or step request, then runs to the next stop (events follow the response). */
  protected step(response: DebugProtocol.Response, mode: StepMode, targetSeq?: number): void {
    const run = this.requireStopped(response);
    if (!run) return;
    if (mode === 'continue') (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.resume(run, mode, targetSeq);
  }

  /** beginServing starts the API the user's kubectl talks to, then runs the cluster as requests come. */
  private async beginServing(run: LifecycleRun, serve: NonNullable<LaunchPlan['serve']>, pki: ServePki): Promise<void> {
    const serving = new ServedSession(run, serve.speed);
    this.serving = serving;
    try {
      this.output(await serving.listen(pki, serve));
    } catch (err) {
      this.output([{ text: `Cannot serve the cluster on 127.0.0.1:${serve.port}: ${describeError(err)}\n`, category: 'stderr' }]);
      run.state = 'ended';
      return void this.sendEvent(new TerminatedEvent());
    }
    if (this.plan?.stopOnEntry) this.stopAt(run, undefined, run.entryThread, 'entry');
    else this.resume(run, 'continue');
  }

  /**
   * resume advances the simulation entry by entry: `continue` to the next breakpoint, `next` and `stepOut` to the
   * next phase-level entry (one without a sub-step) of any thread, `stepIn` to the next entry of any level (or to the
   * chosen target). Breakpoints and exceptions met on the way stop it too. It yields to other requests every CHUNK
   * entries, so a pause is heard; the end of the run terminates the session.
   */
  protected resume(run: LifecycleRun, mode: StepMode, targetSeq?: number): void {
    run.state = 'running';
    this.pauseRequested = false;
    this.serving?.cluster.hold(false);
    const token = ++this.resumeToken;
    const loop = (): void => {
      if (token !== this.resumeToken || this.run !== run || run.state !== 'running') return;
      // A served cluster's time runs up to the wall clock's (less the time it was held).
      this.serving?.cluster.tick();
      try {
        for (let i = 0; i < CHUNK; i++) {
          if (this.advance(run, mode, targetSeq)) continue;
          // A served cluster's watchers of what the store does not hold (its events) hear of the steps that ran.
          this.serving?.cluster.notify();
          return;
        }
      } catch (err) {
        this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
        run.state = 'ended';
        return void this.sendEvent(new TerminatedEvent());
      }
      this.serving?.cluster.notify();
      if (this.pauseRequested) return void this.stopAt(run, run.current, this.threadOf(run, run.current), 'pause');
      setImmediate(loop);
    };
    loop();
  }

  /** advance runs one entry and reports it; false when the run stopped or ended there. */
  protected advance(run: LifecycleRun, mode: StepMode, targetSeq: number | undefined): boolean {
    const previous = run.current;
    const stepped = run.step();
    if (!stepped) {
      // A served cluster has nothing due before the wall clock: it waits for a request or for its next task.
      if (this.serving && !run.sim.finished) {
        this.serving.idle(() => this.resume(run, mode, targetSeq));
        return false;
      }
      this.end(run);
      return false;
    }
    const { entry, thread, created } = stepped;
    if (created) this.sendEvent(new ThreadEvent('started', thread.id));
    for (const gone of run.goneThreads(thread.id)) this.sendEvent(new ThreadEvent('exited', gone.id));
    this.progress(previous, entry);
    const { lines, events } = stepLines(run, entry);
    this.output(lines);
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
  protected reverse(response: DebugProtocol.Response, kind: 'stepBack' | 'reverseContinue'): void {
    const run = this.requireStopped(response);
    if (!run) return;
    if (this.serving) return this.fail(response, ErrorId.unsupported, SERVED_NO_REPLAY);
    const goal = this.breakpoints.backward(run, kind);
    this.sendResponse(response);
    this.moveTo(run, goal ? (e) => e.seq === goal.seq : undefined);
    if (!goal) return void this.stopAt(run, undefined, run.entryThread, 'entry');
    this.stopAt(run, run.current, this.threadOf(run, run.current), goal.reason, goal.ids, goal.exception);
  }

  /**
   * moveTo replays the run to the entry `stop` accepts (to the start without one), says so in the console when that
   * is behind the step it stood on, and tells the client which threads came and went. False when no entry matched.
   */
  protected moveTo(run: LifecycleRun, stop: ((entry: TraceEntry) => boolean) | undefined): boolean {
    const from = run.current?.seq ?? -1;
    const { changes, reached } = run.replayTo(stop);
    if ((run.current?.seq ?? -1) < from) this.output([rewindLine(run.current)]);
    this.threadEvents(changes);
    this.breakpoints.data.rebase(liveReader(run));
    return reached;
  }

  /** stateView is the state tree's view of the run as it stands. */
  protected stateView(run: LifecycleRun): StateView {
    return buildStateView({ objects: run.sim.snapshot(), trace: run.sim.trace, events: run.sim.events, watches: run.options.watches === true });
  }

  protected stopAt(run: LifecycleRun, entry: TraceEntry | undefined, threadId: number, reason: string, hitIds: number[] = [], exception?: ExceptionStop): false {
    run.state = 'stopped';
    // A stop holds a served cluster's time: the request it stopped on waits for the user.
    this.serving?.cancel();
    this.serving?.cluster.hold(true);
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

  protected threadOf(run: LifecycleRun, entry: TraceEntry | undefined): number {
    return entry ? run.threads.threadOf(entry.object).thread.id : run.entryThread;
  }

  protected threadEvents(changes: ThreadChanges): void {
    for (const t of changes.exited) this.sendEvent(new ThreadEvent('exited', t.id));
    for (const t of changes.started) this.sendEvent(new ThreadEvent('started', t.id));
  }

  /** progress shows a long virtual wait (an image pull, a grace period, a back-off) as a finished progress notification. */
  protected progress(previous: TraceEntry | undefined, entry: TraceEntry): void {
    const wait = this.progressSupported && previous ? waitBetween(previous, entry) : undefined;
    if (!wait) return;
    const id = `wait-${++this.progressIds}`;
    this.sendEvent(new ProgressStartEvent(id, wait.title, wait.message));
    this.sendEvent(new ProgressEndEvent(id, wait.end));
  }

  protected end(run: LifecycleRun): void {
    run.state = 'ended';
    for (const gone of run.goneThreads(undefined)) this.sendEvent(new ThreadEvent('exited', gone.id));
    if (run.current) this.output(stepLines(run, run.current).lines);
    const deleting = run.options.delete !== undefined;
    const result = run.sim.result();
    this.output(endLines(result, deleting));
    this.sendFinalState(run);
    this.sendEvent(new ExitedEvent(exitCode(result, deleting)));
    this.sendEvent(new TerminatedEvent());
  }

  /** sendFinalState gives the state tree the run as it ended, which no stop showed. */
  protected sendFinalState(run: LifecycleRun): void {
    if (this.stateEvents) this.sendEvent(new Event(STATE_EVENT, this.stateView(run)));
  }

  /** runToEnd is "Run Without Debugging": the whole lifecycle, then the CLI's report in the Debug Console. */
  protected runToEnd(run: LifecycleRun): void {
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

  protected output(lines: readonly ConsoleLine[]): void {
    for (const line of lines) this.sendEvent(new OutputEvent(line.text, line.category));
  }

  protected requireRun(response: DebugProtocol.Response): LifecycleRun | undefined {
    if (this.run) return this.run;
    this.fail(response, ErrorId.notLaunched, `No lifecycle is running yet: "${response.command}" needs a launch first.`);
    return undefined;
  }

  protected requireStopped(response: DebugProtocol.Response): LifecycleRun | undefined {
    const run = this.requireRun(response);
    if (run && run.state !== 'stopped') {
      const why = run.state === 'running' ? 'is running: pause it first' : 'has ended';
      this.fail(response, ErrorId.notStopped, `The lifecycle ${why}: "${response.command}" needs a paused run.`);
      return undefined;
    }
    return run;
  }

  /** fail answers a request with an error shown to the user: a stable id and a message that needs no template. */
  protected fail(response: DebugProtocol.Response, id: number, message: string): void {
    // The message is the template; an empty variables map leaves any `{...}` it quotes from a file as it is. The
    // Debug Console (and the Watch view) show an evaluation's error where it was typed: not also as a notification.
    const quiet = QUIET_REQUESTS.has(response.command);
    this.sendErrorResponse(response, { id, format: message, variables: {}, showUser: !quiet });
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
  protected replayWith(response: DebugProtocol.EvaluateResponse, run: LifecycleRun, what: string, answer: () => Redelete | string): void {
    if (run.state !== 'stopped') return this.fail(response, ErrorId.notStopped, `The lifecycle has ended: ${what} replays a paused run.`);
    if (this.serving) return this.fail(response, ErrorId.unsupported, SERVED_NO_REPLAY);
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

/** describeError is an error's message, or the thrown value as text. */
export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

