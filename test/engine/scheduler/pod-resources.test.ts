// A pod's requests as the scheduler counts them: containers, init containers, sidecars, pod-level requests, overhead,
// and the 100m / 200Mi stand-ins for scoring. Cases from TestPodInfoCalculateResources in
// pkg/scheduler/framework/types_test.go and the sidecar formula of component-helpers/resource/helpers.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodInfo } from '../../../src/engine/scheduler/framework/node-info';
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, podRequests } from '../../../src/engine/scheduler/framework/pod-resources';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { makeNode, makePod, MB, type PodBuilder } from './builders';

const cases: { name: string; pod: PodBuilder; milliCPU: number; memory: number; non0CPU: number; non0Mem: number }[] = [
  { name: 'A requestless container counts 100m and 200Mi for scoring only', pod: makePod().container('nginx'), milliCPU: 0, memory: 0, non0CPU: DEFAULT_MILLI_CPU_REQUEST, non0Mem: DEFAULT_MEMORY_REQUEST },
  { name: 'One container with requests', pod: makePod().req({ cpu: '500m', memory: '500Mi' }), milliCPU: 500, memory: 500 * MB, non0CPU: 500, non0Mem: 500 * MB },
  { name: 'Two containers with requests add up', pod: makePod().req({ cpu: '500m', memory: '500Mi' }).req({ cpu: '700m', memory: '800Mi' }), milliCPU: 1200, memory: 1300 * MB, non0CPU: 1200, non0Mem: 1300 * MB },
  {
    name: 'Pod-level requests win over a container and an init container',
    pod: makePod().req({ cpu: '500m', memory: '500Mi' }).initReq({ cpu: '500m', memory: '500Mi' }).podRequests({ cpu: '1200m', memory: '1200Mi' }),
    milliCPU: 1200, memory: 1200 * MB, non0CPU: 1200, non0Mem: 1200 * MB,
  },
  {
    name: 'Pod-level requests win over a container and a sidecar',
    pod: makePod().req({ cpu: '500m', memory: '500Mi' }).initReq({ cpu: '500m', memory: '500Mi' }, true).podRequests({ cpu: '1200m', memory: '1200Mi' }),
    milliCPU: 1200, memory: 1200 * MB, non0CPU: 1200, non0Mem: 1200 * MB,
  },
  { name: 'Pod-level memory only: cpu falls back to the scoring default', pod: makePod().container('nginx').podRequests({ memory: '1200Mi' }), milliCPU: 0, memory: 1200 * MB, non0CPU: DEFAULT_MILLI_CPU_REQUEST, non0Mem: 1200 * MB },
  { name: 'Pod-level cpu only: memory falls back to the scoring default', pod: makePod().container('nginx').podRequests({ cpu: '500m' }), milliCPU: 500, memory: 0, non0CPU: 500, non0Mem: DEFAULT_MEMORY_REQUEST },
  { name: 'A request explicitly set to zero stays zero for scoring', pod: makePod().req({ cpu: '0', memory: '0' }), milliCPU: 0, memory: 0, non0CPU: 0, non0Mem: 0 },
];

for (const c of cases) {
  test(c.name, () => {
    const pi = new PodInfo(c.pod.obj());
    assert.deepEqual([pi.requested.milliCPU, pi.requested.memory, pi.non0CPU, pi.non0Mem], [c.milliCPU, c.memory, c.non0CPU, c.non0Mem]);
  });
}

test('An init container needs the sidecars started before it', () => {
  // sidecar 1 (100m), init 2 (300m) runs with it: 400m; sidecar 3 (200m); containers 500m + sidecars 300m = 800m.
  const pod = makePod().req({ cpu: '500m' }).initReq({ cpu: '100m' }, true).initReq({ cpu: '300m' }).initReq({ cpu: '200m' }, true).obj();
  assert.equal(podRequests(pod).get('cpu'), 800);
  const peak = makePod().req({ cpu: '100m' }).initReq({ cpu: '100m' }, true).initReq({ cpu: '900m' }).obj();
  assert.equal(podRequests(peak).get('cpu'), 1000);
});

test('Overhead is added after the containers are folded', () => {
  const pod = makePod().req({ cpu: '1', memory: '1Gi' }).initReq({ cpu: '2' }).overhead({ cpu: '250m', memory: '120Mi' }).obj();
  assert.deepEqual([podRequests(pod).get('cpu'), podRequests(pod).get('memory')], [2250, (1024 + 120) * MB * 1000]);
});

test('A node accounts the requests of its pods and forgets a removed pod', () => {
  const node = makeNode('n').capacity({ cpu: '4', memory: '8Gi' }).obj();
  const a = makePod('a').node('n').req({ cpu: '1', memory: '1Gi' }).obj();
  const b = makePod('b').node('n').container('nginx').obj();
  const done = { ...makePod('c').node('n').req({ cpu: '3' }).obj(), status: { phase: 'Succeeded' } };
  const snapshot = Snapshot.build([node], [a, b, done]);
  const ni = snapshot.get('n')!;
  assert.deepEqual([ni.pods.length, ni.requested.milliCPU, ni.nonZeroRequested.milliCPU, ni.nonZeroRequested.memory], [2, 1000, 1100, 1024 * MB + DEFAULT_MEMORY_REQUEST]);
  snapshot.removePod(a);
  assert.deepEqual([ni.pods.length, ni.requested.milliCPU, ni.allocatable.milliCPU], [1, 0, 4000]);
});
