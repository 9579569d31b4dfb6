// What a pod gains on create besides scheme defaulting: the mutating admission plugins ServiceAccount,
// DefaultTolerationSeconds and Priority, and the pod registry's PrepareForCreate (pkg/registry/core/pod/strategy.go).
import {
  deepClone, isObject, type Container, type Pod, type PodCondition, type PriorityClass, type ServiceAccount,
  type Toleration, type Volume, type VolumeMount,
} from './types';
import type { Random } from '../runtime/random';
import { generateName } from './naming';
import { applyAppArmorVersionSkew } from './pod-apparmor';
import { getPodQOS } from './qos';

/** PodMutation is a mutated copy of a pod, the field paths that changed, and the Forbidden message when the plugin refused it. */
export interface PodMutation {
  object: Pod;
  changes: string[];
  /** error is the plugin's reason (wrapped by the caller as `pods "web" is forbidden: <error>`); the pod is then unchanged. */
  error?: string;
  /** warnings are the API warnings the step adds (`Warning: ...` in kubectl). */
  warnings?: string[];
}

/** DEFAULT_SERVICE_ACCOUNT_NAME is the service account a pod gets when it names none. */
export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
/** SERVICE_ACCOUNT_VOLUME_PREFIX starts the name of the projected token volume (ServiceAccountVolumeName + "-"). */
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
/** DEFAULT_API_TOKEN_MOUNT_PATH is where every container gets the token, CA and namespace. */
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS is the token lifetime the plugin asks for: 1 h + 7 s (pkg/serviceaccount). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';

/** tokenVolume is the projected volume of TokenVolumeSource() in plugin/pkg/admission/serviceaccount/admission.go. */
export function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      // Set explicitly: admission runs after defaulting (kubernetes/kubernetes#104464).
      defaultMode: 420,
    },
  };
}

/** isMirrorPod tells a kubelet's mirror of a static pod: it carries the kubernetes.io/config.mirror annotation. */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

/** allContainers lists init, regular and ephemeral containers, as podutil.VisitContainers with AllContainers. */
function allContainers(pod: Pod): Array<Pick<Container, 'env' | 'envFrom'>> {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
}

/**
 * podSecretNames lists the secrets a pod references, as pkg/api/pod.VisitPodSecretNames visits them with
 * AllContainers: image pull secrets, every container's envFrom and env, and the secret of each volume source
 * that names one.
 */
export function podSecretNames(pod: Pod): string[] {
  const names: string[] = (pod.spec?.imagePullSecrets ?? []).map((s) => s.name ?? '');
  for (const c of allContainers(pod)) {
    for (const from of c.envFrom ?? []) if (from.secretRef) names.push(from.secretRef.name ?? '');
    for (const env of c.env ?? []) if (env.valueFrom?.secretKeyRef) names.push(env.valueFrom.secretKeyRef.name ?? '');
  }
  for (const v of pod.spec?.volumes ?? []) names.push(...volumeSecretNames(v));
  return names;
}

/** volumeSecretNames is the secret one volume source names: the first source set decides, as in VisitPodSecretNames's switch. */
function volumeSecretNames(v: Volume): string[] {
  const named = (ref: { name?: string } | undefined): string[] => (ref ? [ref.name ?? ''] : []);
  if (v.azureFile) return v.azureFile.secretName ? [v.azureFile.secretName] : [];
  if (v.cephfs) return named(v.cephfs.secretRef);
  if (v.cinder) return named(v.cinder.secretRef);
  if (v.flexVolume) return named(v.flexVolume.secretRef);
  if (v.projected) return (v.projected.sources ?? []).flatMap((s) => named(s.secret));
  if (v.rbd) return named(v.rbd.secretRef);
  if (v.secret) return [v.secret.secretName ?? ''];
  if (v.scaleIO) return named(v.scaleIO.secretRef);
  if (v.iscsi) return named(v.iscsi.secretRef);
  if (v.storageos) return named(v.storageos.secretRef);
  if (v.csi) return named(v.csi.nodePublishSecretRef);
  return [];
}

/** podConfigMapNames lists the config maps a pod references, as pkg/api/pod.VisitPodConfigmapNames with AllContainers. */
export function podConfigMapNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const c of allContainers(pod)) {
    for (const from of c.envFrom ?? []) if (from.configMapRef) names.push(from.configMapRef.name ?? '');
    for (const env of c.env ?? []) if (env.valueFrom?.configMapKeyRef) names.push(env.valueFrom.configMapKeyRef.name ?? '');
  }
  for (const v of pod.spec?.volumes ?? []) {
    const refs = v.projected ? (v.projected.sources ?? []).map((s) => s.configMap) : [v.configMap];
    for (const ref of refs) if (ref) names.push(ref.name ?? '');
  }
  return names;
}

