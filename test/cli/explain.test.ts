// `pod-lifecycle explain` as a process: why a pod went to its node and not the others, what would make a Pending pod
// schedule, and the advice for a refused request — as JSON and for a person. Fixtures in test/fixtures/explain/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = 'test/fixtures/explain';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = { NO_COLOR: '1' }): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Cell {
  code: string;
  reasons: string[];
}

interface Advice {
  reason: string;
  nodes?: string[];
  text: string;
  source: string;
}

interface PodReport {
  pod: string;
  node?: string;
  phase: string;
  ip?: string;
  deleted?: boolean;
  scheduling: {
    attempts: number;
    filter: { plugins: string[]; nodes: Record<string, Record<string, Cell>>; feasible: string[] };
    scores: { plugins: { name: string; weight: number; skipped: boolean }[]; nodes: Record<string, Record<string, { raw: number; normalized: number; weighted: number }>>; totals: Record<string, number> };
    chosen?: string;
    why: string;
    whyNot: Record<string, string>;
    message?: string;
    advice: Advice[];
  };
}

interface Report {
  outcome: string;
  pods: PodReport[];
  rejection?: { phase: string; code: number; reason: string; message: string; kubectl: string };
  advice: Advice[];
}

function explain(...args: string[]): { status: number | null; report: Report; stderr: string } {
  const r = cli(['explain', ...args, '--json']);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const CONTROL_PLANE = 'TaintToleration: node(s) had untolerated taint(s) (taint node-role.kubernetes.io/control-plane:NoSchedule)';

test('A pod that schedules says why its node won and why the tainted control plane did not', () => {
  const { status, report, stderr } = explain('examples/pod.yaml');
  assert.equal(status, 0, stderr);
  assert.deepEqual(Object.keys(report).sort(), ['advice', 'outcome', 'pods']);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.pods.length, 1);
  const [pod] = report.pods;
  const s = pod!.scheduling;
  assert.deepEqual([pod!.pod, pod!.phase, s.attempts, s.chosen], ['default/web', 'Running', 1, pod!.node]);
  assert.match(pod!.ip ?? '', /^10\.244\.[12]\.\d+$/);
  assert.match(s.why, /^worker-[12] (has the highest total, \d+|chosen at random among 2 nodes tied at \d+)$/);
  assert.equal(s.whyNot['control-plane'], CONTROL_PLANE);
  assert.deepEqual(s.filter.nodes['control-plane']!.TaintToleration, { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] });
  assert.deepEqual(s.filter.feasible, ['worker-1', 'worker-2']);
  for (const node of s.filter.feasible) {
    let total = 0;
    for (const p of s.scores.plugins.filter((x) => !x.skipped)) {
      const cell = s.scores.nodes[node]![p.name]!;
      assert.equal(cell.weighted, cell.normalized * p.weight, `${node} ${p.name}`);
      total += cell.weighted;
    }
    assert.equal(s.scores.totals[node], total);
  }
  assert.deepEqual([s.advice, report.advice, s.message], [[], [], undefined]);
});

test('explain takes run\'s flags and agrees with run on the node', () => {
  const ran = JSON.parse(cli(['run', 'examples/deployment.yaml', '--seed', '7', '--json']).stdout) as { objects: { kind: string; metadata: { name: string }; spec?: { nodeName?: string } }[] };
  const { report } = explain('examples/deployment.yaml', '--seed', '7');
  const nodes = Object.fromEntries(ran.objects.filter((o) => o.kind === 'Pod').map((o) => [`default/${o.metadata.name}`, o.spec?.nodeName]));
  assert.equal(report.pods.length, 3);
  for (const p of report.pods) assert.equal(p.node, nodes[p.pod], p.pod);
});

