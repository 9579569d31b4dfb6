// The CLI as a process on requests the admission plugins refuse or change: a missing or terminating namespace, a
// missing PriorityClass or RuntimeClass, and AlwaysPullImages turned on by a ClusterProfile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = 'test/fixtures/admission';
const NODES = `${FIXTURES}/nodes.yaml`;

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string; namespace?: string }; spec?: { containers?: { imagePullPolicy?: string }[] } }[];
  trace: { phase: string; step?: { kind: string; name: string }; result: string; detail: Record<string, unknown> }[];
}

function run(...args: string[]): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [CLI, 'run', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

const rejections: { name: string; args: string[]; file: string; phase: string; code: number; reason: string; message: string }[] = [
  // NamespaceLifecycle returns the live lookup's NotFound as it is.
  {
    name: 'A pod in a namespace that does not exist is refused with NotFound', args: [], file: 'pod-in-dev.yaml',
    phase: 'apiserver.admit.mutating', code: 404, reason: 'NotFound', message: 'namespaces "dev" not found',
  },
  {
    name: 'A pod in a terminating namespace is forbidden', args: ['--cluster', NODES, '--cluster', `${FIXTURES}/terminating-namespace.yaml`], file: 'pod-in-dev.yaml',
    phase: 'apiserver.admit.mutating', code: 403, reason: 'Forbidden',
    message: 'pods "web" is forbidden: unable to create new content in namespace dev because it is being terminated',
  },
  {
    name: 'A pod naming a missing PriorityClass is forbidden by Priority', args: [], file: 'missing-priority-class.yaml',
    phase: 'apiserver.admit.mutating', code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: no PriorityClass with name gold was found',
  },
  {
    name: 'A pod naming a missing RuntimeClass is forbidden by RuntimeClass', args: ['--cluster', NODES], file: 'missing-runtime-class.yaml',
    phase: 'apiserver.admit.mutating', code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
  },
];

for (const c of rejections) {
  test(c.name, () => {
    const file = `${FIXTURES}/${c.file}`;
    const { status, report } = run(file, ...c.args);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    assert.deepEqual(report.rejection && { phase: report.rejection.phase, code: report.rejection.code, reason: report.rejection.reason, message: report.rejection.message },
      { phase: c.phase, code: c.code, reason: c.reason, message: c.message });
    // kubectl names the file the object came from (AddSourceToErr).
    assert.equal(report.kubectl, `Error from server (${c.reason}): error when creating "${file}": ${c.message}`);
    assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'), 'nothing is stored');
  });
}

test('AlwaysPullImages enabled by the ClusterProfile stores the pod with imagePullPolicy Always', () => {
  const { status, report } = run(`${FIXTURES}/if-not-present.yaml`, '--cluster', NODES, '--cluster', `${FIXTURES}/always-pull-images.yaml`);
  assert.equal(status, 0);
  assert.deepEqual([report.outcome, report.rejection, report.kubectl], ['Running', undefined, 'pod/web created']);
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web');
  assert.equal(pod?.spec?.containers?.[0]?.imagePullPolicy, 'Always');
  const step = report.trace.find((e) => e.phase === 'apiserver.admit.mutating' && e.step?.name === 'AlwaysPullImages');
  assert.deepEqual(step?.detail['changes'], ['spec.containers[0].imagePullPolicy']);
  assert.ok(report.trace.some((e) => e.phase === 'apiserver.admit.validating' && e.step?.name === 'AlwaysPullImages'), 'Validate runs too');
});

test('Without the ClusterProfile AlwaysPullImages is off and the policy is kept', () => {
  const { report } = run(`${FIXTURES}/if-not-present.yaml`, '--cluster', NODES);
  assert.equal(report.objects.find((o) => o.kind === 'Pod')?.spec?.containers?.[0]?.imagePullPolicy, 'IfNotPresent');
  assert.ok(!report.trace.some((e) => e.step?.name === 'AlwaysPullImages'));
});
