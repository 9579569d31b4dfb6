// The generated objects against a real kubectl, when one is on PATH: each `--dry-run=client -o yaml` case of
// test/fixtures/kubectl-generate is run by it (against a discovery-only API server on 127.0.0.1, since kubectl run maps
// Pod through discovery even for a client dry run) and by pod-lifecycle, and the two outputs compared. A kubectl older
// than kubernetes/kubernetes#130989 writes `creationTimestamp: null`, which 1.36 no longer does: that one difference is
// taken out of its output first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './harness';

const found = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const skip = found.error ? 'kubectl is not on PATH: the pinned fixtures (kubectl-generate.test) still hold' : false;

const resources = (groupVersion: string, list: [string, string][]) => ({
  kind: 'APIResourceList', apiVersion: 'v1', groupVersion,
  resources: list.map(([name, kind]) => ({ name, singularName: kind.toLowerCase(), namespaced: true, kind, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] })),
});

/** DISCOVERY is what the API server answers: the legacy discovery documents of pods, deployments and jobs. */
const DISCOVERY: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] },
  '/apis': {
    kind: 'APIGroupList', apiVersion: 'v1', groups: ['apps', 'batch'].map((name) => ({
      name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' },
    })),
  },
  '/api/v1': resources('v1', [['pods', 'Pod']]),
  '/apis/apps/v1': resources('apps/v1', [['deployments', 'Deployment']]),
  '/apis/batch/v1': resources('batch/v1', [['jobs', 'Job']]),
};

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(file, args, { cwd: ROOT, env, encoding: 'utf8' }, (_err, stdout, stderr) => resolve({ stdout, stderr })));
}

/** withoutNullTimestamps takes out what a kubectl without kubernetes/kubernetes#130989 writes for a zero creationTimestamp, in YAML and in JSON text. */
function withoutNullTimestamps(yaml: string): string {
  const lines = yaml.replace(/,?"creationTimestamp":null,?/g, (m) => (m.startsWith(',') && m.endsWith(',') ? ',' : '')).split('\n');
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (/^\s*creationTimestamp: null$/.test(line)) continue;
    // A metadata left with nothing under it is written `metadata: {}`.
    const next = lines.slice(i + 1).find((l) => !/^\s*creationTimestamp: null$/.test(l)) ?? '';
    const indent = (l: string) => /^ */.exec(l)![0].length;
    out.push(/^\s*metadata:$/.test(line) && indent(next) <= indent(line) ? `${line} {}` : line);
  }
  return out.join('\n');
}

test('kubectl on PATH generates the same objects as pod-lifecycle (--dry-run=client -o yaml)', { skip }, async () => {
  const server: Server = createServer((req, res) => {
    const doc = DISCOVERY[(req.url ?? '').split('?')[0]!];
    res.writeHead(doc ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(doc ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-kubectl-'));
  try {
    const port = (server.address() as AddressInfo).port;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:${port}"}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {}\n`);
    const env = { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' };
    const cases = (JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'kubectl-generate', 'cases.json'), 'utf8')) as { argv: string[]; file: string }[])
      .filter((c) => c.file.endsWith('.yaml'));
    assert.ok(cases.length > 20);
    for (const c of cases) {
      const live = await run('kubectl', c.argv, env);
      const ours = await run(process.execPath, [CLI, 'run', '--json', '--', 'kubectl', ...c.argv], env);
      const report = JSON.parse(ours.stdout) as { kubectl: string };
      assert.equal(report.kubectl, withoutNullTimestamps(live.stdout.replace(/\n$/, '')), `kubectl ${c.argv.join(' ')}\n${live.stderr}`);
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
