// The controller comparisons that need Ready pods, for the cases run on a reference cluster with its stand-in kubelet
// (refcluster --pods-run: bound pods Running and Ready at once, graceful deletes finished at once). The pod status the
// stand-in writes is its own, so no pod status field is compared here: only what the controllers do with Ready pods —
// a Deployment's rolling update, the disruption controller's budgets, the eviction API's refusal and kubectl drain's
// retries, the horizontal pod autoscaler without a metrics API.
import { diffValues, docsOf, normalize } from './common.mjs';
import { eventsFrom } from './compare-controllers.mjs';
import { refList } from './refcluster.mjs';

/** conditionsOf keeps a status's conditions without their times, by type. */
const conditionsOf = (s) => (s?.conditions ?? []).map((c) => normalize({ type: c.type, status: c.status, reason: c.reason, message: c.message }))
  .sort((a, b) => a.type.localeCompare(b.type));

/** pick keeps the listed fields of an object that are there. */
const pick = (o, keys) => Object.fromEntries(keys.filter((k) => o?.[k] !== undefined).map((k) => [k, o[k]]));

/** pushEventDiff adds the difference of two sets of event lines. */
function pushEventDiff(out, field, mine, theirs) {
  const onlyMine = mine.filter((e) => !theirs.includes(e)), onlyTheirs = theirs.filter((e) => !mine.includes(e));
  if (onlyMine.length || onlyTheirs.length) out.push({ field, engine: onlyMine, reference: onlyTheirs });
}

/**
 * compareRollout compares each Deployment of the manifest after its rolling update: the ScalingReplicaSet events in
 * the order they were recorded (the engine's by virtual time, the reference's by first timestamp and then by
 * resourceVersion, the order of their creation), the Deployment's status (conditions without times) and its
 * ReplicaSets (names, revision annotation, replicas and status).
 */