/** limitSecretReferences is the check a service account annotated kubernetes.io/enforce-mountable-secrets=true asks for. */
export function limitSecretReferences(sa: ServiceAccount, pod: Pod): string | undefined {
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
  const saName = sa.metadata?.name ?? '';
  for (const v of pod.spec?.volumes ?? []) {
    const secretName = v.secret?.secretName;
    if (v.secret && !mountable.has(secretName)) {
      return `volume with secret.secretName="${secretName ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  for (const [kind, containers] of [['init container', pod.spec?.initContainers], ['container', pod.spec?.containers]] as const) {
    for (const c of containers ?? []) {
      for (const env of c.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name)) {
          return `${kind} ${c.name} with envVar ${env.name} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
      for (const from of c.envFrom ?? []) {
        if (from.secretRef && !mountable.has(from.secretRef.name)) {
          return `${kind} ${c.name} with envFrom referencing secret.secretName="${from.secretRef.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
    }
  }
  const pullSecrets = new Set((sa.imagePullSecrets ?? []).map((s) => s.name));
  const podPullSecrets = pod.spec?.imagePullSecrets ?? [];
  for (let i = 0; i < podPullSecrets.length; i++) {
    if (!pullSecrets.has(podPullSecrets[i]!.name)) {
      return `imagePullSecrets[${i}].name="${podPullSecrets[i]!.name ?? ''}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** validateMirrorPod is what ServiceAccount refuses in a mirror pod: a service account, secrets, a token projection. */
export function validateMirrorPod(pod: Pod): string | undefined {
  if (pod.spec?.serviceAccountName) return 'a mirror pod may not reference service accounts';
  if (podSecretNames(pod).length > 0) return 'a mirror pod may not reference secrets';
  const projectsToken = (pod.spec?.volumes ?? []).some((v) => (v.projected?.sources ?? []).some((s) => s.serviceAccountToken));
  return projectsToken ? 'a mirror pod may not use ServiceAccountToken volume projections' : undefined;
}

/**
 * applyServiceAccount is the ServiceAccount admission plugin on pod create (Admit, then Validate): it sets
 * spec.serviceAccountName to "default" when unset, mounts a projected `kube-api-access-<5 random chars>` volume
 * (token, kube-root-ca.crt, namespace) read-only at /var/run/secrets/kubernetes.io/serviceaccount in every init
 * and regular container that has nothing mounted there (unless automountServiceAccountToken is false on the pod,
 * or else on the service account), and copies the service account's imagePullSecrets when the pod has none.
 * serviceAccounts, when given, are the cluster's ones: the pod's must be among them. Without it the named
 * service account is taken to exist with no settings.
 */
export function applyServiceAccount(pod: Pod, rng: Random, serviceAccounts?: readonly ServiceAccount[]): PodMutation {
  if (isMirrorPod(pod)) {
    const error = validateMirrorPod(pod);
    return error ? { object: pod, changes: [], error } : { object: deepClone(pod), changes: [] };
  }
  const object = deepClone(pod);
  const changes: string[] = [];
  const spec = (object.spec ??= { containers: [] });
  if (!spec.serviceAccountName) {
    spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
    changes.push('spec.serviceAccountName');
  }
  const namespace = object.metadata?.namespace ?? 'default';
  const name = spec.serviceAccountName;
  let sa: ServiceAccount = { metadata: { name, namespace } };
  if (serviceAccounts) {
    const found = serviceAccounts.find((s) => s.metadata?.name === name && (s.metadata?.namespace ?? 'default') === namespace);
    if (!found) return { object: pod, changes: [], error: `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found` };
    sa = found;
  }
  const automount = spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
  if (automount) mountServiceAccountToken(spec.volumes ?? [], spec, rng, changes);
  if ((spec.imagePullSecrets ?? []).length === 0 && (sa.imagePullSecrets ?? []).length > 0) {
    spec.imagePullSecrets = (sa.imagePullSecrets ?? []).map((s) => ({ name: s.name }));
    changes.push('spec.imagePullSecrets');
  }
  if (enforcesMountableSecrets(sa)) {
    const error = limitSecretReferences(sa, object);
    if (error) return { object: pod, changes: [], error };
  }
  return { object, changes };
}

/** enforcesMountableSecrets reads the kubernetes.io/enforce-mountable-secrets annotation as strconv.ParseBool does. */
export function enforcesMountableSecrets(sa: ServiceAccount): boolean {
  const value = sa.metadata?.annotations?.[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION];
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

function mountServiceAccountToken(volumes: Volume[], spec: NonNullable<Pod['spec']>, rng: Random, changes: string[]): void {
  const existing = volumes.find((v) => (v.name ?? '').startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX));
  const volumeName = existing?.name ?? generateName(SERVICE_ACCOUNT_VOLUME_PREFIX, rng);
  let needsVolume = false;
  for (const kind of ['initContainers', 'containers'] as const) {
    (spec[kind] ?? []).forEach((c, i) => {
      const mounts = c.volumeMounts ?? [];
      if (mounts.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) return;
      const mount: VolumeMount = { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH };
      c.volumeMounts = [...mounts, mount];
      changes.push(`spec.${kind}[${i}].volumeMounts[${mounts.length}]`);
      needsVolume = true;
    });
  }
  if (!existing && needsVolume) {
    spec.volumes = [...volumes, tokenVolume(volumeName)];
    changes.push(`spec.volumes[${volumes.length}]`);
  }
}

/** DefaultTolerationSecondsOptions are the plugin's two flags (--default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds). */
export interface DefaultTolerationSecondsOptions {
  notReadySeconds?: number;
  unreachableSeconds?: number;
}

/**
 * applyDefaultTolerationSeconds is the DefaultTolerationSeconds admission plugin: a pod that does not already
 * tolerate the NoExecute taints node.kubernetes.io/not-ready and node.kubernetes.io/unreachable (a toleration
 * with that key or an empty key, and effect NoExecute or empty) gets `operator: Exists` tolerations for them
 * with tolerationSeconds 300, not-ready first.
 */
export function applyDefaultTolerationSeconds(pod: Pod, options: DefaultTolerationSecondsOptions = {}): PodMutation {
  const { object, spec } = withOwnSpec(pod);
  const tolerations = spec.tolerations ?? [];
  const tolerates = (key: string): boolean => tolerations.some((t) =>
    (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const added: Toleration[] = [];
  if (!tolerates('node.kubernetes.io/not-ready')) {
    added.push({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: options.notReadySeconds ?? 300 });
  }
  if (!tolerates('node.kubernetes.io/unreachable')) {
    added.push({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: options.unreachableSeconds ?? 300 });
  }
  if (added.length === 0) return { object, changes: [] };
  spec.tolerations = [...tolerations, ...added];
  return { object, changes: added.map((_, i) => `spec.tolerations[${tolerations.length + i}]`) };
}

/**
 * withOwnSpec is a copy of the pod with a copy of its spec (an empty one when it has none), for a plugin that sets
 * fields of the spec itself and nothing below them: the rest is the given pod's, which it leaves as it is.
 */
function withOwnSpec(pod: Pod): { object: Pod; spec: NonNullable<Pod['spec']> } {
  const object: Pod = { ...pod };
  const spec = (object.spec = pod.spec ? { ...pod.spec } : { containers: [] });
  return { object, spec };
}

/**
 * applyPriority is the Priority admission plugin on pod create: it resolves spec.priorityClassName (or the
 * globalDefault class with the lowest value, whose name it then writes; or priority 0 and PreemptLowerPriority
 * when there is none) into spec.priority and spec.preemptionPolicy, and refuses a pod that names a class that
 * does not exist or writes a priority or preemptionPolicy that differs from its class's.
 */
export function applyPriority(pod: Pod, priorityClasses: readonly PriorityClass[]): PodMutation {
  const { object, spec } = withOwnSpec(pod);
  const changes: string[] = [];
  let priority: number;
  let preemptionPolicy: string;
  if (!spec.priorityClassName) {
    const defaults = priorityClasses.filter((pc) => pc.globalDefault === true);
    const chosen = defaults.reduce<PriorityClass | undefined>((low, pc) => (low === undefined || low.value > pc.value ? pc : low), undefined);
    priority = chosen?.value ?? 0;
    // A stored PriorityClass always has preemptionPolicy: scheduling/v1 defaulting sets PreemptLowerPriority.
    preemptionPolicy = chosen ? (chosen.preemptionPolicy ?? 'PreemptLowerPriority') : 'PreemptLowerPriority';
    if (chosen?.metadata?.name) {
      spec.priorityClassName = chosen.metadata.name;
      changes.push('spec.priorityClassName');
    }
  } else {
    const pc = priorityClasses.find((c) => c.metadata?.name === spec.priorityClassName);
    if (!pc) return { object: pod, changes: [], error: `no PriorityClass with name ${spec.priorityClassName} was found` };
    priority = pc.value;
    preemptionPolicy = pc.preemptionPolicy ?? 'PreemptLowerPriority';
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    return {
      object: pod, changes: [],
      error: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    };
  }
  if (spec.priority !== priority) changes.push('spec.priority');
  spec.priority = priority;
  // Why: any policy the pod names, "" included, must be the class's (`pod.Spec.PreemptionPolicy != nil`,
  // plugin/pkg/admission/priority/admission.go, v1.36.3).
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== preemptionPolicy) {
    return {
      object: pod, changes: [],
      error: `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
    };
  }
  if (spec.preemptionPolicy !== preemptionPolicy) changes.push('spec.preemptionPolicy');
  spec.preemptionPolicy = preemptionPolicy;
  return { object, changes };
}

/** PrepareForCreateOptions are what the API server's storage path supplies: the new uid and the creation time (RFC 3339). */
export interface PrepareForCreateOptions {
  uid: string;
  creationTimestamp: string;
}

/**
 * prepareForCreate is what the pod registry does before validation on create: rest.BeforeCreate clears
 * deletionTimestamp and deletionGracePeriodSeconds and FillObjectMetaSystemFields sets uid and
 * creationTimestamp; podStrategy.PrepareForCreate sets metadata.generation to 1, replaces the status with
 * {phase: Pending, qosClass}, adds PodScheduled=False/SchedulingGated for a pod with scheduling gates, merges
 * matchLabelKeys/mismatchLabelKeys into pod (anti-)affinity and topology spread label selectors, and copies
 * deprecated AppArmor annotations into container fields. resourceVersion is storage's, not set here.
 */
export function prepareForCreate(pod: Pod, options: PrepareForCreateOptions): PodMutation {
  const cloned = deepClone(pod);
  const changes: string[] = ['metadata.uid', 'metadata.creationTimestamp', 'metadata.generation', 'status.phase', 'status.qosClass'];
  const warnings: string[] = [];
  const { deletionTimestamp: _ts, deletionGracePeriodSeconds: _grace, ...meta } = cloned.metadata ?? {};
  const spec = cloned.spec ?? { containers: [] };
  const conditions: PodCondition[] = [];
  if ((spec.schedulingGates ?? []).length > 0) {
    conditions.push({
      type: 'PodScheduled', status: 'False', lastProbeTime: null as unknown as string,
      lastTransitionTime: options.creationTimestamp, reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    });
    changes.push('status.conditions[0]');
  }
  const object: Pod = {
    ...cloned,
    metadata: { ...meta, uid: options.uid, creationTimestamp: options.creationTimestamp, generation: 1 },
    spec,
    // qos.GetPodQOS(pod) runs before the status is replaced, so a submitted status.qosClass is kept.
    status: { phase: 'Pending', qosClass: getPodQOS(cloned), ...(conditions.length > 0 ? { conditions } : {}) },
  };
  mergeLabelKeys(object, changes);
  applyAppArmorVersionSkew(object, changes, warnings);
  return warnings.length > 0 ? { object, changes, warnings } : { object, changes };
}

type LabelSelectorLike = { matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };
type TermLike = { labelSelector?: LabelSelectorLike; matchLabelKeys?: string[]; mismatchLabelKeys?: string[] };

// applyMatchLabelKeysAndMismatchLabelKeys / applyMatchLabelKeys: `key In (value)` and `key NotIn (value)`
// for every listed key the pod has as a label (MatchLabelKeysInPodAffinity GA; topology spread merge beta, on).
function mergeTerm(term: TermLike, labels: Record<string, string>, path: string, changes: string[]): void {
  const selector = term.labelSelector;
  if (!isObject(selector)) return;
  for (const [keys, operator] of [[term.matchLabelKeys, 'In'], [term.mismatchLabelKeys, 'NotIn']] as const) {
    for (const key of keys ?? []) {
      const value = labels[key];
      if (value === undefined) continue;
      const expressions = (selector.matchExpressions ??= []);
      expressions.push({ key, operator, values: [value] });
      changes.push(`${path}.labelSelector.matchExpressions[${expressions.length - 1}]`);
    }
  }
}

function mergeLabelKeys(pod: Pod, changes: string[]): void {
  const labels = pod.metadata?.labels ?? {};
  const affinity = pod.spec?.affinity;
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = affinity?.[kind];
    // A weighted term without its podAffinityTerm holds the zero term (a struct, not a pointer, in Go): no selector.
    (a?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((w, i) => mergeTerm(w.podAffinityTerm ?? {}, labels,
      `spec.affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm`, changes));
    (a?.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => mergeTerm(t, labels,
      `spec.affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`, changes));
  }
  (pod.spec?.topologySpreadConstraints ?? []).forEach((c, i) =>
    mergeTerm({ labelSelector: c.labelSelector, matchLabelKeys: c.matchLabelKeys }, labels, `spec.topologySpreadConstraints[${i}]`, changes));
}
