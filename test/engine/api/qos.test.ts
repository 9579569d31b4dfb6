// Tests for the QoS class; the table is TestComputePodQOS of pkg/apis/core/v1/helper/qos/qos_test.go
// (PodLevelResources is on in 1.36, so its pod-level cases are expected as written there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodQOS, getPodQOS, type PodQOSClass } from '../../../src/engine/api/qos';
import type { Container, Pod, ResourceRequirements } from '../../../src/engine/api/types';

type List = Record<string, string>;

/** resources is getResourceList: an empty string leaves the resource out. */
function resources(cpu: string, memory: string): List {
  const out: List = {};
  if (cpu !== '') out['cpu'] = cpu;
  if (memory !== '') out['memory'] = memory;
  return out;
}

function newContainer(name: string, requests: List, limits: List): Container {
  return { name, resources: { requests, limits } };
}

function newPod(name: string, containers: Container[], initContainers: Container[] = [], podResources?: ResourceRequirements): Pod {
  const spec: Pod['spec'] = { containers, ...(initContainers.length > 0 ? { initContainers } : {}) };
  if (podResources) (spec as { resources?: ResourceRequirements }).resources = podResources;
  return { metadata: { name }, spec };
}

const cases: Array<{ name: string; pod: Pod; want: PodQOSClass }> = [
  {
    name: 'One container with equal cpu and memory requests and limits is Guaranteed',
    pod: newPod('guaranteed', [newContainer('guaranteed', resources('100m', '100Mi'), resources('100m', '100Mi'))]),
    want: 'Guaranteed',
  },
  {
    name: 'Two guaranteed containers are Guaranteed',
    pod: newPod('guaranteed-guaranteed', [
      newContainer('guaranteed', resources('100m', '100Mi'), resources('100m', '100Mi')),
      newContainer('guaranteed', resources('100m', '100Mi'), resources('100m', '100Mi')),
    ]),
    want: 'Guaranteed',
  },
  {
    name: 'Two containers without resources are BestEffort',
    pod: newPod('best-effort-best-effort', [
      newContainer('best-effort', resources('', ''), resources('', '')),
      newContainer('best-effort', resources('', ''), resources('', '')),
    ]),
    want: 'BestEffort',
  },
  {
    name: 'One container without resources is BestEffort',
    pod: newPod('best-effort', [newContainer('best-effort', resources('', ''), resources('', ''))]),
    want: 'BestEffort',
  },
  {
    name: 'A best-effort and a burstable container are Burstable',
    pod: newPod('best-effort-burstable', [
      newContainer('best-effort', resources('', ''), resources('', '')),
      newContainer('burstable', resources('1', ''), resources('2', '')),
    ]),
    want: 'Burstable',
  },
  {
    name: 'A best-effort and a guaranteed container are Burstable',
    pod: newPod('best-effort-guaranteed', [
      newContainer('best-effort', resources('', ''), resources('', '')),
      newContainer('guaranteed', resources('10m', '100Mi'), resources('10m', '100Mi')),
    ]),
    want: 'Burstable',
  },
  {
    name: 'Memory alone, however equal, is Burstable',
    pod: newPod('burstable-cpu-guaranteed-memory', [newContainer('burstable', resources('', '100Mi'), resources('', '100Mi'))]),
    want: 'Burstable',
  },
  {
    name: 'Requests without limits are Burstable',
    pod: newPod('burstable-no-limits', [newContainer('burstable', resources('100m', '100Mi'), resources('', ''))]),
    want: 'Burstable',
  },
  {
    name: 'A burstable and a guaranteed container are Burstable',
    pod: newPod('burstable-guaranteed', [
      newContainer('burstable', resources('1', '100Mi'), resources('2', '100Mi')),
      newContainer('guaranteed', resources('100m', '100Mi'), resources('100m', '100Mi')),
    ]),
    want: 'Burstable',
  },
  {
    name: 'Summed requests equal to summed limits do not help an unbounded container',
    pod: newPod('burstable-unbounded-but-requests-match-limits', [
      newContainer('burstable', resources('100m', '100Mi'), resources('200m', '200Mi')),
      newContainer('burstable-unbounded', resources('100m', '100Mi'), resources('', '')),
    ]),
    want: 'Burstable',
  },
  {
    name: 'Requests below limits are Burstable',
    pod: newPod('burstable-1', [newContainer('burstable', resources('10m', '100Mi'), resources('100m', '200Mi'))]),
    want: 'Burstable',
  },
  {
    name: 'Zero requests count as unset, so limits alone are Burstable',
    pod: newPod('burstable-2', [newContainer('burstable', resources('0', '0'), resources('100m', '200Mi'))]),
    want: 'Burstable',
  },
  {
    name: 'Hugepages do not count toward QoS',
    pod: newPod('best-effort-hugepages', [newContainer('best-effort',
      { ...resources('0', '0'), 'hugepages-2Mi': '1Gi' }, { ...resources('0', '0'), 'hugepages-2Mi': '1Gi' })]),
    want: 'BestEffort',
  },
  {
    name: 'A burstable init container makes the pod Burstable',
    pod: newPod('init-container', [newContainer('best-effort', resources('', ''), resources('', ''))],
      [newContainer('burstable', resources('10m', '100Mi'), resources('100m', '200Mi'))]),
    want: 'Burstable',
  },
  {
    name: 'Equal pod-level requests and limits are Guaranteed whatever the containers say',
    pod: newPod('guaranteed-with-pod-level-resources', [newContainer('best-effort', resources('', ''), resources('', ''))], [],
      { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') }),
    want: 'Guaranteed',
  },
  {
    name: 'Pod-level resources decide over burstable containers',
    pod: newPod('guaranteed-with-pod-and-container-level-resources', [newContainer('burstable', resources('3m', '10Mi'), resources('5m', '20Mi'))], [],
      { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') }),
    want: 'Guaranteed',
  },
  {
    name: 'Pod-level requests below pod-level limits are Burstable',
    pod: newPod('burstable-with-pod-level-resources', [newContainer('best-effort', resources('', ''), resources('', ''))], [],
      { requests: resources('10m', '10Mi'), limits: resources('20m', '50Mi') }),
    want: 'Burstable',
  },
  {
    name: 'Pod-level burstable resources win over a guaranteed container',
    pod: newPod('burstable-with-pod-and-container-level-resources', [newContainer('burstable', resources('5m', '10Mi'), resources('5m', '10Mi'))], [],
      { requests: resources('10m', '10Mi'), limits: resources('20m', '50Mi') }),
    want: 'Burstable',
  },
  {
    name: 'Pod-level requests without limits are Burstable',
    pod: newPod('burstable-with-pod-and-container-level-requests', [newContainer('burstable', resources('5m', '10Mi'), resources('', ''))], [],
      { requests: resources('10m', '10Mi'), limits: resources('', '') }),
    want: 'Burstable',
  },
  {
    name: 'Pod-level limits on cpu only are Burstable',
    pod: newPod('burstable-with-pod-and-container-level-resources-2', [
      newContainer('burstable', resources('5m', '10Mi'), resources('', '')),
      newContainer('guaranteed', resources('5m', '10Mi'), resources('5m', '10Mi')),
    ], [], { requests: resources('10m', '10Mi'), limits: resources('5m', '') }),
    want: 'Burstable',
  },
  {
    name: 'Equal amounts written differently are still equal',
    pod: newPod('guaranteed-different-notation', [newContainer('app', resources('0.5', '1Gi'), resources('500m', '1073741824'))]),
    want: 'Guaranteed',
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.equal(computePodQOS(c.pod), c.want);
  });
}

test('A stored status.qosClass is returned as it is', () => {
  const pod = newPod('stored', [newContainer('app', resources('', ''), resources('', ''))]);
  assert.equal(getPodQOS({ ...pod, status: { qosClass: 'Guaranteed' } }), 'Guaranteed');
  assert.equal(getPodQOS(pod), 'BestEffort');
});
