// `pod-lifecycle explain --live pod/NAME` as a process against a cluster read through the real kubectl: the simulated
// cluster of `pod-lifecycle serve`, where kubectl creates the situations (a pod no node fits, an image that cannot be
// pulled, a crash-looping container, a healthy pod) and the explanation must match what the cluster shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CLI, ROOT } from './harness';
import { parseArgs } from '../../src/cli/args';

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-explain-live-'));
const kubeconfig = join(dir, 'kubeconfig');
let server: ChildProcess;
let serverErr = '';

interface Ran { code: number; stdout: string; stderr: string }

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: ROOT, env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error(`${file} is not on PATH: these tests drive the real kubectl against serve`));
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const env = (): NodeJS.ProcessEnv => ({ ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' });
const kubectl = (...args: string[]): Promise<Ran> => run('kubectl', args, env());
const explainLive = (...args: string[]): Promise<Ran> => run(process.execPath, [CLI, 'explain', '--live', ...args], env());

/** until polls `kubectl get` (no sleep: each call is a round trip) until the jsonpath's value passes, a bounded number of times. */
async function until(what: string, args: string[], ok: (value: string) => boolean, tries = 300): Promise<string> {
  let last = '';
  for (let i = 0; i < tries; i++) {
    last = (await kubectl('get', ...args)).stdout;
    if (ok(last)) return last;
  }
  throw new Error(`${what}: still ${JSON.stringify(last)} after ${tries} reads`);
}

const POD = (name: string, container: string, image: string, extra = ''): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: ${container}\n    image: "${image}"\n${extra}`;

before(async () => {
  // acme/missing:1.0 does not exist in the registry; the container `crasher` exits with code 3 a second after it starts.
  writeFileSync(join(dir, 'behavior.yaml'), 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "acme/missing:1.0": {exists: false}\n' +
    'containers:\n  crasher: {exitAfterSeconds: 1, exitCode: 3}\n');
  server = spawn(process.execPath, [CLI, 'serve', '--behavior', join(dir, 'behavior.yaml'), '--kubeconfig-out', kubeconfig, '--speed', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr!.on('data', (d) => (serverErr += d));
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${serverErr}`)));
    createInterface({ input: server.stdout! }).on('line', (line) => {
      if (line === `export KUBECONFIG=${kubeconfig}`) resolve();
    });
  });
  writeFileSync(join(dir, 'pods.yaml'), [
    POD('big', 'app', 'nginx:1.27', '    resources:\n      requests:\n        cpu: "1000"\n'),
    POD('pullfail', 'app', 'acme/missing:1.0'),
    POD('crasher', 'crasher', 'nginx:1.27'),
    POD('ok', 'app', 'nginx:1.27'),
  ].join('---\n'));
  const applied = await kubectl('apply', '-f', join(dir, 'pods.yaml'));
  assert.equal(applied.code, 0, applied.stderr);
  const ready = await kubectl('wait', '--for=condition=Ready', 'pod/ok', '--timeout=60s');
  assert.equal(ready.code, 0, ready.stderr);
  await until('the FailedScheduling event of big', ['events', '--field-selector', 'involvedObject.name=big,reason=FailedScheduling', '-o', 'jsonpath={.items[*].reason}'], (v) => v.includes('FailedScheduling'));
  await until('the image pull of pullfail', ['pod', 'pullfail', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.reason}'], (v) => v === 'ImagePullBackOff' || v === 'ErrImagePull');
  await until('the first exit of crasher', ['pod', 'crasher', '-o', 'jsonpath={.status.containerStatuses[0].lastState.terminated.exitCode}'], (v) => v === '3');
});

