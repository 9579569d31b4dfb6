// Which phases read which manifest field, and what each does with it: the one map behind hover's "Read by" (the
// language server) and line breakpoints (the debugger), so the two never disagree. A trace entry names the field it
// reads; a line breakpoint stops on it when this map says its phase reads that field (or a field holding it).
import type { PhaseName } from './phases';

/** FieldReader is one phase that reads a field, and what it does with it, in a few words. */
export interface FieldReader {
  phase: PhaseName;
  what: string;
}

type Entry = readonly [pattern: string, readers: readonly (readonly [PhaseName, string])[]];

/**
 * FIELD_READERS lists, by the field's last keys, the phases that read it. A pattern is matched against the end of a
 * field path, list indexes removed (`containers.image` matches `spec.template.spec.containers[0].image`). The
 * scheduler's plugins, the admission plugins and the controllers read as their Kubernetes 1.36 sources do (see the
 * files under src/engine that record each step: each names the field its step reads).
 */
const FIELD_READERS: readonly Entry[] = [
  ['apiVersion', [['kubectl.validate', 'with kind, maps the object to its resource and URL']]],
  ['kind', [['kubectl.validate', 'with apiVersion, maps the object to its resource and URL']]],
  ['metadata', [['apiserver.validate', 'names, labels and annotations are checked'], ['etcd.persist', 'uid, resourceVersion and creationTimestamp are set']]],
  ['metadata.name', [['kubectl.validate', 'names the object in the request'], ['apiserver.validate', 'must be a valid name for the kind']]],
  ['metadata.namespace', [['apiserver.authorize', 'RBAC rules are looked up in it'], ['apiserver.admit.validating', 'PodSecurity, ResourceQuota and LimitRange of the namespace apply']]],
  ['metadata.labels', [['apiserver.validate', 'keys and values must be valid'], ['controllers.replicaset', 'the selector counts the pods by them'], ['controllers.endpoints', 'Services select their endpoints by them'], ['scheduler.filter', 'inter-pod affinity and topology spread match them'], ['scheduler.score', 'InterPodAffinity and PodTopologySpread count the pods they match']]],
  ['metadata.annotations', [['kubectl.validate', 'kubectl apply keeps the last-applied-configuration here'], ['controllers.persistentvolume', 'a volume\'s pv.kubernetes.io/provisioned-by names who deletes it; a claim\'s record its binding']]],
  ['metadata.finalizers', [['apiserver.admit.mutating', 'StorageObjectInUseProtection adds its own to claims and volumes'], ['apiserver.finalize', 'the object stays until each is removed'], ['controllers.persistentvolume', 'the PVC and PV protection controllers remove theirs once nothing uses the claim or volume']]],
  ['metadata.ownerReferences', [['controllers.replicaset', 'adoption and release patch the controller reference'], ['controllers.garbagecollector', 'dependents of a deleted owner are deleted or orphaned']]],
  ['metadata.deletionTimestamp', [['apiserver.delete', 'a graceful delete sets it']]],
  ['status', [['kubelet.status', 'the kubelet reports the pod\'s phase, conditions and containers'], ['controllers.deployment', 'the controller writes the rollout\'s status'], ['controllers.statefulset', 'the controller writes its replicas and revisions'], ['controllers.daemonset', 'the controller writes its scheduled and ready counts'], ['controllers.job', 'the controller writes active, succeeded, failed and conditions'], ['controllers.cronjob', 'the controller writes its active Jobs and last schedule'], ['controllers.nodeLifecycle', 'a node whose kubelet stops reporting is marked Unknown']]],
  ['status.nominatedNodeName', [['scheduler.postFilter', 'preemption nominates the node it makes room on'], ['scheduler.bind', 'cleared once the pod is bound']]],
  ['spec', [['apiserver.admit.mutating', 'the request body is decoded strictly first: an unknown field is refused'], ['apiserver.validate', 'the validation rules of the kind'], ['controllers.persistentvolume', 'a claim is bound to a volume that satisfies it'], ['kubelet.sandbox', 'the pod sandbox is made from it']]],
  ['replicas', [['controllers.deployment', 'sets the size of the ReplicaSet'], ['controllers.replicaset', 'creates or deletes pods to reach it'], ['controllers.statefulset', 'creates ordinal pods up to it, deletes from the highest']]],
  ['selector', [['apiserver.validate', 'must match the template labels'], ['controllers.replicaset', 'finds the pods the workload owns'], ['controllers.endpoints', 'a Service\'s selector picks its endpoints']]],
  ['strategy', [['controllers.deployment', 'decides how the ReplicaSets are rolled']]],
  ['paused', [['controllers.deployment', 'a paused Deployment makes no ReplicaSet for a new template']]],
  ['revisionHistoryLimit', [['controllers.deployment', 'old ReplicaSets beyond it are deleted'], ['controllers.statefulset', 'old ControllerRevisions beyond it are deleted'], ['controllers.daemonset', 'old ControllerRevisions beyond it are deleted']]],
  ['updateStrategy', [['controllers.statefulset', 'rolling update from the highest ordinal, or OnDelete'], ['controllers.daemonset', 'maxUnavailable or maxSurge nodes at a time, or OnDelete']]],
  ['podManagementPolicy', [['controllers.statefulset', 'OrderedReady waits for each pod; Parallel does not']]],
  ['volumeClaimTemplates', [['controllers.statefulset', 'a claim per ordinal pod is made from each']]],
  ['persistentVolumeClaimRetentionPolicy', [['controllers.statefulset', 'whether claims are deleted with the pods']]],
  ['template', [['controllers.deployment', 'a new template makes a new ReplicaSet'], ['controllers.replicaset', 'each pod is made from it'], ['controllers.statefulset', 'each ordinal pod is made from it'], ['controllers.daemonset', 'a pod per node is made from it'], ['controllers.job', 'each pod is made from it']]],
  // The HorizontalPodAutoscaler's fields (pkg/controller/podautoscaler/horizontal.go reconcileAutoscaler, v1.36.3;
  // pkg/apis/autoscaling/validation/validation.go validateHorizontalPodAutoscalerSpec).
  ['scaleTargetRef', [['controllers.hpa', 'the workload whose scale subresource is read and written']]],
  ['minReplicas', [['apiserver.validate', 'at least 1'], ['controllers.hpa', 'the fewest replicas it scales to (1 when absent)']]],
  ['maxReplicas', [['apiserver.validate', 'at least 1 and no fewer than minReplicas'], ['controllers.hpa', 'the most replicas it scales to']]],
  ['metrics', [['apiserver.validate', 'each source must be complete and of its type'], ['controllers.hpa', 'each metric proposes a replica count; the largest wins (CPU at 80% when absent)']]],
  ['behavior', [['controllers.hpa', 'stabilization windows and scaling policies limit each change']]],
  // pkg/controller/volume/persistentvolume/pv_controller.go (reclaimVolume), v1.36.3.
  ['persistentVolumeReclaimPolicy', [['controllers.persistentvolume', 'once its claim is gone: Retain keeps the volume, Delete deletes it, Recycle scrubs it']]],
  ['schedule', [['apiserver.validate', 'must be a valid cron schedule'], ['controllers.cronjob', 'when each Job is made']]],
  ['concurrencyPolicy', [['controllers.cronjob', 'Allow, Forbid or Replace a Job still running']]],
  ['startingDeadlineSeconds', [['controllers.cronjob', 'a schedule time missed by more is skipped']]],
  ['successfulJobsHistoryLimit', [['controllers.cronjob', 'finished Jobs beyond it are deleted']]],
  ['failedJobsHistoryLimit', [['controllers.cronjob', 'failed Jobs beyond it are deleted']]],
  ['suspend', [['controllers.cronjob', 'no Job is made while suspended'], ['controllers.job', 'a suspended Job\'s pods are deleted']]],
  ['parallelism', [['controllers.job', 'how many pods run at once']]],
  ['completions', [['controllers.job', 'how many pods must succeed']]],
  ['completionMode', [['controllers.job', 'Indexed gives each pod its index']]],
  ['backoffLimit', [['controllers.job', 'the failures after which the Job fails']]],
  ['backoffLimitPerIndex', [['controllers.job', 'the failures after which an index fails']]],
  ['maxFailedIndexes', [['controllers.job', 'the failed indexes after which the Job fails']]],
  ['podFailurePolicy', [['controllers.job', 'rules that fail the Job, fail an index, ignore or count a failure']]],
  ['podReplacementPolicy', [['controllers.job', 'whether a terminating pod is replaced at once']]],
  ['successPolicy', [['apiserver.validate', 'Indexed only, 1 to 20 rules'], ['controllers.job', 'the indexes that make the Job succeed']]],
  ['ttlSecondsAfterFinished', [['controllers.job', 'a finished Job is deleted after it']]],
  ['activeDeadlineSeconds', [['controllers.job', 'a Job running longer fails (DeadlineExceeded)'], ['kubelet.containers', 'the kubelet kills a pod active longer'], ['kubelet.status', 'such a pod is Failed (DeadlineExceeded)']]],
  ['containers', [['apiserver.validate', 'names, images, ports and mounts are checked'], ['kubelet.containers', 'created and started in order'], ['kubelet.probes', 'each container\'s probes run'], ['kubelet.terminate', 'each container is stopped: SIGTERM, then SIGKILL']]],
  ['initContainers', [['apiserver.validate', 'names, images and mounts are checked'], ['kubelet.initContainers', 'run one by one before the containers'], ['kubelet.probes', 'a restartable one (a sidecar) is probed'], ['kubelet.terminate', 'sidecars are stopped after the containers']]],
  ['image', [['apiserver.validate', 'must be set'], ['apiserver.admit.mutating', 'AlwaysPullImages may force pulling it'], ['scheduler.score', 'ImageLocality favours the nodes that have it already'], ['kubelet.imagePull', 'pulled unless already on the node']]],
  ['imagePullPolicy', [['apiserver.admit.mutating', 'defaulted from the tag, or forced to Always'], ['kubelet.imagePull', 'decides whether to pull']]],
  ['imagePullSecrets', [['kubelet.imagePull', 'credentials for the registry']]],
  ['resources', [['apiserver.admit.validating', 'ResourceQuota and LimitRange check (and LimitRanger defaults) them'], ['scheduler.filter', 'NodeResourcesFit needs room for the requests'], ['scheduler.score', 'NodeResourcesFit scores the requests'], ['kubelet.admit', 'the node must still have room'], ['controllers.persistentvolume', 'a claim\'s storage request must fit the volume']]],
  ['resources.requests', [['apiserver.admit.validating', 'ResourceQuota counts them; LimitRange checks them against its min and max'], ['scheduler.filter', 'NodeResourcesFit: the node must have this much not yet requested'], ['scheduler.score', 'NodeResourcesFit and NodeResourcesBalancedAllocation score the node by them'], ['kubelet.admit', 'the node must still have room for them']]],
  ['resources.limits', [['apiserver.admit.mutating', 'LimitRanger fills in the namespace\'s default; requests default to them'], ['apiserver.admit.validating', 'ResourceQuota counts them; LimitRange checks them against its max'], ['kubelet.containers', 'the container\'s cgroup limit: CPU is throttled, memory over it is OOMKilled']]],
  ['nodeSelector', [['apiserver.admit.mutating', 'PodNodeSelector may merge the namespace\'s'], ['scheduler.filter', 'NodeAffinity keeps the nodes with these labels']]],
  ['affinity', [['scheduler.filter', 'NodeAffinity and InterPodAffinity keep the nodes that satisfy it'], ['scheduler.score', 'preferred terms add to a node\'s score']]],
  ['tolerations', [['apiserver.admit.mutating', 'DefaultTolerationSeconds adds the not-ready and unreachable ones'], ['scheduler.filter', 'TaintToleration drops the nodes whose taints are not tolerated'], ['scheduler.score', 'TaintToleration prefers nodes with fewer PreferNoSchedule taints to tolerate'], ['controllers.taintEviction', 'a NoExecute taint evicts the pod once its toleration runs out']]],
  ['taints', [['apiserver.admit.mutating', 'TaintNodesByCondition taints a new node not-ready'], ['controllers.nodeLifecycle', 'a node whose kubelet stops reporting is tainted unreachable']]],
  ['topologySpreadConstraints', [['scheduler.filter', 'PodTopologySpread keeps the skew'], ['scheduler.score', 'PodTopologySpread prefers even spread']]],
  ['nodeName', [['scheduler.queue', 'a pod with a node is not scheduled'], ['scheduler.filter', 'NodeName keeps only that node'], ['scheduler.bind', 'the binding sets it'], ['kubelet.admit', 'that node\'s kubelet runs it'], ['controllers.podgc', 'a pod bound to a node that does not exist is collected']]],
  ['schedulerName', [['scheduler.queue', 'only that scheduler takes the pod']]],
  ['priorityClassName', [['apiserver.admit.mutating', 'Priority sets spec.priority from the class'], ['scheduler.queue', 'orders the queue'], ['scheduler.postFilter', 'preemption may evict lower priorities']]],
  ['priority', [['apiserver.admit.mutating', 'Priority sets it from the PriorityClass'], ['scheduler.queue', 'orders the queue'], ['scheduler.postFilter', 'preemption may evict lower priorities']]],
  ['preemptionPolicy', [['scheduler.postFilter', 'Never forbids preempting others']]],
  ['resourceClaims', [['scheduler.filter', 'DynamicResources allocates the claims on a node'], ['scheduler.postFilter', 'claims allocated for an unschedulable pod are deallocated']]],
  ['serviceAccountName', [['apiserver.admit.mutating', 'ServiceAccount checks it exists and mounts its token'], ['kubelet.volumes', 'the token volume is mounted']]],
  ['runtimeClassName', [['apiserver.admit.mutating', 'RuntimeClass adds its overhead and scheduling'], ['kubelet.sandbox', 'the handler runs the sandbox']]],
  ['securityContext', [['apiserver.admit.validating', 'PodSecurity checks it against the namespace\'s level'], ['kubelet.containers', 'applied to the processes']]],
  ['hostNetwork', [['apiserver.admit.validating', 'PodSecurity baseline forbids it'], ['kubelet.network', 'no pod IP of its own'], ['kubelet.cleanup', 'no network of its own to tear down']]],
  ['hostPID', [['apiserver.admit.validating', 'PodSecurity baseline forbids it']]],
  ['hostIPC', [['apiserver.admit.validating', 'PodSecurity baseline forbids it']]],
  ['ports', [['scheduler.filter', 'NodePorts needs the host ports free'], ['controllers.endpoints', 'named ports resolve Service target ports']]],
  ['volumes', [['scheduler.filter', 'volume plugins check where the volumes can attach'], ['scheduler.score', 'VolumeBinding scores the nodes for the claims to bind'], ['kubelet.volumes', 'mounted before the containers start'], ['kubelet.cleanup', 'unmounted once the containers stop']]],
  ['volumeMounts', [['apiserver.validate', 'each must name a volume of the pod'], ['kubelet.volumes', 'mounted into the container']]],
  ['storageClassName', [['scheduler.filter', 'VolumeBinding waits for a consumer with WaitForFirstConsumer'], ['controllers.persistentvolume', 'a claim binds to a volume of its class']]],
  ['volumeName', [['controllers.persistentvolume', 'the volume a claim is bound to']]],
  ['env', [['kubelet.containers', 'set in the container\'s environment'], ['kubelet.initContainers', 'set in the init container\'s environment']]],
  ['envFrom', [['kubelet.containers', 'set in the container\'s environment']]],
  ['command', [['kubelet.containers', 'the process the container starts']]],
  ['args', [['kubelet.containers', 'the arguments of that process']]],
  ['startupProbe', [['kubelet.probes', 'holds the other probes back until it passes']]],
  ['readinessProbe', [['kubelet.probes', 'sets the Ready condition'], ['controllers.endpoints', 'only ready pods receive traffic']]],
  ['livenessProbe', [['kubelet.probes', 'a failing one restarts the container']]],
  ['lifecycle.postStart', [['kubelet.containers', 'runs right after the container starts']]],
  ['lifecycle.preStop', [['kubelet.containers', 'checked when the container is made'], ['kubelet.preStop', 'runs before SIGTERM, inside the grace period']]],
  ['restartPolicy', [['apiserver.validate', 'must be allowed for the kind'], ['kubelet.initContainers', 'Always makes an init container a sidecar'], ['kubelet.containers', 'decides whether exited containers restart'], ['kubelet.status', 'decides when the pod is Succeeded or Failed']]],
  ['terminationGracePeriodSeconds', [['apiserver.delete', 'the grace period of a delete that gives none'], ['kubelet.terminate', 'time between SIGTERM and SIGKILL']]],
  ['dnsPolicy', [['kubelet.sandbox', 'writes the pod\'s resolv.conf']]],
  ['spec.minAvailable', [['controllers.disruption', 'desiredHealthy: that many pods, or that share of the controllers\' scale rounded up'], ['apiserver.evict', 'an eviction that would leave fewer healthy pods is refused with 429']]],
  ['spec.maxUnavailable', [['controllers.disruption', 'desiredHealthy is the controllers\' scale less this (a percentage rounded up)'], ['apiserver.evict', 'an eviction beyond it is refused with 429']]],
  ['unhealthyPodEvictionPolicy', [['apiserver.evict', 'AlwaysAllow lets an unready pod be evicted whatever the budget; IfHealthyBudget only while the budget is healthy']]],
];

