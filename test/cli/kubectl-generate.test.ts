// `pod-lifecycle run -- kubectl ...` as a process: what kubectl run, create deployment and create job generate and print
// with --dry-run=client (-o yaml, -o json, -o name, or the name printer's line), and the command lines kubectl refuses
// before sending anything, each against what kubectl 1.36 printed (test/fixtures/kubectl-generate, see its README).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, runKubectlJson as kubectl } from './harness';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'kubectl-generate');

/** shell writes a command line for a test name. */
const shell = (argv: string[]): string => argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`)).join(' ');

const generated = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as { argv: string[]; file: string }[];

for (const c of generated) {
  test(`kubectl ${shell(c.argv)} prints what kubectl 1.36 prints (${c.file}), sends nothing and ends as DryRun`, () => {
    const { status, report } = kubectl(c.argv);
    assert.equal(report.kubectl, readFileSync(join(FIXTURES, c.file), 'utf8').replace(/\n$/, ''));
    assert.equal(status, 0);
    assert.equal(report.outcome, 'DryRun');
    assert.equal(report.trace[0]?.phase, 'kubectl.generate');
    // A client dry run stops at kubectl: no request reaches the API server.
    assert.deepEqual(report.trace.filter((e) => e.phase.startsWith('apiserver.') || e.phase === 'etcd.persist'), []);
  });
}

const refused = JSON.parse(readFileSync(join(FIXTURES, 'errors.json'), 'utf8')) as { argv: string[]; stderr: string; exit: number }[];

for (const c of refused) {
  test(`kubectl ${shell(c.argv)} is refused in kubectl's words before anything is sent: Rejected at kubectl.generate, exit ${c.exit}`, () => {
    const { status, report } = kubectl(c.argv);
    assert.equal(report.kubectl, c.stderr);
    assert.equal(status, c.exit);
    assert.equal(report.outcome, 'Rejected');
    assert.equal(report.rejection?.phase, 'kubectl.generate');
    assert.equal(report.rejection?.message, c.stderr.split('\n')[0]!.replace(/^error: /, ''));
    assert.deepEqual(report.trace.map((e) => [e.phase, e.outcome]), [['kubectl.generate', 'rejected']]);
    assert.deepEqual(report.objects.filter((o) => o.metadata.namespace === 'default' && ['Pod', 'Deployment', 'Job'].includes(o.kind)), []);
  });
}

const reasonCases = [
  { name: 'a flag pflag does not know is a FlagError', argv: ['run', 'web', '--image=nginx', '--replicas=3'], reason: 'FlagError' },
  { name: 'a check ending in "See \'kubectl run -h\'" is a UsageError', argv: ['run', 'web', '--image=nginx', '--restart=Sometimes'], reason: 'UsageError' },
  { name: 'any other error of the command is an InvalidArgument', argv: ['run', 'web', '--image=NGINX'], reason: 'InvalidArgument' },
];

for (const c of reasonCases) {
  test(`The rejection of ${c.name}`, () => {
    assert.equal(kubectl(c.argv).report.rejection?.reason, c.reason);
  });
}

const klogCases = [
  { argv: ['run', 'web', '--image=nginx', '--dry-run', '--restart=Bad'], line: 'helpers.go:719] --dry-run is deprecated and can be replaced with --dry-run=client.', rest: "error: invalid restart policy: Bad\nSee 'kubectl run -h' for help and examples", status: 1 },
  { argv: ['run', 'web', '--image=nginx', '--dry-run=true', '-o', 'name'], line: 'helpers.go:733] --dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.', rest: 'pod/web', status: 0 },
  { argv: ['create', 'deployment', 'web', '--image=nginx', '--dry-run=f', '-o', 'name'], line: 'helpers.go:736] --dry-run=f is deprecated (boolean value) and can be replaced with --dry-run=none.', rest: 'deployment.apps/web', status: 0 },
];

for (const c of klogCases) {
  test(`kubectl ${shell(c.argv)} logs kubectl's klog warning first, stamped with the virtual clock, then goes on as kubectl does`, () => {
    const { status, report } = kubectl(c.argv);
    // klog's header: severity, date, time with microseconds, thread id, source line. The run's clock starts 2026-01-01.
    assert.equal(report.kubectl, `W0101 00:00:00.000000       1 ${c.line}\n${c.rest}`);
    assert.equal(status, c.status);
  });
}

