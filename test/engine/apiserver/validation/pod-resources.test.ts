// Resource requirements (validateResourceRequirements), resource names (validateContainerResourceName,
// validatePodResourceName), hugepages, claims and pod-level resources, from pkg/apis/core/validation/validation.go.
// Pods are defaulted first, so a limit without a request also shows up as a request (SetDefaults_Pod).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_NAME_ERROR, makeContainer, makePod, podErrors } from './builders';

const r0 = 'spec.containers[0].resources';

const cases = [
  // TestValidateResourceRequirements: "Resources with Requests Larger Than Limits".
  {
    name: 'A request above its limit must be less than or equal to the limit, reported at requests',
    pod: makePod().withContainer({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }),
    want: [`${r0}.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`],
  },
  {
    name: 'Quantities print in canonical form in the message',
    pod: makePod().withContainer({ resources: { requests: { memory: '1.5Gi' }, limits: { memory: '1Gi' } } }),
    want: [`${r0}.requests: Invalid value: "1536Mi": must be less than or equal to memory limit of 1Gi`],
  },
  // ValidateResourceQuantityValue (ValidateNonnegativeQuantity).
  {
    name: 'A negative quantity must be greater than or equal to 0',
    pod: makePod().withContainer({ resources: { requests: { memory: '-1Gi' } } }),
    want: [`${r0}.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0`],
  },
  // validateContainerResourceName: a bare unknown name fails both name rules; defaulting copies it to requests.
  {
    name: 'An unknown bare resource name is neither standard nor a container resource, in limits and copied requests',
    pod: makePod().withContainer({ resources: { limits: { gpu: '1' } } }),
    want: [
      `${r0}.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
      `${r0}.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
      `${r0}.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
      `${r0}.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
    ],
  },
  {
    name: 'A standard resource that containers cannot request is only a container error',
    pod: makePod().withContainer({ resources: { requests: { pods: '1' } } }),
    want: [`${r0}.requests[pods]: Invalid value: "pods": must be a standard resource for containers`],
  },
  {
    name: 'A resource name must be a qualified name',
    pod: makePod().withContainer({ resources: { requests: { 'bad name': '1' } } }),
    want: [`${r0}.requests[bad name]: Invalid value: "bad name": ${KEY_NAME_ERROR}`, `${r0}.requests[bad name]: Invalid value: "bad name": must be a standard resource for containers`],
  },
  // ValidateResourceQuantityValue: extended resources are integers.
  {
    name: 'An extended resource must be an integer',
    pod: makePod().withContainer({ resources: { limits: { 'example.com/gpu': '500m' } } }),
    want: [`${r0}.limits[example.com/gpu]: Invalid value: "500m": must be an integer`, `${r0}.requests[example.com/gpu]: Invalid value: "500m": must be an integer`],
  },
  // Non-overcommitable resources: requests equal to limits, and limits required.
  {
    name: 'An extended resource request must equal its limit',
    pod: makePod().withContainer({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } } }),
    want: [`${r0}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`],
  },
  {
    name: 'An extended resource request needs a limit',
    pod: makePod().withContainer({ resources: { requests: { 'example.com/gpu': '1' } } }),
    want: [`${r0}.limits: Required value: Limit must be set for non overcommitable resources`],
  },
  // Hugepages: "HugePages require cpu or memory" and IsHugePageResourceValueDivisible.
  {
    name: 'Hugepages need cpu or memory beside them',
    pod: makePod().withContainer({ resources: { limits: { 'hugepages-2Mi': '4Mi' } } }),
    want: [`${r0}: Forbidden: HugePages require cpu or memory`],
  },
  {
    name: 'Hugepages must be a whole number of pages',
    pod: makePod().withContainer({ resources: { limits: { memory: '1Gi', 'hugepages-2Mi': '3Mi' } } }),
    want: [
      `${r0}.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
      `${r0}.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
    ],
  },
  // validateResourceClaimNames.
  {
    name: 'A container claim must name an entry of spec.resourceClaims',
    pod: makePod().withContainer({ resources: { claims: [{ name: 'gpu' }] } }),
    want: [`${r0}.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`],
  },
  // validatePodResourceClaim.
  {
    name: 'A pod resource claim names a claim or a template, printed as the internal struct',
    pod: makePod().withSpec({ resourceClaims: [{ name: 'gpu' }, { name: 'gpu', resourceClaimName: 'a', resourceClaimTemplateName: 'b' }] }),
    want: [
      'spec.resourceClaims[0]: Invalid value: {"Name":"gpu","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
      'spec.resourceClaims[1].name: Duplicate value: "gpu"',
      'spec.resourceClaims[1]: Invalid value: {"Name":"gpu","ResourceClaimName":"a","ResourceClaimTemplateName":"b"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
    ],
  },
  // validatePodResources (PodLevelResources, on since 1.34): requirements, then consistency.
  {
    name: 'Pod-level limits below a container limit fail both the pod requirements and the consistency check',
    pod: makePod().withSpec({ resources: { limits: { cpu: '1' } } }).withContainer({ resources: { limits: { cpu: '2' } } }),
    want: [
      'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1',
    ],
  },
  {
    name: 'Pod-level requests below the containers aggregate are rejected',
    pod: makePod().withSpec({ resources: { requests: { cpu: '500m' } } }).withContainers(makeContainer('a', { resources: { requests: { cpu: '400m' } } }), makeContainer('b', { resources: { requests: { cpu: '400m' } } })),
    want: ['spec.resources.requests[cpu]: Invalid value: "500m": must be greater than or equal to aggregate container requests of 800m'],
  },
  {
    name: 'Pod-level resources accept only cpu, memory and hugepages, and no claims',
    pod: makePod().withSpec({ resources: { requests: { 'ephemeral-storage': '1Gi' }, claims: [{ name: 'gpu' }] } }),
    want: [
      'spec.resources.claims: Forbidden: claims may not be set for Resources at pod-level',
      'spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "memory"',
      'spec.resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
