// Why a pod is not Ready, restarts or failed: each cause from constructed pods, events and trace steps, with the
// Kubernetes status and event texts it keys on beside their source; and which question a pod's state asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, diagnosePod, questionOf, type PodDiagnosis, type Question } from '../../../src/engine/explain/diagnosis';
import { probeText } from '../../../src/engine/explain/probes';
import type { DiagnosisInput } from '../../../src/engine/explain/pod-view';
import { conditions, CREATED, ev, input, node, PodBuilder, running, step, ts } from './builders';

const HTTP_PROBE = { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, failureThreshold: 3 };
const POD_LABEL = 'web_default(uid-1)';

interface Case {
  name: string;
  input: DiagnosisInput;
  question: Question;
  kinds: string[];
  want?: (d: PodDiagnosis) => void;
}

function crashLoop(exitCode: number, reason: string, backOff: string, restarts: number): PodBuilder {
  return new PodBuilder().notReady().status({
    ready: false, started: false, restartCount: restarts,
    // pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff): "back-off %s restarting failed container=%s pod=%s".
    state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${backOff} restarting failed container=app pod=${POD_LABEL}` } },
    lastState: { terminated: { exitCode, reason, startedAt: ts(40), finishedAt: ts(45) } },
  });
}

const cases: Case[] = [
  {
    name: 'CrashLoopBackOff gives the exit code and reason from lastState, the back-off and kubectl logs --previous',
    input: input(crashLoop(1, 'Error', '40s', 3).build(), {
      now: 50,
      // pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff): Warning BackOff "Back-off restarting failed container %s in pod %s".
      events: [ev(45, 'Warning', 'BackOff', `Back-off restarting failed container app in pod ${POD_LABEL}`, 3)],
      trace: [step(45, 'kubelet.containers', 'CrashLoopBackOff: app restarts in 40s (back-off 40s)', { step: { kind: 'container', name: 'app' }, outcome: 'waiting' })],
    }),
    question: 'notReady', kinds: ['CrashLoopBackOff'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'container app exits with code 1 (Error): the application exited with an error: its log says why; the kubelet waits 40s before restarting it (CrashLoopBackOff, 3 restarts)');
      assert.deepEqual(c.checks, ['kubectl logs web -c app --previous', 'kubectl describe pod web', 'kubectl get events --field-selector involvedObject.name=web']);
      assert.deepEqual(c.evidence.map((e) => [e.ref, e.at]), [
        ['status.containerStatuses[0].state.waiting', undefined], ['status.containerStatuses[0].lastState.terminated', 45],
        ['status.containerStatuses[0].restartCount', undefined], ['Warning BackOff', 45], ['kubelet.containers', 45],
      ]);
      assert.match(d.summary, /^phase Running on worker-1, not Ready at 50s \(Ready False: ContainersNotReady: containers with unready status: \[app\]\)$/);
    },
  },
  {
    name: 'A container that exits 0 under restartPolicy Always crash-loops too, and a Job is the advice',
    input: input(crashLoop(0, 'Completed', '10s', 1).build(), { now: 20 }),
    question: 'notReady', kinds: ['CrashLoopBackOff'],
    want: (d) => assert.match(d.causes[0]!.fix ?? '', /run the work as a Job/),
  },
  {
    name: 'Liveness kills are read from the Killing and Unhealthy events, with the probe as kubectl describe prints it',
    input: input(new PodBuilder().container({ livenessProbe: HTTP_PROBE }).status({ restartCount: 2, lastState: { terminated: { exitCode: 137, reason: 'Error', finishedAt: ts(84) } } }).build(), {
      now: 120,
      events: [
        // pkg/kubelet/prober/prober.go: Warning Unhealthy "Liveness probe failed: <output>".
        ev(114, 'Warning', 'Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 500', 7),
        // pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions): "Container %s failed liveness probe, will be restarted".
        ev(83, 'Normal', 'Killing', 'Container app failed liveness probe, will be restarted', 2),
      ],
    }),
    question: 'restarting', kinds: ['LivenessProbe'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'the liveness probe of app failed and the kubelet killed the container 2 times ("failed liveness probe, will be restarted")');
      assert.equal(c.evidence[0]!.text, 'http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3');
      assert.match(c.detail ?? '', /^after 3 failures in a row \(about 30s at period 10s\)/);
      assert.ok(c.checks.includes('kubectl logs web -c app --previous'));
      assert.equal(d.summary, 'Running and Ready on worker-1, but restarted: app 2×');
    },
  },
  {
    name: 'OOMKilled names the memory limit',
    input: input(new PodBuilder().container({ resources: { limits: { memory: '128Mi' } } }).status({ restartCount: 1, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ts(30) } } }).build(), { now: 40 }),
    question: 'restarting', kinds: ['OOMKilled'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'container app was OOMKilled (exit code 137): it went over its memory limit of 128Mi');
      assert.ok(d.causes[0]!.evidence.some((e) => e.ref === 'spec.containers[0].resources.limits.memory' && e.text === '128Mi'));
    },
  },
  {
    name: 'An image that does not exist: ErrImagePull/ImagePullBackOff with the registry\'s NotFound',
    input: input(new PodBuilder().notReady().podStatus({ phase: 'Pending' }).status({
      ready: false, started: false,
      // pkg/kubelet/images/image_manager.go: ImagePullBackOff "Back-off pulling image \"%s\": ErrImagePull: <err>".
      state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:1.27": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27": failed to resolve reference "docker.io/library/nginx:1.27": docker.io/library/nginx:1.27: not found' } },
    }).build(), {
      now: 60,
      events: [
        ev(40, 'Warning', 'Failed', 'Failed to pull image "nginx:1.27": rpc error: code = NotFound desc = failed to pull and unpack image', 3),
        ev(40, 'Warning', 'Failed', 'Error: ErrImagePull', 3),
        ev(41, 'Normal', 'BackOff', 'Back-off pulling image "nginx:1.27"', 3),
      ],
    }),
    question: 'notReady', kinds: ['ImagePull'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'the image "nginx:1.27" of container app cannot be pulled (ImagePullBackOff): the registry has no such image or tag');
      assert.deepEqual(d.causes[0]!.evidence.filter((e) => e.kind === 'event').map((e) => e.text), ['Failed to pull image "nginx:1.27": rpc error: code = NotFound desc = failed to pull and unpack image', 'Back-off pulling image "nginx:1.27"']);
    },
  },
  {
    name: 'A registry that wants credentials points at imagePullSecrets',
    input: input(new PodBuilder().notReady().status({ ready: false, state: { waiting: { reason: 'ErrImagePull', message: 'failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized' } } }).build(), { now: 5 }),
    question: 'notReady', kinds: ['ImagePull'],
    want: (d) => assert.match(d.causes[0]!.fix ?? '', /imagePullSecrets/),
  },
  {
    name: 'ErrImageNeverPull says imagePullPolicy Never and the image is not on the node',
    // pkg/kubelet/images/image_manager.go: `Container image "%s" is not present with pull policy of Never`.
    input: input(new PodBuilder().notReady().status({ ready: false, state: { waiting: { reason: 'ErrImageNeverPull', message: 'Container image "nginx:1.27" is not present with pull policy of Never' } } }).build(), { now: 5 }),
    question: 'notReady', kinds: ['ImagePull'],
    want: (d) => assert.match(d.causes[0]!.title, /\(ErrImageNeverPull\): imagePullPolicy is Never and the image is not on the node$/),
  },
  {
    name: 'CreateContainerConfigError names the missing Secret and the command to look for it',
    // pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables): `secret "db" not found`.
    input: input(new PodBuilder().notReady().status({ ready: false, state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' } } }).build(), { now: 5, events: [ev(3, 'Warning', 'Failed', 'Error: secret "db" not found', 2)] }),
    question: 'notReady', kinds: ['CreateContainerConfigError'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'container app cannot be created: secret "db" not found');
      assert.ok(d.causes[0]!.checks.includes('kubectl get secret db -n default'));
      assert.ok(d.causes[0]!.evidence.some((e) => e.text === 'Error: secret "db" not found' && e.count === 2));
    },
  },
  {
    name: 'FailedMount names the volume and the missing ConfigMap',
    input: input(new PodBuilder().notReady().podStatus({ phase: 'Pending' }).spec({ volumes: [{ name: 'config', configMap: { name: 'app-config' } }] }).status({ ready: false, state: { waiting: { reason: 'ContainerCreating' } } }).build(), {
      now: 130,
      events: [
        // pkg/volume/util/operationexecutor/operation_generator.go: MountVolume.SetUp failed for volume "%s" : %v
        ev(126, 'Warning', 'FailedMount', 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found', 9),
        // pkg/kubelet/volumemanager/volume_manager.go (WaitForAttachAndMount)
        ev(120, 'Warning', 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[config], unattached volumes=[config kube-api-access-x]: timed out waiting for the condition'),
      ],
    }),
    question: 'notReady', kinds: ['FailedMount'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'volume config cannot be mounted: configmap "app-config" not found');
      assert.ok(d.causes[0]!.checks.includes('kubectl get configmap app-config -n default'));
      assert.ok(d.causes[0]!.evidence.some((e) => e.field === 'spec.volumes[0]'));
    },
  },
  {
    name: 'A failing init container holds the app containers, with kubectl logs -c on the init container',
    input: input(new PodBuilder().notReady().podStatus({ phase: 'Pending', conditions: [{ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [migrate]' }, ...conditions(false, 'ContainersNotReady', 'containers with unready status: [app]').filter((c) => c.type !== 'Initialized')] })
      .status({ ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })
      .initContainer({ name: 'migrate', image: 'acme/migrate:1' }, { name: 'migrate', image: 'acme/migrate:1', imageID: '', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=migrate pod=${POD_LABEL}` } }, lastState: { terminated: { exitCode: 2, reason: 'Error' } } }).build(), { now: 30 }),
    question: 'notReady', kinds: ['InitContainer'],
    want: (d) => {
      assert.match(d.causes[0]!.title, /^init container migrate exits with code 2 \(Error\): .* waits 20s before restarting it/);
      assert.match(d.causes[0]!.detail ?? '', /^the app containers start only after every init container succeeds/);
      assert.equal(d.causes[0]!.checks[0], 'kubectl logs web -c migrate --previous');
    },
  },
  {
    name: 'An init container still running holds the pod in Init',
    input: input(new PodBuilder().notReady().podStatus({ phase: 'Pending', conditions: [{ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [wait-db]' }] })
      .status({ ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })
      .initContainer({ name: 'wait-db', image: 'busybox:1.36' }, { name: 'wait-db', image: 'busybox:1.36', imageID: '', ready: false, restartCount: 0, state: { running: { startedAt: ts(3) } } }).build(), { now: 63 }),
    question: 'notReady', kinds: ['InitContainer'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'init container wait-db is still running (since 3s, 1m0s so far): the app containers start only after it exits with 0');
      assert.deepEqual(d.causes[0]!.evidence.map((e) => e.text), [`startedAt ${ts(3)}`, 'False, ContainersNotInitialized, containers with incomplete status: [wait-db]']);
      assert.equal(d.causes[0]!.checks[0], 'kubectl logs web -c wait-db');
    },
  },
  {
    name: 'A readiness probe that fails: Unhealthy events, the probe, and no restart',
    input: input(new PodBuilder().container({ readinessProbe: HTTP_PROBE }).notReady().status({ ready: false, started: true, state: { running: { startedAt: ts(2) } } }).build(), {
      now: 30, events: [ev(28, 'Warning', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 3)],
    }),
    question: 'notReady', kinds: ['ReadinessProbe'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'the readiness probe of app fails for 28s since the container started at 2s');
      assert.match(c.detail ?? '', /A failing readiness probe does not restart the container$/);
      assert.ok(c.checks.includes('kubectl port-forward pod/web 8080:8080, then curl -i http://localhost:8080/healthz'));
    },
  },
  {
    name: 'A readiness probe that errs names its Unhealthy "errored" events as evidence',
    input: input(new PodBuilder().container({ readinessProbe: HTTP_PROBE }).notReady().status({ ready: false, started: true, state: { running: { startedAt: ts(2) } } }).build(), {
      // pkg/kubelet/prober/prober.go probe: "%s probe errored and resulted in %s state: %s".
      now: 30, events: [ev(30, 'Warning', 'Unhealthy', 'Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing "metrics": invalid syntax', 4)],
    }),
    question: 'notReady', kinds: ['ReadinessProbe'],
    want: (d) => assert.ok(d.causes[0]!.evidence.some((e) => e.text.includes('Readiness probe errored and resulted in unknown state'))),
  },
  {
    name: 'A startup probe not yet passed holds readiness and says when the kubelet would kill the container',
    input: input(new PodBuilder().container({ startupProbe: { exec: { command: ['cat', '/tmp/started'] }, periodSeconds: 5, failureThreshold: 6 }, readinessProbe: HTTP_PROBE }).notReady()
      .status({ ready: false, started: false, state: { running: { startedAt: ts(2) } } }).build(), {
      now: 12, events: [ev(12, 'Warning', 'Unhealthy', 'Startup probe failed: cat: can\'t open \'/tmp/started\': No such file or directory', 2)],
    }),
    question: 'notReady', kinds: ['StartupProbe'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'the startup probe of app has not passed yet');
      assert.match(d.causes[0]!.detail ?? '', /after about 30s \(initialDelaySeconds \+ failureThreshold × periodSeconds\)/);
      assert.ok(d.causes[0]!.checks.includes('kubectl exec web -c app -- cat /tmp/started'));
    },
  },
  {
    name: 'A readiness gate with no condition keeps the pod not Ready though its containers are',
    input: input((() => {
      const b = new PodBuilder().spec({ readinessGates: [{ conditionType: 'example.com/lb-ready' }] });
      // pkg/kubelet/status/generate.go (GeneratePodReadyCondition): ReadinessGatesNotReady.
      b.pod.status.conditions = conditions(true).map((c) => (c.type === 'Ready' ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/lb-ready" does not exist.' } : c));
      return b.build();
    })(), { now: 10 }),
    question: 'notReady', kinds: ['ReadinessGates'],
    want: (d) => assert.equal(d.causes[0]!.title, 'the containers are ready, but readiness gate example.com/lb-ready is not True'),
  },
  {
    name: 'activeDeadlineSeconds: DeadlineExceeded fails the pod',
    input: input(new PodBuilder().spec({ activeDeadlineSeconds: 60 }).podStatus({
      // pkg/kubelet/active_deadline.go: reason DeadlineExceeded, "Pod was active on the node longer than the specified deadline".
      phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline',
      conditions: conditions(false, 'PodFailed', ''), containerStatuses: [{ ...running('app', 2, false), state: { terminated: { exitCode: 137, reason: 'Error' } } }],
    }).build(), { now: 61, events: [ev(60, 'Normal', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline')] }),
    question: 'failed', kinds: ['DeadlineExceeded', 'ContainerExited'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'the pod ran longer than spec.activeDeadlineSeconds (60s): the kubelet stopped its containers and failed it (DeadlineExceeded)');
      assert.equal(d.summary, 'phase Failed on worker-1 (DeadlineExceeded: Pod was active on the node longer than the specified deadline)');
    },
  },
  {
    name: 'An evicted pod is failed with reason Evicted, and the node\'s pressure is what to look at',
    // pkg/kubelet/eviction/helpers.go (evictionMessage): "The node was low on resource: %v. "
    input: input(new PodBuilder().podStatus({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory. ', conditions: conditions(false, 'PodFailed', ''), containerStatuses: [] }).build(), { now: 10 }),
    question: 'failed', kinds: ['PodFailed'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'the pod failed with reason Evicted: The node was low on resource: memory. ');
      assert.equal(d.causes[0]!.source, 'pkg/kubelet/eviction/eviction_manager.go');
      assert.match(d.causes[0]!.checks[1]!, /^kubectl describe node worker-1 /);
    },
  },
  {
    name: 'A container that exits with an error under restartPolicy Never fails the pod',
    input: input(new PodBuilder().spec({ restartPolicy: 'Never' }).podStatus({ phase: 'Failed', conditions: conditions(false, 'PodFailed', ''), containerStatuses: [{ ...running('app', 2, false), state: { terminated: { exitCode: 127, reason: 'Error' } } }] }).build(), { now: 3 }),
    question: 'failed', kinds: ['ContainerExited'],
    want: (d) => {
      assert.equal(d.causes[0]!.title, 'container app exited with code 127 (Error)');
      assert.equal(d.causes[0]!.detail, 'the command was not found in the image; restartPolicy Never');
      assert.equal(d.causes[0]!.checks[0], 'kubectl logs web -c app');
    },
  },
  {
    name: 'A node gone NotReady marks the running pod not Ready',
    input: input(new PodBuilder().notReady('', '').build(), {
      now: 100,
      nodes: [node('worker-1', { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }])],
      events: [ev(50, 'Warning', 'NodeNotReady', 'Node is not ready')],
    }),
    question: 'notReady', kinds: ['NodeNotReady'],
    want: (d) => {
      assert.match(d.causes[0]!.title, /^the kubelet on worker-1 stopped posting node status: the node is unreachable, so the pod is marked not Ready$/);
      assert.ok(d.causes[0]!.checks.includes('journalctl -u kubelet   # on worker-1'));
    },
  },
  {
    name: 'A pod bound to a node whose kubelet never reported is found by the missing status',
    input: input(new PodBuilder().podStatus({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }], containerStatuses: [] }).build(), { now: 0 }),
    question: 'notReady', kinds: ['NodeNotReady'],
    want: (d) => assert.equal(d.causes[0]!.title, 'the kubelet on worker-1 has not started the pod bound there at 0s (no status, no event from it since)'),
  },
];
// The kubelet of the last case never admitted the pod: its trace ends at the binding.
cases.at(-1)!.input.trace = CREATED.filter((e) => !e.phase.startsWith('kubelet.'));

for (const c of cases) {
  test(c.name, () => {
    const pod = c.input.objects[0] as never;
    const d = diagnosePod(c.input, pod);
    assert.equal(d.question, c.question);
    assert.deepEqual(d.causes.map((x) => x.kind), c.kinds);
    for (const cause of d.causes) assert.match(cause.source, /^(pkg|staging)\//, `${cause.kind} names its Kubernetes source`);
    c.want?.(d);
  });
}

const questions: { name: string; pod: PodBuilder; want: Question }[] = [
  { name: 'Running and Ready with no restart asks nothing', pod: new PodBuilder(), want: 'none' },
  { name: 'Running and Ready after restarts asks why it restarts', pod: new PodBuilder().status({ restartCount: 1 }), want: 'restarting' },
  { name: 'Running but not Ready asks why not Ready', pod: new PodBuilder().notReady(), want: 'notReady' },
  { name: 'Pending without a node is the scheduler\'s question', pod: new PodBuilder().spec({ nodeName: undefined }).podStatus({ phase: 'Pending' }), want: 'unscheduled' },
  { name: 'Succeeded asks nothing', pod: new PodBuilder().podStatus({ phase: 'Succeeded' }), want: 'none' },
  { name: 'Failed asks why it failed', pod: new PodBuilder().podStatus({ phase: 'Failed' }), want: 'failed' },
  { name: 'A deletionTimestamp asks why it is stuck Terminating, whatever the phase', pod: new PodBuilder().podStatus({ phase: 'Failed' }).deleted(0, 30), want: 'terminating' },
];

for (const q of questions) test(`question: ${q.name}`, () => assert.equal(questionOf(q.pod.build()), q.want));

test('diagnose covers the pods the trace worked on, or the ones named', () => {
  const web = new PodBuilder().notReady().build();
  const other = new PodBuilder('other').build();
  const result = input(web, { now: 1 });
  const all = { ...result, objects: [...result.objects, other as never] };
  assert.deepEqual(diagnose(all).map((d) => d.pod), ['default/web']);
  assert.deepEqual(diagnose(all, ['Pod/default/other']).map((d) => [d.pod, d.question]), [['default/other', 'none']]);
});

const probes: { name: string; probe: Parameters<typeof probeText>[0]; want: string }[] = [
  // staging/src/k8s.io/kubectl/pkg/describe/describe.go (DescribeProbe)
  { name: 'httpGet with defaults', probe: { httpGet: { path: '/', port: 80 } }, want: 'http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3' },
  { name: 'exec with a delay in whole seconds', probe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 90, periodSeconds: 5 }, want: 'exec [cat /tmp/healthy] delay=90s timeout=1s period=5s #success=1 #failure=3' },
  { name: 'tcpSocket', probe: { tcpSocket: { port: 5432 }, failureThreshold: 6 }, want: 'tcp-socket :5432 delay=0s timeout=1s period=10s #success=1 #failure=6' },
];

for (const p of probes) test(`probe text as kubectl describe prints it: ${p.name}`, () => assert.equal(probeText(p.probe), p.want));