export function compareRollout({ ref, engine, objects, wanted, diffs }) {
  const deployments = wanted.filter((d) => d.kind === 'Deployment');
  if (!deployments.length) return;
  const out = diffs('rollout');
  const theirEvents = refList(ref, 'events').filter((e) => e.reason === 'ScalingReplicaSet')
    .sort((a, b) => Date.parse(a.firstTimestamp ?? 0) - Date.parse(b.firstTimestamp ?? 0) || Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
  const theirRS = refList(ref, 'replicasets'), theirDeploys = refList(ref, 'deployments');
  const statusKeys = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'];
  const deployView = (d) => d && { ...pick(d.status, statusKeys), conditions: conditionsOf(d.status) };
  const rsView = (list, ns, name) => list.filter((r) => r.metadata.namespace === ns && (r.metadata.ownerReferences ?? []).some((o) => o.kind === 'Deployment' && o.name === name))
    .map((r) => ({
      name: r.metadata.name, revision: r.metadata.annotations?.['deployment.kubernetes.io/revision'], replicas: r.spec?.replicas,
      status: pick(r.status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration']),
    })).sort((a, b) => a.name.localeCompare(b.name));
  for (const d of deployments) {
    const ns = d.metadata?.namespace ?? 'default', name = d.metadata?.name, key = `Deployment/${ns}/${name}`;
    const mineSeq = (engine.events ?? []).filter((e) => e.reason === 'ScalingReplicaSet' && e.object === key).map((e) => e.message);
    const theirSeq = theirEvents.filter((e) => e.involvedObject.namespace === ns && e.involvedObject.name === name).map((e) => e.message);
    if (!mineSeq.length && !theirSeq.length) out.push({ field: `${key} ScalingReplicaSet events`, engine: '(none)', reference: '(none)' });
    else if (JSON.stringify(mineSeq) !== JSON.stringify(theirSeq)) out.push({ field: `${key} ScalingReplicaSet events in order`, engine: mineSeq.join('\n'), reference: theirSeq.join('\n') });
    const mine = objects.find((o) => o.kind === 'Deployment' && o.metadata?.namespace === ns && o.metadata?.name === name);
    const theirs = theirDeploys.find((o) => o.metadata.namespace === ns && o.metadata.name === name);
    diffValues(deployView(mine), deployView(theirs), `${key} status`, out);
    diffValues(rsView(objects.filter((o) => o.kind === 'ReplicaSet'), ns, name), rsView(theirRS, ns, name), `ReplicaSets of ${key}`, out);
  }
}

/**
 * compareDisruption compares each PodDisruptionBudget of the manifest: its status (currentHealthy, desiredHealthy,
 * disruptionsAllowed, expectedPods, observedGeneration, how many disruptedPods, conditions without times), with the
 * disruption controller's events (source `controllermanager`, pkg/controller/disruption/disruption.go v1.36.3).
 */
export function compareDisruption({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const budgets = wanted.filter((d) => d.kind === 'PodDisruptionBudget');
  if (!budgets.length) return;
  const out = diffs('disruption');
  const theirs = refList(ref, 'poddisruptionbudgets');
  const view = (p) => p && {
    ...pick(p.status, ['currentHealthy', 'desiredHealthy', 'disruptionsAllowed', 'expectedPods', 'observedGeneration']),
    disruptedPods: Object.keys(p.status?.disruptedPods ?? {}).length, conditions: conditionsOf(p.status),
  };
  for (const b of budgets) {
    const ns = b.metadata?.namespace ?? 'default', name = b.metadata?.name;
    const find = (list) => list.find((o) => o.metadata?.namespace === ns && o.metadata?.name === name);
    const mine = find(objects.filter((o) => o.kind === 'PodDisruptionBudget')), their = find(theirs);
    // A budget neither controller observed is no agreement.
    if (!mine?.status?.observedGeneration && !their?.status?.observedGeneration) out.push({ field: `PodDisruptionBudget/${ns}/${name} status`, engine: '(not observed)', reference: '(not observed)' });
    else diffValues(view(mine), view(their), `PodDisruptionBudget/${ns}/${name} status`, out);
  }
  // A budget created in the same apply as its pods' Deployment may sync before the ReplicaSet made them (NoPods, "No
  // matching pods found") or after: a race in a real cluster, so that event is compared only for budgets left without pods.
  const racy = new Set(theirs.filter((p) => p.status?.expectedPods > 0).map((p) => `PodDisruptionBudget/${p.metadata.namespace}/${p.metadata.name}:`));
  const keep = (e) => !(/ NoPods /.test(e) && [...racy].some((r) => e.includes(` ${r} `)));
  const { mine, theirs: theirLines } = eventsFrom(['controllermanager'], engine, theirEvents);
  pushEventDiff(out, 'disruption events', mine.filter(keep), theirLines.filter(keep));
}

/**
 * compareEviction compares the eviction API's refusal and kubectl drain: the Status of the first eviction the engine's
 * drain had refused (its trace) with that of an eviction the runner sent to the reference before its drain (code,
 * reason, message, details with the pod's name up to its suffix), and what each drain printed, line by line with the
 * pods' names up to their suffix (the two pods of one node then read alike: kubectl evicts them concurrently).
 */
export function compareEviction({ engine, diffs }, drained) {
  const out = diffs('eviction');
  const refused = (engine.trace ?? []).find((t) => t.phase === 'apiserver.evict' && t.detail?.status?.code === 429)?.detail.status;
  const view = (s) => s && normalize({ code: s.code, reason: s.reason, message: s.message, details: s.details });
  // Neither side refusing is no agreement: the case is there to see a refusal.
  if (!refused && drained.eviction?.code !== 429) out.push({ field: 'eviction Status', engine: '(no 429)', reference: drained.eviction ?? '(no eviction sent)' });
  else diffValues(view(refused), view(drained.eviction), 'eviction Status', out);
  const mine = normalize(engine.commands?.[0]?.output ?? '').split('\n'), theirs = normalize(drained.output).split('\n');
  const lines = [];
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
    if (mine[i] !== theirs[i]) lines.push(`${i + 1}: engine    ${mine[i] ?? '(none)'}`, `${i + 1}: reference ${theirs[i] ?? '(none)'}`);
  }
  if (lines.length) out.push({ field: 'kubectl drain output', lines });
}

/**
 * compareAutoscaler compares each HorizontalPodAutoscaler of the manifest once it synced: its status (currentReplicas,
 * desiredReplicas, currentMetrics, conditions without times) and the horizontal-pod-autoscaler's events.
 */
export function compareAutoscaler({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const hpas = wanted.filter((d) => d.kind === 'HorizontalPodAutoscaler');
  if (!hpas.length) return;
  const out = diffs('autoscaler');
  const theirs = refList(ref, 'horizontalpodautoscalers.v2.autoscaling');
  const view = (h) => h && { ...pick(h.status, ['currentReplicas', 'desiredReplicas', 'currentMetrics']), lastScaleTime: h.status?.lastScaleTime ? '(set)' : undefined, conditions: conditionsOf(h.status) };
  for (const h of hpas) {
    const ns = h.metadata?.namespace ?? 'default', name = h.metadata?.name;
    const find = (list) => list.find((o) => o.metadata?.namespace === ns && o.metadata?.name === name);
    const mine = find(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')), their = find(theirs);
    // An autoscaler neither side synced is no agreement.
    if (!mine?.status?.conditions?.length && !their?.status?.conditions?.length) out.push({ field: `HorizontalPodAutoscaler/${ns}/${name} status`, engine: '(not synced)', reference: '(not synced)' });
    else diffValues(view(mine), view(their), `HorizontalPodAutoscaler/${ns}/${name} status`, out);
  }
  const { mine, theirs: theirLines } = eventsFrom(['horizontal-pod-autoscaler'], engine, theirEvents);
  pushEventDiff(out, 'autoscaler events', mine, theirLines);
}

/** READY_SETTLED are the `settle.until` conditions of the cases with Ready pods (the reference's controllers are done). */
export const READY_SETTLED = {
  // Every Deployment of the later manifests rolled out: all replicas updated and available, none old left.
  'rollouts complete': (ref) => refList(ref, 'deployments').filter((d) => d.metadata.namespace !== 'kube-system').every((d) => {
    const s = d.status ?? {};
    return s.observedGeneration >= d.metadata.generation && s.updatedReplicas === d.spec.replicas && s.availableReplicas === d.spec.replicas && s.replicas === d.spec.replicas;
  }),
  // Every budget of the manifest observed at its generation, and every Deployment's replicas Ready.
  'budgets synced': (ref, c) => {
    const names = new Set(docsOf(c.manifest).filter((d) => d.kind === 'PodDisruptionBudget').map((d) => d.metadata?.name));
    const pdbs = refList(ref, 'poddisruptionbudgets').filter((p) => names.has(p.metadata.name));
    const deploys = refList(ref, 'deployments').filter((d) => d.metadata.namespace !== 'kube-system');
    return pdbs.length === names.size && pdbs.every((p) => p.status?.observedGeneration >= p.metadata.generation && p.status?.currentHealthy === p.status?.expectedPods)
      && deploys.every((d) => d.status?.readyReplicas === d.spec.replicas);
  },
  // Every autoscaler of the manifest synced (its conditions written) and its failure events recorded.
  'autoscalers synced': (ref, c) => {
    const names = new Set(docsOf(c.manifest).filter((d) => d.kind === 'HorizontalPodAutoscaler').map((d) => d.metadata?.name));
    const hpas = refList(ref, 'horizontalpodautoscalers.v2.autoscaling').filter((h) => names.has(h.metadata.name));
    return hpas.length === names.size && hpas.every((h) => (h.status?.conditions ?? []).some((x) => x.type === 'ScalingActive'));
  },
};