after(() => {
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

interface Cause { kind: string; title: string; evidence: { kind: string; ref: string }[] }
interface LiveJson {
  pod: string; node?: string; phase: string;
  scheduling: { whyNot: Record<string, string>; message?: string; why: string };
  diagnosis: { question: string; summary: string; causes: Cause[] };
  live: { context?: string; failedScheduling?: { engine?: string; event?: string; condition?: string; agreement: string }; unread: string[] };
}

const parse = (r: Ran): LiveJson => JSON.parse(r.stdout) as LiveJson;

test('a pod asking for 1000 cpu: every node is named with its reason, and the engine writes the FailedScheduling message the cluster wrote', async () => {
  const r = await explainLive('pod/big', '--json');
  assert.equal(r.code, 1, r.stderr);
  const report = parse(r);
  assert.equal(report.diagnosis.question, 'unscheduled');
  assert.deepEqual(report.scheduling.whyNot, {
    'control-plane': 'TaintToleration: node(s) had untolerated taint(s) (taint node-role.kubernetes.io/control-plane:NoSchedule)',
    'worker-1': 'NodeResourcesFit: Insufficient cpu (4 of 4 cpu free, 1k requested)',
    'worker-2': 'NodeResourcesFit: Insufficient cpu (4 of 4 cpu free, 1k requested)',
  });
  const fs = report.live.failedScheduling!;
  assert.match(fs.event ?? '', /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\./);
  assert.equal(fs.engine, fs.event);
  assert.equal(fs.condition, fs.event);
  assert.equal(fs.agreement, 'same');
  assert.deepEqual(report.live.unread, []);
  const text = await explainLive('pod/big');
  assert.match(text.stdout, /^FILTER +NodeUnschedulable +NodeName +TaintToleration +NodeResourcesFit$/m);
  assert.match(text.stdout, /^worker-1 +pass +pass +pass +Insufficient cpu$/m);
  assert.match(text.stdout, /^  event: +0\/3 nodes are available/m);
  assert.match(text.stdout, /^  the engine's cycle on the cluster's nodes writes the same message$/m);
});

const containerCases = [
  {
    name: 'an image the registry does not have is ImagePullBackOff (or ErrImagePull), with the kubelet\'s Failed events as evidence',
    pod: 'pullfail', kinds: ['ImagePull'],
    want: (c: Cause) => {
      assert.match(c.title, /^the image "acme\/missing:1\.0" of container app cannot be pulled \((ImagePullBackOff|ErrImagePull)\): the registry has no such image or tag$/);
      assert.ok(c.evidence.some((e) => e.kind === 'event' && e.ref === 'Warning Failed'), JSON.stringify(c.evidence));
    },
  },
  {
    name: 'a container that exits with code 3 is explained by its last state and its restarts',
    pod: 'crasher', kinds: ['CrashLoopBackOff', 'ContainerExited'],
    want: (c: Cause) => assert.match(c.title, /code 3 \(Error\)/),
  },
];

for (const c of containerCases) {
  test(c.name, async () => {
    const r = await explainLive(`pod/${c.pod}`, '-n', 'default', '--json');
    assert.equal(r.code, 1, r.stderr);
    const report = parse(r);
    assert.match(report.scheduling.why, new RegExp(`^default-scheduler: Successfully assigned default/${c.pod} to worker-\\d$`));
    const cause = report.diagnosis.causes.find((x) => c.kinds.includes(x.kind));
    assert.ok(cause, `${report.diagnosis.question}: ${report.diagnosis.causes.map((x) => x.kind).join(', ')}`);
    c.want(cause);
  });
}

test('a Running Ready pod has nothing wrong, read with --kubeconfig and --context instead of KUBECONFIG', async () => {
  const { KUBECONFIG: _unset, ...rest } = process.env;
  const r = await run(process.execPath, [CLI, 'explain', '--live', 'pod/ok', '--kubeconfig', kubeconfig, '--context', 'kubernetes-admin@pod-lifecycle', '-n', 'default'], { ...rest, NO_COLOR: '1' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\$ kubectl get pod\/ok -n default --context kubernetes-admin@pod-lifecycle$/m);
  assert.match(r.stdout, /^NOTHING WRONG Running and Ready on worker-\d, no restarts$/m);
});

const failures = [
  { name: 'a pod that is not there is kubectl\'s NotFound, in one line', args: ['pod/nope'], config: () => kubeconfig, want: /^error: kubectl get pod nope -o json: Error from server \(NotFound\): pods "nope" not found\n$/ },
  { name: 'a context the kubeconfig does not have is named', args: ['pod/ok', '--context', 'nope'], config: () => kubeconfig, want: /^error: kubectl --context nope get pod ok -o json: .*context was not found for specified context: nope\n$/ },
  {
    name: 'an unreachable server is kubectl\'s connection error, in one line',
    args: ['pod/ok'],
    config: () => {
      const file = join(dir, 'unreachable');
      writeFileSync(file, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: t}\n');
      return file;
    },
    want: /^error: kubectl get pod ok -o json: .*127\.0\.0\.1:1.*refused.*\n$/,
  },
];

for (const c of failures) {
  test(c.name, async () => {
    const r = await run(process.execPath, [CLI, 'explain', '--live', ...c.args], { ...process.env, KUBECONFIG: c.config(), NO_COLOR: '1' });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, c.want);
  });
}

const parses = [
  { name: 'pod/NAME with -n, --context and --json', argv: ['explain', '--live', 'pod/web', '-n', 'shop', '--context', 'prod', '--json'], want: { command: 'explain-live', name: 'web', namespace: 'shop', context: 'prod', json: true } },
  { name: 'the = forms, --namespace and a bare name', argv: ['explain', '--live=web', '--namespace=shop', '--kubeconfig=/k'], want: { command: 'explain-live', name: 'web', namespace: 'shop', kubeconfig: '/k', json: false } },
  { name: 'po/NAME as kubectl accepts it', argv: ['explain', '--live', 'po/web'], want: { command: 'explain-live', name: 'web', json: false } },
];

for (const c of parses) test(`parseArgs reads explain --live: ${c.name}`, () => assert.deepEqual(parseArgs(c.argv), c.want));

const usage = [
  { name: 'another kind than a pod is a usage error', args: ['explain', '--live', 'deployment/web'], want: /^error: --live takes pod\/NAME, got "deployment\/web"\n/ },
  { name: 'a flag of run does not go with --live', args: ['explain', '--live', 'pod/web', '--seed', '1'], want: /^error: flag --seed does not go with --live\n/ },
];

for (const c of usage) {
  test(c.name, async () => {
    const r = await run(process.execPath, [CLI, ...c.args], { ...process.env, NO_COLOR: '1' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, c.want);
  });
}
