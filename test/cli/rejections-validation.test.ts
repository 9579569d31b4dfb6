// The pod-lifecycle CLI as a process on pods kube-apiserver's validation rejects: outcome Rejected at
// apiserver.validate with the 422 Invalid Status (its message joins pkg/apis/core/validation/validation.go's errors as
// `[a, b]`, errors.NewInvalid) and kubectl's own lines (one cause alone, several as `* ` lines; StandardErrorMessage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SUBDOMAIN_ERROR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string } }[];
}

function run(fixture: string): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [CLI, 'run', fixture, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

const cases = [
  {
    name: 'A pod name that is not a DNS subdomain is rejected by ValidateObjectMeta',
    fixture: 'test/fixtures/validation/invalid-name.yaml',
    pod: 'Web_1',
    causes: [`metadata.name: Invalid value: "Web_1": ${SUBDOMAIN_ERROR}`],
  },
  {
    name: 'Two containers with one name are rejected: the second is a duplicate',
    fixture: 'test/fixtures/validation/duplicate-container.yaml',
    pod: 'web',
    causes: ['spec.containers[1].name: Duplicate value: "app"'],
  },
  {
    name: 'A CPU request above its limit is rejected at resources.requests',
    fixture: 'test/fixtures/validation/requests-above-limits.yaml',
    pod: 'web',
    causes: ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
  },
  {
    name: 'A volumeMount of a volume the pod does not declare is not found',
    fixture: 'test/fixtures/validation/missing-volume.yaml',
    pod: 'web',
    causes: ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
  },
  {
    name: 'Several causes come in validation order, joined in the message and one per line in kubectl',
    fixture: 'test/fixtures/validation/several-causes.yaml',
    pod: 'web',
    causes: [
      'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].volumeMounts[0].name: Not found: "data"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report } = run(c.fixture);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    const joined = c.causes.length === 1 ? c.causes[0]! : `[${c.causes.join(', ')}]`;
    assert.deepEqual(report.rejection, {
      ...report.rejection,
      phase: 'apiserver.validate', code: 422, reason: 'Invalid',
      message: `Pod "${c.pod}" is invalid: ${joined}`,
    });
    const kubectl = c.causes.length === 1
      ? `The Pod "${c.pod}" is invalid: ${c.causes[0]}`
      : `The Pod "${c.pod}" is invalid: \n${c.causes.map((cause) => `* ${cause}`).join('\n')}`;
    assert.equal(report.kubectl, kubectl);
    assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === c.pod), 'nothing was stored');
  });
}