/**
 * KIND_FIELD_READERS narrow the map for hover where one kind reads a field another kind reads differently: a
 * PodDisruptionBudget's selector picks the pods it guards (pkg/controller/disruption/disruption.go getPodsForPdb), a
 * DaemonSet's and a StatefulSet's updateStrategy are read by their own controller only (v1.36.3).
 */
const KIND_FIELD_READERS: Readonly<Record<string, readonly Entry[]>> = {
  PodDisruptionBudget: [['spec.selector', [['controllers.disruption', 'the pods the budget counts'], ['apiserver.evict', 'an evicted pod it selects takes one of its allowed disruptions']]]],
  DaemonSet: [['updateStrategy', [['controllers.daemonset', 'maxUnavailable or maxSurge nodes at a time, or OnDelete']]]],
  StatefulSet: [['updateStrategy', [['controllers.statefulset', 'rolling update from the highest ordinal, or OnDelete']]]],
};

/** plainPath is a field path with its list indexes removed: `spec.containers[0].image` → `spec.containers.image`. */
function plainPath(path: string): string {
  return path.replace(/\[[^\]]*\]/g, '');
}

/** entryOf is the map's entry for a field path itself (its last keys), undefined when the map does not name it. */
function entryOf(path: string, entries: readonly Entry[] = FIELD_READERS): Entry | undefined {
  const plain = plainPath(path);
  let best: Entry | undefined;
  // The longest pattern that matches wins: `resources.requests` over `requests` alone.
  for (const entry of entries) {
    const [pattern] = entry;
    if ((plain === pattern || plain.endsWith(`.${pattern}`)) && (!best || pattern.length > best[0].length)) best = entry;
  }
  return best;
}

