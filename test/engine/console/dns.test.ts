// The console's `dig NAME` on a StatefulSet behind a headless Service and a ClusterIP Service: the records CoreDNS's
// kubernetes plugin serves (kubernetes/dns docs/specification.md), looked up through the pod's search domains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { evaluateConsole } from '../../../src/engine/console';
import { Simulation } from '../../../src/engine/simulation';
import type { Pod } from '../../../src/engine/api/types';

function run(path: string): Simulation {
  const inputs = loadInputs({ manifest: { file: path, text: readFileSync(path, 'utf8') }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

const sim = run('test/fixtures/statefulset/web-local.yaml');
const pod = (name: string) => sim.store.get<Pod>('Pod', 'default', name)!;
const ip = (name: string) => pod(name).status!.podIP!;

const cases: { name: string; line: string; want: (string | RegExp)[] }[] = [
  {
    name: 'a headless Service name answers every ready pod, found through the first search domain',
    line: 'dig nginx',
    want: [/^;; nginx as pod default\/web-0 resolves it \(search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local; ndots:5; server 10\.96\.0\.10\)$/,
      `nginx.default.svc.cluster.local.\t30\tIN\tA\t${ip('web-0')}`, `nginx.default.svc.cluster.local.\t30\tIN\tA\t${ip('web-1')}`],
  },
  {
    name: 'a StatefulSet pod has its own name under the headless Service: its hostname on the endpoint',
    line: 'dig web-1.nginx',
    want: [/^;; web-1\.nginx as/, `web-1.nginx.default.svc.cluster.local.\t30\tIN\tA\t${ip('web-1')}`],
  },
  {
    name: 'the kubernetes Service answers its ClusterIP, after the search domains that do not hold it',
    line: 'dig kubernetes.default',
    want: [/^;; kubernetes\.default as/, ';; kubernetes.default.default.svc.cluster.local. IN A: NXDOMAIN', 'kubernetes.default.svc.cluster.local.\t30\tIN\tA\t10.96.0.1'],
  },
  {
    name: 'a pod\'s dashed address under its namespace answers that address',
    line: 'dig 10-244-1-7.default.pod.cluster.local.',
    want: [/^;; 10-244-1-7/, '10-244-1-7.default.pod.cluster.local.\t30\tIN\tA\t10.244.1.7'],
  },
  {
    name: 'a name nothing serves is NXDOMAIN for every try',
    line: 'dig nope',
    want: [/^;; nope as/, ';; nope.default.svc.cluster.local. IN A: NXDOMAIN', ';; nope.svc.cluster.local. IN A: NXDOMAIN', ';; nope.cluster.local. IN A: NXDOMAIN', ';; nope. IN A: NXDOMAIN'],
  },
];

for (const c of cases) {
  test(`dig: ${c.name}`, () => {
    const r = evaluateConsole(sim, c.line, { podRef: 'Pod/default/web-0' });
    assert.ok(!r.error, r.error ? r.message : '');
    const lines = (r as { output: string }).output.split('\n');
    assert.equal(lines.length, c.want.length, lines.join('\n'));
    c.want.forEach((w, i) => (typeof w === 'string' ? assert.equal(lines[i], w) : assert.match(lines[i]!, w)));
  });
}

test('dig: the endpoint of a StatefulSet pod carries its hostname (the Service is its subdomain)', () => {
  const slice = sim.store.list('EndpointSlice', 'default').find((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === 'nginx') as { endpoints: { hostname?: string; targetRef: { name: string } }[] };
  assert.deepEqual(slice.endpoints.map((e) => [e.targetRef.name, e.hostname]), [['web-0', 'web-0'], ['web-1', 'web-1']]);
});
