// explain on a run with a HorizontalPodAutoscaler: its metrics against their targets, its scalings, its conditions,
// and why it stands where it does, from the first condition that holds it (ScalingActive, AbleToScale, ScalingLimited
// as pkg/controller/podautoscaler/horizontal.go sets them, v1.36.3) or its last sync.
import assert from 'node:assert/strict';
import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './harness';

const CLI = join(ROOT, 'dist', 'cli.js');
const F = 'test/fixtures/hpa';

interface Autoscaler { hpa: string; target: string; replicas: { current: number; desired: number }; scaled: { at: number; from: number; to: number }[]; why: string }

function explain(...args: string[]): { autoscalers: Autoscaler[]; text: string } {
  const json = spawnSync(process.execPath, [CLI, 'explain', ...args, '--json'], { cwd: ROOT, encoding: 'utf8' });
  const text = spawnSync(process.execPath, [CLI, 'explain', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { autoscalers: (JSON.parse(json.stdout) as { autoscalers?: Autoscaler[] }).autoscalers ?? [], text: text.stdout };
}

const cases: { name: string; args: string[]; scaled: string[]; why: RegExp }[] = [
  {
    name: 'usage at 3 times the target scales 2 → 6 → 10 and stays at maxReplicas: ScalingLimited TooManyReplicas says why',
    args: [`${F}/web.yaml`, '--for', '60s', '--behavior', `${F}/cpu-300m.yaml`], scaled: ['30: 2 → 6', '45: 6 → 10'],
    why: /^the desired replica count is more than the maximum replica count \(TooManyReplicas\): it stays at 10, between minReplicas 1 and maxReplicas 10$/,
  },
  {
    name: 'usage within 10% of the target keeps the replicas: the tolerance, with the ratio',
    args: [`${F}/web.yaml`, '--for', '60s', '--behavior', `${F}/cpu-105m.yaml`], scaled: [],
    why: /^its metrics are within the 10% tolerance of their targets \(cpu 52% of requests \(105m a pod\) against 50% of requests, ratio 1\.04\): it keeps 2$/,
  },
  {
    name: 'a ratio of 1.5 within spec.behavior\'s scale-up tolerance of 0.6 keeps the replicas: the tolerances it reads',
    args: [`${F}/sources/tolerance.yaml`, '--for', '20s', '--behavior', `${F}/sources/behavior.yaml`], scaled: [],
    why: /^its metrics are within the tolerances \(5% down, 60% up\) of their targets \(packets-per-second \(pods\) 3k a pod against 2k a pod, ratio 1\.5\): it keeps 2$/,
  },
  {
    name: 'usage far below the target is held by the scale-down stabilization window',
    args: [`${F}/web.yaml`, '--for', '300s', '--behavior', `${F}/cpu-20m.yaml`], scaled: [],
    why: /^its metrics propose 1 replicas, but recent recommendations were higher than current one, applying the highest recent recommendation \(ScaleDownStabilized\): it keeps 2$/,
  },
  {
    name: 'pods without metrics: ScalingActive False, the controller\'s own message',
    args: [`${F}/web.yaml`, '--for', '60s'], scaled: [],
    why: /^it cannot compute a replica count \(FailedGetResourceMetric\): the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API$/,
  },
  {
    name: 'before its first sync (15 s after it is created) it has said nothing yet',
    args: [`${F}/web.yaml`, '--for', '10s', '--behavior', `${F}/cpu-300m.yaml`], scaled: [],
    why: /^it has not synced yet: its first sync comes 15 s after it is created, then every 15 s$/,
  },
];

for (const c of cases) {
  test(`explain says why the autoscaler stands where it does: ${c.name}`, () => {
    const { autoscalers, text } = explain(...c.args);
    assert.equal(autoscalers.length, 1);
    const [a] = autoscalers;
    assert.equal(a!.hpa, 'default/web');
    assert.equal(a!.target, 'Deployment/web');
    assert.deepEqual(a!.scaled.map((s) => `${s.at}: ${s.from} → ${s.to}`), c.scaled);
    assert.match(a!.why, c.why);
    assert.match(text, /^AUTOSCALER default\/web → Deployment\/web: \d+ replicas/m);
    assert.ok(text.includes(`  WHY ${a!.why}`), 'the text gives the same reason');
  });
}

const S = `${F}/sources`;
const metricCases: { name: string; args: string[]; metrics: string[] }[] = [
  { name: 'a ContainerResource metric names its container', args: [`${S}/container-app.yaml`, '--for', '35s', '--behavior', `${S}/behavior.yaml`], metrics: ['cpu of container app: 150% of requests (300m a pod) against 50% of requests, ratio 3'] },
  { name: 'a Pods metric is an average a pod', args: [`${S}/pods.yaml`, '--for', '20s', '--behavior', `${S}/behavior.yaml`], metrics: ['packets-per-second (pods): 3k a pod against 1k a pod, ratio 3'] },
  { name: 'an Object metric names its object; a Value target is a total', args: [`${S}/object-value.yaml`, '--for', '20s', '--behavior', `${S}/behavior.yaml`], metrics: ['requests-per-second of Ingress/main-route: 30k against 10k, ratio 3'] },
  { name: 'a Pods metric shows its selector', args: [`${S}/pods-selector.yaml`, '--for', '20s', '--behavior', `${S}/selectors-behavior.yaml`], metrics: ['packets-per-second {direction=in} (pods): 3k a pod against 1k a pod, ratio 3'] },
  { name: 'an Object metric shows its selector', args: [`${S}/object-selector.yaml`, '--for', '20s', '--behavior', `${S}/selectors-behavior.yaml`], metrics: ['requests-per-second {verb=GET} of Ingress/main-route: 30k against 10k, ratio 3'] },
  { name: 'an External metric shows its selector', args: [`${S}/external-value.yaml`, '--for', '20s', '--behavior', `${S}/behavior.yaml`], metrics: ['queue_messages_ready {queue=worker_tasks} (external): 30 against 10, ratio 3'] },
  { name: 'a metric the APIs do not have is unknown', args: [`${S}/external-average.yaml`, '--for', '20s'], metrics: ['queue_length (external): <unknown> against 2 a pod'] },
  {
    name: 'several metrics, each against its own target', args: [`${S}/resource-and-pods.yaml`, '--for', '35s', '--behavior', `${S}/cpu-within-packets-high.yaml`],
    metrics: ['cpu: 52% of requests (131m a pod) against 50% of requests, ratio 1.04', 'packets-per-second (pods): 3k a pod against 1k a pod, ratio 3'],
  },
];

for (const c of metricCases) {
  test(`explain shows each metric of an autoscaler against its target: ${c.name}`, () => {
    const json = spawnSync(process.execPath, [CLI, 'explain', ...c.args, '--json'], { cwd: ROOT, encoding: 'utf8' });
    const [a] = (JSON.parse(json.stdout) as { autoscalers: { metrics: { name: string; current: string; target: string; ratio?: number }[] }[] }).autoscalers;
    assert.deepEqual(a!.metrics.map((m) => `${m.name}: ${m.current} against ${m.target}${m.ratio !== undefined ? `, ratio ${m.ratio}` : ''}`), c.metrics);
  });
}
