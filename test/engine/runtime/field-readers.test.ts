// The map of field readers is the one source of hover's "Read by" and of where line breakpoints stop: every field a
// step of the engine names is read, by the map, by that step's phase (else a breakpoint on its line would not stop
// there), and hover lists what the map says, for a field, a quantity under requests, and a field inside a map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { phaseReads, readersOf } from '../../../src/engine/runtime/field-readers';
import { fixture, simulate } from '../console/simulate';

const RUNS = [
  '../../examples/pod.yaml', '../../examples/deployment.yaml', 'e2e/prestop.yaml', '../debugger/fixtures/hooks.yaml',
  '../debugger/fixtures/liveness.yaml', '../debugger/fixtures/too-big.yaml', 'decode/unknown-field.yaml',
  'validation/duplicate-container.yaml', 'statefulset/web-local.yaml', 'termination/with-service.yaml', 'reclaim/dynamic.yaml',
];

for (const file of RUNS) {
  test(`every field the steps of ${file} read is read by their phase in the map`, () => {
    const sim = simulate(fixture(file), { delete: {} });
    const reads = sim.trace.filter((e) => e.field);
    assert.ok(reads.length > 0);
    const unmapped = reads.filter((e) => !phaseReads(e.phase, e.field!)).map((e) => `${e.phase} ${e.field}`);
    assert.deepEqual([...new Set(unmapped)], []);
  });
}

const hovers: { name: string; path: string; want: string[] }[] = [
  { name: 'image is read by ImageLocality\'s score as well as the image pull', path: 'spec.containers[0].image', want: ['apiserver.validate', 'apiserver.admit.mutating', 'scheduler.score', 'kubelet.imagePull'] },
  { name: 'a cpu request is read where the requests are', path: 'spec.template.spec.containers[1].resources.requests.cpu', want: ['apiserver.admit.validating', 'scheduler.filter', 'scheduler.score', 'kubelet.admit'] },
  { name: 'a memory limit is read where the limits are', path: 'spec.containers[0].resources.limits.memory', want: ['apiserver.admit.mutating', 'apiserver.admit.validating', 'kubelet.containers'] },
  { name: 'a field inside node affinity is read where affinity is', path: 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution', want: ['scheduler.filter', 'scheduler.score'] },
  { name: 'a container\'s name is not read by all that reads the list of containers', path: 'spec.containers[0].name', want: [] },
];

for (const c of hovers) test(`readers: ${c.name}`, () => assert.deepEqual(readersOf(c.path).map((r) => r.phase), c.want));

test('a phase that reads a list reads its items for breakpoints, not for hover', () => {
  assert.equal(phaseReads('kubelet.terminate', 'spec.containers[0]'), true);
  assert.equal(phaseReads('kubelet.terminate', 'spec.containers[0].image'), true);
  assert.equal(phaseReads('controllers.cronjob', 'spec.containers[0].image'), false);
});
