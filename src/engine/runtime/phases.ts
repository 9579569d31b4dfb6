// The catalog of lifecycle phases: the names breakpoints use, their aliases and the component that runs each.

/** Component is the Kubernetes program that runs a phase. */
export type Component = 'kubectl' | 'kube-apiserver' | 'etcd' | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet' | 'kube-proxy';

/** PhaseInfo describes one phase: its breakpoint name, who runs it and what it does. */
export interface PhaseInfo {
  name: PhaseName;
  component: Component;
  stage: 'create' | 'delete' | 'both';
  summary: string;
}

/** PHASES lists every phase in the order a create (then a delete) reaches them. */
export const PHASES = [
  { name: 'kubectl.generate', component: 'kubectl', stage: 'create', summary: 'kubectl reads its command line; kubectl run and kubectl create deployment|job generate the object they will send' },
  { name: 'kubectl.validate', component: 'kubectl', stage: 'both', summary: 'kubectl parses the manifest, maps its kind to a resource and sends the request' },
  { name: 'kubectl.drain', component: 'kubectl', stage: 'both', summary: 'kubectl cordon, uncordon and drain: the node marked (un)schedulable, its pods filtered, each evicted through the Eviction API (retried every 5 s while a disruption budget refuses) and waited for until it is gone' },
  { name: 'apiserver.authenticate', component: 'kube-apiserver', stage: 'both', summary: 'the authenticators establish who sent the request' },
  { name: 'apiserver.authorize', component: 'kube-apiserver', stage: 'both', summary: 'the authorizers decide whether that user may do it' },
  { name: 'apiserver.admit.mutating', component: 'kube-apiserver', stage: 'create', summary: 'defaulting and the mutating admission plugins change the object' },
  { name: 'apiserver.validate', component: 'kube-apiserver', stage: 'create', summary: 'the object is checked against the API validation rules' },
  { name: 'apiserver.admit.validating', component: 'kube-apiserver', stage: 'create', summary: 'the validating admission plugins accept or refuse the object' },
  { name: 'etcd.persist', component: 'etcd', stage: 'create', summary: 'the object is stored with its uid, resourceVersion and creation time' },
  { name: 'watch', component: 'kube-apiserver', stage: 'both', summary: 'the watch cache tells each component\'s informers of a stored change (run with watches on): who sees ADDED, MODIFIED or DELETED through its selectors, and when it is delivered' },
  { name: 'controllers.deployment', component: 'kube-controller-manager', stage: 'create', summary: 'the deployment controller creates or scales the ReplicaSet' },
  { name: 'controllers.replicaset', component: 'kube-controller-manager', stage: 'create', summary: 'the replicaset controller creates the pods' },
  { name: 'controllers.statefulset', component: 'kube-controller-manager', stage: 'create', summary: 'the statefulset controller records the template revision and creates each ordinal\'s claims and pod in order' },
  { name: 'controllers.daemonset', component: 'kube-controller-manager', stage: 'create', summary: 'the daemonset controller records the template revision and creates one pod per eligible node' },
  { name: 'controllers.persistentvolume', component: 'kube-controller-manager', stage: 'create', summary: 'the persistentvolume controller binds claims to volumes' },
  { name: 'controllers.job', component: 'kube-controller-manager', stage: 'both', summary: 'the job controller creates the pods, counts completions and failures and finishes the Job' },
  { name: 'controllers.cronjob', component: 'kube-controller-manager', stage: 'create', summary: 'the cronjob controller creates a Job at each schedule time and deletes the finished ones beyond the history limits' },
  { name: 'controllers.hpa', component: 'kube-controller-manager', stage: 'create', summary: 'the horizontal pod autoscaler reads its target\'s scale and its pods\' CPU and memory usage every 15 s, proposes a replica count, stabilizes and limits it by spec.behavior and min/max replicas, and writes the scale' },
  { name: 'controllers.garbagecollector', component: 'kube-controller-manager', stage: 'delete', summary: 'the garbage collector deletes or orphans the dependents of a deleted owner' },
  { name: 'scheduler.queue', component: 'kube-scheduler', stage: 'create', summary: 'the pod enters the scheduling queue' },
  { name: 'scheduler.filter', component: 'kube-scheduler', stage: 'create', summary: 'the filter plugins remove the nodes the pod cannot run on' },
  { name: 'scheduler.postFilter', component: 'kube-scheduler', stage: 'create', summary: 'no node fits: preemption looks for victims' },
  { name: 'scheduler.score', component: 'kube-scheduler', stage: 'create', summary: 'the score plugins rank the feasible nodes' },
  { name: 'scheduler.bind', component: 'kube-scheduler', stage: 'create', summary: 'the pod is bound to the chosen node' },
  { name: 'kubelet.admit', component: 'kubelet', stage: 'create', summary: 'the kubelet checks that the pod fits the node' },
  { name: 'kubelet.volumes', component: 'kubelet', stage: 'create', summary: 'the volumes are attached and mounted' },
  { name: 'kubelet.sandbox', component: 'kubelet', stage: 'create', summary: 'the runtime creates the pod sandbox (pause container)' },
  { name: 'kubelet.network', component: 'kubelet', stage: 'create', summary: 'the CNI plugin gives the pod its IP' },
  { name: 'kubelet.imagePull', component: 'kubelet', stage: 'create', summary: 'the image of a container is pulled' },
  { name: 'kubelet.initContainers', component: 'kubelet', stage: 'create', summary: 'the init containers run one by one' },
  { name: 'kubelet.containers', component: 'kubelet', stage: 'create', summary: 'the containers are created and started' },
  { name: 'kubelet.probes', component: 'kubelet', stage: 'create', summary: 'the startup, readiness and liveness probes run' },
  { name: 'kubelet.status', component: 'kubelet', stage: 'both', summary: 'the kubelet reports the pod status' },
  { name: 'controllers.endpoints', component: 'kube-controller-manager', stage: 'both', summary: 'the endpoints of the Services that select the pod are updated' },
  { name: 'kubeproxy.sync', component: 'kube-proxy', stage: 'both', summary: 'kube-proxy on every node rewrites its iptables rules: which endpoints each Service sends new connections to' },
  { name: 'controllers.nodeLifecycle', component: 'kube-controller-manager', stage: 'both', summary: 'a node that stopped sending heartbeats turns Unknown, its pods lose Ready and it is tainted unreachable' },
  { name: 'controllers.taintEviction', component: 'kube-controller-manager', stage: 'both', summary: 'pods that do not tolerate (or no longer tolerate) a NoExecute taint are deleted' },
  { name: 'controllers.podgc', component: 'kube-controller-manager', stage: 'both', summary: 'pods bound to a node that no longer exists are marked Failed and force-deleted' },
  { name: 'controllers.disruption', component: 'kube-controller-manager', stage: 'both', summary: 'the disruption controller counts the pods a PodDisruptionBudget selects, expects and has healthy, and writes how many disruptions it allows' },
  { name: 'apiserver.evict', component: 'kube-apiserver', stage: 'both', summary: 'the eviction subresource checks the pod\'s PodDisruptionBudget, takes one disruption from it (or refuses with 429), marks the pod DisruptionTarget and deletes it' },
  { name: 'apiserver.delete', component: 'kube-apiserver', stage: 'delete', summary: 'the delete request marks the pod with its deletion time and grace period' },
  { name: 'kubelet.preStop', component: 'kubelet', stage: 'delete', summary: 'the preStop hooks run inside the grace period' },
  { name: 'kubelet.terminate', component: 'kubelet', stage: 'delete', summary: 'SIGTERM, the grace period and SIGKILL' },
  { name: 'kubelet.cleanup', component: 'kubelet', stage: 'delete', summary: 'volumes, network and sandbox are torn down' },
  { name: 'apiserver.finalize', component: 'kube-apiserver', stage: 'delete', summary: 'finalizers are checked and the object is removed from storage' },
] as const satisfies readonly { name: string; component: Component; stage: string; summary: string }[];

