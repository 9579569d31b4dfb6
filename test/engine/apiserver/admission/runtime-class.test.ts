// RuntimeClass: a missing class, overhead and scheduling; cases after plugin/pkg/admission/runtimeclass/admission_test.go,
// messages from admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimeClass } from 'kubernetes-types/node/v1';
import type { Pod } from '../../../../src/engine/api/types';
import { runtimeClass } from '../../../../src/engine/apiserver/admission/runtime-class';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const rc = (name: string, extra: Partial<RuntimeClass> = {}): RuntimeClass => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler: name, ...extra });
const kata = rc('kata', {
  overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
  scheduling: { nodeSelector: { runtime: 'kata' }, tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }] },
});

const cases: { name: string; classes: RuntimeClass[]; pod: Pod; want: Partial<Pod['spec']> | string; code?: number }[] = [
  { name: 'A pod naming no runtime class is left alone', classes: [kata], pod: makePod('web'), want: {} },
  // prepareObjects: admission.NewForbidden(attributes, fmt.Errorf("pod rejected: RuntimeClass %q not found", ...)).
  { name: 'A pod naming a missing RuntimeClass is forbidden', classes: [kata], pod: makePod('web', { runtimeClassName: 'gvisor' }), want: 'pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found' },
  // An empty name is not in the lister, and client-go refuses the live Get: 500 with that error's text (the reference's answer).
  { name: 'An empty runtimeClassName fails the live lookup', classes: [kata], pod: makePod('web', { runtimeClassName: '' }), want: 'resource name may not be empty', code: 500 },
  {
    name: "The class's overhead, node selector and tolerations are set", classes: [kata], pod: makePod('web', { runtimeClassName: 'kata' }),
    want: { overhead: { cpu: '250m', memory: '120Mi' }, nodeSelector: { runtime: 'kata' }, tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }] },
  },
  {
    name: 'An overhead equal to the class\'s in other units is accepted', classes: [kata], pod: makePod('web', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }),
    want: { overhead: { cpu: '250m', memory: '120Mi' }, nodeSelector: { runtime: 'kata' }, tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }] },
  },
  // setOverhead: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead".
  {
    name: 'A different overhead is forbidden', classes: [kata], pod: makePod('web', { runtimeClassName: 'kata', overhead: { cpu: '1' } }),
    want: "pods \"web\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
  },
  // setScheduling: "conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s".
  {
    name: 'A node selector contradicting the class is forbidden', classes: [kata], pod: makePod('web', { runtimeClassName: 'kata', nodeSelector: { runtime: 'runc' } }),
    want: 'pods "web" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc',
  },
  {
    name: "The pod's other selector labels are kept", classes: [rc('x', { scheduling: { nodeSelector: { a: '1' } } })], pod: makePod('web', { runtimeClassName: 'x', nodeSelector: { b: '2' } }),
    want: { nodeSelector: { b: '2', a: '1' } },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    const result = runtimeClass.admit!(a, makeContext(c.classes));
    if (typeof c.want === 'string') {
      assert.deepEqual([result.error?.message, result.error?.code], [c.want, c.code ?? 403]);
      return;
    }
    assert.equal(result.error, undefined);
    const spec = (a.object as Pod).spec!;
    const got: Partial<Pod['spec']> = {};
    for (const k of ['overhead', 'nodeSelector', 'tolerations'] as const) if (spec[k] !== undefined) Object.assign(got, { [k]: spec[k] });
    assert.deepEqual(got, c.want);
  });
}

// validateOverhead: the two refusals of the validating pass.
const validateCases: { name: string; classes: RuntimeClass[]; pod: Pod; want?: string }[] = [
  { name: 'Validation passes a pod with its class overhead', classes: [kata], pod: makePod('web', { runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }) },
  { name: 'Validation refuses an overhead without a class that defines one', classes: [rc('plain')], pod: makePod('web', { runtimeClassName: 'plain', overhead: { cpu: '1' } }),
    want: 'pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
  { name: 'Validation refuses an overhead changed after mutation', classes: [kata], pod: makePod('web', { runtimeClassName: 'kata', overhead: { cpu: '1' } }),
    want: "pods \"web\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead" },
  // An empty overhead is set all the same (pod.Spec.Overhead != nil), as the reference cluster refuses it.
  { name: 'Validation refuses an empty overhead without a class', classes: [], pod: makePod('web', { overhead: {} }),
    want: 'pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
];

for (const c of validateCases) {
  test(c.name, () => assert.equal(runtimeClass.validate!(attributesFor(c.pod), makeContext(c.classes)).error?.message, c.want));
}
