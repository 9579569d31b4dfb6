// A second `kubectl delete` of a pod already terminating, run through the engine: what the API server does with it
// (staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete, registry/generic/registry/store.go
// updateForGracefulDeletionAndFinalizers) and what the kubelet does with the update (pkg/kubelet/pod_workers.go
// UpdatePod and calculateEffectiveGracePeriod; pkg/kubelet/kubelet.go SyncTerminatingPod, which kills on a context of
// its own: "TODO(#113606): connect this with the incoming context parameter").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../src/engine/cluster/files';
import { defaultProfile } from '../../src/engine/cluster/inputs';
import { loadInputs } from '../../src/engine/cluster/loader';
import type { TraceEntry } from '../../src/engine/runtime/recorder';
import { Simulation, type SimulationOptions, type SimulationResult } from '../../src/engine/simulation';

function run(manifest: string, options: SimulationOptions): SimulationResult {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  return new Simulation(inputs, options).run();
}

/** podWith builds a pod `web` (one container `app`) and its Behavior document. */
const podWith = ({ spec = '', behavior = '' }: { spec?: string; behavior?: string }) => `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
${spec}  containers:
    - name: app
      image: nginx:1.27
---
apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
${behavior}`;

/** IGNORES_SIGTERM: the process never exits on SIGTERM, so the kill lasts the whole grace period (30 s, from 2 s). */
const IGNORES_SIGTERM = podWith({ behavior: 'containers:\n  app: {sigtermSeconds: never}\n' });
const HELD = podWith({ behavior: 'containers:\n  app: {sigtermSeconds: never}\nfinalizers:\n  - Pod/default/web\n' });
const KUBELET_DOWN = podWith({ spec: '  nodeName: worker-1\n', behavior: 'nodes:\n  worker-1: {kubelet: down}\n' });

/** line renders a trace entry as `AT PHASE [CONTAINER] RESULT`. */
const line = (e: TraceEntry) => `${e.at} ${e.phase}${e.step ? ` [${e.step.name}]` : ''} ${e.result}`;

/** deletionTrace is the pod's apiserver.delete / apiserver.finalize / kubelet.terminate entries from the first delete on. */
function deletionTrace(r: SimulationResult): string[] {
  const start = r.trace.findIndex((e) => e.phase === 'kubectl.validate' && e.result.startsWith('kubectl sends DELETE'));
  return r.trace.slice(start).filter((e) => /apiserver\.(delete|finalize)|kubelet\.terminate/.test(e.phase) && e.object === 'Pod/default/web').map(line);
}

const CREATED = 'pod/web created';
const DELETED = 'pod "web" deleted from default namespace';
// delete.go Validate prints the warning for --grace-period=0 --force; PrintObj says "force deleted" for a grace period of 0.
const FORCED = 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\npod "web" force deleted from default namespace';
const STARTED = [
  '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s',
  '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 30s',
];
// UpdatePod cancels the sync's context, which SyncTerminatingPod does not use: the kill keeps its 30 s.
const lowered = (to: number, grace: number) => `12 kubelet.terminate UpdatePod: deletionGracePeriodSeconds is now ${to}: calculateEffectiveGracePeriod lowers the pod worker's grace period from 30s to ${grace}s and cancels its sync's context, but SyncTerminatingPod kills on a context of its own (TODO #113606): the kill in progress keeps its 30s window`;
const REMOVED_WHILE_KILLING = '12 kubelet.terminate HandlePodRemoves: the pod is gone from the API server while its containers are being killed: UpdatePod(SyncPodKill) leaves the kill in progress as it is (its 30s window); the containers still stop, and the status manager finds no pod to update or delete';
const SIGKILL = '32 kubelet.terminate [app] grace period over: SIGKILL to app, exit code 137';

interface Case {
  name: string;
  manifest: string;
  options: SimulationOptions;
  outcome: string;
  kubectl: string;
  trace: string[];
  /** pod is the stored pod's deletion fields at the end, when it is still there. */
  pod?: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] };
}

