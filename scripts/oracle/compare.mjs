// Comparing one case: what the engine's run printed and stored against what kubectl and the reference cluster did
// with the same manifest, component by component (apiserver, scheduler, controllers, and those of compare-controllers.mjs
// and, for the cases whose pods run, compare-ready.mjs).
import { CLI, OWN_GROUP, ROOT, SCHEDULED, comparable, diffValues, docsOf, fate, isClusterScoped, nodeClass, normalize, run, sleep } from './common.mjs';
import { compareCronJobs, compareEndpointSlices, compareGarbage, compareNodeLifecycle, comparePace, comparePodGC } from './compare-controllers.mjs';
import { READY_SETTLED, compareAutoscaler, compareDisruption, compareEviction, compareRollout } from './compare-ready.mjs';
import { refApply, refDrain, refGet, refList, refThenApply } from './refcluster.mjs';

// ---------------------------------------------------------------------------------------------------------------
// The engine side.
// ---------------------------------------------------------------------------------------------------------------
export function runEngine(c) {
  const later = [...(c.thenApply ? ['--then-apply', `${c.thenApply.after}s,${c.thenApply.file}`] : []), ...(c.drain ? ['--then-drain', `${c.drain.after}s,${c.drain.node},timeout=${c.drain.timeout}`] : [])];
  const args = [CLI, 'run', c.manifest, ...(c.cluster ?? []).flatMap((f) => ['--cluster', f]), ...(c.id ?? []), ...(c.engineArgs ?? []), ...later, '--json'];
  const r = run(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { error: `engine exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}` };
  }
}

/** downNodes are the nodes whose kubelet the manifest's Behavior stops (`kubelet: down`), with when (seconds in). */
export function downNodes(manifest) {
  const behavior = docsOf(manifest).find((d) => d.kind === 'Behavior' && String(d.apiVersion ?? '').startsWith(OWN_GROUP));
  return Object.entries(behavior?.nodes ?? {}).filter(([, b]) => b?.kubelet === 'down').map(([node, b]) => ({ node, after: Number(b.downAfterSeconds ?? 0) }));
}

/** SETTLED are the conditions a case's `settle.until` waits for on the reference, past the scheduler's moment. */
export const SETTLED = {
  // The manifest's pods are gone (pod GC force-deletes them).
  'pods gone': (ref, c) => {
    const names = new Set(docsOf(c.manifest).filter((d) => d.kind === 'Pod').map((d) => d.metadata?.name));
    return !refList(ref, 'pods').some((p) => names.has(p.metadata.name));
  },
  // A Job of each CronJob of the manifest, and its pods scheduled (a schedule of every minute fires within 60 s).
  'cronjob jobs scheduled': (ref, c) => {
    const crons = new Set(docsOf(c.manifest).filter((d) => d.kind === 'CronJob').map((d) => d.metadata?.name));
    const jobs = refList(ref, 'jobs').filter((j) => (j.metadata.ownerReferences ?? []).some((o) => o.kind === 'CronJob' && crons.has(o.name)));
    const pods = refList(ref, 'pods').filter((p) => jobs.some((j) => p.metadata.labels?.['job-name'] === j.metadata.name));
    return jobs.length >= crons.size && pods.length > 0 && pods.every((p) => (p.status?.conditions ?? []).some((x) => x.type === 'PodScheduled'));
  },
  // Every claim of the manifest is Bound: the PV controller binds a claim made before its volume at its next periodic
  // resync (--pvclaimbinder-sync-period, 15 s), whose moment the reference does not tell.
  'claims bound': (ref, c) => {
    const claims = docsOf(c.manifest).filter((d) => d.kind === 'PersistentVolumeClaim');
    return claims.every((d) => refList(ref, 'persistentvolumeclaims').some((p) => p.metadata.name === d.metadata?.name && p.status?.phase === 'Bound'));
  },
  // The manifest's Deployments have all their replicas' pods, each scheduled (a paced ReplicaSet takes seconds).
  'replicas created': (ref, c) => {
    const want = docsOf(c.manifest).filter((d) => d.kind === 'Deployment').reduce((n, d) => n + (d.spec?.replicas ?? 1), 0);
    const pods = refList(ref, 'pods').filter((p) => p.metadata.namespace === 'default');
    return pods.length >= want && pods.every((p) => (p.status?.conditions ?? []).some((x) => x.type === 'PodScheduled'));
  },
  // Every pod on a node whose kubelet is down has been deleted (taint eviction; nothing finishes the deletion).
  'down-node pods deleting': (ref, c) => {
    const nodes = new Set(downNodes(c.manifest).map((d) => d.node));
    const pods = refList(ref, 'pods').filter((p) => nodes.has(p.spec?.nodeName));
    return pods.length > 0 && pods.every((p) => p.metadata.deletionTimestamp);
  },
};

