// `kubectl get` of several types at once (`kubectl get deploy,rs,pods`), compared whole with what kubectl prints:
// a table per type with its own widths, a blank line between tables, and each NAME prefixed with its kind and group
// when the objects are of more than one kind (kubectl/pkg/cmd/get/get.go at v0.36.3, multipleGVKsRequested and
// separatorWriterWrapper; cli-runtime/pkg/printers/tableprinter.go, WithKind). The run is examples/deployment.yaml
// on the embedded cluster, at its end (the Deployment settles, and the run goes on to its 10 minutes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConsole } from '../../../src/engine/console/index';
import type { Simulation } from '../../../src/engine/simulation';
import { fixture, simulate } from './simulate';

let run: Simulation | undefined;
const deployment = (): Simulation => (run ??= simulate(fixture('../../examples/deployment.yaml')));
const lines = (...l: string[]) => l.join('\n');

/** names are the run's ReplicaSet and pod names, sorted as the store lists them. */
function names(sim: Simulation): { rs: string; pods: string[] } {
  return { rs: sim.store.list('ReplicaSet', 'default')[0]!.metadata!.name!, pods: sim.store.list('Pod', 'default').map((p) => p.metadata!.name!) };
}

const cases: { name: string; line: string; want: (n: { rs: string; pods: string[] }) => string | { error: string } }[] = [
  {
    name: 'deploy,rs,pods prints three tables, each name with its kind and group, a blank line between them',
    line: 'kubectl get deploy,rs,pods',
    want: (n) => lines(
      'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE',
      'deployment.apps/web   3/3     3            3           10m',
      '',
      'NAME                            DESIRED   CURRENT   READY   AGE',
      `replicaset.apps/${n.rs}   3         3         3       10m`,
      '',
      'NAME                      READY   STATUS    RESTARTS   AGE',
      ...n.pods.map((p) => `pod/${p}   1/1     Running   0          10m`),
    ),
  },
  {
    name: '-o name over several types names each object with its kind and group',
    line: 'kubectl get deployments.apps,replicasets,po -o name',
    want: (n) => lines('deployment.apps/web', `replicaset.apps/${n.rs}`, ...n.pods.map((p) => `pod/${p}`)),
  },
  {
    name: 'a type with no objects prints no table, and with one kind left no prefix either',
    line: 'kubectl get statefulsets,deploy',
    want: () => lines('NAME   READY   UP-TO-DATE   AVAILABLE   AGE', 'web    3/3     3            3           10m'),
  },
  {
    name: 'no object of any type is said once, as kubectl says it',
    line: 'kubectl get sts,ds',
    want: () => 'No resources found in default namespace.',
  },
  {
    name: 'an unknown type in the list fails the whole command with the server\'s words',
    line: 'kubectl get deploy,foo',
    want: () => ({ error: 'error: the server doesn\'t have a resource type "foo"' }),
  },
];

for (const c of cases) {
  test(c.name, () => {
    const sim = deployment();
    const want = c.want(names(sim));
    assert.deepEqual(evaluateConsole(sim, c.line), typeof want === 'string' ? { output: want } : { error: true, message: want.error });
  });
}
