// kubectl describe over real runs, compared whole with DescribePod's layout
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go: describePod, describeContainers, DescribeEvents).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { evaluateConsole } from '../../../src/engine/console/index';
import { Simulation } from '../../../src/engine/simulation';
import { fill, fixture, inputsFor, simulate } from './simulate';

let podRun: Simulation | undefined;
const pod = (): Simulation => (podRun ??= simulate(fixture('../../examples/pod.yaml')));
let crashRun: Simulation | undefined;
// The container exits 1 five seconds after each start. The first exit restarts it at once, the next ones wait out 10 s,
// then 20 s of back-off (ended by the pod worker's jittered requeue): 70 s in, it has restarted three times, exited a
// fourth time (between 55 and 67.5 s) and waits in back-off, which keeps it down until 95 s at least. The status shows
// that exit (Error) until the sync at the back-off's end: the kubelet sends a pod's status as each sync begins.
const crash = (): Simulation => (crashRun ??= simulate(fixture('console/crashloop.yaml'), { forMs: 70_000 }));
/** lastRun is the crash-looping container's run before its last, in seconds of the run (its status timestamps). */
const lastRun = (which: 'state' | 'lastState' = 'lastState'): { started: number; finished: number } => {
  const terminated = crash().store.get<Pod>('Pod', 'default', 'crasher')?.status?.containerStatuses?.[0]?.[which]?.terminated;
  const seconds = (t: string | undefined) => (Date.parse(t ?? '') - Date.parse(crash().clock.timestamp(0))) / 1000;
  return { started: seconds(terminated?.startedAt), finished: seconds(terminated?.finishedAt) };
};
/** describeTime prints a second of the run as describe does (time.RFC1123Z). */
const describeTime = (second: number): string => new Date(Date.parse(crash().clock.timestamp(0)) + second * 1000).toUTCString().replace('GMT', '+0000');

const output = (sim: Simulation, line: string): string => {
  const r = evaluateConsole(sim, line);
  if ('message' in r) assert.fail(r.message);
  return r.output;
};

test('kubectl describe pod prints the running pod as DescribePod does, events last', () => {
  assert.equal(output(pod(), 'kubectl describe pod web'), fill(pod(), 'web', [
    'Name:             web',
    'Namespace:        default',
    'Priority:         0',
    'Service Account:  default',
    'Node:             {NODE}/{NODE_IP}',
    'Start Time:       Thu, 01 Jan 2026 00:00:00 +0000',
    'Labels:           app=web',
    // The last-applied-configuration annotation is one describe skips.
    'Annotations:      <none>',
    'Status:           Running',
    'IP:               {POD_IP}',
    'IPs:',
    '  IP:  {POD_IP}',
    'Containers:',
    '  app:',
    '    Container ID:   {CID:app}',
    '    Image:          nginx:1.27',
    '    Image ID:       docker.io/library/nginx@sha256:6965a10c15290ad0b29ca7fd1866de1850408b3cb15fb11a3bbbbc2fddb158bd',
    '    Port:           80/TCP',
    '    Host Port:      0/TCP',
    '    State:          Running',
    '      Started:      Thu, 01 Jan 2026 00:00:02 +0000',
    '    Ready:          True',
    '    Restart Count:  0',
    '    Limits:',
    '      memory:  128Mi',
    '    Requests:',
    '      cpu:        250m',
    '      memory:     64Mi',
    '    Readiness:    http-get http://:80/ delay=0s timeout=1s period=5s #success=1 #failure=3',
    '    Environment:  <none>',
    '    Mounts:',
    '      /var/run/secrets/kubernetes.io/serviceaccount from {SA_VOLUME} (ro)',
    'Conditions:',
    '  Type                        Status',
    // describe writes each condition as "%v \t%v \n": the trailing space is kubectl's.
    '  PodReadyToStartContainers   True ',
    '  Initialized                 True ',
    '  Ready                       True ',
    '  ContainersReady             True ',
    '  PodScheduled                True ',
    'Volumes:',
    '  {SA_VOLUME}:',
    '    Type:                    Projected (a volume that contains injected data from multiple sources)',
    '    TokenExpirationSeconds:  3607',
    '    ConfigMapName:           kube-root-ca.crt',
    '    Optional:                false',
    '    DownwardAPI:             true',
    'QoS Class:                   Burstable',
    'Node-Selectors:              <none>',
    'Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s',
    '                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s',
    'Events:',
    '  Type    Reason     Age   From               Message',
    '  ----    ------     ----  ----               -------',
    // DescribeEvents (kubectl 1.35 and later) puts the involved object's fieldPath before the message: the kubelet's
    // events name their container so, and Created and Started no longer name it in the message (#134043).
    '  Normal  Scheduled  2s    default-scheduler  Successfully assigned default/web to {NODE}',
    '  Normal  Pulling    2s    kubelet            spec.containers{app}: Pulling image "nginx:1.27"',
    '  Normal  Pulled     0s    kubelet            spec.containers{app}: Successfully pulled image "nginx:1.27" in 2s (2s including waiting). Image size: 52428800 bytes.',
    '  Normal  Created    0s    kubelet            spec.containers{app}: Container created',
    '  Normal  Started    0s    kubelet            spec.containers{app}: Container started',
  ].join('\n')));
});

