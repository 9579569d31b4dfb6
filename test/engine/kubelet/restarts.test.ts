// Whole runs of container restarts: the restart policy, the CrashLoopBackOff back-off and the liveness probe's kill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { goDuration } from '../../../src/engine/runtime/durations';
import { shouldRestart } from '../../../src/engine/kubelet/restarts';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';
import { assertStarts, backoffs, type Start } from '../../support/restarts';

function simulate(manifest: string, options: SimulationOptions = {}): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, options);
  sim.run();
  return sim;
}

const manifest = (policy: string, behavior: string, probe = '', pod = '') => `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  restartPolicy: ${policy}
${pod}  containers:
    - name: app
      image: nginx:1.27
${probe}---
apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
containers:
  app: ${behavior}
`;

const startedAt = (sim: Simulation) => sim.trace.filter((e) => e.phase === 'kubelet.containers' && e.result === 'started container app').map((e) => e.at);
const webPod = (sim: Simulation) => sim.store.get<Pod>('Pod', 'default', 'web')!;

interface Case {
  name: string;
  manifest: string;
  options: SimulationOptions;
  outcome?: string;
  starts: Start[];
  restartCount: number;
  waiting?: string;
  /** last is lastState.terminated; startedAt 'last' is the latest start, whose run ended runSeconds later. */
  last?: { exitCode: number; reason: string; startedAt: number | 'last'; finishedAt: number | { runSeconds: number } };
  events?: string[];
  ready?: string;
}

const liveness = '      livenessProbe:\n        httpGet: {path: /healthz, port: 80}\n        periodSeconds: 5\n        failureThreshold: 3\n';

