// LimitPodHardAntiAffinityTopology: required anti-affinity only by hostname; cases after
// plugin/pkg/admission/antiaffinity/admission_test.go, message from admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodAffinityTerm } from 'kubernetes-types/core/v1';
import { limitPodHardAntiAffinityTopology } from '../../../../src/engine/apiserver/admission/limit-pod-hard-anti-affinity';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const term = (topologyKey: string): PodAffinityTerm => ({ labelSelector: { matchLabels: { security: 'S1' } }, topologyKey });

const cases: { name: string; required?: PodAffinityTerm[]; preferred?: PodAffinityTerm[]; want?: string }[] = [
  { name: 'A pod without anti-affinity is admitted' },
  { name: 'Required anti-affinity by hostname is admitted', required: [term('kubernetes.io/hostname')] },
  // admission.go: "affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey %v but only key %v is allowed".
  {
    name: 'Required anti-affinity by zone is forbidden', required: [term('kubernetes.io/hostname'), term('topology.kubernetes.io/zone')],
    want: 'pods "web" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
  },
  { name: 'Preferred anti-affinity may use any key', preferred: [term('topology.kubernetes.io/zone')] },
];

for (const c of cases) {
  test(c.name, () => {
    const podAntiAffinity = {
      ...(c.required ? { requiredDuringSchedulingIgnoredDuringExecution: c.required } : {}),
      ...(c.preferred ? { preferredDuringSchedulingIgnoredDuringExecution: c.preferred.map((podAffinityTerm) => ({ weight: 1, podAffinityTerm })) } : {}),
    };
    const pod = makePod('web', c.required || c.preferred ? { affinity: { podAntiAffinity } } : {});
    const result = limitPodHardAntiAffinityTopology.validate!(attributesFor(pod), makeContext());
    assert.equal(result.error?.message, c.want);
  });
}
