// The run control of a pod lifecycle debug session: loading a launch, running the simulation entry by entry to the
// next stop, going back through the recorded history (a served cluster's through its past), the Debug Console's
// lines. What is typed in the Debug Console (console-session.ts) and the other request handlers of the Debug Adapter
// Protocol (session.ts) sit on top of it; every answer comes from the engine.
import {
  BreakpointEvent, Event, ExitedEvent, LoggingDebugSession, OutputEvent, ProgressEndEvent, ProgressStartEvent, StoppedEvent, TerminatedEvent,
  ThreadEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { TraceEntry } from '../engine/runtime/recorder';
import { BreakpointSet, liveReader } from './breakpoint-set';
import type { ExceptionStop } from './exceptions';
import type { FrameSpec } from './frames';
import { ErrorId, type LaunchArguments, LaunchError, type LaunchPlan, loadLaunch, planLaunch } from './launch';
import { applyCommand, rewindLine, stepLines } from './narration';
import { type ConsoleLine, endLines, exitCode, reportLines, stepLine, waitBetween } from './output';
import { kubectlLines } from '../engine/kubectl/generate/load';
import { LifecycleRun, type ThreadChanges } from './run';
import { ServedSession, servedOptions } from './serving';
import { liveLine, threadChanges } from './served-history';
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
    // A served cluster's past is replayed while the live cluster stays held; the live run lets its time go on.
    const live = this.serving?.history.isPast(run) === false ? this.serving.cluster : undefined;
    live?.hold(false);
    const token = ++this.resumeToken;
    const loop = (): void => {
      if (token !== this.resumeToken || this.run !== run || run.state !== 'running') return;
      // A served cluster's time runs up to the wall clock's (less the time it was held).
      live?.tick();
      try {
        for (let i = 0; i < CHUNK; i++) {
          if (this.advance(run, mode, targetSeq)) continue;
          // A served cluster's watchers of what the store does not hold (its events) hear of the steps that ran.
          live?.notify();
          return;
        }
      } catch (err) {
        // A replay of a served cluster's past that fails leaves the live cluster as it was: the session stops there.
        const served = this.serving?.history;
        if (served?.isPast(run)) {
          this.output([{ text: `Cannot go on through the served cluster's past: ${describeError(err)}\n`, category: 'stderr' }]);
          return void this.stopAt(this.show(served.live, liveLine(served.live.current)), served.live.current, this.threadOf(served.live, served.live.current), 'pause');
        }
        this.output([{ text: `The simulation failed: ${describeError(err)}\n`, category: 'stderr' }]);
        run.state = 'ended';
        return void this.sendEvent(new TerminatedEvent());
      }
      live?.notify();
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
      // A replay of a served cluster's past that has nothing more to run stands where the live cluster does.
      if (this.serving?.history.isPast(run)) return this.rejoin(mode, targetSeq);
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
    // A step forward through a served cluster's past that comes to where the live cluster stands is live again.
    const landed = this.serving?.history.landed(run) === true;
    const here = landed ? this.show(this.serving!.history.live, liveLine(entry)) : run;
    if (stop) return this.stopAt(here, entry, thread.id, stop.reason, stop.ids, stop.exception);
    const arrived = targetSeq !== undefined ? entry.seq >= targetSeq : mode === 'stepIn' || (mode !== 'continue' && !entry.step);
    if (arrived) return this.stopAt(here, entry, thread.id, 'step');
    if (landed) this.resume(here, mode, targetSeq);
    return !landed;
  }

  /** rejoin makes the live run of a served cluster the one shown, and goes on running it. */
  private rejoin(mode: StepMode, targetSeq: number | undefined): false {
    const live = this.serving!.history.live;
    this.resume(this.show(live, liveLine(live.current)), mode, targetSeq);
    return false;
  }

  /**
   * show makes `run` the one the session shows (a served cluster's past, or its live run again): the client hears
   * of the threads that came and went, the data breakpoints read its fields, and the console says where it stands.
   */
  protected show(run: LifecycleRun, line: ConsoleLine | undefined): LifecycleRun {
    const from = this.run;
    this.run = run;
    if (from && from !== run) this.threadEvents(threadChanges(from, run));
    this.breakpoints.data.rebase(liveReader(run));
    if (line) this.output([line]);
    return run;
  }

  /**
   * reverse runs backwards through the recorded trace: stepBack to the previous phase-level entry, reverseContinue to
   * the previous entry a breakpoint, data breakpoint or exception stopped (or would stop) on, else to the entry. It
   * replays the simulation to that entry.
   */
  protected reverse(response: DebugProtocol.Response, kind: 'stepBack' | 'reverseContinue'): void {
    const run = this.requireStopped(response);
    if (!run) return;
    // A served cluster's live run keeps no store history: its past is read from a replay of it.
    const goal = this.breakpoints.backward(this.serving ? this.serving.history.seen(run) : run, kind);
    this.sendResponse(response);
    const shown = this.moveTo(run, goal ? (e) => e.seq === goal.seq : undefined).run;
    if (!goal) return void this.stopAt(shown, undefined, shown.entryThread, 'entry');
    this.stopAt(shown, shown.current, this.threadOf(shown, shown.current), goal.reason, goal.ids, goal.exception);
  }

  /**
   * moveTo replays the run to the entry `stop` accepts (to the start without one), says so in the console when that
   * is behind the step it stood on, and tells the client which threads came and went; a served cluster shows its past
   * (or the live run, at its frontier) instead. Returns the run shown and whether an entry matched.
   */
  protected moveTo(run: LifecycleRun, stop: ((entry: TraceEntry) => boolean) | undefined): { run: LifecycleRun; reached: boolean } {
    const from = run.current?.seq ?? -1;
    if (this.serving) {
      const { history } = this.serving;
      const moved = history.moveTo(stop);
      const back = (moved.run.current?.seq ?? -1) < from;
      if (moved.run !== run) this.show(moved.run, back ? rewindLine(moved.run.current) : moved.run === history.live ? liveLine(moved.run.current) : undefined);
      return moved;
    }
    // A replay costs what the run up to its goal cost (seconds at a big run's size): the client shows it as it goes.
    const id = this.progressSupported ? `replay-${++this.progressIds}` : undefined;
    if (id) this.sendEvent(new ProgressStartEvent(id, 'Replaying the run from its start', from >= 0 ? `from step ${from}` : undefined));
    const { changes, reached } = run.replayTo(stop);
    if (id) this.sendEvent(new ProgressEndEvent(id, run.current ? `at step ${run.current.seq}` : 'at the start'));
    if ((run.current?.seq ?? -1) < from) this.output([rewindLine(run.current)]);
    this.threadEvents(changes);
    this.breakpoints.data.rebase(liveReader(run));
    return { run, reached };
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
}

/** describeError is an error's message, or the thrown value as text. */
export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