const cases: Case[] = [
  {
    // Started at 2; exits at 7 and restarts at once; then back-offs of 10 s, 20 s, 40 s after each exit, each ended by a
    // jittered requeue of the pod worker.
    name: 'Always: a container exiting 1 every 5 s restarts at the back-off times and waits in CrashLoopBackOff',
    // The fifth start comes by 127 s and its run ends by 132 s; the sixth cannot come before 177 s.
    manifest: manifest('Always', '{exitAfterSeconds: 5, exitCode: 1}'), options: { forMs: 170_000 },
    starts: [2, 7, ...backoffs(5, 10, 20, 40)], restartCount: 4,
    waiting: 'back-off 40s restarting failed container=app pod=web_default(UID)',
    last: { exitCode: 1, reason: 'Error', startedAt: 'last', finishedAt: { runSeconds: 5 } },
    events: ['Warning BackOff: Back-off restarting failed container app in pod web_default(UID)', 'Normal Pulled: Container image "nginx:1.27" already present on machine and can be accessed by the pod', 'Normal Created: Container created', 'Normal Started: Container started'],
    ready: 'False',
  },
  {
    name: 'OnFailure: a container exiting 0 is not restarted and the pod completes',
    manifest: manifest('OnFailure', '{exitAfterSeconds: 5}'), options: {}, outcome: 'Succeeded', starts: [2], restartCount: 0,
  },
  {
    name: 'OnFailure: a container exiting 1 is restarted',
    manifest: manifest('OnFailure', '{exitAfterSeconds: 5, exitCode: 1}'), options: { forMs: 45_000 },
    starts: [2, 7, ...backoffs(5, 10)], restartCount: 2, waiting: 'back-off 10s restarting failed container=app pod=web_default(UID)',
    last: { exitCode: 1, reason: 'Error', startedAt: 'last', finishedAt: { runSeconds: 5 } },
  },
  {
    name: 'Never: a container exiting 1 stays down and the pod fails',
    manifest: manifest('Never', '{exitAfterSeconds: 5, exitCode: 1}'), options: {}, outcome: 'Failed', starts: [2], restartCount: 0,
  },
  {
    // The probe worker starts with the pod's first sync (t=0, probeManager.AddPod) and ticks every 5 s: 0, 5, 10, ...
    // (pkg/kubelet/prober/worker.go run). The container starts at 2 and fails from 22: probes at 25, 30, 35 fail;
    // killed at 35 (SIGTERM, exits after 1 s) and restarted at once at 36 (no earlier exit, so no back-off: doBackOff).
    name: 'a liveness failure kills the container after failureThreshold failures and restarts it',
    manifest: manifest('Always', '{livenessFailsAfterSeconds: 20}', liveness), options: { forMs: 40_000 },
    starts: [2, 36], restartCount: 1, last: { exitCode: 143, reason: 'Error', startedAt: 2, finishedAt: 36 },
    events: ['Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500', 'Normal Killing: Container app failed liveness probe, will be restarted'],
  },
  {
    name: 'a liveness kill of a container that ignores SIGTERM ends in SIGKILL after the grace period',
    // Killed at 35; SIGKILL when the pod's grace period of 5 s runs out (kuberuntime_container.go killContainer).
    manifest: manifest('Always', '{livenessFailsAfterSeconds: 20, sigtermSeconds: never}', liveness, '  terminationGracePeriodSeconds: 5\n'), options: { forMs: 45_000 },
    starts: [2, 40], restartCount: 1, last: { exitCode: 137, reason: 'Error', startedAt: 2, finishedAt: 40 },
  },
  {
    // The liveness probe runs beside the readiness probe: failing from 12 (probes at 15, 20, 25), the kill comes before readiness at 62.
    name: 'a liveness failure kills a container that is not ready yet',
    manifest: manifest('Always', '{livenessFailsAfterSeconds: 10, readyAfterSeconds: 60}', `${liveness}      readinessProbe:\n        httpGet: {path: /ready, port: 80}\n`), options: { forMs: 30_000 },
    starts: [2, 26], restartCount: 1, last: { exitCode: 143, reason: 'Error', startedAt: 2, finishedAt: 26 }, ready: 'False',
    events: ['Normal Killing: Container app failed liveness probe, will be restarted'],
  },
  {
    // A back-off entry not updated for 10 minutes has expired: a container that ran 700 s restarts at once every time.
    name: 'the back-off resets once the container ran longer than 10 minutes',
    manifest: manifest('Always', '{exitAfterSeconds: 700, exitCode: 1}'), options: { forMs: 1_450_000 },
    starts: [2, 702, 1402], restartCount: 2, last: { exitCode: 1, reason: 'Error', startedAt: 702, finishedAt: 1402 },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const sim = simulate(c.manifest, c.options);
    const result = sim.result();
    if (c.outcome) assert.equal(result.outcome, c.outcome);
    const starts = startedAt(sim);
    assertStarts(starts, c.starts);
    const pod = webPod(sim);
    const uid = pod.metadata?.uid ?? '';
    const status = pod.status?.containerStatuses?.[0];
    assert.equal(status?.restartCount, c.restartCount);
    if (c.waiting) {
      // The status shows a back-off from the sync after the one that found it (kubelet.go SyncPod sends the status
      // first): the last status sent in CrashLoopBackOff carries the last back-off that had run a sync long.
      const sent = sim.trace.filter((e) => e.phase === 'kubelet.status').map((e) => (e.detail['containerStatuses'] as ContainerStatus[])[0]?.state?.waiting);
      const last = sent.filter((w) => w?.reason === 'CrashLoopBackOff').pop();
      assert.equal(last?.message, c.waiting.replace('UID', uid));
    }
    if (c.last) {
      // The run that ended last: the state while the status still shows the exit, else the last state.
      const t = status?.state?.terminated ?? status?.lastState?.terminated;
      assert.equal(t?.exitCode, c.last.exitCode);
      assert.equal(t?.reason, c.last.reason);
      const lastStart = c.last.startedAt === 'last' ? starts[starts.length - 1]! : c.last.startedAt;
      const lastFinish = typeof c.last.finishedAt === 'number' ? c.last.finishedAt : lastStart + c.last.finishedAt.runSeconds;
      assert.equal(t?.startedAt, sim.clock.timestamp(lastStart * 1000));
      assert.equal(t?.finishedAt, sim.clock.timestamp(lastFinish * 1000));
      assert.match(t?.containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);
      // While it waits, the status still names the last container; once it runs again, the new one.
      if (status?.state?.running) assert.notEqual(t?.containerID, status.containerID);
      else assert.equal(t?.containerID, status?.containerID);
      // Shown as terminated, the run before it is the last state.
      if (status?.state?.terminated && c.restartCount > 0) assert.notEqual(status.lastState?.terminated?.containerID, t?.containerID);
    } else {
      assert.deepEqual(status?.lastState, {});
    }
    const messages = result.events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
    for (const e of c.events ?? []) assert.ok(messages.includes(e.replace('UID', uid)), `${e} in ${messages.join('\n')}`);
    if (c.ready) assert.equal(pod.status?.conditions?.find((x) => x.type === 'Ready')?.status, c.ready);
  });
}

test('each failed liveness probe is an Unhealthy event, then one Killing', () => {
  const sim = simulate(manifest('Always', '{livenessFailsAfterSeconds: 20}', liveness), { forMs: 40_000 });
  const unhealthy = sim.result().events.filter((e) => e.reason === 'Unhealthy');
  assert.equal(unhealthy.length, 1);
  assert.equal(unhealthy[0]?.count, 3);
  const killing = sim.result().events.find((e) => e.reason === 'Killing');
  assert.equal(killing?.at, 35);
});

const durations: [number, string][] = [[10_000, '10s'], [40_000, '40s'], [80_000, '1m20s'], [160_000, '2m40s'], [300_000, '5m0s']];
for (const [ms, want] of durations) test(`back-off durations print as Go does: ${want}`, () => assert.equal(goDuration(ms), want));

test('restart policies', () => {
  assert.deepEqual([shouldRestart('Always', 0), shouldRestart('OnFailure', 0), shouldRestart('OnFailure', 1), shouldRestart('Never', 1)], [true, false, true, false]);
});

