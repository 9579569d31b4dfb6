// The kubelet's events on whole runs: each event about a container carries the container's reference as
// involvedObject.fieldPath (pkg/kubelet/container/ref.go GenerateContainerRef, v1.36.3), Created and Started name no
// container since 1.35 (#134043, kuberuntime_container.go startContainer), and events that differ only in their
// fieldPath are apart (client-go tools/record/events_cache.go getEventKey, v0.36.0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeEvent } from '../../../src/engine/runtime/recorder';
import { simulate } from '../console/simulate';

const pod = (spec: string, more = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n${spec}${more ? `---\n${more}` : ''}`;
const behavior = (containers: string) => `apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n${containers}`;
const line = (e: KubeEvent) => `${e.type} ${e.reason} ${e.fieldPath ?? '-'}: ${e.message}${e.count > 1 ? ` (x${e.count})` : ''}`;

test('an init container and three containers: every kubelet event names its container by fieldPath, one Event per container', () => {
  const sim = simulate(pod([
    '  initContainers:\n    - name: init\n      image: busybox:1.36\n',
    '  containers:\n    - name: app\n      image: nginx:1.27\n    - name: sidecar\n      image: nginx:1.27\n    - name: metrics\n      image: nginx:1.27\n',
  ].join('')));
  const pulled = 'Successfully pulled image "nginx:1.27" in 2s (2s including waiting). Image size: 52428800 bytes.';
  const present = 'Container image "nginx:1.27" already present on machine and can be accessed by the pod';
  assert.deepEqual(sim.recorder.events.filter((e) => e.source === 'kubelet').map(line), [
    'Normal Pulling spec.initContainers{init}: Pulling image "busybox:1.36"',
    'Normal Pulled spec.initContainers{init}: Successfully pulled image "busybox:1.36" in 2s (2s including waiting). Image size: 52428800 bytes.',
    'Normal Created spec.initContainers{init}: Container created',
    'Normal Started spec.initContainers{init}: Container started',
    'Normal Pulling spec.containers{app}: Pulling image "nginx:1.27"',
    `Normal Pulled spec.containers{app}: ${pulled}`,
    'Normal Created spec.containers{app}: Container created',
    'Normal Started spec.containers{app}: Container started',
    // The same message for two containers: two Events, not one counted twice.
    `Normal Pulled spec.containers{sidecar}: ${present}`,
    'Normal Created spec.containers{sidecar}: Container created',
    'Normal Started spec.containers{sidecar}: Container started',
    `Normal Pulled spec.containers{metrics}: ${present}`,
    'Normal Created spec.containers{metrics}: Container created',
    'Normal Started spec.containers{metrics}: Container started',
  ]);
  // The scheduler's event is about the pod itself: no fieldPath.
  assert.equal(sim.recorder.events.find((e) => e.reason === 'Scheduled')?.fieldPath, undefined);
});

const onContainer: { name: string; manifest: string; forMs?: number; delete?: boolean; want: string }[] = [
  {
    // kuberuntime_manager.go doBackOff: the BackOff event is recorded on GenerateContainerRef's reference.
    name: 'the crash-loop BackOff',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n', behavior('  app: {exitAfterSeconds: 1, exitCode: 1}\n')), forMs: 40_000,
    want: 'Warning BackOff spec.containers{app}: Back-off restarting failed container app in pod web_default(',
  },
  {
    // prober.go recordContainerEvent.
    name: 'a failed liveness probe\'s Unhealthy',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n      livenessProbe:\n        httpGet: {path: /healthz, port: 80}\n', behavior('  app: {livenessFailsAfterSeconds: 5}\n')), forMs: 60_000,
    want: 'Warning Unhealthy spec.containers{app}: Liveness probe failed: ',
  },
  {
    // kuberuntime_container.go killContainer → recordContainerEvent.
    name: 'the Killing of a deleted pod\'s container',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n'), delete: true,
    want: 'Normal Killing spec.containers{app}: Stopping container app',
  },
  {
    // kuberuntime_container.go startContainer: FailedPostStartHook, then killContainer with the message "FailedPostStartHook".
    name: 'a failed postStart hook and its kill',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n      lifecycle:\n        postStart:\n          exec: {command: [sh, -c, /bin/warmup]}\n', behavior('  app: {postStartFails: true}\n')), forMs: 10_000,
    want: 'Warning FailedPostStartHook spec.containers{app}: PostStartHook failed',
  },
  {
    name: 'a failed postStart hook\'s Killing',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n      lifecycle:\n        postStart:\n          exec: {command: [sh, -c, /bin/warmup]}\n', behavior('  app: {postStartFails: true}\n')), forMs: 10_000,
    want: 'Normal Killing spec.containers{app}: FailedPostStartHook',
  },
  {
    // kuberuntime_container.go startContainer: a config error is "Error: <message>" on the container's reference.
    name: 'a CreateContainerConfigError\'s Failed',
    manifest: pod('  containers:\n    - name: app\n      image: nginx:1.27\n      env:\n        - name: A\n          valueFrom:\n            secretKeyRef: {name: nope, key: k}\n'), forMs: 5_000,
    want: 'Warning Failed spec.containers{app}: Error: secret "nope" not found',
  },
];

for (const c of onContainer) {
  test(`${c.name} is an event on the container's reference`, () => {
    const sim = simulate(c.manifest, { ...(c.forMs ? { forMs: c.forMs } : {}), ...(c.delete ? { delete: {} } : {}) });
    const lines = sim.recorder.events.map(line);
    assert.ok(lines.some((l) => l.startsWith(c.want)), lines.join('\n'));
  });
}

test('pod-level kubelet events keep no fieldPath: a rejected pod\'s admission event', () => {
  const sim = simulate(pod('  nodeName: worker-1\n  containers:\n    - name: app\n      image: nginx:1.27\n      resources:\n        requests: {cpu: "64"}\n'));
  const rejected = sim.recorder.events.find((e) => e.source === 'kubelet');
  assert.equal(rejected?.reason, 'OutOfcpu');
  assert.equal(rejected?.fieldPath, undefined);
});
