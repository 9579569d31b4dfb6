// The DaemonSet controller's creation path: it records the template as a ControllerRevision, works out which nodes
// should run a daemon pod (the node's taints against the pod's tolerations, the template's nodeSelector and required
// node affinity, spec.nodeName), creates one pod per such node that has none — pinned to its node by a matchFields
// node affinity, with the daemon tolerations added — in slow-start batches, and reports the DaemonSet's status.
// Rolling updates, the deletion of failed, surplus or misscheduled pods and the history cleanup are not simulated: a
// sync that would need them says so and stops.
// See pkg/controller/daemon/daemon_controller.go (syncDaemonSet, manage, podsShouldBeOnNode, syncNodes,
// getNodesToDaemonPods, updateDaemonSetStatus, storeDaemonSetStatus, NodeShouldRunDaemonPod, predicates, NewPod),
// update.go (constructHistory, snapshot, getPatch, Match) and util/daemonset_util.go (CreatePodTemplate,
// AddOrUpdateDaemonPodTolerations, ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName) at kubernetes v1.36.3.
import { matchesLabelSelector } from '../api/labels';
import { computePodTemplateHash } from '../api/naming';
import type { Affinity, KubeObject, LabelSelector, Node, NodeSelectorRequirement, Pod, PodSpec, PodTemplateSpec, Toleration } from '../api/types';
import { deepClone } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { Store } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { findMatchingUntoleratedTaint } from '../scheduler/framework/taints';
import { getRequiredNodeAffinity, matchRequired } from '../scheduler/plugins/nodeaffinity';
import { ControllerClient } from './client';
import { claimObjects } from './controller-ref';
import { controllerOf, controllerRef } from './owner';
import { asObject, isPodAvailable, isPodReady, isPodTerminal, mergeByName } from './pods';
import { createPods, podFromTemplate } from './replicaset';
import { type ControllerRevision, revisionRaw, statefulSetPatch } from './statefulset-revision';

const PHASE = 'controllers.daemonset' as const;

/** DAEMONSET_CONTROLLER is the source of its events (EventSource{Component: "daemonset-controller"}). */
export const DAEMONSET_CONTROLLER = 'daemonset-controller';

/** DAEMONSET_SERVICE_ACCOUNT is the service account kube-controller-manager runs it as (cmd/kube-controller-manager/app/apps.go). */
export const DAEMONSET_SERVICE_ACCOUNT = 'daemon-set-controller';

/** BURST_REPLICAS is daemon.BurstReplicas: the most pods one sync creates. */
const BURST_REPLICAS = 250;

