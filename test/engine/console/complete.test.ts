// Completions for the debug console, as DAP CompletionItems: start and column are 1-based (columnsStartAt1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeConsole } from '../../../src/engine/console/index';
import type { Simulation } from '../../../src/engine/simulation';
import { fixture, simulate } from './simulate';

let run: Simulation | undefined;
const sim = (): Simulation => (run ??= simulate(fixture('../../examples/pod.yaml')));

const cases: { name: string; text: string; column?: number; want: { label: string; start: number; length: number }[] }[] = [
  { name: 'the first word completes to a command', text: 'kub', want: [{ label: 'kubectl', start: 1, length: 3 }] },
  { name: 'the first word also completes to a root or a pod field', text: 'no', want: [{ label: 'node', start: 1, length: 2 }] },
  { name: 'kubectl\'s subcommands', text: 'kubectl d', want: [{ label: 'describe', start: 9, length: 1 }, { label: 'delete', start: 9, length: 1 }, { label: 'drain', start: 9, length: 1 }] },
  { name: 'node names after drain', text: 'kubectl drain wor', want: [{ label: 'worker-1', start: 15, length: 3 }, { label: 'worker-2', start: 15, length: 3 }] },
  { name: 'drain\'s flags, as kubectl drain names them', text: 'kubectl drain worker-1 --i', want: [{ label: '--ignore-daemonsets', start: 24, length: 3 }] },
  { name: 'delete offers pods only', text: 'kubectl delete po', want: [{ label: 'pods', start: 16, length: 2 }] },
  { name: 'pod names after delete pod', text: 'kubectl delete pod w', want: [{ label: 'web', start: 20, length: 1 }] },
  { name: 'delete\'s flags, as kubectl delete names them', text: 'kubectl delete pod web --', want: ['--namespace', '--grace-period', '--force', '--now'].map((label) => ({ label, start: 24, length: 2 })) },
  { name: 'nothing after the one pod a delete names', text: 'kubectl delete pod web ', want: [] },
  { name: 'resource names after get', text: 'kubectl get po', want: [{ label: 'pods', start: 13, length: 2 }, { label: 'poddisruptionbudgets', start: 13, length: 2 }] },
  { name: 'object names from the store after the resource', text: 'kubectl get pods w', want: [{ label: 'web', start: 18, length: 1 }] },
  { name: 'node names for describe node', text: 'kubectl describe node worker', want: [{ label: 'worker-1', start: 23, length: 6 }, { label: 'worker-2', start: 23, length: 6 }] },
  { name: 'flags after a dash', text: 'kubectl get pods --o', want: [{ label: '--output', start: 18, length: 3 }] },
  { name: 'output formats after -o', text: 'kubectl get pods -o j', want: [{ label: 'json', start: 21, length: 1 }, { label: 'jsonpath=', start: 21, length: 1 }] },
  { name: 'namespaces after -n', text: 'kubectl get pods -n kube-s', want: [{ label: 'kube-system', start: 21, length: 6 }] },
  { name: 'verbs after can-i', text: 'kubectl auth can-i del', want: [{ label: 'delete', start: 20, length: 3 }, { label: 'deletecollection', start: 20, length: 3 }] },
  { name: 'etcd keys one segment at a time', text: 'etcdctl get /registry/na', want: [{ label: '/registry/namespaces/', start: 13, length: 12 }] },
  { name: 'fields along a path, from the schema and the object', text: 'pod.status.ph', want: [{ label: 'phase', start: 12, length: 2 }] },
  { name: 'fields of a list item', text: 'spec.containers[0].ima', want: [{ label: 'image', start: 20, length: 3 }, { label: 'imagePullPolicy', start: 20, length: 3 }] },
  { name: 'fields inside a braced template', text: '{.metadata.la', want: [{ label: 'labels', start: 12, length: 2 }] },
  { name: 'a filter for each condition when a bracket is opened', text: 'status.conditions[?(@.type=="R', want: [{ label: '[?(@.type=="Ready")]', start: 18, length: 13 }] },
  // The cursor may sit before the end: only the text before it counts.
  { name: 'a cursor in the middle completes the word before it', text: 'kubectl get pods', column: 12, want: [{ label: 'get', start: 9, length: 3 }] },
];

for (const c of cases) {
  test(c.name, () => {
    const items = completeConsole(sim(), c.text, c.column ?? c.text.length + 1);
    assert.deepEqual(items.map((i) => ({ label: i.label, start: i.start, length: i.length })), c.want);
    for (const i of items) assert.equal(i.text, i.label);
  });
}

test('completion never throws, even on a line it cannot read', () => {
  assert.deepEqual(completeConsole(sim(), '{{[[.]]', 8), []);
});

test('with no pod yet, the fields still come from the schema', () => {
  const anonymous = simulate(fixture('../../examples/pod.yaml'), {}, { kind: 'anonymous' });
  assert.deepEqual(completeConsole(anonymous, 'status.ph', 10).map((i) => i.label), ['phase']);
});
