// PodSecurity through the CLI as a process: a namespace that enforces restricted refuses a plain pod, one that only
// warns admits it with kubectl's Warning line first, and a Deployment's pods are refused when the controller makes them.
// Fixtures in test/fixtures/podsecurity/ (the cluster file carries the namespaces and the embedded cluster's nodes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginStep, runJson, type Report, type TraceEntry } from './harness';

const FIXTURES = 'test/fixtures/podsecurity';

/** run runs `pod-lifecycle run <manifest> --cluster cluster.yaml --json` and parses the report. */
function run(manifest: string): ReturnType<typeof runJson> {
  return runJson('run', `${FIXTURES}/${manifest}`, '--cluster', `${FIXTURES}/cluster.yaml`);
}

/** podSecurityStep finds PodSecurity's sub-step of the validating pass. */
function podSecurityStep(report: Report): TraceEntry | undefined {
  return pluginStep(report, 'apiserver.admit.validating', 'PodSecurity');
}

// admission.go EvaluatePod: ForbiddenDetail joins "<reason> (<detail>)" of each failing check, baseline checks then
// restricted ones, each sorted by check ID (policy/registry.go populate).
const VIOLATIONS = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

test('A plain nginx pod in a namespace that enforces restricted is refused by PodSecurity with 403 Forbidden', () => {
  const { status, report, stderr } = run('pod-secure.yaml');
  assert.equal(status, 1, stderr);
  assert.equal(report.outcome, 'Rejected');
  // admission.go EvaluatePod: forbiddenResponse(attrs, fmt.Errorf("violates PodSecurity %q: %s", ...)), NewForbidden's "pods \"web\" is forbidden: ".
  // The rejection carries the server's Status message; kubectl names the file first (AddSourceToErr).
  const message = `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${VIOLATIONS}`;
  assert.deepEqual(
    [report.rejection?.phase, report.rejection?.code, report.rejection?.reason, report.rejection?.message],
    ['apiserver.admit.validating', 403, 'Forbidden', message],
  );
  assert.equal(report.kubectl, `Error from server (Forbidden): error when creating "${FIXTURES}/pod-secure.yaml": ${message}`);
  assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'), 'the refused pod is not stored');
});

test('The PodSecurity step of the trace shows the namespace policy and every check that ran', () => {
  const { report } = run('pod-secure.yaml');
  const step = podSecurityStep(report);
  assert.equal(step?.outcome, 'rejected');
  assert.deepEqual(step?.detail['labels'], { 'pod-security.kubernetes.io/enforce': 'restricted' });
  // api/helpers.go PolicyToEvaluate (v0.36.3): without a warn label, warn takes the stricter enforce level.
  assert.deepEqual(step?.detail['policy'], { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'restricted:latest' });
  assert.deepEqual(step?.detail['auditAnnotations'], { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' });
  const [enforce] = step?.detail['evaluations'] as { modes: string[]; checks: { id: string; allowed: boolean }[] }[];
  assert.deepEqual(enforce?.modes, ['enforce']);
  assert.deepEqual(enforce?.checks.filter((c) => !c.allowed).map((c) => c.id), ['allowPrivilegeEscalation', 'capabilities_restricted', 'runAsNonRoot', 'seccompProfile_restricted']);
  assert.equal(enforce?.checks.length, 15);
});

test('A namespace that only warns at restricted admits the pod and kubectl prints the warning first', () => {
  const { status, report, stderr } = run('pod-relaxed.yaml');
  assert.equal(status, 0, stderr);
  assert.equal(report.outcome, 'Running');
  // admission.go EvaluatePod: response.Warnings "would violate PodSecurity %q: %s"; client-go prints "Warning: " before each.
  assert.equal(report.kubectl, `Warning: would violate PodSecurity "restricted:latest": ${VIOLATIONS}\npod/web created`);
  assert.ok(report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web' && o.metadata.namespace === 'relaxed'));
  assert.equal(podSecurityStep(report)?.outcome, 'ok');
});

test('A Deployment in the enforcing namespace is created with a warning, but the ReplicaSet cannot create its pods', () => {
  const { status, report, stderr } = run('deployment-secure.yaml');
  assert.equal(status, 1, stderr);
  assert.equal(report.outcome, 'Pending');
  // A template is warned and audited, never enforced (admission.go ValidatePodController); warn defaults to the enforce
  // level of a namespace that only enforces (api/helpers.go PolicyToEvaluate). The reference cluster prints exactly this.
  assert.equal(report.kubectl, `Warning: would violate PodSecurity "restricted:latest": ${VIOLATIONS}\ndeployment.apps/web created`);
  const failed = report.events.find((e) => e.reason === 'FailedCreate');
  assert.equal(failed?.type, 'Warning');
  assert.match(failed?.object ?? '', /^ReplicaSet\/secure\/web-[a-z0-9]+$/);
  // The generated name is in the message: rest.AdmissionToValidateObjectFunc takes it from the object.
  assert.match(failed?.message ?? '', /^Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": /);
  assert.ok(failed?.message.endsWith(VIOLATIONS));
  assert.ok(!report.objects.some((o) => o.kind === 'Pod'), 'no pod is stored');
});
