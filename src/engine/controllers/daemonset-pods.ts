// The DaemonSet controller's pods: its DaemonSet type and constants, the pod it makes for a node (CreatePodTemplate's
// template pinned to the node, the daemon tolerations added), which nodes should run one (NodeShouldRunDaemonPod),
// the node a pod is for (GetTargetNodeName), the order of a node's pods, and syncNodes — the creations and deletions
// that manage and rollingUpdate decide, with RealPodControl's events.
// See pkg/controller/daemon/daemon_controller.go (NodeShouldRunDaemonPod, predicates, NewPod, syncNodes,
// podByCreationTimestampAndPhase), util/daemonset_util.go (CreatePodTemplate, AddOrUpdateDaemonPodTolerations,
// ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName, GetTemplateGeneration) and
// pkg/controller/controller_utils.go (RealPodControl.CreatePods, DeletePod) at kubernetes v1.36.3.
import type { Affinity, KubeObject, LabelSelector, Node, NodeSelectorRequirement, Pod, PodSpec, PodTemplateSpec, Toleration } from '../api/types';
import { deepClone } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { findMatchingUntoleratedTaint } from '../scheduler/framework/taints';
import { getRequiredNodeAffinity, matchRequired } from '../scheduler/plugins/nodeaffinity';
import type { ControllerClient } from './client';
import { createPods, deletePods, podFromTemplate } from './replicaset';

export const PHASE = 'controllers.daemonset' as const;

/** DAEMONSET_CONTROLLER is the source of its events (EventSource{Component: "daemonset-controller"}). */
export const DAEMONSET_CONTROLLER = 'daemonset-controller';

/** DAEMONSET_SERVICE_ACCOUNT is the service account kube-controller-manager runs it as (cmd/kube-controller-manager/app/apps.go). */
export const DAEMONSET_SERVICE_ACCOUNT = 'daemon-set-controller';

/** BURST_REPLICAS is daemon.BurstReplicas: the most pods one sync creates, and the most it deletes (syncNodes). */
const BURST_REPLICAS = 250;

/** DAEMONSET_HASH_LABEL is apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const DAEMONSET_HASH_LABEL = 'controller-revision-hash';

/** TEMPLATE_GENERATION_LABEL is extensions.DaemonSetTemplateGenerationKey. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

/** TEMPLATE_GENERATION_ANNOTATION is apps.DeprecatedTemplateGeneration: spec.templateGeneration as apps/v1 carries it. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** DaemonSet is an apps/v1 DaemonSet as the store holds it. */
export interface DaemonSet extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    minReadySeconds?: number;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
    revisionHistoryLimit?: number;
  };
  status?: Record<string, unknown>;
}

/** DaemonSetSyncResult: the sync's error (requeued rate-limited), or a later resync for minReadySeconds. */
export interface DaemonSetSyncResult {
  error?: string;
  requeueAfterMs?: number;
}

/** dsRef is the trace and event reference of a DaemonSet: `DaemonSet/<namespace>/<name>`. */
export function dsRef(ds: KubeObject): string {
  return `DaemonSet/${ds.metadata?.namespace}/${ds.metadata?.name}`;
}

/**
 * daemonTolerations is AddOrUpdateDaemonPodTolerations: each toleration in turn through AddOrUpdateTolerationInPodSpec —
 * one matching it (same key, operator, value and effect) is replaced in place unless already equal, else it is appended.
 */
export function daemonTolerations(spec: PodSpec): Toleration[] {
  const wanted: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ...(spec.hostNetwork ? [{ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }] : []),
  ];
  let tolerations: Toleration[] = [...(spec.tolerations ?? [])];
  // Toleration.MatchToleration: key, operator, value and effect all equal.
  const matches = (a: Toleration, b: Toleration): boolean =>
    (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
  for (const t of wanted) {
    const at = tolerations.findIndex((u) => matches(t, u));
    if (at < 0) tolerations = [...tolerations, { ...t }];
    else if (tolerations[at]!.tolerationSeconds !== undefined && tolerations[at]!.tolerationSeconds !== null) {
      // Not semantically equal (a tolerationSeconds the added one lacks): replaced by the added one.
      tolerations = tolerations.map((u, i) => (i === at ? { ...t } : u));
    }
  }
  return tolerations;
}

/**
 * replaceNodeNameAffinity is ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes the single
 * term `matchFields metadata.name In [node]` — every existing required term is replaced; the preferred terms stay.
 */
export function replaceNodeNameAffinity(affinity: Affinity | undefined, node: string): Affinity {
  const req: NodeSelectorRequirement = { key: 'metadata.name', operator: 'In', values: [node] };
  const selector = { nodeSelectorTerms: [{ matchFields: [req] }] };
  if (!affinity) return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: selector } };
  if (!affinity.nodeAffinity) return { ...affinity, nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: selector } };
  const required = affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    ...affinity,
    nodeAffinity: { ...affinity.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required ? { ...required, nodeSelectorTerms: [{ matchFields: [req] }] } : selector },
  };
}

/** templateGeneration is GetTemplateGeneration: the annotation's value, or undefined when missing or not a number. */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const value = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

/**
 * daemonPodTemplate is CreatePodTemplate: the daemon tolerations added, then the labels pod-template-generation (when
 * the DaemonSet has a template generation) and controller-revision-hash (when there is a hash).
 */
export function daemonPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const template = deepClone(ds.spec?.template ?? {});
  const spec = template.spec ?? { containers: [] };
  template.spec = { ...spec, tolerations: daemonTolerations(spec) };
  const labels: Record<string, string> = { ...(template.metadata?.labels ?? {}) };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = String(generation);
  if (hash) labels[DAEMONSET_HASH_LABEL] = hash;
  template.metadata = { ...template.metadata, labels };
  return template;
}

