// The Debug Console of a pod lifecycle debug session: what is typed there, evaluated over the engine's state at the
// stop (a field, a kubectl-like query, a condition over the step's names), its completions, and the console commands
// that replay a manifest's run with them (`kubectl delete pod`, `kubectl drain`), refused on a served cluster.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { TraceEntry } from '../engine/runtime/recorder';
import { isDeleteCommand } from '../engine/console/delete';
import { isNodeCommand } from '../engine/console/node-command';
import { liveReader } from './breakpoint-set';
import { entryResolver } from './breakpoints';
import { ConsoleError, completeConsole, evaluateConsole } from './console';
import { ControlSession, describeError } from './control';
import { evaluate, ExpressionLimitError, parseExpression } from './expressions';
import { ErrorId } from './launch';
import { runNodeCommand } from './node-command';
import { deleteAgain, type Redelete } from './redelete';
import type { LifecycleRun } from './run';
import { servedConsoleRefusal } from './served-history';

/** ConsoleSession answers the Debug Console's requests over the run control of ControlSession. */
export abstract class ConsoleSession extends ControlSession {
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
    if (this.serving) return this.fail(response, ErrorId.unsupported, servedConsoleRefusal(what));
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
