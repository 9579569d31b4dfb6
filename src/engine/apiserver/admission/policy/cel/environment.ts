// CEL compilation for admission expressions: the variables Kubernetes declares, its libraries, the return-type check,
// and compile errors written as cel-go and kube-apiserver write them. See staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go.
import { Environment, type ASTNode, type ParseResult } from '@marcbachmann/cel-js';
import { registerAuthorizer } from './authorizer';
import { registerKubernetesLibraries } from './library';

/** ReturnType is what an expression must evaluate to: validations and match conditions bool, messages string, variables any. */
export type ReturnType = 'bool' | 'string' | 'any';

/** CelDeclarations say which optional variables an expression sees (OptionalVariableDeclarations) and the policy's variables. */
export interface CelDeclarations {
  hasParams: boolean;
  hasAuthorizer: boolean;
  /** variables are the composited variables declared before this expression, with their checked types. */
  variables: readonly { name: string; type: string }[];
  /**
   * stateless leaves `variables` itself undeclared, as the stateless compiler (no composition) does: kube-apiserver's
   * validation of a match condition, or of a policy without variables (createCompiler, validation.go).
   */
  stateless?: boolean;
}

/** CompiledCel is a compiled expression, or its compilation error as CompilationResult.Error's detail. */
export type CompiledCel = { ok: true; expression: string; program: ParseResult; outputType: string } | { ok: false; expression: string; error: string };

/**
 * REQUEST_SCHEMA is kubernetes.AdmissionRequest as BuildRequestType declares it (uid, object and oldObject left out).
 * Why: BuildRequestType in staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go.
 */
const REQUEST_SCHEMA = {
  kind: { group: 'string', version: 'string', kind: 'string' },
  resource: { group: 'string', version: 'string', resource: 'string' },
  subResource: 'string',
  requestKind: { group: 'string', version: 'string', kind: 'string' },
  requestResource: { group: 'string', version: 'string', resource: 'string' },
  requestSubResource: 'string',
  name: 'string',
  namespace: 'string',
  operation: 'string',
  userInfo: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' },
  dryRun: 'bool',
  options: 'dyn',
};

let base: Environment | undefined;
const environments = new Map<string, Environment>();

/** baseEnvironment holds the libraries and the variables every admission expression has (object, oldObject, request, namespaceObject). */
function baseEnvironment(): Environment {
  if (base) return base;
  // Why: cel-go accepts mixed list and map literals unless HomogeneousAggregateLiterals is set, which Kubernetes does not
  // set; optional types are in Kubernetes' base environment (environment/base.go).
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  registerKubernetesLibraries(env);
  registerAuthorizer(env);
  env.registerVariable('object', 'dyn').registerVariable('oldObject', 'dyn').registerVariable('namespaceObject', 'dyn');
  env.registerVariable({ name: 'request', schema: REQUEST_SCHEMA });
  base = env;
  return env;
}

/** environmentFor returns (and caches) the environment of one set of declarations. */
function environmentFor(decls: CelDeclarations): Environment {
  const key = `${decls.hasParams}|${decls.hasAuthorizer}|${decls.stateless === true}|${decls.variables.map((v) => `${v.name}:${v.type}`).join(',')}`;
  const cached = environments.get(key);
  if (cached) return cached;
  const env = baseEnvironment().clone();
  if (decls.hasParams) env.registerVariable('params', 'dyn');
  if (decls.hasAuthorizer) env.registerVariable('authorizer', 'kubernetes.authorization.Authorizer');
  // Composited variables are fields of one object type, typed as each variable compiled (composition.go, AddField).
  if (!decls.stateless) {
    env.registerType('kubernetes.variables', { ctor: VariablesObject, fields: Object.fromEntries(decls.variables.map((v) => [v.name, v.type])) });
    env.registerVariable('variables', 'kubernetes.variables');
  }
  environments.set(key, env);
  return env;
}

/** VariablesObject is the runtime value of `variables`: one lazily evaluated property per composited variable. */
export class VariablesObject {}

/**
 * compileCel compiles an expression as CompileCELExpression does: a parse or check error is `compilation failed:
 * ERROR: <input>:1:1: ...` with cel-go's wording and caret; a wrong result type is `must evaluate to bool but got dyn`.
 */
export function compileCel(expression: string, decls: CelDeclarations, returnType: ReturnType): CompiledCel {
  const env = environmentFor(decls);
  const fail = (error: string): CompiledCel => ({ ok: false, expression, error });
  let program: ParseResult;
  try {
    program = env.parse(expression);
  } catch (err) {
    return fail(`compilation failed: ${issue(expression, err, env, true)}`);
  }
  const checked = program.check();
  if (!checked.valid) return fail(`compilation failed: ${issue(expression, checked.error, env, false)}`);
  const outputType = checked.type ?? 'dyn';
  if (returnType !== 'any' && outputType !== returnType) return fail(`must evaluate to ${returnType} but got ${celGoTypeName(outputType)}`);
  return { ok: true, expression, program, outputType };
}

