// ValidatingAdmissionPolicy: evaluates the cluster's ValidatingAdmissionPolicies through their bindings with CEL, and
// denies, warns or audits by each binding's validationActions.
import type { KubeObject } from '../../api/types';
import type { EngineContext } from '../../context';
import { StatusError } from '../request';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { authorize } from '../authz';
import { CelAuthorizer, CelResourceCheck } from './policy/cel/authorizer';
import { admissionRequest, bindVariables, namespaceObject, toCel } from './policy/cel/evaluate';
import { compilePolicy, type MatchResources } from './policy/compile';
import { bindingMatches, definitionMatches } from './policy/matching';
import { collectParams, type ParamRef, paramScope } from './policy/params';
import { validate } from './policy/validator';
import { requestVersion } from './webhook/matching';

/** POLICY_REFRESH_MS is policy_source.go's policyRefreshIntervalDefault: new policy data is compiled once a second. */
const POLICY_REFRESH_MS = 1000;

/**
 * refreshedBy tells which policies and bindings kube-apiserver has in force now. Its policy source marks its data dirty
 * when a policy or binding is added and compiles it on the next tick of a one-second loop (wait.Until(refreshPolicies,
 * 1s)), so an object written at t is in force from the first whole second after t: a pod created in the same apply
 * as its policy is not checked by it. The objects of the cluster files were there before the run. The engine reads an
 * object's write time from its creationTimestamp (whole seconds), so an update or a delete takes effect at once.
 * See staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_source.go (Run, refreshPolicies) at v0.36.0.
 */
function refreshedBy(ctx: EngineContext): (object: KubeObject) => boolean {
  const lastTick = Math.floor(ctx.clock.now / POLICY_REFRESH_MS) * POLICY_REFRESH_MS;
  return (object) => {
    const created = Date.parse(object.metadata?.creationTimestamp ?? '');
    if (Number.isNaN(created)) return true;
    // Written within [created, created + 1 s): in force from the tick at created + 1 s.
    return created - ctx.clock.epoch.getTime() + POLICY_REFRESH_MS <= lastTick;
  };
}

/** Denial is a deny decision with the policy and binding it came from (policyDecisionWithMetadata). */
interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason: string;
}

/** BindingSpec is the part of a ValidatingAdmissionPolicyBinding's spec the plugin reads. */
interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

const byName = (a: KubeObject, b: KubeObject): number => {
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
};

const REASON_CODES: ReadonlyMap<string, number> = new Map([['Forbidden', 403], ['Unauthorized', 401], ['RequestEntityTooLarge', 413]]);

/**
 * reasonToCode gives a denial's HTTP code from its reason: Forbidden 403, Unauthorized 401, RequestEntityTooLarge 413,
 * anything else (Invalid) 422. Why: reasonToCode in policy/validating/dispatcher.go.
 */
function reasonToCode(reason: string): number {
  return REASON_CODES.get(reason) ?? 422;
}

/**
 * denialError builds what the dispatcher returns for the first denial: admission.NewForbidden's message
 * (`pods "web" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`), with the
 * decision's reason (Invalid when none), its code, and the message again as a cause.
 */