/** settle waits, for a case that says so, until its SETTLED condition holds or its time is up. */
export async function settle(ref, c) {
  if (!c.settle) return;
  const end = Date.now() + c.settle.ms;
  const until = SETTLED[c.settle.until] ?? READY_SETTLED[c.settle.until];
  while (Date.now() < end && !until(ref, c)) await sleep(2000);
  await sleep(1500); // what follows the awaited step (the pod's deletion after its status patch, the eviction event)
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing one case.
// ---------------------------------------------------------------------------------------------------------------
export const CONTROLLER_SOURCES = new Set(['deployment-controller', 'replicaset-controller', 'job-controller', 'statefulset-controller', 'daemonset-controller', 'cronjob-controller', 'default-scheduler']);

export async function compareCase(ref, c, engine, result) {
  const diffs = (component) => (result.components[component] ??= []);
  // Events older than the case are the cluster's own (the node controller's RegisteredNode at start, say).
  const since = Math.floor(Date.now() / 1000) * 1000;
  const watch = c.watchPods ? ref.watchPods() : undefined;
  // A Behavior's down kubelet: its node's heartbeats stop when the engine's would (downAfterSeconds after the apply).
  const downs = downNodes(c.manifest);
  for (const d of downs.filter((x) => x.after <= 0)) ref.send(`kubelet-down ${d.node}`);
  const timers = downs.filter((d) => d.after > 0).map((d) => setTimeout(() => ref.send(`kubelet-down ${d.node}`), d.after * 1000));
  const wanted = docsOf(c.manifest).filter((d) => !String(d.apiVersion ?? '').startsWith(OWN_GROUP));
  const workloads = wanted.some((d) => ['Deployment', 'ReplicaSet', 'Job', 'StatefulSet', 'DaemonSet', 'CronJob'].includes(d.kind));
  SCHEDULED.names = wanted.filter((d) => d.kind === 'CronJob').map((d) => d.metadata?.name);
  let applied, drained;
  const t0 = Date.now();
  try {
    applied = refApply(ref, c);
    // What the manifest made is read back from the reference after its controllers and scheduler had a moment.
    if (applied.exit === 0) {
      await waitScheduled(ref, workloads ? 12_000 : 6_000);
      // A later apply or drain as the engine's --then-apply / --then-drain makes it, that long after the first apply.
      const later = c.thenApply ?? c.drain;
      if (later) await sleep(t0 + later.after * 1000 - Date.now());
      if (c.thenApply) applied.kubectl = [applied.kubectl, refThenApply(ref, c)].filter(Boolean).join('\n');
      if (c.drain) drained = await refDrain(ref, c.drain);
      await settle(ref, c);
    }
  } finally {
    timers.forEach(clearTimeout);
  }
  const seen = watch?.stop() ?? [];
  result.reference = { kubectl: applied.kubectl, status: applied.status && { code: applied.status.code, reason: applied.status.reason, message: applied.status.message } };
  if (drained) result.reference.drain = drained; // the eviction's Status and drain's output, whole
  const er = engine.rejection;
  const rejectedRef = applied.exit !== 0;
  // apiserver: refused or not, with what status and what kubectl printed.
  const api = diffs('apiserver');
  if (!!er !== rejectedRef) api.push({ field: 'outcome', engine: er ? `Rejected (${er.code} ${er.reason})` : engine.outcome, reference: rejectedRef ? `Rejected (${applied.status?.code} ${applied.status?.reason})` : 'accepted' });
  if (er && rejectedRef) {
    // A Status' reason is omitted when empty (omitempty): absent is StatusReasonUnknown, "".
    const ref = { ...applied.status, reason: applied.status?.reason ?? (applied.status ? '' : undefined) };
    for (const k of ['code', 'reason', 'message']) if (inOrder(c, er[k]) !== inOrder(c, ref[k])) api.push({ field: `rejection.${k}`, engine: er[k], reference: applied.status?.[k] });
  }
  // What the engine's later kubectl commands printed (a drain) is compared by their own component.
  const applies = (engine.commands ?? []).reduce((text, cmd) => text.replace(`\n${cmd.output}`, ''), engine.kubectl ?? '').trim();
  if (inOrder(c, applies) !== inOrder(c, applied.kubectl)) api.push({ field: 'kubectl', engine: applies, reference: applied.kubectl });
  if (rejectedRef) return;

  // The objects of the manifest as stored.
  const objects = engine.objects ?? [];
  for (const d of wanted) {
    const ns = d.metadata?.namespace ?? (isClusterScoped(d.kind) ? undefined : 'default');
    const mine = objects.find((o) => o.kind === d.kind && o.metadata?.name === d.metadata?.name && (o.metadata?.namespace ?? undefined) === ns);
    const theirs = refGet(ref, d.kind, d.metadata?.name, ns);
    // Gone on both sides, or gone on one and a Pod being deleted on the other (no kubelet in the reference finishes a
    // graceful delete; the engine's does): a controller deleted it, and that controller's comparison below says so.
    if ((!mine || !theirs) && fate(mine) !== 'kept' && fate(theirs) !== 'kept') continue;
    if (!mine || !theirs) { api.push({ field: `${d.kind}/${d.metadata?.name}`, engine: mine ? 'stored' : 'absent', reference: theirs ? 'stored' : 'absent' }); continue; }
    for (const x of diffValues(comparable(mine), comparable(theirs), `${d.kind}/${d.metadata.name}`, [])) api.push(x);
  }
  // scheduler: each pod's node, or the FailedScheduling message.
  // A pod being deleted in the reference that the engine no longer has was deleted on both sides (no kubelet there
  // finishes a graceful delete; the engine's does): the comparison of the controller that deleted it says so.
  const enginePodNames = new Set(objects.filter((o) => o.kind === 'Pod').map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`));
  const finished = (p) => p.metadata.deletionTimestamp && !enginePodNames.has(`${p.metadata.namespace}/${p.metadata.name}`);
  const refPods = refList(ref, 'pods').filter((p) => !['kube-system'].includes(p.metadata.namespace) && !finished(p));
  const enginePods = objects.filter((o) => o.kind === 'Pod');
  const events = engine.events ?? [];
  // Only events about objects that exist now: an earlier case's object of the same name is another uid.
  const live = new Set(['pods', 'replicasets', 'deployments', 'jobs', 'statefulsets', 'daemonsets', 'cronjobs'].flatMap((k) => refList(ref, k)).map((o) => o.metadata.uid));
  const refEvents = refList(ref, 'events').filter((e) => live.has(e.involvedObject?.uid));
  const sched = diffs('scheduler');
  const nodes = refList(ref, 'nodes');
  // Pods are grouped by their name up to the random suffix: a Deployment's replicas are compared as a group, each
  // node by its class (nodes alike but for their names are one class: the real scheduler breaks such ties at random).
  const group = (list, key) => list.reduce((m, x) => m.set(key(x), [...(m.get(key(x)) ?? []), x]), new Map());
  const podKey = (p) => normalize(`${p.metadata.namespace}/${p.metadata.name}`);
  const mineGroups = group(enginePods, podKey), theirGroups = group(refPods, podKey);
  const cls = (name) => (name ? nodeClass(nodes, name) : 'unscheduled');
  for (const key of [...new Set([...mineGroups.keys(), ...theirGroups.keys()])].sort()) {
    const mine = mineGroups.get(key) ?? [], theirs = theirGroups.get(key) ?? [];
    const mineNodes = mine.map((p) => cls(p.spec?.nodeName)).sort(), theirNodes = theirs.map((p) => cls(p.spec?.nodeName)).sort();
    if (JSON.stringify(mineNodes) !== JSON.stringify(theirNodes)) {
      sched.push({ field: `Pod/${key} spec.nodeName`, engine: mine.map((p) => p.spec?.nodeName ?? 'unscheduled').sort().join(', ') || 'absent', reference: theirs.map((p) => p.spec?.nodeName ?? 'unscheduled').sort().join(', ') || 'absent' });
    }
    const msg = (e) => e.message.replace(/^\(combined from similar events\): /, '');
    const mineMsg = [...new Set(events.filter((e) => e.reason === 'FailedScheduling' && normalize(e.object) === `Pod/${key}`).map(msg))].sort();
    const uids = new Set(theirs.map((p) => p.metadata.uid));
    const theirMsg = [...new Set(refEvents.filter((e) => e.reason === 'FailedScheduling' && uids.has(e.involvedObject.uid)).map(msg))].sort();
    if (JSON.stringify(mineMsg) !== JSON.stringify(theirMsg)) sched.push({ field: `Pod/${key} FailedScheduling`, engine: mineMsg.join('\n') || '(none)', reference: theirMsg.join('\n') || '(none)' });
  }
  if (!enginePods.length && !refPods.length) delete result.components.scheduler;
  // controllers: what the workload controllers made and the events they recorded (names up to their random suffix).
  if (workloads) {
    const ctl = diffs('controllers');
    const names = (list) => list.map((o) => normalize(`${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).sort();
    const made = (kind) => [names(objects.filter((o) => o.kind === kind)), names(refList(ref, kind.toLowerCase() + 's').filter((o) => o.metadata.namespace !== 'kube-system' && !(kind === 'Pod' && finished(o))).map((o) => ({ ...o, kind })))];
    for (const kind of ['ReplicaSet', 'Pod', 'ControllerRevision', 'PersistentVolumeClaim', ...(SCHEDULED.names.length ? ['Job'] : [])]) {
      const [mine, theirs] = made(kind);
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) ctl.push({ field: `${kind}s`, engine: mine, reference: theirs });
    }
    // An event repeated often enough is aggregated by client-go's correlator under this prefix.
    const fmt = (type, reason, obj, msg) => normalize(`${type} ${reason} ${obj}: ${msg.replace(/^\(combined from similar events\): /, '')}`);
    const mineEv = [...new Set(events.filter((e) => CONTROLLER_SOURCES.has(e.source) && e.source !== 'default-scheduler').map((e) => fmt(e.type, e.reason, e.object, e.message)))].sort();
    const theirEv = [...new Set(refEvents.filter((e) => CONTROLLER_SOURCES.has(e.source?.component ?? e.reportingComponent) && (e.source?.component ?? e.reportingComponent) !== 'default-scheduler')
      .map((e) => fmt(e.type, e.reason, `${e.involvedObject.kind}/${e.involvedObject.namespace}/${e.involvedObject.name}`, e.message)))].sort();
    const onlyMine = mineEv.filter((e) => !theirEv.includes(e)), onlyTheirs = theirEv.filter((e) => !mineEv.includes(e));
    if (onlyMine.length || onlyTheirs.length) ctl.push({ field: 'controller events', engine: onlyMine, reference: onlyTheirs });
  }
  const theirEvents = refList(ref, 'events').filter((e) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? 0) >= since);
  const sides = { ref, c, engine, objects, wanted, theirEvents, diffs };
  compareEndpointSlices(sides);
  compareGarbage(sides);
  if (c.watchPods) comparePodGC(sides, seen);
  if (downs.length) compareNodeLifecycle(sides, downs.map((d) => d.node));
  if (SCHEDULED.names.length) compareCronJobs(sides);
  if (c.pace) comparePace(sides);
  if (c.thenApply) compareRollout(sides);
  if (c.podsRun) { compareDisruption(sides); compareAutoscaler(sides); }
  if (drained) compareEviction(sides, drained);
}

