// Deletion and termination run through the pod-lifecycle CLI as a process: kubectl delete's flags and lines, the API
// server's grace period rules, the kubelet's preStop / SIGTERM / SIGKILL timings, cleanup, finalizers, and a node
// whose kubelet stops. Each expected reason, message and timing names the Kubernetes source it comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson, type Report, type TraceEntry } from './harness';

const FIXTURES = 'test/fixtures/termination';

/** WARNING is kubectl delete's warning with --force and a grace period of 0 (staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go, Validate). */
const WARNING = 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';

/** StoredPod is the part of a stored pod these tests read. */
interface StoredPod {
  metadata: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] };
  status?: { phase?: string; conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

const pod = (r: Report) => r.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web') as unknown as StoredPod | undefined;
const node = (r: Report, name: string) => r.objects.find((o) => o.kind === 'Node' && o.metadata.name === name) as unknown as {
  spec: { taints?: { key: string; effect: string; timeAdded?: string }[] };
  status: { conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
};

/** line renders a trace entry as `AT PHASE [CONTAINER] RESULT` for comparisons. */
const line = (e: TraceEntry) => `${e.at} ${e.phase}${e.step ? ` [${e.step.name}]` : ''} ${e.result}`;

/** deletionTrace is the trace from the pod's first delete on, without the authentication and authorization steps. */
function deletionTrace(r: Report, phases: RegExp = /kubelet\.(preStop|terminate)|apiserver\.finalize/): string[] {
  const start = r.trace.findIndex((e) => e.phase === 'apiserver.delete' && e.object === 'Pod/default/web');
  return r.trace.slice(start).filter((e) => phases.test(e.phase) && e.object === 'Pod/default/web').map(line);
}

/** eventsFrom lists the events from a virtual time on as `AT TYPE REASON SOURCE: MESSAGE`. */
const eventsFrom = (r: Report, at: number) => r.events.filter((e) => e.at >= at).map((e) => `${e.at} ${e.type} ${e.reason} ${e.object} ${e.source}: ${e.message}`);

interface Case {
  name: string;
  args: string[];
  status: number;
  outcome: string;
  kubectl: string;
  /** trace: the pod's kubelet.preStop / kubelet.terminate / apiserver.finalize entries, in order. */
  trace?: string[];
  events?: string[];
  /** check inspects the rest of the report. */
  check?: (r: Report) => void;
}

const created = 'pod/web created';
const deleted = 'pod "web" deleted from default namespace';

const cases: Case[] = [
  {
    // killContainer (pkg/kubelet/kuberuntime/kuberuntime_container.go): Killing "Stopping container app" before the hook;
    // executePreStopHook waits at most the grace period (30 s); the 10 s left after a 40 s hook is 0, raised to
    // minimumGracePeriodInSeconds (2 s); the process needs 5 s, so SIGKILL at 30 + 2 s: exit 137.
    name: 'a preStop hook longer than the grace period is cut off at 30 s and the container gets the 2 s minimum before SIGKILL',
    args: ['run', `${FIXTURES}/prestop-overruns.yaml`, '--delete'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    trace: [
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 30s (from deletionGracePeriodSeconds); preStop hooks: app',
      '2 kubelet.preStop [app] preStop exec hook of app starts; it runs 40s, past the grace period of 30s: the kubelet stops waiting at 30s',
      '32 kubelet.preStop [app] preStop hook of app still running when the grace period of 30s ran out; SIGTERM with 2s before SIGKILL',
      '32 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 2s',
      '34 kubelet.terminate [app] grace period over: SIGKILL to app, exit code 137',
      '34 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
    events: ['2 Normal Killing Pod/default/web kubelet: Stopping container app'],
  },
  {
    // StopContainer(timeout 30): the runtime sends SIGKILL when the grace period runs out; exit 128 + 9.
    name: 'a container that ignores SIGTERM is killed with SIGKILL when the 30 s grace period ends',
    args: ['run', `${FIXTURES}/ignores-sigterm.yaml`, '--delete'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    trace: [
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 30s (from deletionGracePeriodSeconds); no preStop hooks',
      '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 30s',
      '32 kubelet.terminate [app] grace period over: SIGKILL to app, exit code 137',
      '32 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
  {
    // executePreStopHook: Warning FailedPreStopHook "PreStopHook failed" (the output is left out "so that secrets
    // won't leak"); the grace period loses the hook's 3 s: SIGTERM with 27 s.
    name: 'a failing preStop hook gives a FailedPreStopHook warning and SIGTERM follows with the grace period left',
    args: ['run', `${FIXTURES}/prestop-fails.yaml`, '--delete'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    trace: [
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 30s (from deletionGracePeriodSeconds); preStop hooks: app',
      '2 kubelet.preStop [app] preStop httpGet hook of app starts; it runs 3s',
      '5 kubelet.preStop [app] preStop hook of app failed (FailedPreStopHook); SIGTERM with 27s before SIGKILL',
      '5 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 27s',
      '6 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '6 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
    events: ['2 Normal Killing Pod/default/web kubelet: Stopping container app', '5 Warning FailedPreStopHook Pod/default/web kubelet: PreStopHook failed'],
  },
  {
    // CheckGracefulDelete takes the request's grace period; BeforeDelete writes deletionTimestamp = now + 5 s.
    name: '--grace-period=5 gives deletionGracePeriodSeconds 5 and the kubelet kills with 5 s',
    args: ['run', `${FIXTURES}/plain.yaml`, '--delete', '--grace-period=5'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    trace: [
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 5s (from deletionGracePeriodSeconds); no preStop hooks',
      '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 5s',
      '3 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '3 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
    check: (r) => {
      const mark = r.trace.find((e) => e.phase === 'apiserver.delete' && e.object === 'Pod/default/web')!;
      assert.equal(mark.result, 'graceful deletion: deletionTimestamp 2026-01-01T00:00:07Z, grace period 5s');
      assert.equal(r.trace.find((e) => e.phase === 'kubectl.validate' && /DELETE/.test(e.result))!.result, 'kubectl sends DELETE /api/v1/namespaces/default/pods/web with gracePeriodSeconds 5');
    },
  },
  {
    // delete.go Complete: "we convert --grace-period=0 into --grace-period=1"; PrintObj says "deleted", no warning.
    name: '--grace-period=0 without --force is sent as 1 and prints deleted',
    args: ['run', `${FIXTURES}/plain.yaml`, '--delete', '--grace-period=0'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    trace: [
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 1s (from deletionGracePeriodSeconds); no preStop hooks',
      '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 2s (the minimum)',
      '3 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '3 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
    check: (r) => assert.equal(r.trace.find((e) => e.phase === 'kubectl.validate' && /DELETE/.test(e.result))!.result, 'kubectl sends DELETE /api/v1/namespaces/default/pods/web with gracePeriodSeconds 1'),
  },
  {
    // delete.go: a negative grace period (kubectl's default -1) is not sent; the pod's own 30 s applies.
    name: 'a negative --grace-period is not sent and the pod keeps its own 30 s',
    args: ['run', `${FIXTURES}/plain.yaml`, '--delete', '--grace-period=-1'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      assert.equal(r.trace.find((e) => e.phase === 'kubectl.validate' && /DELETE/.test(e.result))!.result, 'kubectl sends DELETE /api/v1/namespaces/default/pods/web with no grace period (the server decides)');
      assert.equal(r.trace.find((e) => e.phase === 'apiserver.delete')!.result, 'graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s');
    },
  },
  {
    // --force alone becomes a grace period of 0 (delete.go Complete); the API server writes deletionTimestamp with 0
    // and removes the pod in the same request (store.go: lastGraceful 0, no finalizers). The kubelet still kills:
    // calculateEffectiveGracePeriod takes the 0 as given and raises it to 1; killContainer gives the 2 s minimum.
    name: '--force removes the pod at once with kubectl\'s warning, and the kubelet then kills its container',
    args: ['run', `${FIXTURES}/plain.yaml`, '--delete', '--force'], status: 0, outcome: 'Deleted',
    kubectl: `${created}\n${WARNING}\npod "web" force deleted from default namespace`,
    trace: [
      '2 apiserver.finalize removed Pod "web" from storage (propagation Background)',
      '2 kubelet.preStop killing 1 running container(s) with a grace period of 1s (from deletionGracePeriodSeconds); no preStop hooks',
      '2 kubelet.terminate [app] StopContainer app: SIGTERM, SIGKILL after 2s (the minimum)',
      '3 kubelet.terminate [app] app exited on SIGTERM, exit code 143',
      '3 apiserver.finalize the pod is already gone from the API server: nothing left to delete',
    ],
  },
  {
    // BeforeDelete: a pod already terminating with a finalizer and deletionGracePeriodSeconds 30 gets the kubelet's
    // grace 0: its deletionTimestamp moves back to the request time (2 s) and store.go keeps it for the finalizer.
    name: 'a finalizer the Behavior holds keeps the pod Terminating after the kubelet\'s final delete',
    args: ['run', `${FIXTURES}/finalizer.yaml`, '--delete'], status: 1, outcome: 'Terminating', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      const p = pod(r)!;
      assert.deepEqual(p.metadata.finalizers, ['podlifecycle.debug/held']);
      assert.equal(r.trace.find((e) => e.phase === 'apiserver.delete')!.result, 'graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s; an outside controller (Behavior finalizers) holds finalizer podlifecycle.debug/held');
      // The kubelet's final delete (grace 0) shortens the pending 30 s: 00:00:32 - 30 s is past at 3 s, so
      // BeforeDelete (k8s.io/apiserver v0.36.0 pkg/registry/rest/delete.go) makes deletionTimestamp now.
      assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:00:03Z');
      assert.equal(p.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(p.status?.phase, 'Failed');
      assert.equal(deletionTrace(r).at(-1), '3 apiserver.finalize kept: finalizers [podlifecycle.debug/held] must be removed before the object goes; it stays with deletionTimestamp 2026-01-01T00:00:03Z and deletionGracePeriodSeconds 0 (the Behavior holds this object\'s finalizer)');
    },
  },
  {
    name: 'a finalizer in the manifest that no controller owns keeps the pod Terminating the same way',
    args: ['run', `${FIXTURES}/manifest-finalizer.yaml`, '--delete'], status: 1, outcome: 'Terminating', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      const p = pod(r)!;
      assert.deepEqual(p.metadata.finalizers, ['example.com/backup']);
      assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:00:03Z');
      assert.equal(p.metadata.deletionGracePeriodSeconds, 0);
    },
  },
  {
    // volume_manager.go WaitForUnmount: podAttachAndMountTimeout 2 min; the sync error is retried after kubelet.go's
    // backOffPeriod (10 s); the status manager never gets to delete the pod.
    name: 'a volume that never unmounts keeps the pod Terminating after WaitForUnmount gives up at 2 min',
    args: ['run', `${FIXTURES}/volume-never-unmounts.yaml`, '--delete'], status: 1, outcome: 'Terminating', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      const cleanup = deletionTrace(r, /kubelet\.cleanup/);
      assert.match(cleanup[0]!, /^3 kubelet\.cleanup StopPodSandbox: the pause container stopped, CNI DEL released 10\.244\.\d+\.\d+;/);
      assert.equal(cleanup.at(-1), '123 kubelet.cleanup WaitForUnmount gave up after 2m0s: mounted volumes=[data]: context deadline exceeded; the pod worker logs "Error syncing pod, skipping" and retries (after 10s, then every 2m10s): the pod stays Terminating');
      assert.ok(!r.trace.some((e) => e.phase === 'apiserver.finalize' && e.object === 'Pod/default/web'));
      assert.equal(pod(r)!.metadata.deletionTimestamp, '2026-01-01T00:00:32Z');
      assert.equal(pod(r)!.status?.phase, 'Failed');
    },
  },
  {
    name: 'a volume that takes 150 s to unmount delays the delete past one WaitForUnmount timeout and its retry',
    args: ['run', `${FIXTURES}/volume-slow-unmount.yaml`, '--delete'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      const cleanup = deletionTrace(r, /kubelet\.cleanup|apiserver\.finalize/);
      assert.deepEqual(cleanup.slice(-4), [
        '123 kubelet.cleanup WaitForUnmount gave up after 2m0s: mounted volumes=[data]: context deadline exceeded; the pod worker logs "Error syncing pod, skipping" and retries in 10s',
        '153 kubelet.cleanup [data] UnmountVolume.TearDown succeeded for volume "data"',
        '153 kubelet.cleanup all volumes unmounted; the pod\'s cgroup and directories are removed',
        '153 apiserver.finalize removed Pod "web" from storage (propagation Background)',
      ]);
    },
  },
  {
    // CheckGracefulDelete: "if the pod is not scheduled, delete immediately" (grace 0).
    name: 'a pod deleted before it was scheduled goes at once',
    args: ['run', `${FIXTURES}/unschedulable.yaml`, '--delete'], status: 0, outcome: 'Deleted', kubectl: `${created}\n${deleted}`,
    check: (r) => {
      const start = r.trace.findIndex((e) => e.phase === 'apiserver.delete');
      const entries = r.trace.slice(start).filter((e) => /apiserver\.(delete|finalize)|kubelet\./.test(e.phase));
      assert.match(entries[0]!.result, /^deletion with a grace period of 0: deletionTimestamp .*, removed at once unless finalizers hold it$/);
      assert.equal(entries[1]!.result, 'removed Pod "web" from storage (propagation Background)');
      assert.equal(entries.length, 2);
    },
  },
  {
    // The deletion order of DESIGN.md: the EndpointSlice controller sees the deletionTimestamp (terminating, not
    // ready, still serving: staging/src/k8s.io/endpointslice/utils.go) before the kubelet runs preStop.
    name: 'on deletion the endpoints are updated first, then preStop, SIGTERM, cleanup and the final delete',
    args: ['run', `${FIXTURES}/with-service.yaml`, '--delete'], status: 0, outcome: 'Deleted',
    kubectl: `${created}\nservice/web created\n${deleted}\nservice "web" deleted from default namespace`,
    check: (r) => {
      const start = r.trace.findIndex((e) => e.phase === 'apiserver.delete' && e.object === 'Pod/default/web');
      const phases: string[] = [];
      for (const e of r.trace.slice(start)) if (e.object === 'Pod/default/web' && e.phase !== 'kubelet.status' && phases.at(-1) !== e.phase) phases.push(e.phase);
      // After the final delete the EndpointSlice controller sees the pod go (its Service is gone by then: nothing to do).
      assert.deepEqual(phases.slice(0, phases.indexOf('apiserver.finalize') + 1), ['apiserver.delete', 'controllers.endpoints', 'kubelet.preStop', 'kubelet.terminate', 'kubelet.cleanup', 'apiserver.finalize']);
      assert.equal(r.trace[start + 1]!.result.replace(/web-\w+/, 'web-XXXXX').replace(/10\.244\.\d+\.\d+/, 'IP'), 'updated EndpointSlice web-XXXXX of Service web: IP (web) ready=false serving=true terminating=true');
    },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report, stderr } = runJson(...c.args);
    assert.equal(stderr, '');
    assert.equal(report.outcome, c.outcome);
    assert.equal(status, c.status);
    assert.equal(report.kubectl, c.kubectl);
    if (c.trace) assert.deepEqual(deletionTrace(report), c.trace);
    if (c.events) assert.deepEqual(eventsFrom(report, 2).filter((e) => / (Killing|FailedPreStopHook) /.test(e)), c.events);
    c.check?.(report);
  });
}

test('--force with a positive --grace-period is refused as kubectl refuses it (exit 2)', () => {
  // delete.go Validate: fmt.Errorf("--force and --grace-period greater than 0 cannot be specified together").
  const r = spawnSync(process.execPath, [CLI, 'run', `${FIXTURES}/plain.yaml`, '--delete', '--force', '--grace-period=5'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^error: --force and --grace-period greater than 0 cannot be specified together\n/);
});

test('a kubelet that stops: the node turns Unknown after 50 s, is tainted unreachable, and the pod is evicted 300 s later and stays Terminating', () => {
  const { status, report } = runJson('run', `${FIXTURES}/kubelet-down.yaml`);
  assert.equal(report.outcome, 'Terminating');
  assert.equal(status, 1);
  // The kubelet renews its lease every 10 s (last at 10 s before it stops at 20 s); node_lifecycle_controller.go
  // tryUpdateNodeHealth marks the node Unknown at the first 5 s monitor pass after 10 + 50 s (node-monitor-grace-period
  // 50 s since 1.32): 65 s. Conditions: NodeStatusUnknown, "Kubelet stopped posting node status.".
  const n = node(report, 'worker-1');
  for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const cond = n.status.conditions.find((x) => x.type === type)!;
    assert.deepEqual([cond.status, cond.reason, cond.message, cond.lastTransitionTime], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', '2026-01-01T00:01:05Z'], type);
  }
  assert.equal(n.status.conditions.find((x) => x.type === 'NetworkUnavailable')!.status, 'False');
  // doNoScheduleTaintingPass / doNoExecuteTaintingPass: the unreachable taints, with their timeAdded.
  assert.deepEqual(n.spec.taints, [
    { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:01:05Z' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:01:05Z' },
  ]);
  // RecordNodeStatusChange and MarkPodsNotReady (pkg/controller/util/node/controller_utils.go); taint_eviction.go
  // emitPodDeletionEvent at 65 + 300 s (DefaultTolerationSeconds' unreachable toleration).
  assert.deepEqual(eventsFrom(report, 20), [
    '65 Normal NodeNotReady Node/worker-1 node-controller: Node worker-1 status is now: NodeNotReady',
    '65 Warning NodeNotReady Pod/default/web node-controller: Node is not ready',
    '365 Normal TaintManagerEviction Pod/default/web taint-eviction-controller: Marking for deletion Pod default/web',
  ]);
  const p = pod(report)!;
  assert.equal(p.status!.conditions!.find((x) => x.type === 'Ready')!.status, 'False');
  const disruption = p.status!.conditions!.find((x) => x.type === 'DisruptionTarget')!;
  assert.deepEqual([disruption.status, disruption.reason, disruption.message], ['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']);
  // addConditionAndDeletePod deletes with empty options: the pod's own 30 s; no kubelet confirms, pod GC does not act.
  assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:06:35Z');
  assert.equal(p.metadata.deletionGracePeriodSeconds, 30);
  assert.ok(!report.trace.some((e) => e.phase.startsWith('kubelet.') && (e.at ?? 0) > 20 && e.object === 'Pod/default/web'));
});

test('a kubelet down from the start: the node turns Unknown at 55 s, the pod is evicted at 355 s and --delete leaves it Terminating', () => {
  const { status, report } = runJson('run', `${FIXTURES}/kubelet-down-from-start.yaml`, '--delete');
  assert.equal(report.outcome, 'Terminating');
  assert.equal(status, 1);
  assert.equal(report.kubectl, `${created}\n${deleted}`);
  assert.deepEqual(eventsFrom(report, 1).filter((e) => !/ Scheduled /.test(e)), [
    '55 Normal NodeNotReady Node/worker-1 node-controller: Node worker-1 status is now: NodeNotReady',
    '355 Normal TaintManagerEviction Pod/default/web taint-eviction-controller: Marking for deletion Pod default/web',
  ]);
  // rest/delete.go BeforeDelete: a second delete with no shorter grace period leaves the pending deletion as it is.
  const deletes = report.trace.filter((e) => e.phase === 'apiserver.delete' && e.object === 'Pod/default/web').map(line);
  assert.deepEqual(deletes, [
    '355 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:06:25Z, grace period 30s',
    '355 apiserver.delete already terminating (deletionTimestamp 2026-01-01T00:06:25Z, grace period 30s): a delete may only shorten it',
  ]);
});

test('a delete while the kubelet is down is never confirmed: the pod stays Terminating', () => {
  const { status, report } = runJson('run', `${FIXTURES}/kubelet-down.yaml`, '--for', '30s', '--delete');
  assert.equal(report.outcome, 'Terminating');
  assert.equal(status, 1);
  const p = pod(report)!;
  assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:01:00Z');
  assert.equal(p.metadata.deletionGracePeriodSeconds, 30);
  assert.ok(!report.trace.some((e) => /kubelet\.(preStop|terminate|cleanup)/.test(e.phase)));
  // taint_eviction.go addConditionAndDeletePod: a pod already being deleted is left alone (the event still comes first).
  assert.equal(report.trace.find((e) => e.phase === 'controllers.taintEviction')!.result, 'the pod is already being deleted: nothing to do');
});

test('a later delete with a shorter grace period moves the deletionTimestamp back by the difference', () => {
  // rest/delete.go BeforeDelete: "only a shorter grace period may be provided by a user"; the new deletionTimestamp is
  // the old one minus the old grace period plus the new: 00:06:25 - 30 s + 5 s.
  const { status, report } = runJson('run', `${FIXTURES}/kubelet-down-from-start.yaml`, '--delete', '--grace-period=5');
  assert.equal(report.outcome, 'Terminating');
  assert.equal(status, 1);
  const deletes = report.trace.filter((e) => e.phase === 'apiserver.delete' && e.object === 'Pod/default/web').map(line);
  assert.deepEqual(deletes, [
    '355 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:06:25Z, grace period 30s',
    '355 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:06:00Z, grace period 5s (shortened)',
  ]);
  assert.equal(pod(report)!.metadata.deletionGracePeriodSeconds, 5);
});

test('a delete the authorizer refuses is the run\'s rejection, printed as kubectl delete -f prints it', () => {
  // delete.go deleteResource wraps the error with cmdutil.AddSourceToErr("deleting", info.Source, err).
  const { status, report } = runJson('run', `${FIXTURES}/plain.yaml`, '--cluster', `${FIXTURES}/deny-delete-cluster.yaml`, '--delete');
  assert.equal(report.outcome, 'Rejected');
  assert.equal(status, 1);
  const message = 'pods "web" is forbidden: User "kubernetes-admin" cannot delete resource "pods" in API group "" in the namespace "default": pods are deleted by the release pipeline';
  assert.deepEqual(report.rejection, { phase: 'apiserver.authorize', code: 403, reason: 'Forbidden', message, object: 'Pod/web' });
  assert.equal(report.kubectl, `${created}\nError from server (Forbidden): error when deleting "${FIXTURES}/plain.yaml": ${message}`);
  assert.ok(pod(report) && !pod(report)!.metadata.deletionTimestamp);
});
