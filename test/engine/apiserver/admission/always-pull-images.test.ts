// AlwaysPullImages: the policy it sets and the refusal of a policy changed back; plugin/pkg/admission/alwayspullimages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../src/engine/api/types';
import { alwaysPullImages } from '../../../../src/engine/apiserver/admission/always-pull-images';
import { attributesFor, makeContext, makePod } from './plugin-harness';

// TestAdmission: every init and regular container ends with Always, whatever it had.
test('Every container of a new pod pulls Always', () => {
  const policies = [undefined, 'Never', 'IfNotPresent', 'Always'] as const;
  const containers = policies.map((p, i) => ({ name: `ctr${i + 1}`, image: 'image', ...(p ? { imagePullPolicy: p } : {}) }));
  const pod = makePod('123', { initContainers: containers.map((c) => ({ ...c, name: c.name.replace('ctr', 'init') })), containers });
  const a = attributesFor(pod);
  const result = alwaysPullImages.admit!(a, makeContext());
  const spec = (a.object as Pod).spec!;
  assert.deepEqual([...(spec.initContainers ?? []), ...spec.containers].map((c) => c.imagePullPolicy), Array(8).fill('Always'));
  const changed = ['spec.initContainers[0]', 'spec.initContainers[1]', 'spec.initContainers[2]', 'spec.containers[0]', 'spec.containers[1]', 'spec.containers[2]'];
  assert.deepEqual(result.changes, changed.map((p) => `${p}.imagePullPolicy`), 'a container already pulling Always is no change');
});

// TestValidate: one Forbidden error per container, aggregated; the API server answers 500 with the text.
const validateCases: { name: string; pod: Pod; want?: string }[] = [
  { name: 'Validation passes when every container pulls Always', pod: makePod('123', { containers: [{ name: 'c', image: 'i', imagePullPolicy: 'Always' }] }) },
  {
    name: 'Validation refuses one container that does not pull Always', pod: makePod('123', { containers: [{ name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent' }] }),
    want: 'pods "123" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"',
  },
  {
    name: 'Validation aggregates several containers', pod: makePod('123', { initContainers: [{ name: 'i', image: 'i' }], containers: [{ name: 'c', image: 'i', imagePullPolicy: 'Never' }] }),
    want: '[pods "123" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "": supported values: "Always", '
      + 'pods "123" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"]',
  },
];

for (const c of validateCases) {
  test(c.name, () => {
    const result = alwaysPullImages.validate!(attributesFor(c.pod), makeContext());
    assert.deepEqual([result.error?.message, result.error?.code, result.error?.reason], c.want ? [c.want, 500, ''] : [undefined, undefined, undefined]);
  });
}

// TestOtherResources and TestUpdatePod: other resources, subresources and updates without new images are left alone.
test('AlwaysPullImages ignores subresources, other resources and updates that add no image', () => {
  const pod = makePod('p');
  const newImage = makePod('p', { containers: [{ name: 'app', image: 'nginx:1.28' }] });
  assert.deepEqual([
    alwaysPullImages.handles(attributesFor(pod)), alwaysPullImages.handles(attributesFor(pod, { subresource: 'exec' })),
    alwaysPullImages.handles(attributesFor({ kind: 'Foo', metadata: { name: 'f' } })),
    alwaysPullImages.handles(attributesFor(pod, { operation: 'UPDATE', oldObject: pod })),
    alwaysPullImages.handles(attributesFor(newImage, { operation: 'UPDATE', oldObject: pod })),
  ], [true, false, false, false, true]);
});
