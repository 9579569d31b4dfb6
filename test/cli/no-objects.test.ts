// `pod-lifecycle run` on a manifest with no object, as a process: kubectl apply -f refuses it before any request.
// kubernetes/kubectl pkg/cmd/apply/apply.go at tag v0.36.0 (ApplyOptions.Run): `if len(infos) == 0 && len(errs) == 0
// { return fmt.Errorf("no objects passed to apply") }`; cmdutil.CheckErr prints it with "error: " and exits 1
// (pkg/cmd/util/helpers.go, DefaultErrorExitCode). Checked with a real kubectl: `kubectl apply -f empty.yaml` prints
// `error: no objects passed to apply` and exits 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson } from './harness';

const DIR = 'test/fixtures/no-objects';
const PRINTED = 'error: no objects passed to apply';

const cases = [
  { name: 'an empty file', file: `${DIR}/empty.yaml` },
  { name: 'a file of comments and empty documents', file: `${DIR}/comments.yaml` },
  { name: 'a List with no items', file: `${DIR}/empty-list.yaml` },
];

for (const c of cases) {
  test(`${c.name} is refused as kubectl apply refuses it: Rejected at kubectl.validate, exit 1`, () => {
    const { status, report } = runJson('run', c.file);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    assert.deepEqual(report.rejection, { phase: 'kubectl.validate', code: 0, reason: 'NoObjects', message: 'no objects passed to apply' });
    assert.equal(report.kubectl, PRINTED);
    assert.deepEqual(report.trace.map((e) => [e.phase, e.result, e.outcome]), [['kubectl.validate', PRINTED, 'rejected']]);
  });
}

test('the human timeline prints kubectl\'s error and the rejection, and exits 1', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', `${DIR}/empty.yaml`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, new RegExp(`^\\$ kubectl apply -f ${DIR}/empty\\.yaml\\n${PRINTED}\\n`));
  assert.match(r.stdout, /OUTCOME Rejected: no objects passed to apply\n$/);
});

test('a later kubectl apply -f of an empty file prints the same error and is no rejection of the run', () => {
  const { status, report } = runJson('run', 'examples/pod.yaml', '--then-apply', `5s,${DIR}/comments.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, `pod/web created\n${PRINTED}`);
  assert.equal(report.rejection, undefined);
});
