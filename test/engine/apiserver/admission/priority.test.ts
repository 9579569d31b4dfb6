// Priority: resolving a pod's PriorityClass and keeping one global default; cases after
// plugin/pkg/admission/priority/admission_test.go, messages from admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PriorityClass } from '../../../../src/engine/api/types';
import { priority } from '../../../../src/engine/apiserver/admission/priority';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra });
const system = [pc('system-cluster-critical', 2000000000), pc('system-node-critical', 2000001000)];

const cases: { name: string; classes: PriorityClass[]; pod: Pod; want: { priority?: number; className?: string | undefined; policy?: string; error?: string } }[] = [
  { name: 'A pod without a class and no default gets priority 0', classes: system, pod: makePod('web'), want: { priority: 0, className: undefined, policy: 'PreemptLowerPriority' } },
  {
    name: 'A pod without a class gets the global default, named', classes: [...system, pc('low', 10, { globalDefault: true, preemptionPolicy: 'Never' })],
    pod: makePod('web'), want: { priority: 10, className: 'low', policy: 'Never' },
  },
  {
    name: 'Of two global defaults the lower value wins', classes: [pc('a', 100, { globalDefault: true }), pc('b', 50, { globalDefault: true })],
    pod: makePod('web'), want: { priority: 50, className: 'b', policy: 'PreemptLowerPriority' },
  },
  // No namespace rule since 1.17: a system class is fine in default.
  {
    name: 'A system priority class may be used outside kube-system', classes: system, pod: makePod('web', { priorityClassName: 'system-cluster-critical' }),
    want: { priority: 2000000000, className: 'system-cluster-critical', policy: 'PreemptLowerPriority' },
  },
  // admission.go: "no PriorityClass with name %v was found".
  {
    name: 'A pod naming a missing PriorityClass is forbidden', classes: system, pod: makePod('web', { priorityClassName: 'gold' }),
    want: { error: 'pods "web" is forbidden: no PriorityClass with name gold was found' },
  },
  // "the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name".
  {
    name: 'A pod giving a priority other than its class is forbidden', classes: [pc('high', 1000)], pod: makePod('web', { priorityClassName: 'high', priority: 5 }),
    want: { error: 'pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' },
  },
  {
    name: 'A pod giving another preemption policy than its class is forbidden', classes: [pc('high', 1000)], pod: makePod('web', { priorityClassName: 'high', preemptionPolicy: 'Never' }),
    want: { error: 'pods "web" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name' },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    const result = priority.admit!(a, makeContext(c.classes));
    const spec = (a.object as Pod).spec;
    assert.deepEqual(
      result.error ? { error: result.error.message } : { priority: spec?.priority, className: spec?.priorityClassName, policy: spec?.preemptionPolicy },
      c.want,
    );
  });
}

test('An update keeps the priority resolved on create', () => {
  const old = makePod('web', { priority: 7, preemptionPolicy: 'Never' });
  const a = attributesFor(makePod('web'), { operation: 'UPDATE', oldObject: old });
  priority.admit!(a, makeContext());
  assert.deepEqual([(a.object as Pod).spec?.priority, (a.object as Pod).spec?.preemptionPolicy], [7, 'Never']);
});

// validatePriorityClass: "PriorityClass %v is already marked as default. Only one default can exist".
const defaultCases: { name: string; existing: PriorityClass[]; request: PriorityClass; operation: 'CREATE' | 'UPDATE'; want?: string }[] = [
  { name: 'A second global default is refused', existing: [pc('a', 1, { globalDefault: true })], request: pc('b', 2, { globalDefault: true }), operation: 'CREATE',
    want: 'priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist' },
  { name: 'The first global default is accepted', existing: [pc('a', 1)], request: pc('b', 2, { globalDefault: true }), operation: 'CREATE' },
  { name: 'Updating the default itself is accepted', existing: [pc('a', 1, { globalDefault: true })], request: pc('a', 1, { globalDefault: true }), operation: 'UPDATE' },
  { name: 'A class that is not a default is accepted', existing: [pc('a', 1, { globalDefault: true })], request: pc('b', 2), operation: 'CREATE' },
];

for (const c of defaultCases) {
  test(c.name, () => {
    const result = priority.validate!(attributesFor(c.request, { operation: c.operation }), makeContext(c.existing));
    assert.equal(result.error?.message, c.want);
  });
}
