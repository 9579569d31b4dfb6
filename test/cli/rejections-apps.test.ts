// Deployments the API server refuses at validation, run through the pod-lifecycle CLI as a process: the outcome,
// the 422 Invalid status with the server's message and the line kubectl prints. Messages come from
// pkg/apis/apps/validation/validation.go and staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const ROOT = join(__dirname, '..', '..', '..');

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string; object?: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string } }[];
}

/** run is `pod-lifecycle run <fixture> --json`: its exit status and parsed report. */
function run(fixture: string): { status: number | null; report: Report; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', fixture, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const cases = [
  {
    name: 'a Deployment whose selector does not match its template labels is rejected at validation',
    fixture: 'test/fixtures/apps/selector-mismatch.yaml', deployment: 'web',
    // ValidatePodTemplateSpecForReplicaSet (pkg/apis/apps/validation/validation.go); the labels print as JSON since 1.34.
    cause: 'spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
  },
  {
    name: 'a Deployment with an invalid label value is rejected at validation',
    fixture: 'test/fixtures/apps/invalid-label-value.yaml', deployment: 'web',
    // v1validation.ValidateLabels (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
    cause: `metadata.labels: Invalid value: "front end": ${LABEL_VALUE}`,
  },
  {
    name: 'a Deployment with an uppercase name is rejected at validation',
    fixture: 'test/fixtures/apps/uppercase-name.yaml', deployment: 'Web',
    // ValidateDeploymentName = NameIsDNSSubdomain (pkg/apis/apps/validation/validation.go).
    cause: `metadata.name: Invalid value: "Web": ${SUBDOMAIN}`,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report, stderr } = run(c.fixture);
    assert.equal(status, 1, stderr);
    assert.equal(report.outcome, 'Rejected');
    assert.deepEqual(report.rejection, {
      phase: 'apiserver.validate', code: 422, reason: 'Invalid',
      // The API server's own Status message (errors.NewInvalid): the group-qualified kind, then every cause.
      message: `Deployment.apps "${c.deployment}" is invalid: ${c.cause}`,
      object: `Deployment/${c.deployment}`,
    });
    assert.equal(report.kubectl, `The Deployment "${c.deployment}" is invalid: ${c.cause}`);
    assert.deepEqual(report.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'ReplicaSet'), [], 'nothing was stored');
  });
}