/** DAEMONSET_HASH_LABEL is apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const DAEMONSET_HASH_LABEL = 'controller-revision-hash';

/** TEMPLATE_GENERATION_LABEL is extensions.DaemonSetTemplateGenerationKey. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

/** TEMPLATE_GENERATION_ANNOTATION is apps.DeprecatedTemplateGeneration: spec.templateGeneration as apps/v1 carries it. */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** DaemonSet is an apps/v1 DaemonSet as the store holds it. */
export interface DaemonSet extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    minReadySeconds?: number;
    updateStrategy?: { type?: string };
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
function templateGeneration(ds: DaemonSet): number | undefined {
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
  const name = node.metadata?.name ?? '';
  const templateSpec = ds.spec?.template?.spec;
  if (templateSpec?.nodeName && templateSpec.nodeName !== name) return [false, false];
  const pod: Pod = { metadata: { ...ds.spec?.template?.metadata, namespace: ds.metadata?.namespace }, spec: { ...(templateSpec ?? { containers: [] }), nodeName: name } };
  pod.spec!.tolerations = daemonTolerations(pod.spec!);
  // predicates: fitsNodeName is always true here (the pod's nodeName is the node's).
  if (!matchRequired(getRequiredNodeAffinity(pod), node)) return [false, false];
  const taints = node.spec?.taints;
  const untolerated = findMatchingUntoleratedTaint(taints, pod.spec!.tolerations, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule');
  if (untolerated) return [false, !findMatchingUntoleratedTaint(taints, pod.spec!.tolerations, (t) => t.effect === 'NoExecute')];
  return [true, true];
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

/** daemonSetHash is controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount), the revision's hash. */
function daemonSetHash(ds: DaemonSet): string {
  const collisions = typeof ds.status?.['collisionCount'] === 'number' ? ds.status['collisionCount'] : undefined;
  return computePodTemplateHash(ds.spec?.template ?? {}, collisions);
}

/** controlledHistories: the ControllerRevisions the DaemonSet controls that its selector matches (adoption not simulated). */
function controlledHistories(store: Store, ds: DaemonSet): ControllerRevision[] {
  return store.list<ControllerRevision>('ControllerRevision', ds.metadata?.namespace)
    .filter((r) => controllerOf(r)?.uid === ds.metadata?.uid && matchesLabelSelector(ds.spec?.selector, r.metadata?.labels));
}

/**
 * daemonSetTemplateChanged tells whether a stored DaemonSet has revisions and none of them is its template (Match:
 * the revision's data equals getPatch): a new template, which the controller here does not roll out.
 */
export function daemonSetTemplateChanged(store: Store, ds: DaemonSet): boolean {
  const histories = controlledHistories(store, ds);
  if (histories.length === 0) return false;
  const patch = statefulSetPatch(ds);
  return !histories.some((h) => revisionRaw(h) === patch);
}

/** History is constructHistory's answer for the creation path: the current revision's hash, or why it stops. */
type History = { hash: string } | { stop: string } | { error: string };

/**
 * constructHistory for the creation path: a revision whose data is the template's patch is current; with none, one
 * is made by snapshot — `<ds>-<hash>`, the template's labels plus controller-revision-hash, the DaemonSet's
 * annotations, revision max(old)+1. A template that matches no revision while others exist is an update: not simulated.
 */
function* constructHistory(ctx: EngineContext, client: ControllerClient, ds: DaemonSet): Steps<History> {
  const histories = controlledHistories(ctx.store, ds);
  const patch = statefulSetPatch(ds);
  const current = histories.filter((h) => revisionRaw(h) === patch);
  if (current.length > 0) {
    const cur = current.sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0]!;
    return { hash: cur.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? cur.metadata?.name ?? '' };
  }
  if (histories.length > 0) {
    return { stop: 'the pod template differs from every revision of this DaemonSet: updating a DaemonSet\'s template (a rolling update) is not simulated yet, so the controller stops here' };
  }
  const hash = daemonSetHash(ds);
  const name = `${ds.metadata?.name}-${hash}`;
  const annotations = ds.metadata?.annotations ?? {};
  const revision: ControllerRevision = {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name, namespace: ds.metadata?.namespace,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [DAEMONSET_HASH_LABEL]: hash },
      ...(Object.keys(annotations).length ? { annotations: { ...annotations } } : {}),
      ownerReferences: [controllerRef(ds)],
    },
    data: JSON.parse(patch) as unknown,
    revision: 1,
  };
  const out = yield* client.create(revision, dsRef(ds));
  if (out.ok) {
    yield {
      phase: PHASE, object: dsRef(ds), field: 'spec.template', step: { kind: 'object', name },
      result: `created ControllerRevision ${name} (revision 1): the template's history, named for its hash (controller-revision-hash ${hash})`,
      detail: { revision: name, hash },
    };
    return { hash };
  }
  // snapshot: an AlreadyExists of a revision with this very patch is the current one; another is a hash collision,
  // which bumps status.collisionCount and fails the sync.
  if (out.error.status.reason === 'AlreadyExists') {
    const existing = ctx.store.get<ControllerRevision>('ControllerRevision', ds.metadata?.namespace, name);
    if (existing && revisionRaw(existing) === patch) return { hash };
    const collisionCount = (typeof ds.status?.['collisionCount'] === 'number' ? ds.status['collisionCount'] : 0) + 1;
    ctx.store.update<DaemonSet>('DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '', (o) => { o.status = { ...(o.status ?? {}), collisionCount }; });
    yield { phase: PHASE, object: dsRef(ds), field: 'status.collisionCount', result: `hash collision on ControllerRevision ${name}: collisionCount is now ${collisionCount}`, detail: { collisionCount } };
  }
  return { error: out.error.message };
}