/**
 * nodeShouldRunDaemonPod is NodeShouldRunDaemonPod: [shouldRun, shouldContinueRunning] for the pod NewPod would make
 * (the template with spec.nodeName set to the node and the daemon tolerations). A template nodeName for another node,
 * or a nodeSelector / required node affinity the node does not match, is false, false; a NoSchedule or NoExecute
 * taint not tolerated is false, and true for continuing unless the taint is NoExecute.
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): [boolean, boolean] {
  const d = daemonPodFit(node, ds);
  return [d.shouldRun, d.shouldContinueRunning];
}

/**
 * daemonPodFit is NodeShouldRunDaemonPod with its reason: whether the daemon pod should run on the node, whether a
 * running one may stay, and why not (the template's nodeName, the node affinity or selector, the first untolerated
 * NoSchedule or NoExecute taint).
 */
export function daemonPodFit(node: Node, ds: DaemonSet): { shouldRun: boolean; shouldContinueRunning: boolean; why?: string } {
  const name = node.metadata?.name ?? '';
  const templateSpec = ds.spec?.template?.spec;
  if (templateSpec?.nodeName && templateSpec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false, why: `the pod template's nodeName is ${templateSpec.nodeName}` };
  const pod: Pod = { metadata: { ...ds.spec?.template?.metadata, namespace: ds.metadata?.namespace }, spec: { ...(templateSpec ?? { containers: [] }), nodeName: name } };
  pod.spec!.tolerations = daemonTolerations(pod.spec!);
  // predicates: fitsNodeName is always true here (the pod's nodeName is the node's).
  if (!matchRequired(getRequiredNodeAffinity(pod), node)) return { shouldRun: false, shouldContinueRunning: false, why: 'the node does not match the pod template\'s node selector or required node affinity' };
  const taints = node.spec?.taints;
  const untolerated = findMatchingUntoleratedTaint(taints, pod.spec!.tolerations, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule');
  if (untolerated) {
    return {
      shouldRun: false, shouldContinueRunning: !findMatchingUntoleratedTaint(taints, pod.spec!.tolerations, (t) => t.effect === 'NoExecute'),
      why: `the node's taint ${untolerated.key}${untolerated.value ? `=${untolerated.value}` : ''}:${untolerated.effect} is not tolerated`,
    };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** targetNodeName is GetTargetNodeName: spec.nodeName, else the value of the first `metadata.name In` matchFields requirement with one value. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In') return (f.values ?? []).length === 1 ? f.values![0] : undefined;
    }
  }
  return undefined;
}

/**
 * sortDaemonPods is sort.Sort(podByCreationTimestampAndPhase): scheduled before unscheduled, then oldest, then by
 * name.
 */
export function sortDaemonPods(pods: readonly Pod[]): Pod[] {
  return [...pods].sort((a, b) => {
    const an = a.spec?.nodeName ? 0 : 1;
    const bn = b.spec?.nodeName ? 0 : 1;
    if (an !== bn) return an - bn;
    const at = a.metadata?.creationTimestamp ?? '';
    const bt = b.metadata?.creationTimestamp ?? '';
    if (at !== bt) return at < bt ? -1 : 1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  });
}

/** PodToDelete is a pod syncNodes is to delete, with why (for the trace). */
export interface PodToDelete {
  pod: Pod;
  why: string;
}

/** SyncNodesResult: the aggregate error, and how many requests succeeded (the expectations still to be observed). */
export interface SyncNodesResult {
  error?: string;
  requests: number;
}

/**
 * syncNodes is syncNodes: at most BurstReplicas creations, in slow-start batches — CreatePodTemplate's template, each
 * pod pinned to its node by ReplaceDaemonSetPodNodeNameNodeAffinity — then at most BurstReplicas deletions; events as
 * RealPodControl records them ("Created pod: <name>", "Deleted pod: <name>", "Error creating: ...", "Error deleting:
 * ..."). A pod already gone (NotFound) is no error. The errors are aggregated (utilerrors.NewAggregate).
 * `requests` counts the creations and deletions that succeeded: SetExpectations leaves the DaemonSet's expectations
 * unsatisfied until the informer sees them, which updateDaemonSet reads before rollingUpdate.
 */
export function* syncNodes(ctx: EngineContext, client: ControllerClient, ds: DaemonSet, hash: string, toDelete: readonly PodToDelete[], nodes: readonly string[]): Steps<SyncNodesResult> {
  const errors: string[] = [];
  let requests = 0;
  const toCreate = nodes.slice(0, BURST_REPLICAS);
  if (toCreate.length > 0) {
    const template = daemonPodTemplate(ds, hash);
    let i = 0;
    const make = (): Pod => {
      const pod = podFromTemplate(ds, template);
      pod.spec = { ...pod.spec!, affinity: replaceNodeNameAffinity(pod.spec?.affinity, toCreate[i++]!) };
      return pod;
    };
    const created = yield* createPods(ctx, client, ds, toCreate.length, make, PHASE, DAEMONSET_CONTROLLER);
    requests += created.successes;
    if (created.error !== undefined) errors.push(created.error);
  }
  for (const { pod, why } of toDelete.slice(0, BURST_REPLICAS)) {
    let ok = true;
    yield* deletePods(ctx, client, ds, [pod], PHASE, DAEMONSET_CONTROLLER, why, (_p, message) => {
      ok = message === undefined;
      if (message !== undefined) errors.push(message);
    });
    if (ok) requests++;
  }
  return { ...(errors.length ? { error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` } : {}), requests };
}