/** celGoTypeName writes a type as cel-go's Type.String does: list(string), map(string, dyn), optional_type(int). */
export function celGoTypeName(type: string): string {
  return type
    .replace(/optional</g, 'optional_type<')
    .replace(/</g, '(')
    .replace(/>/g, ')')
    .replace(/\bnull\b/g, 'null_type')
    .replace(/\btimestamp\b/g, 'google.protobuf.Timestamp')
    .replace(/\bduration\b/g, 'google.protobuf.Duration');
}

// Why: cel-go names operators by their function names (common/operators/operators.go).
const OPERATOR_NAMES: Readonly<Record<string, string>> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', in: '@in',
};
const MACROS = ['has', 'all', 'exists', 'exists_one', 'map', 'filter', 'bind'];

interface LibraryError {
  code?: string;
  summary?: string;
  message?: string;
  node?: ASTNode;
  range?: { start: number; end: number };
}

/** issue writes one compile error as cel-go's Issues.String: `ERROR: <input>:line:col: message`, the line, and a caret. */
function issue(expression: string, err: unknown, env: Environment, parsing: boolean): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as LibraryError;
  const summary = e.summary ?? e.message ?? String(err);
  const offset = errorOffset(expression, e);
  // cel-go's parser says `Syntax error: mismatched input ...`; the evaluator's parser words its reason its own way.
  const message = parsing ? `Syntax error: ${summary}` : celGoCheckMessage(e.code ?? '', summary, env);
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = Array.from(expression.slice(lineStart, offset)).length;
  const snippet = (expression.split('\n')[line - 1] ?? '').replace(/\t/g, ' ');
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${snippet}\n | ${'.'.repeat(column)}^`;
}

/**
 * errorOffset places the caret where cel-go puts an expression's location: the operator of a binary expression, the
 * `(` of a call, the `.` of a selection, the `[` of an index, the start of an identifier.
 */
function errorOffset(expression: string, e: LibraryError): number {
  const node = e.node;
  const start = e.range?.start ?? node?.range?.start ?? 0;
  if (!node || typeof node.op !== 'string') return start;
  const after = (from: number, token: string): number => {
    const at = expression.indexOf(token, from);
    return at >= 0 ? at : start;
  };
  const args: unknown = node.args;
  const first = Array.isArray(args) ? (args as unknown[]).find((a): a is ASTNode => typeof a === 'object' && a !== null && 'range' in a) : undefined;
  if (node.op === 'call') return after(start, '(');
  if (node.op === 'rcall' && first) return after(first.range.end, '(');
  if ((node.op === '.' || node.op === '.?') && first) return after(first.range.end, '.');
  if ((node.op === '[]' || node.op === '[?]') && first) return after(first.range.end, '[');
  if (Object.hasOwn(OPERATOR_NAMES, node.op) && first) return after(first.range.end, node.op);
  if (node.op === '?:' && first) return after(first.range.end, '?');
  return start;
}

/** celGoCheckMessage rewrites the evaluator's check errors in cel-go's words. */
function celGoCheckMessage(code: string, summary: string, env: Environment): string {
  let m: RegExpMatchArray | null;
  if (code === 'unknown_variable' && (m = summary.match(/^Unknown variable: (.+)$/))) return `undeclared reference to '${m[1]}' (in container '')`;
  if (code === 'no_such_key' && (m = summary.match(/^No such key: (.+)$/))) return `undefined field '${m[1]}'`;
  // cel-go checks `c ? a : b` as the overload `_?_:_` (bool, A, A) -> A: branches of two types match no overload; its
  // checker prints the null type as `null` (checker/format.go).
  if (code === 'incompatible_ternary_branches' && (m = summary.match(/^Ternary branches must have the same type, got '(.+)' and '(.+)'$/))) {
    const checkerName = (t: string): string => celGoTypeName(t).replace(/\bnull_type\b/g, 'null');
    return `found no matching overload for '_?_:_' applied to '(bool, ${checkerName(m[1]!)}, ${checkerName(m[2]!)})'`;
  }
  if (code === 'no_such_overload' && (m = summary.match(/^no such overload: (.+?) (\S+) (.+)$/)) && OPERATOR_NAMES[m[2]!]) {
    return `found no matching overload for '${OPERATOR_NAMES[m[2]!]}' applied to '(${celGoTypeName(m[1]!)}, ${celGoTypeName(m[3]!)})'`;
  }
  if (code === 'no_matching_overload' && (m = summary.match(/^found no matching overload for '(?:(.+)\.)?(\w+)\((.*)\)'$/))) {
    const [, receiver, name, args] = m;
    const known = MACROS.includes(name!) || env.getDefinitions().functions.some((f) => f.name === name);
    if (!known) return `undeclared reference to '${name}' (in container '')`;
    return `found no matching overload for '${name}' applied to '${receiver ? `${celGoTypeName(receiver)}.` : ''}(${celGoTypeName(args!)})'`;
  }
  return summary;
}
