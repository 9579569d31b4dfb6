// What hover tells beside the schema: which lifecycle phases read a field (in our own words, by the phase names of the
// engine's catalog) and where the field's type is described in the Kubernetes API reference.
import { SCHEMA_TYPES } from '../engine/api/schema/schema.generated';
import { phaseInfo, type PhaseName } from '../engine/runtime/phases';

/**
 * FIELD_PHASES lists, by the field's last keys, the phases that read it and what they do with it. A pattern is
 * matched against the end of the field path, list indexes removed (`containers.image`).
 */
const FIELD_PHASES: readonly [string, readonly [PhaseName, string][]][] = [
  ['metadata.name', [['kubectl.validate', 'names the object in the request'], ['apiserver.validate', 'must be a valid name for the kind']]],
  ['metadata.namespace', [['apiserver.authorize', 'RBAC rules are looked up in it'], ['apiserver.admit.validating', 'PodSecurity, ResourceQuota and LimitRange of the namespace apply']]],
  ['metadata.labels', [['controllers.replicaset', 'the selector counts the pods by them'], ['controllers.endpoints', 'Services select their endpoints by them'], ['scheduler.filter', 'inter-pod affinity and topology spread match them']]],
  ['metadata.finalizers', [['apiserver.finalize', 'the object stays until each is removed']]],
  ['replicas', [['controllers.deployment', 'sets the size of the ReplicaSet'], ['controllers.replicaset', 'creates or deletes pods to reach it']]],
  ['selector', [['apiserver.validate', 'must match the template labels'], ['controllers.replicaset', 'finds the pods the workload owns']]],
  ['strategy', [['controllers.deployment', 'decides how the ReplicaSets are rolled']]],
  ['containers', [['apiserver.validate', 'names, images, ports and mounts are checked'], ['kubelet.containers', 'created and started in order']]],
  ['initContainers', [['kubelet.initContainers', 'run one by one before the containers']]],
  ['image', [['apiserver.admit.mutating', 'AlwaysPullImages may force pulling it'], ['kubelet.imagePull', 'pulled unless already on the node']]],
  ['imagePullPolicy', [['apiserver.admit.mutating', 'defaulted from the tag, or forced to Always'], ['kubelet.imagePull', 'decides whether to pull']]],
  ['imagePullSecrets', [['kubelet.imagePull', 'credentials for the registry']]],
  ['resources', [['apiserver.admit.validating', 'ResourceQuota and LimitRange check (and LimitRanger defaults) them'], ['scheduler.filter', 'NodeResourcesFit needs room for the requests'], ['scheduler.score', 'NodeResourcesFit scores the requests'], ['kubelet.admit', 'the node must still have room']]],
  ['nodeSelector', [['apiserver.admit.mutating', 'PodNodeSelector may merge the namespace\'s'], ['scheduler.filter', 'NodeAffinity keeps the nodes with these labels']]],
  ['affinity', [['scheduler.filter', 'NodeAffinity and InterPodAffinity keep the nodes that satisfy it'], ['scheduler.score', 'preferred terms add to a node\'s score']]],
  ['tolerations', [['apiserver.admit.mutating', 'DefaultTolerationSeconds adds the not-ready and unreachable ones'], ['scheduler.filter', 'TaintToleration drops the nodes whose taints are not tolerated']]],
  ['topologySpreadConstraints', [['scheduler.filter', 'PodTopologySpread keeps the skew'], ['scheduler.score', 'PodTopologySpread prefers even spread']]],
  ['nodeName', [['scheduler.queue', 'a pod with a node is not scheduled'], ['kubelet.admit', 'that node\'s kubelet runs it']]],
  ['schedulerName', [['scheduler.queue', 'only that scheduler takes the pod']]],
  ['priorityClassName', [['apiserver.admit.mutating', 'Priority sets spec.priority from the class'], ['scheduler.queue', 'orders the queue'], ['scheduler.postFilter', 'preemption may evict lower priorities']]],
  ['priority', [['scheduler.queue', 'orders the queue'], ['scheduler.postFilter', 'preemption may evict lower priorities']]],
  ['preemptionPolicy', [['scheduler.postFilter', 'Never forbids preempting others']]],
  ['serviceAccountName', [['apiserver.admit.mutating', 'ServiceAccount checks it exists and mounts its token'], ['kubelet.volumes', 'the token volume is mounted']]],
  ['runtimeClassName', [['apiserver.admit.mutating', 'RuntimeClass adds its overhead and scheduling'], ['kubelet.sandbox', 'the handler runs the sandbox']]],
  ['securityContext', [['apiserver.admit.validating', 'PodSecurity checks it against the namespace\'s level'], ['kubelet.containers', 'applied to the processes']]],
  ['hostNetwork', [['apiserver.admit.validating', 'PodSecurity baseline forbids it'], ['kubelet.network', 'no pod IP of its own']]],
  ['hostPID', [['apiserver.admit.validating', 'PodSecurity baseline forbids it']]],
  ['hostIPC', [['apiserver.admit.validating', 'PodSecurity baseline forbids it']]],
  ['ports', [['scheduler.filter', 'NodePorts needs the host ports free'], ['controllers.endpoints', 'named ports resolve Service target ports']]],
  ['volumes', [['scheduler.filter', 'volume plugins check where the volumes can attach'], ['kubelet.volumes', 'mounted before the containers start']]],
  ['volumeMounts', [['apiserver.validate', 'each must name a volume of the pod'], ['kubelet.volumes', 'mounted into the container']]],
  ['env', [['kubelet.containers', 'set in the container\'s environment']]],
  ['envFrom', [['kubelet.containers', 'set in the container\'s environment']]],
  ['command', [['kubelet.containers', 'the process the container starts']]],
  ['args', [['kubelet.containers', 'the arguments of that process']]],
  ['startupProbe', [['kubelet.probes', 'holds the other probes back until it passes']]],
  ['readinessProbe', [['kubelet.probes', 'sets the Ready condition'], ['controllers.endpoints', 'only ready pods receive traffic']]],
  ['livenessProbe', [['kubelet.probes', 'a failing one restarts the container']]],
  ['lifecycle.postStart', [['kubelet.containers', 'runs right after the container starts']]],
  ['lifecycle.preStop', [['kubelet.preStop', 'runs before SIGTERM, inside the grace period']]],
  ['restartPolicy', [['kubelet.containers', 'decides whether exited containers restart'], ['kubelet.status', 'decides when the pod is Succeeded or Failed']]],
  ['terminationGracePeriodSeconds', [['kubelet.terminate', 'time between SIGTERM and SIGKILL']]],
  ['dnsPolicy', [['kubelet.sandbox', 'writes the pod\'s resolv.conf']]],
  ['template', [['controllers.replicaset', 'each pod is made from it']]],
  ['spec.minAvailable', [['controllers.disruption', 'desiredHealthy: that many pods, or that share of the controllers\' scale rounded up'], ['apiserver.evict', 'an eviction that would leave fewer healthy pods is refused with 429']]],
  ['spec.maxUnavailable', [['controllers.disruption', 'desiredHealthy is the controllers\' scale less this (a percentage rounded up)'], ['apiserver.evict', 'an eviction beyond it is refused with 429']]],
  ['unhealthyPodEvictionPolicy', [['apiserver.evict', 'AlwaysAllow lets an unready pod be evicted whatever the budget; IfHealthyBudget only while the budget is healthy']]],
];

