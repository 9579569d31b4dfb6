// What to change when the API server (or kubectl) refuses a request: one line of advice per phase/reason, read from
// the refusal's Status and the refusing step's trace detail. Pure: no I/O.
import { parseQuantity } from '../api/quantity';
import type { TraceEntry } from '../runtime/recorder';
import type { Rejection } from '../outcome';
import type { Advice } from './scheduling';

/** RejectionContext is what a rule reads: the refusal and the trace entry of the step that refused, when found. */
export interface RejectionContext {
  rejection: Rejection;
  entry?: TraceEntry;
}

/** RejectionRule is one row of the refusal → advice table: a phase, optionally a reason and the refusing plugin. */
export interface RejectionRule {
  phase?: string;
  reason?: string;
  plugin?: string;
  /** source is where Kubernetes writes the refusal. */
  source: string;
  advise: (ctx: RejectionContext) => string;
}

type Detail = Record<string, unknown>;
const list = (v: unknown): Detail[] => (Array.isArray(v) ? (v as Detail[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const FORBIDDEN_USER = /User "([^"]*)" cannot (\S+) (?:resource "([^"]*)"(?: in API group "[^"]*")?(?: in the namespace "([^"]*)")?|path "([^"]*)")/;

/** adviseAuthorization names the verb and resource that were denied and the kubectl commands to check and grant them. */
function adviseAuthorization(ctx: RejectionContext): string {
  const decidedBy = str(ctx.entry?.detail.decidedBy);
  if (decidedBy) return `the ${decidedBy} authorizer denied it (${str(ctx.entry?.detail.reason) || 'no reason given'}): ask whoever runs it, or use another identity`;
  const m = ctx.rejection.message.match(FORBIDDEN_USER);
  if (!m) return 'no authorizer allowed the request: grant the identity the verb on the resource (Role and RoleBinding)';
  const [, user, verb, resource, namespace, path] = m;
  if (path !== undefined) return `no authorizer lets ${user} ${verb} ${path}: check with kubectl auth can-i ${verb} ${path} --as ${user}; use credentials the cluster knows`;
  const ns = namespace ? ` -n ${namespace}` : '';
  return `no authorizer lets ${user} ${verb} ${resource}: check with kubectl auth can-i ${verb} ${resource} --as ${user}${ns}; kubectl apply needs get, create and patch: `
    + `kubectl create role ${resource}-writer --verb=get,create,patch --resource=${resource}${ns} && kubectl create rolebinding ${resource}-writer --role=${resource}-writer --user=${user}${ns}`;
}

/** advisePodSecurity lists the fields the enforced level wants set, from the failed checks. */
function advisePodSecurity(ctx: RejectionContext): string {
  const evaluations = list(ctx.entry?.detail.evaluations).filter((e) => e.allowed === false && (e.modes as string[] | undefined)?.includes('enforce'));
  const policy = str(evaluations[0]?.policy) || ctx.rejection.message.match(/violates PodSecurity "([^"]+)"/)?.[1] || 'the enforced level';
  const fields = evaluations.flatMap((e) => list(e.checks).filter((c) => c.allowed === false).map((c) => str(c.detail) || str(c.reason)));
  const fromMessage = fields.length ? fields : [...ctx.rejection.message.matchAll(/\(([^()]*must[^()]*)\)/g)].map((m) => m[1]!);
  const namespace = str(ctx.entry?.detail.namespace);
  return `to meet PodSecurity "${policy}": ${fromMessage.join('; ') || 'see the message'}`
    + ` — or lower the namespace's pod-security.kubernetes.io/enforce label${namespace ? ` (kubectl label namespace ${namespace} pod-security.kubernetes.io/enforce=baseline --overwrite)` : ''}`;
}

function left(hard: string, used: string): string {
  try {
    const q = parseQuantity(hard).sub(parseQuantity(used));
    return q.sign() < 0 ? '0' : q.toString();
  } catch {
    return '?';
  }
}

/** adviseQuota names each exceeded quota, its hard limit, what is used and what the request asks. */
function adviseQuota(ctx: RejectionContext): string {
  const namespace = ctx.entry?.object?.split('/')[1] ?? '';
  const ns = namespace ? ` -n ${namespace}` : '';
  const missing = ctx.rejection.message.match(/failed quota: ([^:]+): must specify (.+?)(?: for: (.+))?$/);
  if (missing) return `the quota ${missing[1]} tracks ${missing[2]}: set it in the resources of ${missing[3] ? `container(s) ${missing[3]}` : 'every container'}, or let a LimitRange default it`;
  const parts: string[] = [];
  for (const q of list(ctx.entry?.detail.quotas).filter((q) => q.matches === true)) {
    const hard = (q.hard ?? {}) as Record<string, string>;
    const used = (q.usedBefore ?? {}) as Record<string, string>;
    const requested = (q.requested ?? {}) as Record<string, string>;
    for (const [res, want] of Object.entries(requested)) {
      if (hard[res] === undefined) continue;
      const free = left(hard[res], used[res] ?? '0');
      try {
        if (parseQuantity(want).cmp(parseQuantity(free === '?' ? '0' : free)) <= 0) continue;
      } catch { /* an unreadable amount is reported as it is */ }
      parts.push(`the quota ${str(q.name)} allows ${res}=${hard[res]}, ${used[res] ?? '0'} is used and the pod asks ${want}: ask for ${free} or less, or raise the quota (kubectl edit resourcequota ${str(q.name)}${ns})`);
    }
  }
  return parts.join('; ') || `${ctx.rejection.message.replace(/^.*?forbidden: /, '')}: lower the request or raise the quota (kubectl describe resourcequota${ns})`;
}

function adviseWebhook(ctx: RejectionContext): string {
  const denied = ctx.rejection.message.match(/admission webhook "([^"]+)" denied the request(?:: (.*))?$/);
  if (denied) return `the webhook ${denied[1]} refused it${denied[2] ? ` ("${denied[2]}")` : ''}: change the manifest to meet its policy`;
  const failed = ctx.rejection.message.match(/failed calling webhook "([^"]+)"/);
  if (failed) return `the webhook ${failed[1]} could not be called and its failurePolicy is Fail: fix its service, or set failurePolicy: Ignore`;
  return 'an admission webhook refused it: change the manifest to meet its policy';
}