test('A pod asking 64 cpu stays Pending; the advice names cpu and the most free on a node', () => {
  const { status, report } = explain(`${FIXTURES}/pod-64-cpu.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Pending');
  const s = report.pods[0]!.scheduling;
  assert.deepEqual([report.pods[0]!.phase, report.pods[0]!.node, s.chosen], ['Pending', undefined, undefined]);
  assert.match(s.message ?? '', /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\. /);
  assert.equal(s.whyNot['worker-1'], 'NodeResourcesFit: Insufficient cpu (4 of 4 cpu free, 64 requested)');
  const cpu = s.advice.find((a) => a.reason === 'Insufficient cpu');
  assert.deepEqual(cpu?.nodes, ['worker-1', 'worker-2']);
  assert.match(cpu?.text ?? '', /^the pod requests 64 cpu \(spec\.containers\[0\]\.resources\.requests\); the most free on a node is 4 on worker-1 .*Lower the request to 4 or less/);
  assert.ok(s.advice.some((a) => a.reason === 'node(s) had untolerated taint(s)' && /operator: Exists, effect: NoSchedule/.test(a.text)));
});

test('A nodeSelector no node has is explained by the missing label', () => {
  const { status, report } = explain(`${FIXTURES}/pod-node-selector.yaml`);
  assert.equal(status, 1);
  const s = report.pods[0]!.scheduling;
  assert.equal(s.whyNot['worker-2'], "NodeAffinity: node(s) didn't match Pod's node affinity/selector (no label disktype=ssd)");
  const affinity = s.advice.find((a) => a.reason === "node(s) didn't match Pod's node affinity/selector");
  assert.match(affinity?.text ?? '', /no node has the label disktype=ssd .*kubectl label node worker-1 disktype=ssd/);
  assert.equal(affinity?.source, 'pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go');
});

test('A request RBAC forbids is Rejected with kubectl\'s words and kubectl auth can-i for the user', () => {
  const { status, report } = explain('examples/pod.yaml', '--as', 'bob');
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Rejected');
  assert.deepEqual(report.pods, []);
  const message = 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"';
  assert.deepEqual([report.rejection?.phase, report.rejection?.code, report.rejection?.reason, report.rejection?.message], ['apiserver.authorize', 403, 'Forbidden', message]);
  assert.match(report.rejection?.kubectl ?? '', /^Error from server \(Forbidden\): error when retrieving current configuration of:\n/);
  assert.equal(report.advice.length, 1);
  assert.match(report.advice[0]!.text, /kubectl auth can-i get pods --as bob -n default/);
});

test('With --delete the pod is explained as last seen and marked deleted', () => {
  const { status, report } = explain('examples/pod.yaml', '--delete');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Deleted');
  assert.deepEqual([report.pods[0]?.deleted, report.pods[0]?.scheduling.chosen], [true, report.pods[0]?.node]);
});

test('The human form prints aligned filter and score tables, why and why not, and the outcome', () => {
  const run = cli(['explain', 'examples/pod.yaml']);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.split('\n');
  assert.match(run.stdout, /^\$ kubectl apply -f examples\/pod\.yaml\npod\/web created\n\nPOD default\/web  Running on worker-[12], IP 10\.244\./);
  const head = lines.find((l) => l.startsWith('FILTER'))!;
  const row = lines.find((l) => l.startsWith('control-plane '))!;
  assert.equal(row.indexOf('node(s) had untolerated taint(s)'), head.indexOf('TaintToleration'), 'the reason sits under its plugin');
  assert.ok(lines.some((l) => /^SCORE +TaintToleration .* TOTAL$/.test(l)));
  assert.ok(lines.some((l) => /^worker-1 +0 → 100 × 3 = 300 /.test(l)));
  assert.ok(lines.some((l) => /^WHY worker-[12] /.test(l)));
  assert.ok(lines.includes(`  control-plane  ${CONTROL_PLANE}`));
  assert.match(run.stdout, /\nOUTCOME Running\n$/);
  assert.doesNotMatch(run.stdout, /\u001b\[/, 'no color when NO_COLOR is set');
});

test('The human form of a Pending pod ends with what would make it schedule, colored on request', () => {
  const run = cli(['explain', `${FIXTURES}/pod-64-cpu.yaml`], { FORCE_COLOR: '1' });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /\u001b\[/);
  const plain = run.stdout.replace(/\u001b\[\d+m/g, '');
  assert.match(plain, /\nFailedScheduling 0\/3 nodes are available: /);
  assert.match(plain, /\nWHAT WOULD MAKE IT SCHEDULE\n(  - .+\n)*  - Insufficient cpu \(worker-1, worker-2\): the pod requests 64 cpu/);
  assert.match(plain, /\nOUTCOME Pending\n$/);
});

const usage: { name: string; args: string[]; error: RegExp }[] = [
  { name: 'explain without a manifest is a usage error', args: ['explain'], error: /^error: explain needs a MANIFEST file, or a kubectl command line after --\nUsage: pod-lifecycle run/ },
  { name: 'explain refuses a flag run does not take', args: ['explain', 'examples/pod.yaml', '--frobnicate'], error: /^error: unknown flag: --frobnicate\n/ },
  { name: 'explain names an unreadable manifest', args: ['explain', 'no/such/pod.yaml'], error: /^error: no\/such\/pod\.yaml:1: cannot read the file: no such file\n$/ },
];

for (const c of usage) {
  test(`exit 2: ${c.name}`, () => {
    const run = cli(c.args);
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.match(run.stderr, c.error);
    assert.equal(run.stdout, '');
  });
}
