// The watches view folded from a run's `watch` entries: the same at a step however it is reached (going on, or back to
// an earlier step), busy-only views that list what was told and count the rest, and re-watches taken in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { watchesAt } from '../../../src/engine/report/watches';
import { Simulation } from '../../../src/engine/simulation';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** watched runs the example pod with its watches recorded, kubelets' informers 2 s late, for `forMs` of virtual time. */
function watched(forMs: number): Simulation {
  const manifest = { file: 'pod.yaml', text: readFileSync(join(ROOT, 'examples', 'pod.yaml'), 'utf8') };
  const behavior = { file: 'delay.yaml', text: readFileSync(join(ROOT, 'test', 'fixtures', 'watch', 'kubelet-delay.yaml'), 'utf8') };
  const inputs = loadInputs({ manifest, clusters: [behavior], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, { watches: true, forMs });
  sim.run();
  return sim;
}

const short = watched(10_000);
const trace = short.trace;
const steps = trace.filter((e) => e.phase === 'watch' && e.step && e.object).map((e) => e.seq);

const orderCases = [
  { name: 'going on step by step', order: [steps[0]!, steps[3]!, steps.at(-1)!] },
  { name: 'going back to an earlier step after a later one', order: [steps.at(-1)!, steps[3]!, steps[0]!, trace.length - 1] },
];

for (const c of orderCases) {
  test(`The view at a step is the view of the trace up to it, ${c.name}`, () => {
    for (const seq of c.order) {
      // A copy of the trace up to the step is a trace of its own: its fold starts from nothing.
      assert.deepEqual(watchesAt(trace, seq), watchesAt(trace.slice(0, seq + 1)), `at seq ${seq}`);
    }
  });
}

test('Before the informers open there are no watches to show', () => {
  assert.equal(watchesAt(trace.slice(0, 1)), undefined);
});

test('A busy view lists the informers told anything, as the full view has them, and counts the others', () => {
  const seq = steps[5]!;
  const all = watchesAt(trace, seq, 'all')!;
  const busy = watchesAt(trace, seq, 'busy')!;
  const told = (i: { told: { ADDED: number; MODIFIED: number; DELETED: number } }) => i.told.ADDED + i.told.MODIFIED + i.told.DELETED > 0;
  const expected = all.programs.map((p) => ({ ...p, informers: p.informers.filter(told), quiet: p.informers.filter((i) => !told(i)).length })).filter((p) => p.informers.length > 0);
  assert.deepEqual(busy.programs, expected);
  assert.equal(busy.quietPrograms, all.programs.length - expected.length);
  assert.equal(busy.text, all.text);
});

test('A delayed delivery is pending until its time, then handed over', () => {
  const add = trace.find((e) => e.phase === 'watch' && e.step?.name.startsWith('kubelet ') && e.detail['type'] === 'ADDED')!;
  const kubeletPods = (seq: number) => watchesAt(trace, seq)!.programs.find((p) => p.watcher === add.step!.name)!.informers.find((i) => i.kind === 'Pod')!;
  assert.deepEqual(kubeletPods(add.seq).pending.map((p) => [p.type, p.deliveredAt]), [['ADDED', 2]]);
  const later = trace.find((e) => e.at >= 2 && e.seq > add.seq)!;
  assert.deepEqual(kubeletPods(later.seq).pending.filter((p) => p.type === 'ADDED'), []);
});

test('After a watch ends at its timeoutSeconds, its informer shows the re-watch, two requests and the BOOKMARKs counted', () => {
  const long = watched(700_000);
  const end = long.trace.find((e) => e.phase === 'watch' && e.step && e.detail['ended'] !== undefined)!;
  const d = end.detail;
  const informer = watchesAt(long.trace, end.seq)!.programs.find((p) => p.watcher === d['watcher'])!.informers.find((i) => i.kind === d['kind'])!;
  assert.equal(informer.request, `GET ${String(d['url'])}`);
  assert.equal(informer.resourceVersion, d['resourceVersion']);
  assert.equal(informer.timeoutSeconds, d['timeoutSeconds']);
  assert.equal(informer.openedAt, d['endedAt']);
  assert.equal(informer.watches, 2);
  assert.equal(informer.bookmarks, d['bookmarks']);
});
