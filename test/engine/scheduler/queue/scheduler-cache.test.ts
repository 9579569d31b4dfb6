// The scheduler's cache follows a bound pod's updates (cache.go UpdatePod: the old version out, the new in). A status
// write, which keeps the pod's spec and labels objects, is taken in place; any other change is removed and added
// again. Either way the snapshot reads as one built afresh from the same pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../src/engine/api/types';
import { labelSelectorAsSelector } from '../../../../src/engine/api/labels';
import { countPodsMatchSelector } from '../../../../src/engine/scheduler/plugins/podtopologyspread/common';
import { Snapshot } from '../../../../src/engine/scheduler/framework/snapshot';
import { SchedulerCache } from '../../../../src/engine/scheduler/queue/scheduler-cache';
import { makeNode, makePod } from '../builders';

/** view is what the scheduler reads of node n1: its pods (name, phase), requests, ports and the web pods it counts. */
function view(s: Snapshot): unknown {
  const ni = s.get('n1')!;
  return {
    pods: ni.pods.map((pi) => `${pi.pod.metadata?.name} ${pi.pod.status?.phase ?? ''}`).sort(),
    cpu: ni.requested.milliCPU, memory: ni.requested.memory,
    web: countPodsMatchSelector(ni, labelSelectorAsSelector({ matchLabels: { app: 'web' } }), 'default'),
  };
}

const base = makePod('a', 'default').uid('u-a').label('app', 'web').node('n1').req({ cpu: '1', memory: '1Gi' }).hostPort(8080).obj();
const withStatus = (p: Pod, phase: string): Pod => ({ ...p, status: { ...p.status, phase } });

const cases: { name: string; next: (p: Pod) => Pod; inPlace: boolean }[] = [
  { name: 'a status write', next: (p) => withStatus(p, 'Running'), inPlace: true },
  { name: 'new labels', next: (p) => ({ ...p, metadata: { ...p.metadata, labels: { app: 'db' } } }), inPlace: false },
  { name: 'a deletion timestamp', next: (p) => ({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }), inPlace: false },
  { name: 'a new spec (a resize)', next: (p) => ({ ...p, spec: { ...p.spec!, containers: [{ ...p.spec!.containers[0]!, resources: { requests: { cpu: '2', memory: '1Gi' } } }] } }), inPlace: false },
];
for (const c of cases) {
  test(`scheduler cache: a bound pod's update reads as a fresh snapshot: ${c.name}`, () => {
    const nodes = [makeNode('n1').capacity({ cpu: '4', memory: '8Gi', pods: '110' }).obj()];
    const other = makePod('b', 'default').uid('u-b').label('app', 'web').node('n1').req({ cpu: '500m' }).obj();
    const cache = new SchedulerCache();
    cache.addNode(nodes[0]!);
    for (const p of [base, other]) cache.addPod(p);
    const snapshot = cache.snapshot();
    // Counted once before the update: a count kept over the node's pods must follow a change of what it counts.
    view(snapshot);
    const next = c.next(base);
    assert.equal(snapshot.updatePod(base, next), c.inPlace);
    if (!c.inPlace) assert.ok(snapshot.removePod(base) && snapshot.addPod(next));
    const fresh = Snapshot.build(nodes, [next, other]);
    assert.deepEqual(view(snapshot), view(fresh));
    assert.deepEqual(snapshot.get('n1')!.usedPorts, fresh.get('n1')!.usedPorts);
    // Through the cache, the same.
    const viaCache = new SchedulerCache();
    viaCache.addNode(nodes[0]!);
    for (const p of [base, other]) viaCache.addPod(p);
    view(viaCache.snapshot());
    viaCache.addPod(next);
    assert.deepEqual(view(viaCache.snapshot()), view(fresh));
  });
}
