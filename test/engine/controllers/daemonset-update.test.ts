// The DaemonSet rolling update's helpers: IsPodUpdated (the hash label, or the template generation label) and
// AllowsSurge (SurgeCount of one node, rounded up, above 0), and the surge in a whole run: two pods on one node while
// the new one is not yet available. See pkg/controller/daemon/update.go and util/daemonset_util.go at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs, parseDocuments } from '../../../src/engine/cluster/loader';
import type { DaemonSet } from '../../../src/engine/controllers/daemonset';
import { allowsSurge, isPodUpdated } from '../../../src/engine/controllers/daemonset-update';
import { Simulation } from '../../../src/engine/simulation';

const pod = (labels: Record<string, string>): Pod => ({ metadata: { name: 'p', labels } });

const updatedCases: { name: string; labels: Record<string, string>; hash: string; generation: number | undefined; want: boolean }[] = [
  { name: 'the hash label is the current hash', labels: { 'controller-revision-hash': 'h2' }, hash: 'h2', generation: 2, want: true },
  { name: 'an older hash and generation', labels: { 'controller-revision-hash': 'h1', 'pod-template-generation': '1' }, hash: 'h2', generation: 2, want: false },
  { name: 'an older hash but the current generation (backward compatibility)', labels: { 'controller-revision-hash': 'h1', 'pod-template-generation': '2' }, hash: 'h2', generation: 2, want: true },
  { name: 'a rollback: the current hash with an older generation', labels: { 'controller-revision-hash': 'h1', 'pod-template-generation': '1' }, hash: 'h1', generation: 3, want: true },
  { name: 'no labels', labels: {}, hash: 'h2', generation: 2, want: false },
  { name: 'an empty hash matches no label', labels: { 'controller-revision-hash': '' }, hash: '', generation: undefined, want: false },
];

for (const c of updatedCases) {
  test(`isPodUpdated: ${c.name}`, () => assert.equal(isPodUpdated(pod(c.labels), c.hash, c.generation), c.want));
}

const ds = (updateStrategy: NonNullable<DaemonSet['spec']>['updateStrategy']): DaemonSet => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { updateStrategy } });

const surgeCases: { name: string; ds: DaemonSet; want: boolean }[] = [
  { name: 'the defaults (maxSurge 0)', ds: ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }), want: false },
  { name: 'maxSurge 1', ds: ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }), want: true },
  { name: 'maxSurge 1% of one node rounds up to 1', ds: ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '1%' } }), want: true },
  { name: 'maxSurge 0%', ds: ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '0%' } }), want: false },
  { name: 'a maxSurge that is not a percentage is an error: no surge', ds: ds({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '1' } }), want: false },
  { name: 'OnDelete never surges', ds: ds({ type: 'OnDelete', rollingUpdate: { maxSurge: 1 } }), want: false },
  { name: 'RollingUpdate without rollingUpdate', ds: ds({ type: 'RollingUpdate' }), want: false },
];

for (const c of surgeCases) {
  test(`allowsSurge: ${c.name}`, () => assert.equal(allowsSurge(c.ds), c.want));
}

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'daemonset');

test('daemonset run: maxSurge 1 keeps the old pod beside the new one until the new one is available', () => {
  const read = (f: string) => ({ file: f, text: readFileSync(join(FIXTURES, f), 'utf8') });
  const inputs = loadInputs({ manifest: read('spread.yaml'), clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const later = read('spread-surge.yaml');
  const sim = new Simulation(inputs, { thenApply: [{ afterSeconds: 30, manifest: parseDocuments(later.text, later.file), file: later.file }] });
  sim.run();
  const result = sim.result();
  // The sync that saw the surge pod created records two pods on control-plane: the old one Ready, the new one not.
  const surged = result.trace.find((s) => s.phase === 'controllers.daemonset' && /^rolling update .*1 node\(s\) surging of at most 1/.test(s.result));
  assert.ok(surged, 'a sync waits while control-plane surges');
  assert.equal(surged.at, 30);
  const pods = sim.store.list<Pod>('Pod', 'default');
  assert.equal(pods.length, 3);
  assert.ok(pods.every((p) => p.metadata?.labels?.['pod-template-generation'] === '2'));
});