/** PhaseName is the name of one phase, as breakpoints and the trace write it. */
export type PhaseName = (typeof PHASES)[number]['name'];

/** PHASE_ALIASES maps the short breakpoint names to phases. */
export const PHASE_ALIASES: Readonly<Record<string, PhaseName>> = {
  authn: 'apiserver.authenticate',
  authz: 'apiserver.authorize',
  admission: 'apiserver.admit.mutating',
  validation: 'apiserver.validate',
  filter: 'scheduler.filter',
  score: 'scheduler.score',
  bind: 'scheduler.bind',
  sandbox: 'kubelet.sandbox',
  init: 'kubelet.initContainers',
  preStop: 'kubelet.preStop',
};

const PHASE_NAMES: ReadonlySet<string> = new Set(PHASES.map((p) => p.name));

/** isPhaseName tells whether a string is one of the catalog's phase names. */
export function isPhaseName(name: string): name is PhaseName {
  return PHASE_NAMES.has(name);
}

/** phaseInfo returns the catalog entry of a phase. */
export function phaseInfo(name: PhaseName): PhaseInfo {
  return PHASES.find((p) => p.name === name)!;
}

/**
 * matchPhases resolves a breakpoint name — a phase, an alias or a `prefix.*` — to the phases it
 * names; an empty list means the name matches nothing. The `admission` alias names both admission phases.
 */
export function matchPhases(pattern: string): PhaseName[] {
  const p = pattern.trim();
  if (p === 'admission') return ['apiserver.admit.mutating', 'apiserver.admit.validating'];
  const alias = PHASE_ALIASES[p];
  if (alias) return [alias];
  if (isPhaseName(p)) return [p];
  if (p.endsWith('*')) {
    const prefix = p.slice(0, -1);
    return PHASES.filter((ph) => ph.name.startsWith(prefix)).map((ph) => ph.name);
  }
  return [];
}
