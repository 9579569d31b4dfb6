// Secret values never leave the engine: not in the report's objects, the trace (the pod's environment, kubectl's
// request bodies, the last-applied annotation), the human output or explain — whatever the detail asked for. A
// Secret shows its keys and sizes, as `kubectl describe secret` does; an environment variable from a Secret shows
// where it comes from. The values still work inside the engine (the bootstrap token authenticates).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson } from './harness';

const MANIFEST = 'test/fixtures/secrets/manifest.yaml';
const CLUSTER = 'test/fixtures/secrets/cluster.yaml';

/** VALUES are every secret value of the fixtures, as text and as base64 (a leak in either form is a leak). */
const VALUES = ['hunter2-db-value', 'sk-live-cluster-file-value', 'manifest-string-data-value', 'f00dcafe12345678'];
const LEAKS = VALUES.flatMap((v) => [v, Buffer.from(v).toString('base64').replace(/=+$/, '')]);

function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.error, undefined);
  return r.stdout + r.stderr;
}

const runs: { name: string; args: string[] }[] = [
  { name: 'run --json', args: ['run', MANIFEST, '--cluster', CLUSTER, '--json'] },
  { name: 'run --json --trace full', args: ['run', MANIFEST, '--cluster', CLUSTER, '--json', '--trace', 'full'] },
  { name: 'run (the timeline and events)', args: ['run', MANIFEST, '--cluster', CLUSTER] },
  { name: 'run --delete --json', args: ['run', MANIFEST, '--cluster', CLUSTER, '--delete', '--json'] },
  { name: 'run as the bootstrap token', args: ['run', MANIFEST, '--cluster', CLUSTER, '--token', 'abcdef.f00dcafe12345678', '--json'] },
  { name: 'explain', args: ['explain', MANIFEST, '--cluster', CLUSTER] },
];

for (const r of runs) {
  test(`no secret value in the output of ${r.name}`, () => {
    const out = cli(...r.args);
    for (const leak of LEAKS) assert.ok(!out.includes(leak), `${leak} in the output of ${r.name}`);
  });
}

test('a stored Secret shows its keys and sizes; stringData merges into data; env from a Secret names its source', () => {
  const { status, report } = runJson('run', MANIFEST, '--cluster', CLUSTER);
  assert.equal(status, 0);
  const secret = (name: string) => report.objects.find((o) => o.kind === 'Secret' && o.metadata.name === name) as unknown as { data: Record<string, string>; stringData?: unknown };
  assert.deepEqual(secret('db').data, { password: '<redacted: 16 bytes>', 'api-key': '<redacted: 26 bytes>' });
  assert.deepEqual(secret('app').data, { token: '<redacted: 26 bytes>' });
  assert.equal(secret('app').stringData, undefined);
  const env = report.trace.find((e) => e.phase === 'kubelet.containers' && e.field === 'spec.containers[0].env');
  assert.deepEqual((env?.detail['env'] as unknown[]).slice(0, 2), [
    { name: 'token', value: "<set to the key 'token' in secret 'app'>" },
    { name: 'DB_PASSWORD', value: "<set to the key 'password' in secret 'db'>" },
  ]);
});

test("the bootstrap token's values still authenticate inside the engine", () => {
  const { report } = runJson('run', MANIFEST, '--cluster', CLUSTER, '--token', 'abcdef.f00dcafe12345678');
  const authn = report.trace.find((e) => e.phase === 'apiserver.authenticate' && !e.step);
  assert.match(authn?.result ?? '', /authenticated as "system:bootstrap:abcdef" by bootstrap-token/);
  const wrong = runJson('run', MANIFEST, '--cluster', CLUSTER, '--token', 'abcdef.0000000000000000');
  assert.equal(wrong.report.rejection?.reason, 'Unauthorized');
});
