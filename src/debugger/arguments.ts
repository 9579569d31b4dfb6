// The shapes of the requests' arguments, as the Debug Adapter Protocol defines them (debugProtocol.json), checked
// before any handler reads them: a client that sends `null`, a number for a string or no `threadId` gets an error
// that names the argument, never an adapter that dies or answers with an internal message.

/** Kind is the JSON type an argument must have. */
type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array';

/** Arg is one argument's shape: its kind, whether it must be there and, for a list, the shape of its items' fields. */
interface Arg {
  kind: Kind | readonly Kind[];
  required?: boolean;
  /** items is the shape of a list's items (objects); fields the shape of an object's own fields. */
  items?: Shape;
  fields?: Shape;
}

type Shape = Readonly<Record<string, Arg>>;

const str: Arg = { kind: 'string' };
const num: Arg = { kind: 'number' };
const bool: Arg = { kind: 'boolean' };
const obj: Arg = { kind: 'object' };
const need = (a: Arg): Arg => ({ ...a, required: true });
/** source is a Source: the fields the adapter reads of it. */
const source: Arg = { kind: 'object', fields: { path: str, name: str, sourceReference: num } };
const threadOnly: Shape = { threadId: need(num), singleThread: bool, granularity: str };

/** MAX_TEXT is the longest string argument read (an expression, a condition, a value): 16 KiB. */
export const MAX_TEXT = 16 * 1024;

/** REQUESTS are the argument shapes of the requests this adapter answers (the fields it reads and their types). */
const REQUESTS: Readonly<Record<string, Shape>> = {
  initialize: { adapterID: need(str), clientID: str, clientName: str, locale: str, linesStartAt1: bool, columnsStartAt1: bool, pathFormat: str, supportsProgressReporting: bool },
  launch: { noDebug: bool },
  restart: { arguments: obj },
  disconnect: { restart: bool, terminateDebuggee: bool, suspendDebuggee: bool },
  terminate: { restart: bool },
  setBreakpoints: {
    source: need(source), lines: { kind: 'array' }, sourceModified: bool,
    breakpoints: { kind: 'array', items: { line: need(num), column: num, condition: str, hitCondition: str, logMessage: str } },
  },
  setFunctionBreakpoints: { breakpoints: { kind: 'array', required: true, items: { name: need(str), condition: str, hitCondition: str } } },
  setExceptionBreakpoints: { filters: { kind: 'array', required: true }, filterOptions: { kind: 'array' }, exceptionOptions: { kind: 'array' } },
  dataBreakpointInfo: { variablesReference: num, name: need(str), frameId: num },
  setDataBreakpoints: { breakpoints: { kind: 'array', required: true, items: { dataId: need(str), accessType: str, condition: str, hitCondition: str } } },
  breakpointLocations: { source: need(source), line: need(num), column: num, endLine: num, endColumn: num },
  continue: threadOnly,
  next: threadOnly,
  stepIn: { ...threadOnly, targetId: num },
  stepOut: threadOnly,
  stepBack: threadOnly,
  reverseContinue: threadOnly,
  pause: { threadId: need(num) },
  goto: { threadId: need(num), targetId: need(num) },
  gotoTargets: { source: need(source), line: need(num), column: num },
  stepInTargets: { frameId: need(num) },
  stackTrace: { threadId: need(num), startFrame: num, levels: num, format: obj },
  scopes: { frameId: need(num) },
  variables: { variablesReference: need(num), filter: str, start: num, count: num, format: obj },
  setVariable: { variablesReference: need(num), name: need(str), value: need(str), format: obj },
  setExpression: { expression: need(str), value: need(str), frameId: num, format: obj },
  source: { source, sourceReference: num },
  evaluate: { expression: need(str), frameId: num, context: str, format: obj },
  completions: { frameId: num, text: need(str), column: need(num), line: num },
  exceptionInfo: { threadId: need(num) },
};

/** kindOf is an argument's JSON type. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function wanted(kind: Arg['kind']): string {
  const kinds = typeof kind === 'string' ? [kind] : kind;
  return kinds.map((k) => (k === 'object' || k === 'array' ? `an ${k}` : `a ${k}`)).join(' or ');
}

/** checkShape names the first argument of `value` that does not have its shape, under `path`. */
function checkShape(value: Record<string, unknown>, shape: Shape, path: string): string | undefined {
  for (const [name, arg] of Object.entries(shape)) {
    const v = value[name];
    const at = path ? `${path}.${name}` : name;
    if (v === undefined) {
      if (arg.required) return `"${at}" is required`;
      continue;
    }
    const kinds = typeof arg.kind === 'string' ? [arg.kind] : arg.kind;
    if (!kinds.includes(kindOf(v) as Kind) || (typeof v === 'number' && !Number.isFinite(v))) return `"${at}" must be ${wanted(arg.kind)}, not ${kindOf(v) === 'number' ? String(v) : kindOf(v)}`;
    if (typeof v === 'string' && v.length > MAX_TEXT) return `"${at}" is too long (${v.length} characters; the limit is ${MAX_TEXT})`;
    if (arg.fields && kindOf(v) === 'object') {
      const problem = checkShape(v as Record<string, unknown>, arg.fields, at);
      if (problem) return problem;
    }
    if (Array.isArray(v) && arg.items) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (kindOf(item) !== 'object') return `"${at}[${i}]" must be an object, not ${kindOf(item)}`;
        const problem = checkShape(item as Record<string, unknown>, arg.items, `${at}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/**
 * argumentProblem says what is wrong with a request's arguments, or undefined when they have the protocol's shape.
 * Arguments, when sent, are an object; the requests above have their fields checked.
 */
export function argumentProblem(command: string, args: unknown): string | undefined {
  if (args === undefined) {
    if (command === 'launch') return 'the "launch" request needs its arguments: the launch configuration, with "manifest" (or "kubectl")';
    const shape = REQUESTS[command];
    const required = shape ? Object.entries(shape).find(([, a]) => a.required) : undefined;
    return required ? `the "${command}" request needs arguments: "${required[0]}" is required` : undefined;
  }
  if (kindOf(args) !== 'object') return `the arguments of a "${command}" request must be an object, not ${kindOf(args)}`;
  const shape = REQUESTS[command];
  const problem = shape ? checkShape(args as Record<string, unknown>, shape, '') : undefined;
  return problem ? `"${command}": ${problem}` : undefined;
}