test('a crash-looping pod between two syncs shows its exit, its restarts and how long ago the run before ended', () => {
  // printers.go printPod: the terminated reason; RESTARTS with the age of lastState.terminated.finishedAt.
  const restarts = `3 (${70 - lastRun().finished}s ago)`;
  const width = Math.max('RESTARTS'.length, restarts.length) + 3;
  assert.equal(output(crash(), 'kubectl get pods'), [
    `NAME      READY   STATUS   ${'RESTARTS'.padEnd(width)}AGE`,
    `crasher   0/1     Error    ${restarts.padEnd(width)}70s`,
  ].join('\n'));
});

test('describe shows the init container, the command, Last State, the env and the liveness probe', () => {
  const text = output(crash(), 'kubectl describe pod crasher');
  const section = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));
  assert.equal(section('Init Containers:', 'Containers:\n  app:'), fill(crash(), 'crasher', [
    'Init Containers:',
    '  setup:',
    '    Container ID:  {CID:setup}',
    '    Image:         busybox:1.36',
    '    Image ID:      docker.io/library/busybox@sha256:d55432289a2f69dad7e00346d00e8d4df4d0053a44dffb3f8cf463f6e3fb4b04',
    '    Port:          <none>',
    '    Host Port:     <none>',
    // A line without a tab (Command:) ends the tab writer's column block: what follows aligns anew.
    '    Command:',
    '      sh',
    '      -c',
    '      echo ready',
    '    State:          Terminated',
    '      Reason:       Completed',
    '      Exit Code:    0',
    '      Started:      Thu, 01 Jan 2026 00:00:02 +0000',
    '      Finished:     Thu, 01 Jan 2026 00:00:03 +0000',
    '    Ready:          True',
    '    Restart Count:  0',
    '    Environment:    <none>',
    '    Mounts:',
    '      /var/run/secrets/kubernetes.io/serviceaccount from {SA_VOLUME} (ro)',
    '',
  ].join('\n')));
  assert.equal(section('    State:          Terminated\n      Reason:       Error', 'Conditions:'), fill(crash(), 'crasher', [
    '    State:          Terminated',
    '      Reason:       Error',
    '      Exit Code:    1',
    `      Started:      ${describeTime(lastRun('state').started)}`,
    `      Finished:     ${describeTime(lastRun('state').finished)}`,
    '    Last State:     Terminated',
    '      Reason:       Error',
    '      Exit Code:    1',
    `      Started:      ${describeTime(lastRun().started)}`,
    `      Finished:     ${describeTime(lastRun().finished)}`,
    '    Ready:          False',
    '    Restart Count:  3',
    '    Liveness:       exec [cat /tmp/healthy] delay=3s timeout=1s period=10s #success=1 #failure=3',
    '    Environment:',
    '      MODE:      debug',
    '      POD_NAME:  crasher (v1:metadata.name)',
    '    Mounts:',
    '      /var/run/secrets/kubernetes.io/serviceaccount from {SA_VOLUME} (ro)',
    '',
  ].join('\n')));
  assert.match(text, /\nQoS Class:                   BestEffort\n/);
});

