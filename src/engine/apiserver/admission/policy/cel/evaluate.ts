// CEL evaluation for admission expressions: the activation Kubernetes binds (object, oldObject, request, params,
// namespaceObject, authorizer, variables), values as CEL sees them, and runtime errors in cel-go's words.
// See staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/activation.go and composition.go.
import { EvaluationError } from '@marcbachmann/cel-js';
import { isObject, type KubeObject } from '../../../../api/types';
import type { AdmissionAttributes } from '../../plugin';
import type { CelAuthorizer } from './authorizer';
import { type CompiledCel, VariablesObject } from './environment';

/** CelActivation is what an expression's variables are bound to. */
export interface CelActivation {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  namespaceObject: unknown;
  params?: unknown;
  authorizer?: CelAuthorizer;
  variables: VariablesObject;
}

/** CelOutcome is an expression's value, or the error cel-go would report for it. */
export type CelOutcome = { value: unknown } | { error: string };

/**
 * toCel turns a JSON value into what the evaluator works on: whole numbers become int (bigint), as the unstructured
 * values of Kubernetes objects are int64; other numbers stay double.
 */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) Object.defineProperty(out, k, { value: toCel(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value === undefined ? null : value;
}

/** GroupVersionResource and GroupVersionKind name what a request is about, as the matcher resolved it. */
export interface RequestKinds {
  group: string;
  version: string;
  resource: string;
  kind: string;
}

/**
 * admissionRequest is CreateAdmissionRequest turned into the `request` value: kind, resource, subResource, their request*
 * twins, name, namespace, operation, userInfo, dryRun and the operation's options (kubectl apply's CreateOptions).
 */
export function admissionRequest(attrs: AdmissionAttributes, kinds: RequestKinds): unknown {
  const kind = { group: kinds.group, version: kinds.version, kind: kinds.kind };
  const resource = { group: kinds.group, version: kinds.version, resource: kinds.resource };
  const options = attrs.operation === 'CREATE'
    ? { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' }
    : { kind: `${attrs.operation[0]}${attrs.operation.slice(1).toLowerCase()}Options`, apiVersion: 'meta.k8s.io/v1' };
  return toCel({
    kind, resource, subResource: attrs.subresource, requestKind: kind, requestResource: resource, requestSubResource: attrs.subresource,
    name: attrs.name, namespace: attrs.namespace, operation: attrs.operation,
    userInfo: { username: attrs.user.name, uid: attrs.user.uid ?? '', groups: attrs.user.groups, extra: attrs.user.extra ?? {} },
    dryRun: false, options,
  });
}

/** namespaceObject is CreateNamespaceObject: the namespace's metadata fields CEL may read, its spec and status; null without one. */
export function namespaceObject(ns: KubeObject | undefined): unknown {
  if (!ns) return null;
  const m = ns.metadata ?? {};
  const pick = {
    name: m.name, generateName: m.generateName, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, generation: m.generation,
    creationTimestamp: m.creationTimestamp, deletionTimestamp: m.deletionTimestamp, deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
    labels: m.labels, annotations: m.annotations, finalizers: m.finalizers,
  };
  return toCel({ metadata: pick, spec: ns['spec'] ?? {}, status: ns['status'] ?? {} });
}

/** CompositedVariableError carries a variable's failure out of its lazy evaluation. */
class CompositedVariableError extends Error {}

/** CompositedVariable is one compiled `spec.variables` entry. */
export interface CompositedVariable {
  name: string;
  compiled: CompiledCel;
}

/**
 * bindVariables builds the `variables` value: each variable evaluated on first use and remembered for the activation;
 * a failure reads as `composited variable "x" fails to compile: ...` or `... fails to evaluate: ...` (composition.go).
 */
export function bindVariables(variables: readonly CompositedVariable[], activation: Omit<CelActivation, 'variables'>): CelActivation {
  const bound: CelActivation = { ...activation, variables: new VariablesObject() };
  for (const v of variables) {
    let memo: CelOutcome | undefined;
    Object.defineProperty(bound.variables, v.name, {
      enumerable: true,
      get(): unknown {
        if (!memo) {
          memo = v.compiled.ok
            ? evaluateCel(v.compiled, bound)
            : { error: `composited variable "${v.name}" fails to compile: ${v.compiled.error}` };
          if ('error' in memo && v.compiled.ok) memo = { error: `composited variable "${v.name}" fails to evaluate: ${memo.error}` };
        }
        if ('error' in memo) throw new CompositedVariableError(memo.error);
        return memo.value;
      },
    });
  }
  return bound;
}

/** evaluateCel runs a compiled expression; an error comes back in cel-go's words (`no such key: team`). */
export function evaluateCel(compiled: Extract<CompiledCel, { ok: true }>, activation: CelActivation): CelOutcome {
  const context: Record<string, unknown> = { ...activation };
  if (activation.params === undefined) delete context['params'];
  if (activation.authorizer === undefined) delete context['authorizer'];
  try {
    return { value: compiled.program(context) };
  } catch (err) {
    if (err instanceof CompositedVariableError) return { error: err.message };
    if (err instanceof EvaluationError) return { error: celGoRuntimeMessage(err.code, err.summary) };
    throw err;
  }
}

/** celGoRuntimeMessage rewrites the evaluator's runtime errors as cel-go reports them. */
function celGoRuntimeMessage(code: string, summary: string): string {
  let m: RegExpMatchArray | null;
  switch (code) {
    case 'no_such_key':
      return summary.replace(/^No such key: /, 'no such key: ');
    case 'index_out_of_bounds':
      m = summary.match(/index (-?\d+) (?:>= size (\d+)|< 0)/);
      return m ? `index '${m[1]}' out of range in list size '${m[2] ?? '?'}'` : summary;
    case 'no_such_overload':
    case 'no_matching_overload':
      return 'no such overload';
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return summary.startsWith('uint') || summary.startsWith('Unsigned') ? 'unsigned integer overflow' : 'integer overflow';
    case 'optional_value_missing':
      return 'optional.none() dereference';
    default:
      return summary;
  }
}