/** parentPath is the path of the field that holds one: `a.b[0].c` → `a.b[0]`, `a.b[0]` → `a.b`; undefined at the top. */
function parentPath(path: string): string | undefined {
  const m = /^(.*)(?:\.[^.[\]]+|\[[^\]]*\])$/.exec(path);
  return m ? m[1] : undefined;
}

/**
 * readersOf lists the phases that read a field, for hover: the map's entry for the field, or else for the nearest map
 * that holds it (a `cpu:` under `requests` is read where `resources.requests` is), but never the entry of a list
 * that holds it (a container's `name:` is not read by everything that reads `containers`). With the document's kind,
 * that kind's own entries come first.
 */
export function readersOf(path: string, kind?: string): FieldReader[] {
  const own = kind ? KIND_FIELD_READERS[kind] : undefined;
  for (let p: string | undefined = path; p; p = parentPath(p)) {
    if (p !== path && /\]$/.test(p)) return [];
    const entry = (own && entryOf(p, own)) ?? entryOf(p);
    if (entry) return entry[1].map(([phase, what]) => ({ phase, what }));
  }
  return [];
}

/**
 * phaseReads tells whether the map says a phase reads a field: the field's own entry, or the entry of a field that
 * holds it (a step of NodeAffinity reading `spec.affinity.nodeAffinity.required...` reads `affinity`; the API server's
 * validation of `spec.containers[0].ports[0].protocol` reads `containers`). Line breakpoints stop only where it does.
 */
export function phaseReads(phase: string, path: string): boolean {
  for (let p: string | undefined = path; p; p = parentPath(p)) {
    if (entryOf(p)?.[1].some(([reader]) => reader === phase)) return true;
    if (Object.values(KIND_FIELD_READERS).some((own) => entryOf(p, own)?.[1].some(([reader]) => reader === phase))) return true;
  }
  return false;
}