const cases: Case[] = [
  {
    // BeforeDelete (k8s.io/apiserver v0.36.0 pkg/registry/rest/delete.go): "only a shorter grace period may be
    // provided by a user"; 00:00:32 - 30 s + 5 s is 00:00:07, before now (12 s): "Prevent shortening the grace period
    // moving deletionTimestamp into the past": deletionTimestamp is now and the period 1.
    // The kill in progress is not cut short: SIGKILL comes at the first deadline (2 + 30 s), not at 12 + 1 s.
    name: 'a shorter grace period moves deletionTimestamp back, but the kill in progress keeps its window: SIGKILL at 32 s, exit 137',
    manifest: IGNORES_SIGTERM, options: { delete: {}, thenDelete: [{ afterSeconds: 10, gracePeriodSeconds: 5 }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\n${DELETED}`,
    trace: [
      ...STARTED,
      '12 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:12Z, grace period 1s (shortened; 5s after the pending deletion was asked for is already past: deletionTimestamp is now and the grace period 1s, the least that is still graceful)',
      lowered(1, 1),
      SIGKILL,
      '32 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
  {
    // BeforeDelete: "if period >= *objectMeta.GetDeletionGracePeriodSeconds() { return false, true, nil }": pending,
    // and store.go answers errAlreadyDeleting with the object unchanged (kubectl still prints "deleted").
    name: 'a longer grace period is ignored: the pod is returned as it was and the kubelet hears nothing',
    manifest: IGNORES_SIGTERM, options: { delete: {}, thenDelete: [{ afterSeconds: 10, gracePeriodSeconds: 60 }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\n${DELETED}`,
    trace: [
      ...STARTED,
      '12 apiserver.delete already terminating (deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s): a delete may only shorten it',
      SIGKILL,
      '32 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
  {
    // BeforeDelete: "graceful deletion is pending, do nothing".
    name: 'a delete with no grace period is ignored the same way',
    manifest: IGNORES_SIGTERM, options: { delete: {}, thenDelete: [{ afterSeconds: 10 }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\n${DELETED}`,
    trace: [
      ...STARTED,
      '12 apiserver.delete already terminating (deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s): a delete may only shorten it',
      SIGKILL,
      '32 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
  {
    // 0 is shorter than 30: deletionTimestamp would go back to the first delete's instant, which is past, so it is
    // now (the period stays 0), and store.go deletes at once
    // (lastGraceful 0, no finalizers). The kubelet sees the update (grace 0, which it raises to 1) and the removal,
    // and goes on killing with its 30 s; its final delete finds no pod.
    name: '--grace-period=0 --force removes the pod from the API server at once while the kubelet still stops its containers',
    manifest: IGNORES_SIGTERM, options: { delete: {}, thenDelete: [{ afterSeconds: 10, gracePeriodSeconds: 0, force: true }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\n${FORCED}`,
    trace: [
      ...STARTED,
      '12 apiserver.delete deletion with a grace period of 0 (shortened; 0s after the pending deletion was asked for is already past: deletionTimestamp is now): deletionTimestamp 2026-01-01T00:00:12Z, removed at once unless finalizers hold it',
      '12 apiserver.finalize removed Pod "web" from storage (propagation Background)',
      lowered(0, 1),
      REMOVED_WHILE_KILLING,
      SIGKILL,
      '32 apiserver.finalize the pod is already gone from the API server: nothing left to delete',
    ],
  },
  {
    // store.go: "If there are pending finalizers, we never delete the object immediately." A later delete of a pod
    // already at 0 is not graceful (BeforeDelete: "we force deletion immediately"), and the finalizer holds it again.
    name: 'a finalizer still holds a forced delete: the pod stays with deletionGracePeriodSeconds 0 after its containers stop',
    manifest: HELD, options: { delete: {}, thenDelete: [{ afterSeconds: 10, force: true }, { afterSeconds: 40, force: true }] },
    outcome: 'Terminating', kubectl: `${CREATED}\n${DELETED}\n${FORCED}\n${FORCED}`,
    trace: [
      '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s; an outside controller (Behavior finalizers) holds finalizer podlifecycle.debug/held',
      STARTED[1]!,
      '12 apiserver.delete deletion with a grace period of 0 (shortened; 0s after the pending deletion was asked for is already past: deletionTimestamp is now): deletionTimestamp 2026-01-01T00:00:12Z, removed at once unless finalizers hold it',
      '12 apiserver.finalize kept: finalizers [podlifecycle.debug/held] must be removed before the object goes; it stays with deletionTimestamp 2026-01-01T00:00:12Z and deletionGracePeriodSeconds 0 (the Behavior holds this object\'s finalizer)',
      lowered(0, 1),
      SIGKILL,
      '32 apiserver.finalize kept: finalizers [podlifecycle.debug/held] must be removed before the object goes; it stays with deletionTimestamp 2026-01-01T00:00:12Z and deletionGracePeriodSeconds 0 (the Behavior holds this object\'s finalizer)',
      '42 apiserver.delete already being deleted with a grace period of 0: removed at once unless finalizers hold it',
      '42 apiserver.finalize kept: finalizers [podlifecycle.debug/held] must be removed before the object goes; it stays with deletionTimestamp 2026-01-01T00:00:12Z and deletionGracePeriodSeconds 0 (the Behavior holds this object\'s finalizer)',
    ],
    pod: { deletionTimestamp: '2026-01-01T00:00:12Z', deletionGracePeriodSeconds: 0, finalizers: ['podlifecycle.debug/held'] },
  },
  {
    // The kubelet's own final delete (grace 0, status_manager.go) is a shortening too: the pending deletionTimestamp
    // (00:00:32) goes back to 00:00:02, which is past, so it is now (3 s) with a period of 0; the finalizer keeps the pod.
    name: 'the kubelet\'s final delete of a pod a finalizer holds moves deletionTimestamp to now, never into the past',
    manifest: podWith({ behavior: 'finalizers:\n  - Pod/default/web\n' }), options: { delete: {} },
    outcome: 'Terminating', kubectl: `${CREATED}\n${DELETED}`,
    trace: [
      '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s; an outside controller (Behavior finalizers) holds finalizer podlifecycle.debug/held',
      STARTED[1]!,
      '3 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '3 apiserver.finalize kept: finalizers [podlifecycle.debug/held] must be removed before the object goes; it stays with deletionTimestamp 2026-01-01T00:00:03Z and deletionGracePeriodSeconds 0 (the Behavior holds this object\'s finalizer)',
    ],
    pod: { deletionTimestamp: '2026-01-01T00:00:03Z', deletionGracePeriodSeconds: 0, finalizers: ['podlifecycle.debug/held'] },
  },
  {
    // No kubelet confirms the first delete; --force is what `kubectl delete --help` advises: "Force delete a pod on a dead
    // node". The taint eviction controller deleted it first (at 355 s), so kubectl's own first delete was pending.
    name: 'a force delete frees a pod stuck Terminating on a node whose kubelet is down',
    manifest: KUBELET_DOWN, options: { delete: {}, thenDelete: [{ afterSeconds: 30, force: true }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\n${FORCED}`,
    trace: [
      '355 apiserver.delete already terminating (deletionTimestamp 2026-01-01T00:06:25Z, grace period 30s): a delete may only shorten it',
      '385 apiserver.delete deletion with a grace period of 0 (shortened; 0s after the pending deletion was asked for is already past: deletionTimestamp is now): deletionTimestamp 2026-01-01T00:06:25Z, removed at once unless finalizers hold it',
      '385 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
  {
    // kubectl delete -f: deleteResource wraps the error with cmdutil.AddSourceToErr("deleting", info.Source, err).
    name: 'a delete after the pod is gone is answered NotFound, printed as kubectl delete -f prints it',
    manifest: podWith({}), options: { delete: {}, thenDelete: [{ afterSeconds: 5, gracePeriodSeconds: 1 }] },
    outcome: 'Deleted', kubectl: `${CREATED}\n${DELETED}\nError from server (NotFound): error when deleting "pod.yaml": pods "web" not found`,
    trace: [
      '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s',
      '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 30s',
      '3 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '3 apiserver.finalize removed Pod "web" from storage (propagation Background)',
      '7 apiserver.delete pods "web" not found',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const r = run(c.manifest, c.options);
    assert.equal(r.outcome, c.outcome);
    assert.equal(r.kubectl, c.kubectl);
    assert.deepEqual(deletionTrace(r), c.trace);
    const stored = r.objects.find((o) => o.kind === 'Pod' && o.metadata?.name === 'web');
    if (!c.pod) return assert.equal(stored, undefined);
    const { deletionTimestamp, deletionGracePeriodSeconds, finalizers } = stored?.metadata ?? {};
    assert.deepEqual({ deletionTimestamp, deletionGracePeriodSeconds, finalizers }, c.pod);
  });
}

test('a delete of a pod by name is sent without a file, and its NotFound names none', () => {
  const r = run(podWith({}), { delete: {}, thenDelete: [{ afterSeconds: 1, pod: { namespace: 'default', name: 'nope' } }] });
  assert.equal(r.kubectl, `${CREATED}\n${DELETED}\nError from server (NotFound): pods "nope" not found`);
});

test('further deletes run in time order, whatever order they are given in, and each one\'s output is kept apart', () => {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: IGNORES_SIGTERM }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, { delete: {}, thenDelete: [{ afterSeconds: 20, force: true }, { afterSeconds: 10, gracePeriodSeconds: 5 }] });
  const r = sim.run();
  assert.deepEqual(r.trace.filter((e) => e.phase === 'apiserver.delete').map((e) => e.at), [2, 12, 22]);
  assert.deepEqual(sim.furtherKubectl, [FORCED, DELETED]);
  assert.equal(sim.firstDeleteAt, 2);
});

test('without a first delete, further deletes are not run', () => {
  const r = run(IGNORES_SIGTERM, { thenDelete: [{ afterSeconds: 1, force: true }] });
  assert.equal(r.outcome, 'Running');
  assert.equal(r.kubectl, CREATED);
});
