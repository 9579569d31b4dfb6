// Import Cluster from Current kubectl Context, against a stand-in kubectl run as a real process: what it asks
// kubectl, the cluster file it writes (loadable by the engine), and that no credential reaches the file or a message.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCluster, ImportError, IMPORTED_RESOURCES, REDACTED, toClusterFile } from '../../src/commands/import-cluster';
import { processRunner } from '../../src/commands/run-process';
import { loadInputs } from '../../src/engine/cluster/loader';

const FIXTURE = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'commands', 'kubectl-get.yaml');
const dir = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** fakeKubectl writes a kubectl that logs its arguments and answers from the table. */
function fakeKubectl(name: string, getExit = 0, getStderr = ''): { path: string; log: string } {
  const path = join(dir, name);
  const log = `${path}.log`;
  writeFileSync(path, `#!/bin/sh
echo "$@" >> '${log}'
if [ "$1" = config ]; then echo kind-dev; exit 0; fi
if [ ${getExit} -ne 0 ]; then printf '%s\\n' '${getStderr}' >&2; exit ${getExit}; fi
cat '${FIXTURE}'
`);
  chmodSync(path, 0o755);
  return { path, log };
}

const NOW = new Date('2026-11-21T10:00:00Z');

test('the cluster file holds what kubectl returned, minus Secrets and anything that may be a credential', async () => {
  const k = fakeKubectl('kubectl-ok');
  const result = await importCluster(processRunner(k.path), undefined, NOW);
  assert.equal(result.context, 'kind-dev');
  assert.deepEqual(readFileSync(k.log, 'utf8').trim().split('\n'), ['config current-context', `get ${IMPORTED_RESOURCES.join(',')} --all-namespaces -o yaml`]);
  assert.deepEqual(result.counts, { Node: 1, ServiceAccount: 1, Pod: 1 });
  for (const secret of ['hunter2', 'aHVudGVyMg==', 'builder-token', 'managedFields', 'last-applied-configuration', 'correct-horse', 'battery-staple', 'tok3n-value', 's3cret-word']) {
    assert.ok(!result.yaml.includes(secret), `${secret} leaked into the cluster file`);
  }
  assert.ok(result.yaml.includes(REDACTED));
  assert.ok(result.yaml.startsWith('# Imported from kubectl context "kind-dev" on 2026-11-21T10:00:00.000Z'));
  // Flags that are not credentials stay as they were.
  for (const kept of ['--port=8080', '--verbose', '- --name', '- web', '/app']) assert.ok(result.yaml.includes(kept), `${kept} was redacted`);
  // The file loads as a cluster file.
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: a, image: nginx}]}\n' }, clusters: [{ file: 'cluster.yaml', text: result.yaml }], identity: { kind: 'default' } });
  assert.deepEqual(inputs.cluster.objects.map((d) => d.object.kind).sort(), ['Node', 'Pod', 'ServiceAccount']);
});

test('a named context is passed to kubectl', async () => {
  const k = fakeKubectl('kubectl-ctx');
  const result = await importCluster(processRunner(k.path), 'prod', NOW);
  assert.equal(result.context, 'prod');
  assert.deepEqual(readFileSync(k.log, 'utf8').trim().split('\n'), [`get ${IMPORTED_RESOURCES.join(',')} --all-namespaces -o yaml --context prod`]);
});

const failures: { name: string; runner: () => ReturnType<typeof processRunner>; message: RegExp }[] = [
  {
    name: 'kubectl refuses: its first error line is shown',
    runner: () => processRunner(fakeKubectl('kubectl-403', 1, 'Error from server (Forbidden): nodes is forbidden: User "jane" cannot list resource "nodes"').path),
    message: /^kubectl get failed: Error from server \(Forbidden\): nodes is forbidden: User "jane" cannot list resource "nodes"$/,
  },
  {
    name: 'kubectl is not installed',
    runner: () => processRunner(join(dir, 'no-such-kubectl')),
    message: /^kubectl has no current context: .*no-such-kubectl/,
  },
];

for (const f of failures) {
  test(`a failed import says why: ${f.name}`, async () => {
    await assert.rejects(importCluster(f.runner(), undefined, NOW), (err: Error) => err instanceof ImportError && f.message.test(err.message));
  });
}

test('a context name cannot break out of the header comment', async () => {
  const hostile = 'prod"\napiVersion: v1\nkind: Node\u2028kind: Secret\u0085x';
  const result = toClusterFile(readFileSync(FIXTURE, 'utf8'), hostile, NOW);
  const [first, second] = result.yaml.split('\n');
  assert.equal(first, '# Imported from kubectl context "prod\\"\\napiVersion: v1\\nkind: Node\\u2028kind: Secret\\u0085x" on 2026-11-21T10:00:00.000Z by Pod Lifecycle Debugger.');
  assert.match(second!, /^# Secrets are not imported/);
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: a, image: nginx}]}\n' }, clusters: [{ file: 'cluster.yaml', text: result.yaml }], identity: { kind: 'default' } });
  assert.deepEqual(inputs.cluster.objects.map((d) => d.object.kind).sort(), ['Node', 'Pod', 'ServiceAccount']);
});