test('A boolean --cascade on kubectl run is deprecated with kubectl\'s plain warning, and the pod is made all the same', () => {
  const { report } = kubectl(['run', 'web', '--image=nginx', '--cascade=false', '--dry-run=client', '-o', 'name']);
  assert.equal(report.kubectl, 'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\npod/web');
});

test('create deployment names a container after its image and draws the suffix of a name with dots from the run\'s seed', () => {
  const name = (seed: string) => {
    const { report } = kubectl(['create', 'deployment', 'web', '--image=registry.example.com/my_app.v2:1.0', '--dry-run=client', '-o', 'yaml'], ['--seed', seed]);
    return /^ {8}name: (.*)$/m.exec(report.kubectl)?.[1] ?? '';
  };
  const first = name('1');
  // sanitizeAndUniquify: `_` and `.` become `-`, then utilrand.String(5) from kubectl's alphabet.
  assert.match(first, /^my-app-v2-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(name('1'), first);
});

const notSimulatedCases = [
  { name: 'a command that is not kubectl', argv: ['kubeadm', 'init'], want: /^error: the command line after -- must be a kubectl command/ },
  { name: 'kubectl get', argv: ['kubectl', 'get', 'pods'], want: /^error: kubectl get is not simulated: the run starts from kubectl run, kubectl create deployment\|job, kubectl create -f or kubectl apply -f$/ },
  { name: 'kubectl create namespace', argv: ['kubectl', 'create', 'namespace', 'prod'], want: /^error: kubectl create namespace is not simulated/ },
  { name: 'kubectl run attached to its pod', argv: ['kubectl', 'run', 'web', '--image=nginx', '-i'], want: /^error: kubectl run attaches to the pod .*: attaching is not simulated$/ },
  { name: 'kubectl run --expose', argv: ['kubectl', 'run', 'web', '--image=nginx', '--expose', '--port=80'], want: /^error: --expose creates a Service beside the pod: it is not simulated/ },
  { name: 'a JSONPath printer', argv: ['kubectl', 'run', 'web', '--image=nginx', '-o', 'jsonpath={.metadata.name}'], want: /^error: kubectl's -o jsonpath printer is not simulated: use -o yaml, -o json or -o name$/ },
  { name: 'kubectl\'s own identity flags', argv: ['kubectl', '--as', 'bob', 'run', 'web', '--image=nginx'], want: /^error: kubectl's --as: the identity and cluster are the run's own options, given before --/ },
  { name: 'kubectl\'s help', argv: ['kubectl', 'run', '--help'], want: /^error: kubectl run --help is not simulated/ },
  { name: 'create job --from a CronJob', argv: ['kubectl', 'create', 'job', 'x', '--from=cronjob/nightly'], want: /^error: kubectl create job --from reads a CronJob from the cluster: it is not simulated/ },
];

for (const c of notSimulatedCases) {
  test(`${c.name} is not simulated: one clear line on stderr and exit 2, as any unusable input`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--', ...c.argv], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr.trimEnd(), c.want);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });
}

const usageCases = [
  { name: 'a MANIFEST and a kubectl command line both', args: ['run', 'examples/pod.yaml', '--', 'kubectl', 'run', 'web', '--image=nginx'], want: 'error: run takes a MANIFEST or a kubectl command line after --, not both: examples/pod.yaml' },
  { name: 'nothing after --', args: ['run', '--'], want: 'error: run needs a kubectl command line after --, e.g. -- kubectl run web --image=nginx:1.27' },
];

for (const c of usageCases) {
  test(`${c.name} is a usage error of pod-lifecycle: exit 2 and the usage`, () => {
    const r = spawnSync(process.execPath, [CLI, ...c.args], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.split('\n')[0], c.want);
    assert.match(r.stderr, /pod-lifecycle run \(MANIFEST \| \[options\] -- kubectl ARGS\.\.\.\)/);
  });
}
