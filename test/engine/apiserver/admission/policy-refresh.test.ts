// ValidatingAdmissionPolicies and webhook configurations applied from a manifest: kubectl maps their kinds (served in
// admissionregistration.k8s.io/v1), and a policy is in force from kube-apiserver's next policy refresh, a whole second
// after it was written: a pod in the same apply is not checked, one applied later is. See
// staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_source.go (refreshPolicies every 1 s) at v0.36.0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../../../src/engine/cluster/files';
import { loadInputs, parseDocuments } from '../../../../src/engine/cluster/loader';
import { Simulation } from '../../../../src/engine/simulation';

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-selectors}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  validations: [{expression: "!has(object.spec.nodeSelector)", message: no node selectors}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-selectors}
spec: {policyName: no-selectors, validationActions: [Deny]}
`;
const WEBHOOKS = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checks}
webhooks: []
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: defaults}
webhooks: []
`;
const POD = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  nodeSelector: {disk: ssd}
  containers: [{name: app, image: nginx:1.27}]
`;
const DENIED = 'The pods "web" is invalid: : ValidatingAdmissionPolicy \'no-selectors\' with binding \'no-selectors\' denied request: no node selectors';

/** run applies `manifest` on the embedded cluster (with `cluster` in a cluster file), then `later` after `afterSeconds`. */
function run(manifest: string, options: { cluster?: string; later?: string; afterSeconds?: number } = {}): Simulation {
  const inputs = loadInputs({
    manifest: { file: 'manifest.yaml', text: manifest }, clusters: options.cluster ? [{ file: 'cluster.yaml', text: options.cluster }] : [], identity: { kind: 'default' },
  });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const thenApply = options.later ? [{ afterSeconds: options.afterSeconds ?? 0, manifest: parseDocuments(options.later, 'later.yaml'), file: 'later.yaml' }] : [];
  const sim = new Simulation(inputs, { forMs: 5_000, thenApply });
  sim.run();
  return sim;
}

const cases: { name: string; manifest: string; cluster?: string; later?: string; afterSeconds?: number; created: string[]; denied: boolean }[] = [
  {
    name: 'a policy and its binding in the manifest are created; the pod beside them is not checked yet', manifest: `${POLICY}---\n${POD}`,
    created: ['validatingadmissionpolicy.admissionregistration.k8s.io/no-selectors created', 'validatingadmissionpolicybinding.admissionregistration.k8s.io/no-selectors created', 'pod/web created'],
    denied: false,
  },
  { name: 'a pod applied 2 s after the policy is refused', manifest: POLICY, later: POD, afterSeconds: 2, created: [], denied: true },
  { name: 'a pod applied half a second after the policy is not checked yet', manifest: POLICY, later: POD, afterSeconds: 0.5, created: [], denied: false },
  { name: 'a policy of the cluster files is in force from the start', manifest: POD, cluster: POLICY, created: [], denied: true },
  {
    name: 'webhook configurations in the manifest are created', manifest: WEBHOOKS,
    created: ['validatingwebhookconfiguration.admissionregistration.k8s.io/checks created', 'mutatingwebhookconfiguration.admissionregistration.k8s.io/defaults created'], denied: false,
  },
];

for (const c of cases) {
  test(`admission configuration from a manifest: ${c.name}`, () => {
    const sim = run(c.manifest, c);
    const printed = sim.kubectlOutput.join('\n');
    for (const line of c.created) assert.ok(printed.includes(line), `${line} in:\n${printed}`);
    assert.ok(!printed.includes('resource mapping not found'), printed);
    assert.equal(printed.includes(DENIED), c.denied, printed);
  });
}
