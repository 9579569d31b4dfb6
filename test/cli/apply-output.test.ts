// What `kubectl apply -f` of several documents prints, and what the cluster goes on with, as the reference cluster
// showed them (`npm run oracle -- --only kubectl`: the real kubectl against kube-apiserver v1.36.3, stdout and stderr in
// one pipe): each warning as its answer comes, before that object's result; the refusals gathered at the end, one
// `Error from server (Invalid): error when creating ...` line each (kubectl apply.go Run, helpers.go checkErr,
// MultipleErrors, v0.36.3); and the created pod scheduled although others were refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, type Report, ROOT } from './harness';

const SUBDOMAIN_ERROR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function run(fixture: string): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [CLI, 'run', fixture, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

test('Warnings come before the result of the object they are about, object by object', () => {
  const { status, report } = run('test/fixtures/kubectl/warnings.yaml');
  assert.equal(status, 0);
  assert.equal(report.kubectl, [
    'Warning: spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
    'Warning: spec.containers[0].ports[2]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:81 Protocol:TCP HostIP:10.0.0.1}',
    'pod/ports created',
    'Warning: spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    'deployment.apps/web created',
  ].join('\n'));
});

test('Two refusals in one file are printed together at the end, and the pod that was created is scheduled', () => {
  const file = 'test/fixtures/kubectl/two-refused.yaml';
  const { status, report } = run(file);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.kubectl, [
    'pod/first created',
    `Error from server (Invalid): error when creating "${file}": Pod "Second" is invalid: metadata.name: Invalid value: "Second": ${SUBDOMAIN_ERROR}`,
    `Error from server (Invalid): error when creating "${file}": Pod "third" is invalid: spec.containers[0].image: Required value`,
  ].join('\n'));
  // The run's rejection is the first refusal, the API server's own Status.
  assert.equal(report.rejection?.message, `Pod "Second" is invalid: metadata.name: Invalid value: "Second": ${SUBDOMAIN_ERROR}`);
  const scheduled = report.events.find((e) => e.reason === 'Scheduled');
  assert.equal(scheduled?.object, 'Pod/default/first');
  assert.match(scheduled?.message ?? '', /^Successfully assigned default\/first to worker-[12]$/);
});
