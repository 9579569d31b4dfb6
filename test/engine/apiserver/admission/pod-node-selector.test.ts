// PodNodeSelector: merging the namespace's node selector, conflicts and the whitelist; cases after
// plugin/pkg/admission/podnodeselector/admission_test.go, messages from admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace, Pod } from '../../../../src/engine/api/types';
import { convertSelectorToLabelsMap, newPodNodeSelector, podNodeSelector } from '../../../../src/engine/apiserver/admission/pod-node-selector';
import { attributesFor, makeContext, makeNamespace, makePod } from './plugin-harness';

const ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';
const ns = (selector?: string): Namespace => makeNamespace('testNamespace', selector === undefined ? undefined : { [ANNOTATION]: selector });
const pod = (nodeSelector?: Record<string, string>): Pod => makePod('testPod', nodeSelector ? { nodeSelector } : {}, {}, 'testNamespace');

const cases: { name: string; namespace: Namespace; config?: Record<string, string>; pod: Pod; want: Record<string, string> | string; code?: number }[] = [
  { name: 'A pod in a namespace without a selector keeps its own', namespace: ns(), pod: pod({ infra: 'false' }), want: { infra: 'false' } },
  { name: 'Without annotation the cluster default selector is merged', namespace: ns(), config: { clusterDefaultNodeSelector: 'env=dev' }, pod: pod(), want: { env: 'dev' } },
  { name: "An empty annotation overrides the cluster default", namespace: ns(''), config: { clusterDefaultNodeSelector: 'env=dev' }, pod: pod(), want: {} },
  { name: "The namespace's selector is merged into the pod's", namespace: ns('infra=false'), pod: pod({ foo: 'bar' }), want: { infra: 'false', foo: 'bar' } },
  // admission.go: "pod node label selector conflicts with its namespace node label selector".
  {
    name: 'A pod selecting another value than its namespace is forbidden', namespace: ns('infra=false'), pod: pod({ infra: 'true' }),
    want: 'pods "testPod" is forbidden: pod node label selector conflicts with its namespace node label selector', code: 403,
  },
  // admission.go: "pod node label selector labels conflict with its namespace whitelist".
  {
    name: 'A pod outside its namespace whitelist is forbidden', namespace: ns('infra=false'), config: { testNamespace: 'infra=false' }, pod: pod({ foo: 'bar' }),
    want: 'pods "testPod" is forbidden: pod node label selector labels conflict with its namespace whitelist', code: 403,
  },
  { name: 'A pod within its namespace whitelist is admitted', namespace: ns('infra=false'), config: { testNamespace: 'infra=false,foo=bar' }, pod: pod({ foo: 'bar' }), want: { infra: 'false', foo: 'bar' } },
  // labels.ConvertSelectorToLabelsMap: fmt.Errorf("invalid selector: %s", l), which the API server answers as a 500.
  { name: 'A malformed annotation is an error of the server', namespace: ns('infra'), pod: pod(), want: 'invalid selector: [infra]', code: 500 },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    const result = newPodNodeSelector(c.config).admit!(a, makeContext([c.namespace]));
    if (typeof c.want === 'string') {
      assert.deepEqual([result.error?.message, result.error?.code], [c.want, c.code]);
    } else {
      assert.equal(result.error, undefined);
      assert.deepEqual((a.object as Pod).spec?.nodeSelector ?? {}, c.want);
    }
  });
}

test('A pod named by generateName is forbidden without a name, as pod.Name is empty', () => {
  const result = podNodeSelector.admit!(attributesFor(makePod('', { nodeSelector: { infra: 'true' } }, { generateName: 'web-' }, 'testNamespace')), makeContext([ns('infra=false')]));
  assert.equal(result.error?.message, 'pods is forbidden: pod node label selector conflicts with its namespace node label selector');
});

test('Validation refuses a pod a later mutation moved off its namespace selector', () => {
  const result = podNodeSelector.validate!(attributesFor(pod({ infra: 'true' })), makeContext([ns('infra=false')]));
  assert.equal(result.error?.message, 'pods "testPod" is forbidden: pod node label selector conflicts with its namespace node label selector');
});

test('A missing namespace is an internal error, as defaultGetNamespace words it', () => {
  const result = podNodeSelector.admit!(attributesFor(pod()), makeContext());
  assert.deepEqual([result.error?.code, result.error?.reason, result.error?.message], [500, 'InternalError', 'Internal error occurred: namespace testNamespace does not exist']);
});

test('Selector strings parse as labels.ConvertSelectorToLabelsMap does', () => {
  assert.deepEqual(convertSelectorToLabelsMap(' a = b ,c=d'), { a: 'b', c: 'd' });
  assert.equal(convertSelectorToLabelsMap('a=b=c'), 'invalid selector: [a b c]');
  assert.match(convertSelectorToLabelsMap('a=b c') as string, /^\[a\]: Invalid value: "b c": a valid label must be/);
});