/** waitScheduled waits until no pod is without a PodScheduled condition (or the time is up). */
export async function waitScheduled(ref, ms) {
  const end = Date.now() + ms;
  await sleep(1500);
  while (Date.now() < end) {
    const pods = refList(ref, 'pods').filter((p) => p.metadata.namespace !== 'kube-system');
    if (pods.every((p) => (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled'))) { await sleep(1000); return; }
    await sleep(700);
  }
}

/**
 * inOrder is a refusal's text as compared: for a case whose errors come from Go walking a map (`mapOrder`: a RuntimeClass overhead's resources, a
 * ConfigMap's keys), whose order differs from run to run in the reference, the errors sorted — the aggregate's
 * `[a, b]` list, each starting at a field path, and kubectl's `* field: ...` lines.
 */
function inOrder(c, text) {
  if (!c.mapOrder || typeof text !== 'string') return text;
  const lines = text.split('\n');
  const causes = lines.filter((l) => l.startsWith('* ')).sort();
  const sortedLines = lines.map((l) => (l.startsWith('* ') ? causes.shift() : l)).join('\n');
  return sortedLines.replace(/ is invalid: \[(.*)\]/s, (_, list) => ` is invalid: [${list.split(/, (?=[A-Za-z][\w.]*(?:\[[^\]]*\])*(?:\.[\w]+(?:\[[^\]]*\])*)*: )/).sort().join(', ')}]`);
}