/** syncDaemonSet is syncDaemonSet for one key (phase controllers.daemonset), the creation path. */
export function* syncDaemonSet(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<DaemonSetSyncResult> {
  const ds = ctx.store.get<DaemonSet>('DaemonSet', namespace, name);
  if (!ds) return {};
  const ref = dsRef(ds);
  const client = new ControllerClient(api, DAEMONSET_SERVICE_ACCOUNT);
  const nodes = ctx.store.list<Node>('Node');
  const selector = ds.spec?.selector;
  if (!selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)) {
    ctx.recorder.event({ type: 'Warning', reason: 'SelectingAll', object: ref, source: DAEMONSET_CONTROLLER, message: 'This daemon set is selecting all pods. A non-empty selector is required.' });
    return {};
  }
  if (ds.metadata?.deletionTimestamp) return {};

  const history = yield* constructHistory(ctx, client, ds);
  if ('error' in history) return { error: `failed to construct revisions of DaemonSet: ${history.error}` };
  if ('stop' in history) {
    yield { phase: PHASE, object: ref, field: 'spec.template', result: history.stop, detail: {}, outcome: 'waiting' };
    return {};
  }
  const { hash } = history;

  // getDaemonPods: the pods it controls and the namespace's orphans go through ClaimPods; getNodesToDaemonPods maps
  // them by target node, leaving out those terminal and being deleted.
  const owned = ctx.store.byIndex<Pod>('controller', ds.metadata?.uid ?? '', 'Pod');
  const orphans = ctx.store.byIndex<Pod>('orphan', `Pod/${namespace}`, 'Pod');
  const claim = { ctx, client, controller: asObject(ds), selector, phase: PHASE, ref };
  const pods = (yield* claimObjects(claim, mergeByName(owned, orphans).map(asObject))) as unknown as Pod[];
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }

  // manage / podsShouldBeOnNode: a node that should run a daemon pod and has none needs one.
  const needing: string[] = [];
  const notSimulated: string[] = [];
  const eligibility: Record<string, string> = {};
  for (const node of nodes) {
    const nodeName = node.metadata?.name ?? '';
    const [shouldRun, shouldContinue] = nodeShouldRunDaemonPod(node, ds);
    const existing = byNode.get(nodeName);
    eligibility[nodeName] = shouldRun ? (existing ? 'has its daemon pod' : 'needs a daemon pod') : 'should not run a daemon pod';
    if (shouldRun && !existing) needing.push(nodeName);
    else if (existing) {
      // podsShouldBeOnNode would delete: every pod of a node that should not keep one, a Failed or Succeeded pod,
      // or all but the oldest of several running ones.
      const live = existing.filter((p) => !p.metadata?.deletionTimestamp);
      const finished = live.filter((p) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded');
      if ((!shouldContinue && live.length > 0) || finished.length > 0 || live.length - finished.length > 1) notSimulated.push(nodeName);
    }
  }
  if (needing.length > 0) {
    yield {
      phase: PHASE, object: ref, field: 'spec.template.spec',
      result: `${needing.length} of ${nodes.length} nodes need a daemon pod: ${needing.join(', ')}`,
      detail: { nodes: eligibility, needing },
    };
  }
  if (notSimulated.length) {
    yield {
      phase: PHASE, object: ref, field: 'spec.template.spec',
      result: `the daemon pods on ${notSimulated.join(', ')} would be deleted (failed, succeeded, surplus or no longer fitting the node): deleting daemon pods is not simulated yet`,
      detail: { nodes: notSimulated }, outcome: 'waiting',
    };
  }

  // syncNodes: at most BurstReplicas creations, in slow-start batches; the template is CreatePodTemplate's, each
  // pod pinned to its node by ReplaceDaemonSetPodNodeNameNodeAffinity; events as RealPodControl.CreatePods records them.
  let error: string | undefined;
  const toCreate = needing.slice(0, BURST_REPLICAS);
  if (toCreate.length > 0) {
    const template = daemonPodTemplate(ds, hash);
    let i = 0;
    const make = (): Pod => {
      const pod = podFromTemplate(ds, template);
      pod.spec = { ...pod.spec!, affinity: replaceNodeNameAffinity(pod.spec?.affinity, toCreate[i++]!) };
      return pod;
    };
    const created = yield* createPods(ctx, client, ds, toCreate.length, make, PHASE, DAEMONSET_CONTROLLER);
    error = created.error;
  }

  // updateDaemonSetStatus counts the pods the sync started with: those it just created are not seen yet.
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let desired = 0, current = 0, misscheduled = 0, ready = 0, updated = 0, available = 0;
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
    const daemonPods = byNode.get(node.metadata?.name ?? '') ?? [];
    if (!shouldRun) {
      if (daemonPods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (daemonPods.length === 0) continue;
    current++;
    const pod = oldestPod(daemonPods);
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(ctx.clock, pod, minReady)) available++;
    }
    // IsPodUpdated: the hash label, or the template generation label, is the DaemonSet's.
    const labels = pod.metadata?.labels ?? {};
    if ((hash && labels[DAEMONSET_HASH_LABEL] === hash) || (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === String(generation))) updated++;
  }
  const unavailable = desired - available;
  const old = ds.status ?? {};
  const num = (k: string): number => (typeof old[k] === 'number' ? old[k] : 0);
  const observed = ds.metadata?.generation ?? 0;
  if (num('desiredNumberScheduled') !== desired || num('currentNumberScheduled') !== current || num('numberMisscheduled') !== misscheduled
    || num('numberReady') !== ready || num('updatedNumberScheduled') !== updated || num('numberAvailable') !== available
    || num('numberUnavailable') !== unavailable || num('observedGeneration') < observed) {
    // DaemonSetStatus as json.Marshal writes it: the four counts always, the rest omitempty, in the struct's order.
    const status: Record<string, unknown> = { currentNumberScheduled: current, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: ready };
    if (observed) status['observedGeneration'] = observed;
    if (updated) status['updatedNumberScheduled'] = updated;
    if (available) status['numberAvailable'] = available;
    if (unavailable) status['numberUnavailable'] = unavailable;
    if (old['collisionCount'] !== undefined) status['collisionCount'] = old['collisionCount'];
    if (old['conditions'] !== undefined) status['conditions'] = old['conditions'];
    ctx.store.update<DaemonSet>('DaemonSet', namespace, name, (o) => { o.status = status; });
    yield {
      phase: PHASE, object: ref, field: 'status',
      result: `status: ${desired} desired, ${current} scheduled, ${ready} ready, ${available} available, ${updated} updated, ${misscheduled} misscheduled`,
      detail: { status },
    };
  }
  if (error !== undefined) return { error };
  if (minReady > 0 && ready !== available) return { requeueAfterMs: minReady * 1000 };
  return {};
}

/** oldestPod is the first of podByCreationTimestampAndPhase: scheduled before unscheduled, then oldest, then by name. */
function oldestPod(pods: readonly Pod[]): Pod {
  return [...pods].sort((a, b) => {
    const an = a.spec?.nodeName ? 0 : 1;
    const bn = b.spec?.nodeName ? 0 : 1;
    if (an !== bn) return an - bn;
    const at = a.metadata?.creationTimestamp ?? '';
    const bt = b.metadata?.creationTimestamp ?? '';
    if (at !== bt) return at < bt ? -1 : 1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  })[0]!;
}
