// The controller comparisons that need no kubelet in the reference: EndpointSlices, the garbage collector, pod GC and
// the node lifecycle controller, each with the events of its components.
import { comparable, diffValues, fate, isClusterScoped, normalize, podStatusOf } from './common.mjs';
import { refGet, refList } from './refcluster.mjs';

/** EVENT_SOURCES are the components whose events the controller comparisons of this file read, by component. */
export const EVENT_SOURCES = {
  garbagecollector: ['garbage-collector-controller'],
  endpointslice: ['endpoint-slice-controller'],
  nodelifecycle: ['node-controller', 'taint-eviction-controller'],
};

/** eventsFrom lists the events of a component's sources on both sides as `type reason Kind/ns/name: message`. */
export function eventsFrom(sources, engine, theirEvents) {
  const fmt = (type, reason, obj, msg) => normalize(`${type} ${reason} ${obj}: ${msg}`);
  const objectOf = (io) => [io.kind, io.namespace, io.name].filter(Boolean).join('/');
  const mine = [...new Set((engine.events ?? []).filter((e) => sources.includes(e.source)).map((e) => fmt(e.type, e.reason, e.object, e.message)))].sort();
  const theirs = [...new Set(theirEvents.filter((e) => sources.includes(e.source?.component ?? e.reportingComponent))
    .map((e) => fmt(e.type, e.reason, objectOf(e.involvedObject), e.message)))].sort();
  return { mine, theirs };
}

/** pushEvents adds a component's event difference, as sets (counts and times are not compared). */
export function pushEvents(out, component, engine, theirEvents) {
  const { mine, theirs } = eventsFrom(EVENT_SOURCES[component], engine, theirEvents);
  const onlyMine = mine.filter((e) => !theirs.includes(e)), onlyTheirs = theirs.filter((e) => !mine.includes(e));
  if (onlyMine.length || onlyTheirs.length) out.push({ field: `${component} events`, engine: onlyMine, reference: onlyTheirs });
}

/**
 * compareEndpointSlices compares the slices the endpointslice controller keeps for each selecting Service of the
 * manifest: how many, their names up to the random suffix, generateName, labels, addressType and ownerReferences. The
 * endpoints and ports are compared only when no pod the Service selects has an IP in the engine either: the reference
 * has no kubelet, its pods never get an IP, and the 1.36 controller leaves a pod without one out of the slice
 * (ShouldPodBeInEndpoints, k8s.io/endpointslice/util/controller_utils.go), so its slice is then a placeholder (no
 * endpoints, no ports; reconciler.go) while the engine's lists the running pods.
 */