function advisePolicy(ctx: RejectionContext): string {
  const policies = list(ctx.entry?.detail.policies).filter((p) => p.result === 'failed');
  const failed = policies.flatMap((p) => list(p.validations).filter((v) => v.evaluation === 'deny').map((v) => `${str(p.policy)} wants ${str(v.expression)}`));
  return `${failed.join('; ') || 'a ValidatingAdmissionPolicy refused it'}: change the manifest so the expression holds, or ask the policy's owner`;
}

function adviseValidation(ctx: RejectionContext): string {
  const fields = list(ctx.entry?.detail.errors).map((e) => str(e.field)).filter(Boolean);
  return `fix ${fields.length ? fields.join(', ') : 'the fields the message names'} in the manifest (kubectl explain pod.spec shows each field)`;
}

const APISERVER = 'staging/src/k8s.io/apiserver/pkg';

/** REJECTION_RULES is the refusal → advice table; the first row whose phase, reason and plugin all match answers. */
export const REJECTION_RULES: readonly RejectionRule[] = [
  { phase: 'kubectl.generate', source: 'staging/src/k8s.io/kubectl/pkg/cmd/run/run.go, pkg/cmd/create/create_deployment.go, create_job.go, create.go',
    advise: () => 'kubectl refused its command line before sending anything: fix the flag or argument its message names (kubectl run --help and kubectl create deployment --help list them)' },
  { phase: 'kubectl.validate', reason: 'NoKindMatchError', source: 'staging/src/k8s.io/cli-runtime/pkg/resource/mapper.go',
    advise: () => 'check apiVersion and kind: kubectl api-resources lists what the cluster serves' },
  { phase: 'apiserver.authenticate', reason: 'Unauthorized', source: `${APISERVER}/endpoints/filters/authentication.go`,
    advise: () => 'the API server did not accept the credentials: check the token or client certificate (kubectl config view --minify) and the cluster\'s client CA' },
  { phase: 'apiserver.authorize', reason: 'Forbidden', source: `${APISERVER}/endpoints/filters/authorization.go`, advise: adviseAuthorization },
  { plugin: 'NamespaceLifecycle', reason: 'NotFound', source: `${APISERVER}/admission/plugin/namespace/lifecycle/admission.go`,
    advise: (c) => `create the namespace first: kubectl create namespace ${c.rejection.message.match(/namespaces "([^"]+)"/)?.[1] ?? '<name>'}` },
  { plugin: 'NamespaceLifecycle', source: `${APISERVER}/admission/plugin/namespace/lifecycle/admission.go`,
    advise: () => 'the namespace is being deleted: wait until it is gone and create it again, or use another namespace' },
  { plugin: 'PodSecurity', source: 'staging/src/k8s.io/pod-security-admission/admission/admission.go', advise: advisePodSecurity },
  { plugin: 'ResourceQuota', source: `${APISERVER}/admission/plugin/resourcequota/controller.go`, advise: adviseQuota },
  { plugin: 'LimitRanger', source: 'plugin/pkg/admission/limitranger/admission.go',
    advise: (c) => `${c.rejection.message.replace(/^.*?forbidden: /, '')}: change the container's resources to fit the namespace's LimitRange, or change the LimitRange` },
  { plugin: 'Priority', source: 'plugin/pkg/admission/priority/admission.go',
    advise: () => 'create the PriorityClass that spec.priorityClassName names, or fix the name (kubectl get priorityclasses)' },
  { plugin: 'RuntimeClass', source: 'plugin/pkg/admission/runtimeclass/admission.go',
    advise: () => 'create the RuntimeClass that spec.runtimeClassName names, or fix the name (kubectl get runtimeclasses)' },
  { plugin: 'ValidatingAdmissionWebhook', source: `${APISERVER}/admission/plugin/webhook/validating/dispatcher.go`, advise: adviseWebhook },
  { plugin: 'MutatingAdmissionWebhook', source: `${APISERVER}/admission/plugin/webhook/mutating/dispatcher.go`, advise: adviseWebhook },
  { plugin: 'ValidatingAdmissionPolicy', source: `${APISERVER}/admission/plugin/policy/validating/dispatcher.go`, advise: advisePolicy },
  { reason: 'BadRequest', source: 'staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go',
    advise: () => 'the body does not decode as the kind: fix the field the message names (kubectl explain shows its type and spelling)' },
  { phase: 'apiserver.validate', source: 'pkg/apis/core/validation/validation.go', advise: adviseValidation },
  { reason: 'Forbidden', source: `${APISERVER}/admission/plugins.go`, advise: () => 'an admission plugin refused it: change the manifest as its message says' },
];

