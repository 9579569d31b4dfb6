// The --json report at a cluster's size: streamed, valid JSON, with --trace summary (the default) cutting a scheduling
// cycle's per-node lists past 100 entries, --trace full keeping them, and --trace none leaving the trace out; and the
// timeline of `run` without --json, cut as the --json trace is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { CLI, hangUpAfterFirstPiece, ROOT, runJson } from './harness';

/** nodes writes a cluster file of n Ready worker nodes. */
function nodes(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-json-'));
  const items = Array.from({ length: n }, (_, i) => [
    '- apiVersion: v1', '  kind: Node', `  metadata: {name: node-${i}, labels: {kubernetes.io/hostname: node-${i}, kubernetes.io/os: linux}}`,
    `  spec: {podCIDR: 10.100.${i}.0/24}`,
    '  status:', '    allocatable: {cpu: "8", memory: 32Gi, pods: "110"}', '    capacity: {cpu: "8", memory: 32Gi, pods: "110"}',
    '    conditions: [{type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}]',
  ].join('\n'));
  const file = join(dir, 'nodes.yaml');
  writeFileSync(file, `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`);
  return file;
}

// 250 nodes: the scheduler looks for 120 feasible ones (percentageOfNodesToScore's adaptive 48%).
const cluster = nodes(250);

const filterSummary = (args: string[]) => {
  const { status, report } = runJson('run', 'examples/pod.yaml', '--cluster', cluster, ...args);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  const filter = report.trace.find((e) => e.phase === 'scheduler.filter' && !e.step);
  assert.ok(filter, 'the filter phase is in the trace');
  const plugin = report.trace.find((e) => e.phase === 'scheduler.filter' && e.step?.name === 'NodeResourcesFit');
  assert.ok(plugin, 'the NodeResourcesFit filter step is in the trace');
  return { feasible: filter.detail['feasible'] as string[], perNode: plugin.detail['nodes'] };
};

const cases: { name: string; args: string[]; want: (detail: { feasible: string[]; perNode: unknown }) => void }[] = [
  {
    name: 'summary (the default) keeps the first 100 feasible nodes, says how many more, and leaves out the per-node table',
    args: [],
    want: ({ feasible, perNode }) => {
      assert.equal(feasible.length, 101);
      assert.equal(feasible[100], '… 20 more (--trace full)');
      assert.equal(perNode, '… a table of 250 nodes (--trace full)');
    },
  },
  { name: 'summary given by name is the default', args: ['--trace', 'summary'], want: ({ feasible }) => assert.equal(feasible.length, 101) },
  {
    name: 'full keeps every feasible node and the verdict on every node checked',
    args: ['--trace', 'full'],
    want: ({ feasible, perNode }) => {
      assert.equal(feasible.length, 120);
      assert.equal(Object.keys(perNode as object).length, 120);
    },
  },
];

for (const c of cases) test(`--json --trace: ${c.name}`, () => c.want(filterSummary(c.args)));

test('--json --trace none leaves the trace out and keeps the rest of the report', () => {
  const { status, report } = runJson('run', 'examples/pod.yaml', '--trace', 'none');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.trace, undefined);
  assert.ok(report.events.some((e) => e.reason === 'Started'));
  assert.ok(report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'));
});

const usage: { name: string; args: string[]; want: RegExp }[] = [
  { name: 'an unknown detail', args: ['--json', '--trace', 'some'], want: /^error: invalid value for --trace: "some" \(summary, full or none\)$/m },
];

for (const c of usage) {
  test(`--trace refuses ${c.name} as a usage error`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', 'examples/pod.yaml', ...c.args], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, c.want);
    assert.equal(r.stdout, '');
  });
}

test('--json to a reader that goes away after the first piece ends quietly, with no error', async () => {
  const { code, stderr } = await hangUpAfterFirstPiece(['run', 'examples/deployment.yaml', '--json']);
  assert.equal(stderr, '');
  assert.equal(code, 0);
});

test('--json through a pipe read slowly arrives whole', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [CLI, 'run', 'examples/pod.yaml', '--cluster', cluster, '--json', '--trace', 'full'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  // The reader pauses after every piece and resumes on the next turn of the event loop: the writer must wait for it.
  child.stdout.on('data', (d: Buffer) => {
    chunks.push(d);
    child.stdout.pause();
    setImmediate(() => child.stdout.resume());
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 0);
  const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { outcome: string; trace: unknown[] };
  assert.equal(report.outcome, 'Running');
  assert.ok(report.trace.length > 0);
});

test('explain takes --trace only with --json: it prints no timeline', () => {
  const r = spawnSync(process.execPath, [CLI, 'explain', 'examples/pod.yaml', '--trace', 'full'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^error: --trace goes with run or --json$/m);
});

/** deployment writes a Deployment of `replicas` small pods. */
function deployment(replicas: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-timeline-'));
  const file = join(dir, 'web.yaml');
  writeFileSync(file, ['apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}', 'spec:', `  replicas: ${replicas}`, '  selector: {matchLabels: {app: web}}',
    '  template:', '    metadata: {labels: {app: web}}', '    spec: {containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 10m}}}]}', ''].join('\n'));
  return file;
}

/** timeline runs `run` without --json and reads its TIMELINE section: the pods it names and its last line. */
function timeline(file: string, ...args: string[]): { pods: Set<string>; lines: string[]; stdout: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', file, '--cluster', cluster, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  const section = r.stdout.split('\nTIMELINE\n')[1]?.split('\n\nEVENTS\n')[0] ?? '';
  const lines = section ? section.split('\n') : [];
  return { pods: new Set(lines.flatMap((l) => /\bPod\/default\/(\S+)/.exec(l)?.[1] ?? [])), lines, stdout: r.stdout };
}

const twelve = deployment(12);

test('the timeline of a big run keeps every step of its first 10 pods and says how much it left out (--trace summary, the default)', () => {
  const summary = timeline(twelve);
  const full = timeline(twelve, '--trace', 'full');
  assert.equal(summary.pods.size, 10);
  assert.equal(full.pods.size, 12);
  const [, steps, pods] = /^… (\d+) more steps of (\d+) more pods left out: the timeline keeps every step of the first 10 pods of each workload and of every other object \(--trace full keeps all\)$/.exec(summary.lines.at(-1) ?? '') ?? [];
  assert.equal(Number(pods), 2);
  // What it left out is what the full timeline has more: the lines of the two later pods.
  assert.equal(summary.lines.length - 1 + Number(steps), full.lines.length);
  assert.doesNotMatch(full.stdout, /left out/);
  // The events still list every pod.
  assert.equal((summary.stdout.match(/Normal +Started /g) ?? []).length, 12);
});

test('a run of 10 pods a workload or fewer has its whole timeline by default', () => {
  const ten = deployment(10);
  assert.deepEqual(timeline(ten).lines, timeline(ten, '--trace', 'full').lines);
});

test('--trace none leaves the timeline out of run and keeps the events and the outcome', () => {
  const { stdout } = timeline(twelve, '--trace', 'none');
  assert.doesNotMatch(stdout, /\nTIMELINE\n/);
  assert.match(stdout, /\nEVENTS\n/);
  assert.match(stdout, /\nOUTCOME Running/);
});