/** phasesReading lists the phases that read a field, with what each does, for hover. */
export function phasesReading(path: string): { phase: PhaseName; what: string; summary: string }[] {
  const plain = path.replace(/\[[^\]]*\]/g, '');
  const entry = FIELD_PHASES.find(([pattern]) => plain === pattern || plain.endsWith(`.${pattern}`));
  return (entry?.[1] ?? []).map(([phase, what]) => ({ phase, what, summary: phaseInfo(phase).summary }));
}

/** REFERENCE_ROOT is the Kubernetes API reference. */
const REFERENCE_ROOT = 'https://kubernetes.io/docs/reference/kubernetes-api';

/** SECTIONS are the reference's sections, by the kinds they hold. */
const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  'workload-resources': ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'PriorityClass'],
  'service-resources': ['Service', 'Endpoints', 'EndpointSlice'],
  'config-and-storage-resources': ['ConfigMap', 'Secret', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass'],
  'authentication-resources': ['ServiceAccount'],
  'authorization-resources': ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'],
  'policy-resources': ['LimitRange', 'ResourceQuota', 'PodDisruptionBudget'],
  'cluster-resources': ['Node', 'Namespace', 'Event', 'RuntimeClass'],
};

/** kebab writes a kind as the reference's page names do: ReplicaSet → replica-set. */
function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** pageOf is the reference page of a kind: workload-resources/pod-v1/. */
function pageOf(kind: string, version: string): string | undefined {
  const section = Object.entries(SECTIONS).find(([, kinds]) => kinds.includes(kind))?.[0];
  return section ? `${REFERENCE_ROOT}/${section}/${kebab(kind)}-${version}/` : undefined;
}

let podTypes: Set<string> | undefined;

/** reachableFrom lists the ids of the types a type reaches through its fields. */
function reachableFrom(id: string, seen = new Set<string>()): Set<string> {
  if (seen.has(id)) return seen;
  seen.add(id);
  for (const prop of Object.values(SCHEMA_TYPES[id]?.properties ?? {})) {
    const ref = /#(.+)$/.exec(prop.type)?.[1];
    if (ref && !ref.startsWith('meta.')) reachableFrom(ref, seen);
  }
  return seen;
}

/**
 * referenceLink is the address of a type's description in the API reference: the types of a pod on the Pod page,
 * metadata types in the common definitions, others on their kind's page; the anchor is the type's name.
 */
export function referenceLink(typeId: string, kind: string, version: string): string | undefined {
  const name = typeId.slice(typeId.lastIndexOf('.') + 1);
  if (typeId.startsWith('meta.')) return `${REFERENCE_ROOT}/common-definitions/${kebab(name)}/#${name}`;
  if (typeId === 'core.v1.PodTemplateSpec') return `${REFERENCE_ROOT}/workload-resources/pod-template-v1/#${name}`;
  podTypes ??= reachableFrom('core.v1.PodSpec');
  const page = podTypes.has(typeId) ? pageOf('Pod', 'v1') : pageOf(kind, version);
  return page ? `${page}#${name}` : undefined;
}
