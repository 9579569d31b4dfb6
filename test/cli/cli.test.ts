// The pod-lifecycle CLI as a process: the JSON contract, the exit codes, and one-line errors naming file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const ROOT = join(__dirname, '..', '..', '..');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string; namespace?: string }; status?: { phase?: string } }[];
  events: { at: number; type: string; reason: string; object: string; source: string; message: string }[];
  trace: { phase: string; at: number; result: string; detail: unknown }[];
}

function json(run: Run): Report {
  return JSON.parse(run.stdout) as Report;
}

test('run --json on the example pod prints the contract shape with outcome Running and exits 0', () => {
  const run = cli('run', 'examples/pod.yaml', '--json');
  assert.equal(run.status, 0, run.stderr);
  const report = json(run);
  assert.deepEqual(Object.keys(report).sort(), ['events', 'kubectl', 'objects', 'outcome', 'trace']);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'pod/web created');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web');
  assert.equal(pod?.status?.phase, 'Running');
  const reasons = report.events.filter((e) => e.object === 'Pod/default/web').map((e) => e.reason);
  assert.deepEqual(reasons, ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
  for (const e of report.trace) {
    assert.equal(typeof e.phase, 'string');
    assert.equal(typeof e.at, 'number');
    assert.equal(typeof e.result, 'string');
    assert.equal(typeof e.detail, 'object');
  }
});

test('every create phase of the happy road appears in order in the trace', () => {
  const report = json(cli('run', 'examples/pod.yaml', '--json'));
  const order = ['kubectl.validate', 'apiserver.authenticate', 'apiserver.authorize', 'apiserver.admit.mutating', 'apiserver.validate',
    'apiserver.admit.validating', 'etcd.persist', 'scheduler.queue', 'scheduler.filter', 'scheduler.score', 'scheduler.bind',
    'kubelet.admit', 'kubelet.volumes', 'kubelet.sandbox', 'kubelet.network', 'kubelet.initContainers', 'kubelet.imagePull',
    'kubelet.containers', 'kubelet.probes', 'kubelet.status', 'controllers.endpoints'];
  const firstSeen = order.map((p) => report.trace.findIndex((e) => e.phase === p));
  for (const [i, p] of order.entries()) assert.ok(firstSeen[i]! >= 0, `${p} is in the trace`);
  const creates = firstSeen.slice(0, 13);
  assert.deepEqual(creates, [...creates].sort((a, b) => a - b), 'the API server and scheduler phases come in order');
});

