// The snapshot's kept per-domain sums (what PodTopologySpread's PreScore reads instead of visiting every node) equal a
// recount over the nodes after any sequence of pods placed, removed, relabelled and deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelSelectorAsSelector, selectorMatches } from '../../../src/engine/api/labels';
import type { Node, Pod } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { makeNode, makePod } from './builders';

const ZONE = 'topology.kubernetes.io/zone';

/** recount is the sums as PreScore's loop over every node computes them. */
function recount(snapshot: Snapshot, topologyKey: string, requiredKeys: string[], selector: ReturnType<typeof labelSelectorAsSelector>, namespace: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const ni of snapshot.nodeInfoList) {
    const labels = ni.node.metadata?.labels ?? {};
    if (!requiredKeys.every((k) => Object.hasOwn(labels, k))) continue;
    const value = Object.hasOwn(labels, topologyKey) ? labels[topologyKey]! : '';
    for (const pi of ni.pods) {
      const m = pi.pod.metadata;
      if (m?.deletionTimestamp || (m?.namespace ?? '') !== namespace || !selectorMatches(selector, m?.labels)) continue;
      sums.set(value, (sums.get(value) ?? 0) + 1);
    }
  }
  return sums;
}

/** nonZero drops the domains whose sum went back to 0 (a kept sum may hold them; a recount never lists them). */
function nonZero(m: ReadonlyMap<string, number>): Map<string, number> {
  return new Map([...m].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** nodes: zones a, b, c and one node without a zone label. */
function nodes(): Node[] {
  return [
    makeNode('n1').label(ZONE, 'a').obj(), makeNode('n2').label(ZONE, 'a').obj(),
    makeNode('n3').label(ZONE, 'b').obj(), makeNode('n4').label(ZONE, 'c').obj(), makeNode('n5').obj(),
  ];
}

const cases: { name: string; topologyKey: string; requiredKeys: string[]; selector: object; namespace: string }[] = [
  { name: 'zones, every node counting', topologyKey: ZONE, requiredKeys: [], selector: { matchLabels: { app: 'web' } }, namespace: 'default' },
  { name: 'zones, only nodes with a zone', topologyKey: ZONE, requiredKeys: [ZONE], selector: { matchLabels: { app: 'web' } }, namespace: 'default' },
  { name: 'an expression selector in another namespace', topologyKey: ZONE, requiredKeys: [], selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }, namespace: 'shop' },
  { name: 'a label no node has', topologyKey: 'rack', requiredKeys: [], selector: { matchLabels: { app: 'api' } }, namespace: 'default' },
];

for (const c of cases) {
  test(`kept domain sums equal a recount: ${c.name}`, () => {
    const snapshot = Snapshot.build(nodes());
    const selector = labelSelectorAsSelector(c.selector as Parameters<typeof labelSelectorAsSelector>[0]);
    const read = () => snapshot.domainCounts.sums(snapshot.nodeInfoList, `${c.namespace}/${JSON.stringify(c.selector)}`, c.topologyKey, c.requiredKeys, selector, c.namespace);
    // A seeded walk: place, remove and replace pods (as an update does: the old copy out, the new one in).
    const rng = new Random(7);
    const random = (n: number): number => rng.intn(n);
    const actions = [0, 0, 0, 0];
    const placed: Pod[] = [];
    read();
    for (let step = 0; step < 400; step++) {
      const action = random(4);
      actions[action]!++;
      if (action <= 1 || placed.length === 0) {
        const made = makePod(`p${step}`, ['default', 'shop'][random(2)]).label('app', ['web', 'api', 'db'][random(3)]!).node(`n${1 + random(5)}`).obj();
        const pod: Pod = { ...made, metadata: { ...made.metadata, uid: `uid-${step}` } };
        assert.ok(snapshot.addPod(pod));
        placed.push(pod);
      } else if (action === 2) {
        const [pod] = placed.splice(random(placed.length), 1);
        assert.ok(snapshot.removePod(pod!));
      } else {
        const i = random(placed.length);
        const old = placed[i]!;
        const deleting = random(3) === 0 ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {};
        const updated: Pod = { ...old, metadata: { ...old.metadata, labels: { app: ['web', 'api'][random(2)]! }, ...deleting } };
        snapshot.removePod(old);
        snapshot.addPod(updated);
        placed[i] = updated;
      }
      if (step % 20 === 0) assert.deepEqual(nonZero(read()), nonZero(recount(snapshot, c.topologyKey, c.requiredKeys, selector, c.namespace)), `step ${step}`);
    }
    assert.deepEqual(nonZero(read()), nonZero(recount(snapshot, c.topologyKey, c.requiredKeys, selector, c.namespace)));
    assert.ok(actions.every((n) => n > 50), `every kind of step was taken: ${actions.join(', ')}`);
  });
}

test('the kept sums are bounded: reading more selectors than are kept rebuilds the oldest from the nodes', () => {
  const snapshot = Snapshot.build(nodes(), [makePod('w', 'default').label('app', 'web').node('n1').obj()]);
  const web = labelSelectorAsSelector({ matchLabels: { app: 'web' } });
  const sums = () => snapshot.domainCounts.sums(snapshot.nodeInfoList, 'web', ZONE, [], web, 'default');
  assert.deepEqual(nonZero(sums()), new Map([['a', 1]]));
  for (let i = 0; i < 100; i++) {
    snapshot.domainCounts.sums(snapshot.nodeInfoList, `s${i}`, ZONE, [], labelSelectorAsSelector({ matchLabels: { app: `x${i}` } }), 'default');
  }
  snapshot.addPod(makePod('w2', 'default').label('app', 'web').node('n3').obj());
  assert.deepEqual(nonZero(sums()), new Map([['a', 1], ['b', 1]]));
});
