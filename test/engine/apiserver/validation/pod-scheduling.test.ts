// Tolerations, affinity and topology spread (ValidateTolerations, validateAffinity, validateTopologySpreadConstraints)
// from pkg/apis/core/validation/validation.go; cases echo TestValidateTolerations, TestValidateAffinity and
// TestValidateTopologySpreadConstraints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_NAME_ERROR, LABEL_ERROR, LABEL_VALUE_ERROR, makePod, podErrors } from './builders';

const na = 'spec.affinity.nodeAffinity';
const required0 = `${na}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]`;
const pa0 = 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]';
const tsc0 = 'spec.topologySpreadConstraints[0]';
const nodeTerms = (...matchExpressions: object[]): object => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } } });

const cases = [
  // ValidateTolerations.
  {
    name: 'Well-formed tolerations are valid',
    pod: makePod().withSpec({ tolerations: [{ operator: 'Exists' }, { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] }),
    want: [],
  },
  {
    name: 'An empty key needs operator Exists',
    pod: makePod().withSpec({ tolerations: [{ value: 'x' }] }),
    want: ['spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
  },
  {
    name: 'Exists takes no value, and tolerationSeconds needs NoExecute',
    pod: makePod().withSpec({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule', tolerationSeconds: 60 }] }),
    want: [
      "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
    ],
  },
  {
    name: 'An unknown operator or effect is unsupported; a bad key or value is invalid',
    pod: makePod().withSpec({ tolerations: [{ key: 'k', operator: 'Gt', value: '5' }, { key: 'bad key', value: 'a b', effect: 'NoRun' }] }),
    want: [
      'spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
      `spec.tolerations[1].key: Invalid value: "bad key": ${KEY_NAME_ERROR}`,
      `spec.tolerations[1].operator: Invalid value: "a b": ${LABEL_VALUE_ERROR}`,
      'spec.tolerations[1].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ],
  },
  // ValidateNodeSelector and ValidateNodeSelectorRequirement.
  {
    name: 'Required node affinity needs a term',
    pod: makePod().withSpec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } }),
    want: [`${na}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term`],
  },
  {
    name: 'Each node selector operator takes its own number of values',
    pod: makePod().withSpec({
      affinity: nodeTerms({ key: 'zone', operator: 'In' }, { key: 'gpu', operator: 'Exists', values: ['x'] }, { key: 'cores', operator: 'Gt', values: ['1', '2'] }, { key: 'zone', operator: 'Like', values: ['a'] }),
    }),
    want: [
      `${required0}.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${required0}.matchExpressions[1].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      `${required0}.matchExpressions[2].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      `${required0}.matchExpressions[3].operator: Invalid value: "Like": not a valid selector operator`,
    ],
  },
  {
    name: 'Required node affinity values must be label values; matchFields only metadata.name',
    pod: makePod().withSpec({
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }], matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['x'] }] }] } } },
    }),
    want: [
      `${required0}.matchExpressions[0].values[0]: Invalid value: "a b": ${LABEL_VALUE_ERROR}`,
      `${required0}.matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key`,
    ],
  },
  {
    name: 'Preferred node affinity weighs 1 to 100 and tolerates bad label values',
    pod: makePod().withSpec({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] } }] } } }),
    want: [`${na}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100`],
  },
  // validatePodAffinityTerm.
  {
    name: 'An empty topologyKey is required and also not a qualified name',
    pod: makePod().withSpec({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: '' }] } } }),
    want: [
      `${pa0}.topologyKey: Required value: can not be empty`,
      `${pa0}.topologyKey: Invalid value: "": name part must be non-empty`,
      `${pa0}.topologyKey: Invalid value: "": ${KEY_NAME_ERROR}`,
    ],
  },
  {
    name: 'Pod affinity checks its selector, its namespaces (at namespace) and its label keys',
    pod: makePod().withSpec({
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, namespaces: ['Bad_NS'], topologyKey: 'kubernetes.io/hostname',
            matchLabelKeys: ['app'], mismatchLabelKeys: ['app'],
          }],
        },
      },
    }),
    want: [
      `${pa0}.labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${pa0}.namespace: Invalid value: "Bad_NS": ${LABEL_ERROR}`,
      `${pa0}.matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys`,
    ],
  },
  {
    name: 'Weighted pod anti-affinity weighs 1 to 100; label keys need a selector',
    pod: makePod().withSpec({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: { topologyKey: 'zone', matchLabelKeys: ['app'] } }] } } }),
    want: [
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
    ],
  },
  // validateTopologySpreadConstraints.
  {
    name: 'A spread constraint needs a positive skew, a key and a known action',
    pod: makePod().withSpec({ topologySpreadConstraints: [{ maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Never' }] }),
    want: [
      `${tsc0}.maxSkew: Invalid value: 0: must be greater than zero`,
      `${tsc0}.topologyKey: Required value: can not be empty`,
      `${tsc0}.whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"`,
    ],
  },
  {
    name: 'A repeated key and action is a duplicate; minDomains needs DoNotSchedule',
    pod: makePod().withSpec({
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 0, nodeAffinityPolicy: 'Maybe' },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    }),
    want: [
      `${tsc0}.{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"`,
      `${tsc0}.minDomains: Invalid value: 0: must be greater than zero`,
      `${tsc0}.minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
      `${tsc0}.nodeAffinityPolicy: Unsupported value: "Maybe": supported values: "Honor", "Ignore"`,
    ],
  },
  {
    name: 'Spread matchLabelKeys need a selector that does not already name them',
    pod: makePod().withSpec({
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['app'] },
        { maxSkew: 1, topologyKey: 'host', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app'] },
      ],
    }),
    want: [
      `${tsc0}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
      'spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