test('a repeated event shows its last age, its count and its first age', () => {
  const text = output(crash(), 'kubectl describe pod crasher');
  const backOff = crash().result().events.find((e) => e.reason === 'BackOff');
  assert.ok(backOff && (backOff.count ?? 0) > 1 && backOff.firstAt !== undefined, 'the BackOff event repeated');
  const series = `${70 - Math.floor(backOff.at)}s \\(x${backOff.count} over ${70 - Math.floor(backOff.firstAt)}s\\)`;
  assert.match(text, new RegExp(`\\n {2}Warning {2}BackOff {4}${series} +kubelet +spec\\.containers\\{app\\}: Back-off restarting failed container app in pod crasher_default\\(`));
});

test('kubectl describe node prints the node, the pods on it with their share of allocatable, and its events', () => {
  const node = fill(pod(), 'web', '{NODE}');
  const text = output(pod(), `kubectl describe node ${node}`);
  assert.ok(text.startsWith(`Name:               ${node}\n`+'Roles:              <none>\nLabels:             beta.kubernetes.io/arch=amd64\n'));
  assert.ok(text.includes([
    'Non-terminated Pods:          (1 in total)',
    '  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age',
    '  ---------                   ----    ------------  ----------  ---------------  -------------  ---',
    '  default                     web     250m (6%)     0 (0%)      64Mi (0%)        128Mi (1%)     2s',
    'Allocated resources:',
    '  (Total limits may be over 100 percent, i.e., overcommitted.)',
    '  Resource           Requests   Limits',
    '  --------           --------   ------',
    '  cpu                250m (6%)  0 (0%)',
    '  memory             64Mi (0%)  128Mi (1%)',
    '  ephemeral-storage  0 (0%)     0 (0%)',
    '  hugepages-1Gi      0 (0%)     0 (0%)',
    '  hugepages-2Mi      0 (0%)     0 (0%)',
    // With no events, "Events:\t<none>" joins the last column block (DescribeEvents flushes only before a table).
    'Events:              <none>',
  ].join('\n')));
});

test('describing a pod that does not exist is the API server\'s NotFound', () => {
  assert.deepEqual(evaluateConsole(pod(), 'kubectl describe pod nope'), { error: true, message: 'Error from server (NotFound): pods "nope" not found' });
});

test('a pod being deleted reads Terminating, and describe counts its deletion timestamp, still in the future, as <invalid>', () => {
  // The API server sets deletionTimestamp to the deletion time plus the grace period; HumanDuration of a
  // negative span below -1 s is <invalid>, which describe prints as it is.
  const sim = new Simulation(inputsFor(fixture('../../examples/pod.yaml')), { delete: {} });
  assert.equal(sim.runUntil((e) => e.phase === 'kubelet.terminate')?.phase, 'kubelet.terminate');
  assert.match(output(sim, 'kubectl get pods'), /\nweb {4}1\/1 {5}Terminating {3}0 {10}2s$/);
  const text = output(sim, 'kubectl describe pod web');
  assert.match(text, /\nStatus: {20}Terminating \(lasts <invalid>\)\nTermination Grace Period: {2}30s\n/);
});

test('kubectl get events --sort-by=.lastTimestamp orders the events by when they were last seen', () => {
  const reasons = output(crash(), 'kubectl get events --sort-by=.lastTimestamp').split('\n').slice(1).map((l) => l.split(/\s+/)[2]);
  assert.deepEqual(reasons, ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started', 'Pulling', 'Pulled', 'Created', 'Started', 'Pulled', 'BackOff']);
  assert.deepEqual(evaluateConsole(crash(), 'kubectl get events --sort-by=.nope'), { error: true, message: 'error: couldn\'t find any field with path "{.nope}" in the list of objects' });
});