test('a 3-replica Deployment ends with 3 Running pods named <deployment>-<hash>-<5 chars>', () => {
  const run = cli('run', 'examples/deployment.yaml', '--json');
  assert.equal(run.status, 0, run.stderr);
  const report = json(run);
  assert.equal(report.outcome, 'Running');
  const rs = report.objects.filter((o) => o.kind === 'ReplicaSet');
  assert.equal(rs.length, 1);
  assert.match(rs[0]!.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  const pods = report.objects.filter((o) => o.kind === 'Pod');
  assert.equal(pods.length, 3);
  for (const p of pods) {
    assert.match(p.metadata.name, new RegExp(`^${rs[0]!.metadata.name}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    assert.equal(p.status?.phase, 'Running');
  }
  assert.equal(report.kubectl, 'deployment.apps/web created');
});

test('--delete runs the deletion to its end: outcome Deleted, exit 0, the pod gone', () => {
  const run = cli('run', 'examples/pod.yaml', '--delete', '--json');
  assert.equal(run.status, 0, run.stderr);
  const report = json(run);
  assert.equal(report.outcome, 'Deleted');
  assert.equal(report.kubectl, 'pod/web created\npod "web" deleted from default namespace');
  assert.ok(!report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'));
  const phases = new Set(report.trace.map((e) => e.phase));
  for (const p of ['apiserver.delete', 'kubelet.preStop', 'kubelet.terminate', 'kubelet.cleanup', 'apiserver.finalize']) assert.ok(phases.has(p), p);
  assert.ok(report.events.some((e) => e.reason === 'Killing' && e.message === 'Stopping container app'));
});

test('deleting a Deployment ends Deleted only once its pods are gone too', () => {
  const run = cli('run', 'examples/deployment.yaml', '--delete', '--json');
  assert.equal(run.status, 0, run.stderr);
  const report = json(run);
  assert.equal(report.outcome, 'Deleted');
  assert.deepEqual(report.objects.filter((o) => ['Deployment', 'ReplicaSet', 'Pod'].includes(o.kind)), []);
  assert.equal(report.events.filter((e) => e.reason === 'Killing').length, 3);
});

test('the same seed gives the same report', () => {
  const a = cli('run', 'examples/deployment.yaml', '--json', '--seed', '7');
  const b = cli('run', 'examples/deployment.yaml', '--json', '--seed', '7');
  assert.equal(a.stdout, b.stdout);
});

test('a request the API server refuses ends Rejected with exit 1 and kubectl\'s words', () => {
  const run = cli('run', 'test/fixtures/invalid-pod.yaml', '--json');
  assert.equal(run.status, 1);
  const report = json(run);
  assert.equal(report.outcome, 'Rejected');
  assert.equal(report.rejection?.code, 422);
  assert.equal(report.rejection?.phase, 'apiserver.validate');
  assert.match(report.kubectl, /^The Pod "Web" is invalid: metadata\.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of/);
});

test('an unknown kind stops at kubectl with its mapping error and exit 1', () => {
  const run = cli('run', 'test/fixtures/unknown-kind.yaml', '--json');
  assert.equal(run.status, 1);
  const report = json(run);
  assert.equal(report.outcome, 'Rejected');
  assert.deepEqual([report.rejection?.phase, report.rejection?.code, report.rejection?.reason], ['kubectl.validate', 0, 'NoKindMatchError']);
  assert.equal(report.kubectl, 'error: resource mapping not found for name: "web" namespace: "" from "test/fixtures/unknown-kind.yaml": no matches for kind "Pood" in version "v1"\nensure CRDs are installed first');
});

test('the human timeline names the phases and ends with the outcome', () => {
  const run = cli('run', 'examples/pod.yaml');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^\$ kubectl apply -f examples\/pod\.yaml\npod\/web created\n/);
  assert.match(run.stdout, /scheduler\.bind/);
  assert.match(run.stdout, /EVENTS\n/);
  assert.match(run.stdout, /OUTCOME Running\n$/);
  assert.doesNotMatch(run.stdout, /\u001b\[/, 'no color when NO_COLOR is set');
});

const scratch = mkdtempSync(join(tmpdir(), 'pod-lifecycle-cli-'));
writeFileSync(join(scratch, 'empty-kind.yaml'), 'apiVersion: v1\nmetadata:\n  name: x\n');

const badInput: { name: string; args: string[]; error: RegExp }[] = [
  { name: 'an unreadable file names the file and says why', args: ['run', 'no/such/pod.yaml'], error: /^error: no\/such\/pod\.yaml:1: cannot read the file: no such file\n$/ },
  { name: 'a directory instead of a file is refused', args: ['run', scratch], error: new RegExp(`^error: ${scratch.replace(/[/\\.]/g, '\\$&')}:1: cannot read the file: it is a directory\n$`) },
  { name: 'broken YAML names the file and line', args: ['run', 'test/fixtures/broken.yaml'], error: /^error: test\/fixtures\/broken\.yaml:\d+(:\d+)?: .+\n$/ },
  { name: 'an alias bomb is refused quickly with its line', args: ['run', 'test/fixtures/alias-bomb.yaml'], error: /^error: test\/fixtures\/alias-bomb\.yaml:\d+(:\d+)?: .*alias.*\n$/i },
  { name: 'a document that is not an object names its line', args: ['run', 'test/fixtures/scalar.yaml'], error: /^error: test\/fixtures\/scalar\.yaml:6(:\d+)?: .+\n$/ },
  { name: 'an unknown flag is a usage error', args: ['run', 'examples/pod.yaml', '--frobnicate'], error: /^error: unknown flag: --frobnicate\nUsage: pod-lifecycle run/ },
  { name: 'two identities at once are refused', args: ['run', 'examples/pod.yaml', '--anonymous', '--token', 'x'], error: /^error: --token and --anonymous cannot be used together/ },
  { name: 'a bad duration for --for is refused', args: ['run', 'examples/pod.yaml', '--for', 'soon'], error: /^error: invalid duration for --for: "soon"/ },
  { name: 'no command at all is a usage error', args: [], error: /^error: no command given\n/ },
  { name: '--force without --delete is a usage error', args: ['run', 'examples/pod.yaml', '--force'], error: /^error: --grace-period and --force go with --delete\n/ },
];

for (const c of badInput) {
  test(`exit 2: ${c.name}`, () => {
    const run = cli(...c.args);
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.match(run.stderr, c.error);
    assert.equal(run.stdout, '');
  });
}

