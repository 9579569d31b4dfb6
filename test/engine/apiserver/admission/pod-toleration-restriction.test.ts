// PodTolerationRestriction: namespace default tolerations, the memory-pressure toleration, the whitelist, and the
// toleration set helpers; cases after plugin/pkg/admission/podtolerationrestriction/admission_test.go and
// pkg/util/tolerations/tolerations_test.go, messages from admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace, Pod, Toleration } from '../../../../src/engine/api/types';
import {
  jsonError, mergeTolerations, newPodTolerationRestriction, podTolerationRestriction, verifyAgainstWhitelist,
} from '../../../../src/engine/apiserver/admission/pod-toleration-restriction';
import { attributesFor, makeContext, makeNamespace, makePod } from './plugin-harness';

const DEFAULTS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const WHITELIST = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const CONFLICT = 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist';
const t = (key: string, value: string, effect = 'NoSchedule'): Toleration => ({ key, operator: 'Equal', value, effect });
const memoryPressure: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };
const ns = (annotations: Record<string, string> = {}): Namespace => makeNamespace('testNamespace', annotations);
const bestEffort = (tolerations?: Toleration[]): Pod => makePod('testPod', tolerations ? { tolerations } : {}, {}, 'testNamespace');
const burstable = (): Pod => makePod('testPod', { containers: [{ name: 'test', image: 'i', resources: { requests: { cpu: '500m' }, limits: { cpu: '1' } } }] }, {}, 'testNamespace');

const cases: { name: string; annotations?: Record<string, string>; config?: { default?: Toleration[]; whitelist?: Toleration[] }; pod: Pod; want: Toleration[] | string }[] = [
  { name: 'The cluster default tolerations are added to a pod without any', config: { default: [t('testKey', 'testValue')] }, pod: bestEffort(), want: [t('testKey', 'testValue')] },
  { name: "The namespace's defaults are added", annotations: { [DEFAULTS]: JSON.stringify([t('testKey', 'testValue')]) }, pod: bestEffort(), want: [t('testKey', 'testValue')] },
  { name: 'A toleration the pod already has is not added twice', annotations: { [DEFAULTS]: JSON.stringify([t('testKey', 'testValue')]) }, pod: bestEffort([t('testKey', 'testValue')]), want: [t('testKey', 'testValue')] },
  {
    name: "An empty namespace annotation overrides the cluster default", annotations: { [DEFAULTS]: '' }, config: { default: [t('testKey', 'testValue')] }, pod: bestEffort(), want: [],
  },
  { name: 'A burstable pod also tolerates memory pressure', annotations: { [DEFAULTS]: JSON.stringify([t('testKey', 'testValue')]) }, pod: burstable(), want: [t('testKey', 'testValue'), memoryPressure] },
  {
    name: 'Merged tolerations within the whitelist are admitted',
    annotations: { [DEFAULTS]: JSON.stringify([t('testKey', 'testValue')]), [WHITELIST]: JSON.stringify([t('testKey', 'testValue')]) }, pod: bestEffort(), want: [t('testKey', 'testValue')],
  },
  // Why a 500: the plugin returns fmt.Errorf, no API status.
  {
    name: 'Merged tolerations outside the whitelist are refused',
    annotations: { [DEFAULTS]: JSON.stringify([t('testKey', 'testValue')]), [WHITELIST]: JSON.stringify([t('testKey', 'testValue1')]) }, pod: bestEffort(), want: CONFLICT,
  },
  { name: 'The cluster whitelist applies when the namespace has none', config: { whitelist: [t('other', 'x')] }, pod: bestEffort([t('testKey', 'testValue')]), want: CONFLICT },
  {
    name: 'A whitelisted Exists toleration covers any value of its key', annotations: { [WHITELIST]: JSON.stringify([{ key: 'testKey', operator: 'Exists' }]) },
    pod: bestEffort([t('testKey', 'v1', 'NoExecute')]), want: [t('testKey', 'v1', 'NoExecute')],
  },
  // json.Unmarshal's own words, answered as a 500.
  { name: 'An annotation that is not JSON is an error of the server', annotations: { [DEFAULTS]: "[{'key': 'a'}]" }, pod: bestEffort(), want: "invalid character '\\'' looking for beginning of object key string" },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    const result = newPodTolerationRestriction(c.config).admit!(a, makeContext([ns(c.annotations)]));
    if (typeof c.want === 'string') {
      assert.deepEqual([result.error?.message, result.error?.code, result.error?.reason], [c.want, 500, '']);
    } else {
      assert.equal(result.error, undefined);
      assert.deepEqual((a.object as Pod).spec?.tolerations ?? [], c.want);
    }
  });
}

test('A missing namespace gives the 404 of the live lookup', () => {
  const result = podTolerationRestriction.admit!(attributesFor(bestEffort()), makeContext());
  assert.equal(result.error?.message, 'namespaces "testNamespace" not found');
});

test('Validation checks the whitelist again after later mutations', () => {
  const result = podTolerationRestriction.validate!(attributesFor(bestEffort([t('bad', 'x')])), makeContext([ns({ [WHITELIST]: JSON.stringify([t('good', 'x')]) })]));
  assert.equal(result.error?.message, CONFLICT);
});

// pkg/util/tolerations/tolerations_test.go: a superset replaces what it covers; equal tolerations keep the first.
const mergeCases: { name: string; a: Toleration[]; b: Toleration[]; want: Toleration[] }[] = [
  { name: 'Disjoint tolerations are all kept', a: [t('a', '1')], b: [t('b', '2')], want: [t('a', '1'), t('b', '2')] },
  { name: 'An Exists toleration absorbs the Equal ones of its key', a: [t('a', '1')], b: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }], want: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }] },
  { name: 'An empty-key Exists toleration absorbs everything', a: [t('a', '1'), t('b', '2')], b: [{ operator: 'Exists' }], want: [{ operator: 'Exists' }] },
  { name: 'A longer NoExecute toleration absorbs a shorter one', a: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }], b: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }], want: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }] },
  { name: 'Duplicates collapse to the first', a: [t('a', '1')], b: [t('a', '1')], want: [t('a', '1')] },
];

for (const c of mergeCases) test(c.name, () => assert.deepEqual(mergeTolerations(c.a, c.b), c.want));

test('An empty whitelist or no tolerations always verify', () => {
  assert.deepEqual([verifyAgainstWhitelist([t('a', '1')], []), verifyAgainstWhitelist([], [t('b', '1')]), verifyAgainstWhitelist([t('a', '1')], [t('b', '1')])], [true, true, false]);
});

test('JSON errors read as encoding/json words them', () => {
  assert.deepEqual([jsonError('[{"key": "a"}]'), jsonError('{}'), jsonError('["a"]'), jsonError('[{"key": 1}]'), jsonError('[{"key": "a"'), jsonError('[1,]')], [
    undefined, 'json: cannot unmarshal object into Go value of type []v1.Toleration', 'json: cannot unmarshal string into Go value of type v1.Toleration',
    'json: cannot unmarshal number into Go struct field Toleration.key of type string', 'unexpected end of JSON input',
    "invalid character ']' looking for beginning of value",
  ]);
});
