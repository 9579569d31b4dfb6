// etcdctl get over the simulated etcd, printed as etcdctl's simple printer does (etcdctl/ctlv3/command/printer_simple.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConsole } from '../../../src/engine/console/index';
import type { Simulation } from '../../../src/engine/simulation';
import { fixture, simulate } from './simulate';

let run: Simulation | undefined;
const sim = (): Simulation => (run ??= simulate(fixture('../../examples/pod.yaml')));

const cases: { name: string; line: string; want: string }[] = [
  { name: 'a key alone prints the key, then its value as JSON', line: 'etcdctl get /registry/namespaces/default', want: `/registry/namespaces/default\n${JSON.stringify(sim().store.get('Namespace', undefined, 'default'))}` },
  // With --keys-only etcd sends empty values and the printer still writes their line.
  { name: '--prefix --keys-only lists keys in byte order, each followed by an empty line', line: 'etcdctl get /registry/namespaces --prefix --keys-only', want: '/registry/namespaces/default\n\n/registry/namespaces/kube-node-lease\n\n/registry/namespaces/kube-public\n\n/registry/namespaces/kube-system\n' },
  { name: 'nodes live under minions, as kube-apiserver stores them', line: 'etcdctl get /registry/minions/worker-1 --keys-only', want: '/registry/minions/worker-1\n' },
  { name: 'the pod is under its namespace', line: 'etcdctl get /registry/pods --prefix --keys-only', want: '/registry/pods/default/web\n' },
  { name: 'a missing key prints nothing', line: 'etcdctl get /registry/pods/default/nope', want: '' },
  { name: '--count-only counts the keys', line: 'etcdctl get /registry/namespaces --prefix --count-only', want: '4' },
];

for (const c of cases) test(c.name, () => assert.deepEqual(evaluateConsole(sim(), c.line), { output: c.want }));

test('etcdctl runs get only', () => {
  assert.deepEqual(evaluateConsole(sim(), 'etcdctl put /x y'), { error: true, message: 'Error: unknown command "put" for "etcdctl"; the console runs "etcdctl get"' });
});