function denialError(attrs: AdmissionAttributes, denial: Denial): StatusError {
  const message = denial.binding !== undefined
    ? `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}' denied request: ${denial.message}`
    : `ValidatingAdmissionPolicy '${denial.policy}' denied request: ${denial.message}`;
  // Why: extractResourceName in admission/errors.go: the request's name, else the object's name or generateName, else Unknown.
  const name = attrs.name || attrs.object.metadata?.name || attrs.object.metadata?.generateName || 'Unknown';
  const resource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const reason = denial.reason || 'Invalid';
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${resource} "${name}" is forbidden: ${message}`, reason,
    details: { name, group: attrs.group, kind: attrs.resource, causes: [{ reason: '', message, field: '' }] }, code: reasonToCode(reason),
  });
}

/**
 * validateRequest is the validating policy dispatcher: for each policy (by name) that matches, each binding (by name)
 * that matches, each param, the validator's decisions go where the binding's validationActions say. Configuration
 * errors (no matchConstraints, an unknown paramKind, params that cannot be collected) deny under failurePolicy Fail.
 * Why: staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go. kube-apiserver walks
 * policies in its cache's order, which is not defined; names make it reproducible here.
 */
function validateRequest(attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult {
  const inForce = refreshedBy(ctx);
  const storedBindings = ctx.store.list<KubeObject>('ValidatingAdmissionPolicyBinding');
  const storedPolicies = ctx.store.list<KubeObject>('ValidatingAdmissionPolicy');
  const bindings = storedBindings.filter(inForce).sort(byName);
  // Why: policy_source.go keeps only policies that have bindings; a binding to a missing policy is skipped.
  const policies = storedPolicies.filter(inForce).sort(byName)
    .map((policy) => ({ policy, bindings: bindings.filter((b) => (b['spec'] as BindingSpec | undefined)?.policyName === policy.metadata?.name) }))
    .filter((p) => p.bindings.length > 0);
  const pending = [...storedBindings, ...storedPolicies].filter((o) => !inForce(o)).map((o) => `${String(o.kind)} ${o.metadata?.name ?? ''}`).sort();
  if (policies.length === 0) {
    if (pending.length > 0) return { note: `no ValidatingAdmissionPolicy with a binding in force yet: kube-apiserver compiles new policies and bindings at its next refresh, every second (${pending.join(', ')})`, detail: { policies: [], notYetInForce: pending } };
    return { note: 'no ValidatingAdmissionPolicy with a binding', detail: { policies: [] } };
  }
  const denials: Denial[] = [];
  const warnings: string[] = [];
  const records: Record<string, unknown>[] = [];
  const configError = (policy: ReturnType<typeof compilePolicy>, binding: string | undefined, err: string): void => {
    const message = binding === undefined ? `failed to configure policy: ${err}` : `failed to configure binding: ${err}`;
    records.push({ policy: policy.name, ...(binding !== undefined ? { binding } : {}), result: `configuration error (failurePolicy ${policy.failurePolicy})`, message });
    if (policy.failurePolicy === 'Fail') denials.push({ policy: policy.name, ...(binding !== undefined ? { binding } : {}), message, reason: '' });
  };
  const kinds = { group: attrs.group, version: requestVersion(attrs), resource: attrs.resource, kind: attrs.kind };
  for (const { policy: object, bindings: policyBindings } of policies) {
    const policy = compilePolicy(object);
    const matched = definitionMatches(policy.spec.matchConstraints, attrs, ctx.store);
    if ('error' in matched) {
      configError(policy, undefined, matched.error);
      continue;
    }
    if (!matched.matches) {
      records.push({ policy: policy.name, result: 'matchConstraints do not select the request' });
      continue;
    }
    const scope = policy.spec.paramKind ? paramScope(ctx.store, policy.spec.paramKind) : undefined;
    if (scope && 'error' in scope) {
      configError(policy, undefined, scope.error);
      continue;
    }
    for (const bindingObject of policyBindings) {
      const binding = bindingObject.metadata?.name ?? '';
      const spec = (bindingObject['spec'] ?? {}) as BindingSpec;
      const bound = bindingMatches(spec.matchResources, attrs, ctx.store);
      if ('error' in bound) {
        configError(policy, binding, bound.error);
        continue;
      }
      if (!bound.matches) {
        records.push({ policy: policy.name, binding, result: 'matchResources do not select the request' });
        continue;
      }
      const collected = collectParams(ctx.store, policy.spec.paramKind, scope, spec.paramRef, attrs.namespace);
      if ('error' in collected) {
        configError(policy, binding, collected.error);
        continue;
      }
      const namespaceName = attrs.kind === 'Namespace' && attrs.group === '' ? '' : attrs.namespace;
      const namespace = namespaceName ? ctx.store.get<KubeObject>('Namespace', undefined, namespaceName) : undefined;
      if (namespaceName && !namespace) return { error: notFoundNamespace(namespaceName), detail: { policies: records } };
      if (collected.params.length === 0) records.push({ policy: policy.name, binding, result: 'no params found: the binding is skipped' });
      for (const param of collected.params) {
        const authz = { user: attrs.user, store: ctx.store, profile: ctx.profile, authorize };
        const activation = bindVariables(policy.variables, {
          object: attrs.operation === 'DELETE' ? null : toCel(attrs.object),
          oldObject: attrs.oldObject ? toCel(attrs.oldObject) : null,
          request: admissionRequest(attrs, kinds),
          namespaceObject: namespaceObject(namespace),
          params: param === null ? null : toCel(param),
          authorizer: new CelAuthorizer(authz, new CelResourceCheck(authz, attrs.group, attrs.resource, attrs.subresource, attrs.namespace, attrs.name)),
        });
        const result = validate(policy, activation);
        const actions = spec.validationActions ?? [];
        for (const d of result.decisions.filter((x) => x.action === 'deny')) {
          if (actions.includes('Deny')) denials.push({ policy: policy.name, binding, message: d.message, reason: d.evaluation === 'error' ? '' : d.reason });
          if (actions.includes('Warn')) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding}': ${d.message}`);
        }
        for (const a of result.auditAnnotations.filter((x) => x.error !== undefined)) denials.push({ policy: policy.name, binding, message: a.error!, reason: '' });
        records.push({
          policy: policy.name, binding, validationActions: actions, ...(param ? { param: `${param.metadata?.namespace ? `${param.metadata.namespace}/` : ''}${param.metadata?.name ?? ''}` } : {}),
          result: result.skipped ? `skipped: matchCondition "${result.skipped}" is false` : result.decisions.some((x) => x.action === 'deny') ? 'failed' : 'passed',
          validations: result.decisions, conditions: result.conditions, auditAnnotations: result.auditAnnotations,
        });
      }
    }
  }
  const first = denials[0];
  const note = first ? `denied by ${first.policy}${first.binding !== undefined ? ` (binding ${first.binding})` : ''}`
    : `${records.length} policy evaluation(s), none denied${warnings.length ? `, ${warnings.length} warning(s)` : ''}`;
  return { ...(first ? { error: denialError(attrs, first) } : {}), note, ...(warnings.length ? { warnings } : {}), detail: { policies: records } };
}

/** notFoundNamespace is the lister's NotFound for the request's namespace, which the dispatcher returns as it is. */
function notFoundNamespace(name: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `namespace "${name}" not found`, reason: 'NotFound',
    details: { name, group: '', kind: 'namespace' }, code: 404,
  });
}

/** validatingAdmissionPolicy is the ValidatingAdmissionPolicy admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go). */
export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: 'ValidatingAdmissionPolicy',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go',
  // Why: NewPlugin registers admission.NewHandler(Connect, Create, Delete, Update).
  handles: () => true,
  validate: validateRequest,
};