export function compareEndpointSlices({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const services = wanted.filter((d) => d.kind === 'Service' && Object.keys(d.spec?.selector ?? {}).length > 0);
  if (!services.length) return;
  const out = diffs('endpointslice');
  for (const svc of services) {
    const ns = svc.metadata?.namespace ?? 'default', name = svc.metadata?.name;
    const managed = (s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name && s.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'] === 'endpointslice-controller.k8s.io';
    const mine = objects.filter((o) => o.kind === 'EndpointSlice' && o.metadata?.namespace === ns && managed(o));
    const theirs = refList(ref, 'endpointslices').filter((o) => o.metadata.namespace === ns && managed(o));
    const withIP = objects.some((p) => p.kind === 'Pod' && p.metadata?.namespace === ns && (p.status?.podIP || p.status?.podIPs?.length)
      && Object.entries(svc.spec.selector).every(([k, v]) => p.metadata?.labels?.[k] === v));
    const shape = (o) => {
      const { name: n, generateName, labels, ownerReferences } = o.metadata ?? {};
      const slice = { name: normalize(n), generateName, labels, ownerReferences: (ownerReferences ?? []).map(({ uid, ...r }) => r), addressType: o.addressType };
      // A key absent and a key null read apart: kubectl prints what the server stores.
      const field = (k) => (k in o ? o[k] : '(absent)');
      return withIP ? slice : { ...slice, endpoints: field('endpoints'), ports: field('ports') };
    };
    const a = mine.map(shape).sort((x, y) => x.name.localeCompare(y.name)), b = theirs.map(shape).sort((x, y) => x.name.localeCompare(y.name));
    if (a.length !== b.length) { out.push({ field: `EndpointSlices of Service/${name}`, engine: a, reference: b }); continue; }
    a.forEach((x, i) => diffValues(x, b[i], `EndpointSlice/${x.name}`, out));
  }
  pushEvents(out, 'endpointslice', engine, theirEvents);
}

/**
 * compareGarbage compares, for each object of the manifest with ownerReferences, what the garbage collector did
 * with it: kept (and its ownerReferences then, which it may have stripped of dangling owners) or deleted. The
 * manifest cannot know a live owner's uid (the server draws it), so its references are dangling on both sides.
 */
export function compareGarbage({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const owned = wanted.filter((d) => d.metadata?.ownerReferences?.length);
  if (!owned.length) return;
  const out = diffs('garbagecollector');
  for (const d of owned) {
    const ns = d.metadata?.namespace ?? (isClusterScoped(d.kind) ? undefined : 'default');
    const mine = objects.find((o) => o.kind === d.kind && o.metadata?.name === d.metadata?.name && (o.metadata?.namespace ?? undefined) === ns);
    const theirs = refGet(ref, d.kind, d.metadata?.name, ns);
    const key = `${d.kind}/${d.metadata.name}`;
    if (fate(mine) !== fate(theirs)) { out.push({ field: key, engine: fate(mine), reference: fate(theirs) }); continue; }
    const refs = (o) => (o?.metadata?.ownerReferences ?? []).map(({ uid, ...r }) => r);
    if (fate(mine) === 'kept') diffValues(refs(mine), refs(theirs), `${key} metadata.ownerReferences`, out);
  }
  pushEvents(out, 'garbagecollector', engine, theirEvents);
}

/**
 * comparePodGC compares, for each pod of the manifest bound to a node the cluster does not have, whether pod GC
 * deleted it and the status it wrote first (phase Failed and DisruptionTarget DeletionByPodGC, gc_controller.go
 * markFailedAndDeletePodWithCondition): the engine's from its status patch in the trace, the reference's as the watch
 * saw the pod last. Pod GC records no events.
 */
export function comparePodGC({ ref, engine, objects, wanted, diffs }, seen) {
  const nodes = new Set(refList(ref, 'nodes').map((n) => n.metadata.name));
  const orphans = wanted.filter((d) => d.kind === 'Pod' && d.spec?.nodeName && !nodes.has(d.spec.nodeName));
  if (!orphans.length) return;
  const out = diffs('podgc');
  for (const d of orphans) {
    const name = d.metadata.name, ns = d.metadata?.namespace ?? 'default', key = `Pod/${ns}/${name}`;
    const mine = objects.find((o) => o.kind === 'Pod' && o.metadata?.name === name && o.metadata?.namespace === ns);
    const theirs = refGet(ref, 'pods', name, ns);
    if (fate(mine) !== fate(theirs)) out.push({ field: `${key} outcome`, engine: fate(mine), reference: fate(theirs) });
    const patch = (engine.trace ?? []).filter((t) => t.phase === 'controllers.podgc' && t.object === key && t.detail?.patch).at(-1);
    const mineStatus = patch ? podStatusOf(JSON.parse(patch.detail.patch).status) : undefined;
    const last = seen.filter((e) => e.object?.metadata?.name === name && e.object?.metadata?.namespace === ns).at(-1);
    const theirStatus = last ? podStatusOf(last.object.status) : undefined;
    diffValues(mineStatus, theirStatus, `${key} last status`, out);
  }
}

/**
 * compareNodeLifecycle compares what became of the nodes whose kubelet is down (the reference stops their
 * heartbeats): their conditions and taints (timeAdded as there or not), and for their pods the deletion and the
 * DisruptionTarget condition the taint eviction controller wrote; with the node and taint eviction controllers' events.
 */
export function compareNodeLifecycle({ ref, engine, objects, theirEvents, diffs }, down) {
  const out = diffs('nodelifecycle');
  const theirNodes = refList(ref, 'nodes');
  const nodeView = (n) => n && {
    conditions: (n.status?.conditions ?? []).map((x) => ({ type: x.type, status: x.status, reason: x.reason, message: x.message })).sort((a, b) => a.type.localeCompare(b.type)),
    taints: (n.spec?.taints ?? []).map((t) => ({ ...t, ...(t.timeAdded ? { timeAdded: '(set)' } : {}) })).sort((a, b) => `${a.key}${a.effect}`.localeCompare(`${b.key}${b.effect}`)),
  };
  const podView = (p) => ({ deleted: !!p.metadata?.deletionTimestamp, ...podStatusOf(p.status) });
  for (const node of down) {
    diffValues(nodeView(objects.find((o) => o.kind === 'Node' && o.metadata?.name === node)), nodeView(theirNodes.find((n) => n.metadata.name === node)), `Node/${node}`, out);
    const on = (list) => Object.fromEntries(list.filter((p) => p.spec?.nodeName === node).map((p) => [normalize(`${p.metadata.namespace}/${p.metadata.name}`), podView(p)]));
    diffValues(on(objects.filter((o) => o.kind === 'Pod')), on(refList(ref, 'pods')), `pods on ${node}`, out);
  }
  pushEvents(out, 'nodelifecycle', engine, theirEvents);
}

/**
 * compareCronJobs compares the Jobs each CronJob of the manifest started (the reference's wall clock reaches a
 * minute's schedule within 60 s; the engine runs its virtual minute): their names up to the scheduled minute, labels,
 * annotations (the scheduled-timestamp one as agreeing with the name or not), ownerReferences and spec, with the
 * cronjob-controller's events. Only the first Job of each: the two clocks see different numbers of minutes go by.
 */
export function compareCronJobs({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const out = diffs('cronjob');
  const theirJobs = refList(ref, 'jobs');
  for (const cron of wanted.filter((d) => d.kind === 'CronJob')) {
    const ns = cron.metadata?.namespace ?? 'default', name = cron.metadata?.name;
    const owned = (j) => j.metadata?.namespace === ns && (j.metadata?.ownerReferences ?? []).some((o) => o.kind === 'CronJob' && o.name === name);
    const first = (list) => list.filter(owned).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0];
    const view = (j) => {
      if (!j) return undefined;
      const c = comparable(j);
      const minutes = Number(/-(\d+)$/.exec(j.metadata.name)?.[1]);
      const stamp = j.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'];
      const annotations = { ...c.metadata.annotations };
      if (stamp) annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'] = Date.parse(stamp) === minutes * 60_000 ? '(the minute of the name)' : stamp;
      return { ...c, metadata: { ...c.metadata, annotations } };
    };
    const mine = first(objects.filter((o) => o.kind === 'Job')), theirs = first(theirJobs);
    // Neither side starting a Job is no agreement: the case's times did not reach a schedule.
    if (!mine && !theirs) out.push({ field: `Jobs of CronJob/${name}`, engine: '(none started)', reference: '(none started)' });
    else diffValues(view(mine), view(theirs), `Jobs of CronJob/${name}`, out);
  }
  // Only the events of the first minute: the engine's run may go on to later ones, the reference's wait stops at the first.
  const { mine, theirs } = eventsFrom(['cronjob-controller'], engine, theirEvents);
  const firstOnly = (list) => list.filter((e) => !/Created job/.test(e) || e === list.find((x) => /Created job/.test(x)));
  const a = firstOnly(mine), b = firstOnly(theirs);
  const onlyMine = a.filter((e) => !b.includes(e)), onlyTheirs = b.filter((e) => !a.includes(e));
  if (onlyMine.length || onlyTheirs.length) out.push({ field: 'cronjob events', engine: onlyMine, reference: onlyTheirs });
  else if (!a.length) out.push({ field: 'cronjob events', engine: '(none)', reference: '(none)' });
}

/**
 * comparePace compares how fast a case's pods were made, or (`pace: 'unschedulable'`) refused: the seconds from the
 * first pod's creationTimestamp to the last, or from the first PodScheduled=False condition's lastTransitionTime to the
 * last, agreeing within a second (both sides write whole seconds; two for refusals, see below).
 * kube-controller-manager's clients send a burst of 30 requests and then 20 a second (--kube-api-burst,
 * --kube-api-qps), the Events their broadcasters send included; kube-scheduler writes each refused pod's condition
 * through its own (clientConnection: 100, then 50 a second) and its scheduling loop waits for it. Without these
 * limits every pod would be made, or refused, within a second or two.
 */
export function comparePace({ c, ref, objects, diffs }) {
  const out = diffs('pace');
  const refused = c.pace === 'unschedulable';
  const timeOf = (p) => (refused ? (p.status?.conditions ?? []).find((x) => x.type === 'PodScheduled' && x.status === 'False')?.lastTransitionTime : p.metadata.creationTimestamp);
  const spread = (pods) => {
    const times = pods.map(timeOf).filter(Boolean).map((t) => Date.parse(t)).sort((a, b) => a - b);
    return times.length ? (times.at(-1) - times[0]) / 1000 : undefined;
  };
  const mine = spread(objects.filter((o) => o.kind === 'Pod' && (o.metadata?.namespace ?? 'default') === 'default'));
  const theirs = spread(refList(ref, 'pods').filter((p) => p.metadata.namespace === 'default'));
  const what = refused ? 'the first pod refused (PodScheduled False) to the last' : 'the first pod created to the last';
  process.stderr.write(`    pace: ${mine} s from ${what} in the engine, ${theirs} s in the reference\n`);
  // A refusal's pace is 300 waits of 20 ms on both sides, and the real scheduler's 400 cycles and patches take real
  // time on top of them (the engine's take none): 5 s there against 6–7 s in the reference on this machine.
  const tolerance = refused ? 2 : 1;
  if (mine === undefined || theirs === undefined || Math.abs(mine - theirs) > tolerance) out.push({ field: `seconds from ${what}`, engine: mine, reference: theirs });
}