/** findRefusingEntry finds the trace step that refused the request of a rejection. */
export function findRefusingEntry(trace: readonly TraceEntry[], rejection: Rejection): TraceEntry | undefined {
  const [kind, name] = (rejection.object ?? '').split('/');
  const sameObject = (e: TraceEntry): boolean => !rejection.object || (e.object?.startsWith(`${kind}/`) === true && e.object.endsWith(`/${name}`));
  const refused = trace.filter((e) => (e.outcome === 'rejected' || e.outcome === 'failed') && sameObject(e));
  return refused.find((e) => e.phase === rejection.phase && e.step) ?? refused.find((e) => e.phase === rejection.phase) ?? refused.find((e) => e.detail.phase === rejection.phase);
}

/** adviseRejection gives the advice of the first matching row, or a generic line for a refusal no row knows. */
export function adviseRejection(rejection: Rejection, entry?: TraceEntry): Advice {
  const plugin = entry?.step?.kind === 'plugin' ? entry.step.name : undefined;
  const rule = REJECTION_RULES.find((r) => (r.phase === undefined || r.phase === rejection.phase) && (r.reason === undefined || r.reason === rejection.reason) && (r.plugin === undefined || r.plugin === plugin));
  const reason = `${rejection.phase}: ${rejection.code} ${rejection.reason}${plugin ? ` (${plugin})` : ''}`;
  if (!rule) return { reason, text: 'fix what the message says', source: '' };
  return { reason, text: rule.advise({ rejection, ...(entry ? { entry } : {}) }), source: rule.source };
}
