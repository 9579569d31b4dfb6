// Admission webhooks and ValidatingAdmissionPolicy through the CLI as a process: a cluster of the default nodes, the
// webhooks' service, one scenario's configurations and the Behavior with the webhooks' answers (test/fixtures/webhooks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const ROOT = join(__dirname, '..', '..', '..');
const F = 'test/fixtures/webhooks';
const POD = `${F}/pod.yaml`;

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string; labels?: Record<string, string> } }[];
  trace: { phase: string; step?: { name: string }; result: string; detail: Record<string, unknown> }[];
}

/** run runs `pod-lifecycle run pod.yaml --json` on the nodes, the webhook service and one scenario's cluster file. */
function run(scenario: string): { status: number | null; report: Report; stderr: string } {
  const args = [CLI, 'run', POD, '--cluster', `${F}/nodes.yaml`, '--cluster', `${F}/webhook-service.yaml`, '--cluster', `${F}/${scenario}.yaml`, '--json'];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const SOURCE = `error when creating "${POD}"`;
const SLOW_URL = 'https://pod-policy.webhook-system.svc:443/validate?timeout=5s';
const VAP_MESSAGE = "ValidatingAdmissionPolicy 'require-team-label' with binding 'require-team-label-binding' denied request: pods must have a team label";

const rejections: { name: string; scenario: string; want: { phase: string; code: number; reason: string; message: string; kubectl: string } }[] = [
  {
    // Message: webhook/errors/statuserror.go (ToStatusErr); kubectl: cmd/util/helpers.go (StandardErrorMessage), after the
    // webhook's warning, which client-go's warning handler prints as the response arrives (rest/warnings.go).
    name: 'A denying validating webhook rejects the pod with its message',
    scenario: 'deny-validating',
    want: {
      phase: 'apiserver.admit.validating', code: 403, reason: 'Forbidden',
      message: `admission webhook "pod-policy.example.com" denied the request: pods must set resource limits`,
      kubectl: `Warning: this webhook will be retired\nError from server (Forbidden): ${SOURCE}: admission webhook "pod-policy.example.com" denied the request: pods must set resource limits`,
    },
  },
  {
    // Message: webhook/validating/dispatcher.go (ErrCallingWebhook, NewInternalError), client-go's url.Error for a deadline.
    name: 'A webhook past its timeout with failurePolicy Fail rejects the pod with an internal error',
    scenario: 'timeout-fail',
    want: {
      phase: 'apiserver.admit.validating', code: 500, reason: 'InternalError',
      message: `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${SLOW_URL}": context deadline exceeded`,
      kubectl: `Error from server (InternalError): ${SOURCE}: Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${SLOW_URL}": context deadline exceeded`,
    },
  },
  {
    // Message: policy/validating/dispatcher.go (reason Invalid, 422, the message as a cause); kubectl prints an Invalid
    // error's causes as `<field>: <message>`, and the cause has no field.
    name: 'A ValidatingAdmissionPolicy denies a pod without the required label',
    scenario: 'vap-required-label',
    want: {
      phase: 'apiserver.admit.validating', code: 422, reason: 'Invalid',
      message: `pods "web" is forbidden: ${VAP_MESSAGE}`,
      kubectl: `The pods "web" is invalid: : ${VAP_MESSAGE}`,
    },
  },
];

for (const c of rejections) {
  test(c.name, () => {
    const { status, report, stderr } = run(c.scenario);
    assert.equal(status, 1, stderr);
    assert.equal(report.outcome, 'Rejected');
    const r = report.rejection;
    assert.deepEqual({ phase: r?.phase, code: r?.code, reason: r?.reason, message: r?.message }, { phase: c.want.phase, code: c.want.code, reason: c.want.reason, message: c.want.message });
    assert.equal(report.kubectl, c.want.kubectl);
    assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'), 'the pod is not stored');
  });
}

test('A mutating webhook adds a label and the stored pod has it', () => {
  const { status, report, stderr } = run('mutating-label');
  assert.equal(status, 0, stderr);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'pod/web created');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web');
  assert.deepEqual(pod?.metadata.labels, { app: 'web', team: 'payments' });
  const step = report.trace.find((e) => e.step?.name === 'MutatingAdmissionWebhook');
  assert.equal(step?.result, 'changed metadata.labels.team (labeler.example.com: patched)');
});

test('A webhook past its timeout with failurePolicy Ignore is skipped and the pod runs', () => {
  const { status, report, stderr } = run('timeout-ignore');
  assert.equal(status, 0, stderr);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'pod/web created');
  const step = report.trace.find((e) => e.step?.name === 'ValidatingAdmissionWebhook');
  assert.equal(step?.result, 'admitted (slow.example.com: failed open; 5s spent waiting on webhooks)');
  assert.equal(step?.detail['delaySeconds'], 5);
  const [record] = step?.detail['webhooks'] as { result: string; message: string }[];
  assert.equal(record?.result, 'failed open (failurePolicy Ignore): the call is skipped');
  assert.equal(record?.message, `failed calling webhook "slow.example.com": failed to call webhook: Post "${SLOW_URL}": context deadline exceeded`);
});
