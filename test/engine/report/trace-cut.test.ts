// What the summary trace keeps: every step of the first 10 pods of each workload (pods told apart by their names up
// to the last dash) and of every other object; what it leaves out is counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TraceEntry } from '../../../src/engine/runtime/recorder';
import { SUMMARY_PODS, TraceCut } from '../../../src/engine/report/trace-cut';

const entry = (object: string | undefined): TraceEntry => ({ seq: 0, phase: 'kubelet.containers', at: 0, result: '', detail: {}, ...(object ? { object } : {}) });

const cases: { name: string; objects: (string | undefined)[]; kept: number; pods: number }[] = [
  { name: 'a ReplicaSet\'s 12 pods, two steps each: the first 10 keep both', objects: [...Array(12).keys()].flatMap((i) => [`Pod/default/web-5d9f-x${i}`, `Pod/default/web-5d9f-x${i}`]), kept: 20, pods: 2 },
  { name: 'a StatefulSet\'s ordinals are one workload', objects: [...Array(15).keys()].map((i) => `Pod/default/db-${i}`), kept: 10, pods: 5 },
  { name: 'pods of two workloads are counted apart', objects: [...Array(11).keys()].flatMap((i) => [`Pod/default/web-a-${i}`, `Pod/default/api-b-${i}`]), kept: 20, pods: 2 },
  { name: 'one namespace\'s pods are not another\'s', objects: [...Array(11).keys()].flatMap((i) => [`Pod/one/web-${i}`, `Pod/two/web-${i}`]), kept: 20, pods: 2 },
  { name: 'other objects, and steps about no object, are all kept', objects: [...[...Array(30).keys()].map((i) => `ReplicaSet/default/web-${i}`), undefined, 'Node/worker-1'], kept: 32, pods: 0 },
  { name: 'pods without a dash are each their own', objects: [...Array(12).keys()].map((i) => `Pod/default/${'abcdefghijkl'[i]}`), kept: 12, pods: 0 },
];

for (const c of cases) {
  test(`trace cut: ${c.name}`, () => {
    const cut = new TraceCut();
    const kept = c.objects.filter((o) => {
      const keeps = cut.keeps(entry(o));
      // Once an entry of an object is left out, so is every later one (the recorder's isQuiet).
      assert.equal(o !== undefined && cut.isCut(o), !keeps);
      return keeps;
    }).length;
    assert.equal(kept, c.kept);
    assert.equal(cut.leftOut?.pods ?? 0, c.pods);
    assert.equal(cut.leftOut?.entries ?? 0, c.objects.length - c.kept);
    if (cut.leftOut) assert.match(cut.leftOut.kept, new RegExp(`^every step of the first ${SUMMARY_PODS} pods of each workload`));
  });
}
