// Quiet objects' entries: a run whose trace leaves pods out makes their entries without content, several at once
// (Batch), and they must be recorded exactly as the traced run records its own: the same phases, objects, sub-steps
// and virtual times, in the same order among the other tasks' and the watches' entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import type { TraceEntry, TraceSink } from '../../../src/engine/runtime/recorder';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';
import { deployment } from '../../support/budgets';

const pod = (namespace: string) => `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: ${namespace}
spec:
  containers:
    - name: app
      image: nginx:1.27
`;

// ResourceQuota writes its usage while admitting each pod; the webhook answers after a wait; NamespaceAutoProvision
// writes the pod's namespace, which the namespace's watchers are told of, in the pod's admission.
const quota = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: pods
  namespace: NS
spec:
  hard: {pods: "50"}
`;
const slowWebhook = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
  - name: slow.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://policy.example.com/validate"}
    rules:
      - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}
---
apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
webhooks:
  slow.example.com: {delaySeconds: 2}
`;

/** shape is what a quiet entry keeps of the traced one: where it is and what it is about, not what it says. */
function shape(e: TraceEntry): string {
  return [e.seq, e.at, e.phase, e.object ?? '', e.step ? `${e.step.kind}:${e.step.name}` : ''].join(' ');
}

function run(manifest: string, options: SimulationOptions, enable: string[]): { trace: TraceEntry[]; quietEntries: number } {
  const inputs = loadInputs({ manifest: { file: 'web.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  inputs.cluster.profile.admission.enable.push(...enable);
  const handed: TraceEntry[] = [];
  const sink: TraceSink | undefined = options.traceSink ? { ...options.traceSink, accept: (entries) => void handed.push(...entries) } : undefined;
  // The watches are shown: every stored change's entries follow the entry that ends the stretch it was made in.
  const sim = new Simulation(inputs, { watches: true, ...options, ...(sink ? { traceSink: sink } : {}) });
  const result = sim.run();
  const trace = sink ? handed : result.trace;
  return { trace, quietEntries: trace.filter((e) => e.result === '' && Object.keys(e.detail).length === 0).length };
}

/** Every pod is quiet: its steps are made empty and batched, and the sink keeps them all so that they can be compared. */
const quietPods: TraceSink = { accept: () => undefined, leaves: () => false, isQuiet: (object) => object.startsWith('Pod/') };

const cases: { name: string; manifest: string; enable?: string[]; options?: SimulationOptions }[] = [
  { name: 'a Deployment of 12 pods on the default cluster', manifest: deployment(12) },
  { name: 'pods admitted under a ResourceQuota, which writes its usage in admission', manifest: `${quota.replace('NS', 'default')}---\n${deployment(6)}` },
  { name: 'pods that wait for a slow validating webhook', manifest: `${slowWebhook}---\n${deployment(4)}` },
  { name: 'a pod whose namespace is provisioned in its admission', manifest: pod('team'), enable: ['NamespaceAutoProvision'] },
];

for (const c of cases) {
  test(`quiet entries are recorded as the traced ones: ${c.name}`, () => {
    const traced = run(c.manifest, c.options ?? {}, c.enable ?? []);
    const quiet = run(c.manifest, { ...c.options, traceSink: quietPods }, c.enable ?? []);
    assert.equal(traced.quietEntries, 0);
    // The pods' authentication, authorization, admission and scheduling steps were made quiet (in batches).
    assert.ok(quiet.quietEntries > 40, `only ${quiet.quietEntries} quiet entries`);
    assert.deepEqual(quiet.trace.map(shape), traced.trace.map(shape));
  });
}

test('quiet entries are recorded as the traced ones: a run cut short by its step budget inside a batch', () => {
  const manifest = `${quota.replace('NS', 'default')}---\n${deployment(5)}`;
  const full = run(manifest, {}, []).trace;
  // Cut in the middle of the third pod's validating admission, before ResourceQuota writes its usage, and in the middle
  // of a scheduling cycle's Filter plugins.
  const third = [...new Set(full.filter((e) => e.object?.startsWith('Pod/')).map((e) => e.object!))][2]!;
  const cuts = [
    full.find((e) => e.object === third && e.phase === 'apiserver.admit.validating' && e.step?.name === 'PodSecurity')!,
    full.find((e) => e.object === third && e.phase === 'scheduler.filter' && e.step?.name === 'NodeResourcesFit')!,
  ];
  for (const cut of cuts) {
    const budget = { steps: cut.seq + 1, objects: 100_000 };
    const traced = run(manifest, { budget }, []);
    const quiet = run(manifest, { budget, traceSink: quietPods }, []);
    assert.equal(traced.trace.at(-1)!.seq, cut.seq);
    assert.deepEqual(quiet.trace.map(shape), traced.trace.map(shape));
  }
});
