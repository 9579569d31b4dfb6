// Bodies the API server cannot decode, through the CLI: 400 BadRequest with the server's strict decoding words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

test('an unknown field is refused by strict decoding with 400 BadRequest', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run', 'test/fixtures/decode/unknown-field.yaml', '--json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 1, run.stderr);
  const report = JSON.parse(run.stdout) as { outcome: string; rejection: { phase: string; code: number; reason: string; message: string }; kubectl: string };
  // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (transformDecodeError) and sigs.k8s.io/json's strict errors.
  const message = 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].ports[0].protcol"';
  assert.equal(report.outcome, 'Rejected');
  assert.deepEqual([report.rejection.phase, report.rejection.code, report.rejection.reason, report.rejection.message], ['apiserver.admit.mutating', 400, 'BadRequest', message]);
  assert.equal(report.kubectl, `Error from server (BadRequest): error when creating "test/fixtures/decode/unknown-field.yaml": ${message}`);
});

// Kinds of every group the engine stores decode strictly, as kube-apiserver decodes them: a webhook configuration's
// or an admission policy's misspelt or misplaced field is refused, not dropped.
const unknownFields: { file: string; kind: string; field: string }[] = [
  { file: 'test/fixtures/decode/webhook-unknown-field.yaml', kind: 'ValidatingWebhookConfiguration', field: 'webhooks[0].sideEffect' },
  { file: 'test/fixtures/decode/policy-unknown-field.yaml', kind: 'ValidatingAdmissionPolicy', field: 'spec.matchConstraints.validations' },
];

for (const c of unknownFields) {
  test(`an unknown field of a ${c.kind} is refused by strict decoding with 400 BadRequest`, () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run', c.file, '--json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { rejection: { code: number; reason: string; message: string }; kubectl: string };
    const message = `${c.kind} in version "v1" cannot be handled as a ${c.kind}: strict decoding error: unknown field "${c.field}"`;
    assert.deepEqual([report.rejection.code, report.rejection.reason, report.rejection.message], [400, 'BadRequest', message]);
    assert.equal(report.kubectl, `Error from server (BadRequest): error when creating "${c.file}": ${message}`);
  });
}
