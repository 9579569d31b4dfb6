// autoscaling/v1 HorizontalPodAutoscalers served beside autoscaling/v2, driven by the real kubectl: discovery lists
// both versions; the stored v2 object reads back as v1 with targetCPUUtilizationPercentage,
// currentCPUUtilizationPercentage and the round-trip annotations for what v1 cannot express; a v1 object written
// through v1 (create, replace, patch) is defaulted and stored as v2. See pkg/apis/autoscaling/v1/conversion.go and
// defaults.go (v1.36.3). kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServeProcess, startServe } from './serve-process';

const ROOT = join(__dirname, '..', '..', '..');
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
let serve: ServeProcess;
const kubectl = (...args: string[]) => serve.kubectl(...args);
const raw = async (path: string): Promise<Record<string, any>> => {
  const r = await kubectl('get', '--raw', path);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
};
const v2 = async (name: string): Promise<Record<string, any>> => JSON.parse((await kubectl('get', 'horizontalpodautoscalers.v2.autoscaling', name, '-o', 'json')).stdout) as Record<string, any>;

before(async () => {
  serve = await startServe('hpa-v1', readFileSync(join(ROOT, 'examples', 'hpa-behavior.yaml'), 'utf8'));
  const applied = await kubectl('apply', '-f', join(ROOT, 'examples', 'hpa.yaml'));
  assert.equal(applied.code, 0, applied.stderr);
  // The autoscaler's first sync writes the status v1 carries in its annotations.
  const wait = await kubectl('wait', 'horizontalpodautoscalers.v2.autoscaling/web', '--for=condition=ScalingActive', '--timeout=60s');
  assert.equal(wait.code, 0, wait.stderr);
});

after(() => serve.stop());

test('discovery serves autoscaling/v1 and autoscaling/v2, v2 preferred, both with horizontalpodautoscalers', async () => {
  const versions = await kubectl('api-versions');
  assert.deepEqual(versions.stdout.split('\n').filter((l) => l.startsWith('autoscaling/')), ['autoscaling/v1', 'autoscaling/v2']);
  const group = await raw('/apis/autoscaling');
  assert.deepEqual(group.versions.map((v: { groupVersion: string }) => v.groupVersion), ['autoscaling/v2', 'autoscaling/v1']);
  assert.equal(group.preferredVersion.groupVersion, 'autoscaling/v2');
  const v1 = await raw('/apis/autoscaling/v1');
  assert.deepEqual(v1.resources.map((r: { name: string; kind: string }) => `${r.name} ${r.kind}`), ['horizontalpodautoscalers HorizontalPodAutoscaler']);
});

test('the stored v2 autoscaler reads as v1: the CPU target and current utilization as fields, the rest in annotations', async () => {
  // The cluster runs on while the test reads: each assertion compares parts of one answer, or what does not change.
  const stored = await v2('web');
  const hpa = await raw(`${V1}/web`);
  assert.equal(hpa.apiVersion, 'autoscaling/v1');
  assert.deepEqual(hpa.spec, { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 50 });
  const a = hpa.metadata.annotations as Record<string, string>;
  assert.equal(a['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Pods","pods":{"metricName":"packets-per-second","targetAverageValue":"1k"}}]');
  const current = JSON.parse(a['autoscaling.alpha.kubernetes.io/current-metrics']!) as Record<string, any>[];
  assert.deepEqual(current.map((m) => Object.keys(m[m.type === 'Resource' ? 'resource' : 'pods'])), [['name', 'currentAverageUtilization', 'currentAverageValue'], ['metricName', 'currentAverageValue']]);
  assert.equal(current[0]!.resource.name, 'cpu');
  assert.equal(hpa.status.currentCPUUtilizationPercentage, current[0]!.resource.currentAverageUtilization);
  assert.deepEqual(current[1]!.pods, { metricName: 'packets-per-second', currentAverageValue: '800' });
  const conditions = JSON.parse(a['autoscaling.alpha.kubernetes.io/conditions']!) as Record<string, string>[];
  assert.deepEqual(conditions.map((c) => c.type), ['AbleToScale', 'ScalingActive', 'ScalingLimited']);
  for (const c of conditions) assert.deepEqual(Object.keys(c), ['type', 'status', 'lastTransitionTime', 'reason', 'message']);
  assert.deepEqual(Object.keys(hpa.status).filter((k) => !['lastScaleTime', 'observedGeneration'].includes(k)), ['currentReplicas', 'desiredReplicas', 'currentCPUUtilizationPercentage']);
  assert.equal(a['autoscaling.alpha.kubernetes.io/behavior'], undefined, 'no behavior, no behavior annotation');
  assert.deepEqual(Object.keys(stored.metadata.annotations ?? {}).filter((k) => k.startsWith('autoscaling.alpha')), [], 'the v2 object has none of them');
});

test('kubectl get of the v1 resource lists from /apis/autoscaling/v1 with the autoscaler columns', async () => {
  const r = await kubectl('get', 'horizontalpodautoscalers.v1.autoscaling', '-v=6');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /GET https:\/\/127\.0\.0\.1:\d+\/apis\/autoscaling\/v1\/namespaces\/default\/horizontalpodautoscalers\?limit=500 200 OK/);
  const [header, row] = r.stdout.trim().split('\n');
  assert.deepEqual(header!.split(/\s+/), ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
  assert.match(row!, /^web\s+Deployment\/web\s+cpu: \d+%\/50%, 800\/1k\s+1\s+10\s+\d+\s+\S+$/);
  // The short name loses the version in client-go's expansion (restmapper/shortcut.go expandResourceShortcut, v0.36.3).
  const short = await kubectl('get', 'hpa.v1.autoscaling', '-v=6');
  assert.match(short.stderr, /GET https:\/\/127\.0\.0\.1:\d+\/apis\/autoscaling\/v2\/namespaces\/default\/horizontalpodautoscalers\?limit=500 200 OK/);
  const list = await raw(V1);
  assert.equal(list.kind, 'HorizontalPodAutoscalerList');
  assert.equal(list.apiVersion, 'autoscaling/v1');
  assert.deepEqual(list.items.map((i: { spec: { targetCPUUtilizationPercentage?: number } }) => i.spec.targetCPUUtilizationPercentage), [50]);
});

const createCases: { name: string; spec: string; want: { minReplicas: number; metrics: unknown[] } }[] = [
  {
    name: 'a v1 autoscaler without a CPU target or minReplicas is stored with minReplicas 1 and CPU at 80%',
    spec: 'scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}\n  maxReplicas: 4',
    want: { minReplicas: 1, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] },
  },
  {
    name: 'a v1 autoscaler\'s targetCPUUtilizationPercentage is stored as the cpu Utilization metric',
    spec: 'scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}\n  minReplicas: 2\n  maxReplicas: 4\n  targetCPUUtilizationPercentage: 70',
    want: { minReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
  },
];

for (const [i, c] of createCases.entries()) {
  test(c.name, async () => {
    const name = `api-${i}`;
    const file = serve.file(`${name}.yaml`, `apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: ${name}\nspec:\n  ${c.spec}\n`);
    const created = await kubectl('create', '-f', file);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), `horizontalpodautoscaler.autoscaling/${name} created`);
    const stored = await v2(name);
    assert.equal(stored.apiVersion, 'autoscaling/v2');
    assert.equal(stored.spec.minReplicas, c.want.minReplicas);
    assert.deepEqual(stored.spec.metrics, c.want.metrics);
    const deleted = await kubectl('delete', 'horizontalpodautoscalers.v1.autoscaling', name);
    assert.equal(deleted.stdout.trim(), `horizontalpodautoscaler.autoscaling "${name}" deleted`);
  });
}

test('a v1 object read and replaced keeps the other metrics of its annotation, before the CPU metric', async () => {
  const got = JSON.parse((await kubectl('get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json')).stdout) as { metadata: Record<string, unknown> };
  // Without its resourceVersion: the autoscaler's status writes would otherwise make the replace a conflict.
  delete got.metadata.resourceVersion;
  const replaced = await kubectl('replace', '-f', serve.file('web-v1.json', JSON.stringify(got)));
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.deepEqual((await v2('web')).spec.metrics, [
    { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
  ]);
});

test('a patch through v1 applies to the v1 object: targetCPUUtilizationPercentage changes the cpu metric', async () => {
  const patched = await kubectl('patch', 'horizontalpodautoscalers.v1.autoscaling', 'web', '--type=merge', '-p', '{"spec":{"targetCPUUtilizationPercentage":60}}');
  assert.equal(patched.code, 0, patched.stderr);
  const cpu = (await v2('web')).spec.metrics.find((m: { type: string }) => m.type === 'Resource');
  assert.equal(cpu.resource.target.averageUtilization, 60);
});

test('a v2 body sent to the v1 path is refused: its API version does not match', async () => {
  const file = serve.file('v2.json', JSON.stringify({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'other' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 } }));
  const r = await kubectl('create', '--raw', V1, '-f', file);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /the API version in the data \(autoscaling\/v2\) does not match the expected API version \(autoscaling\/v1\)/);
});

test('a watch of the v1 resource sends v1 objects', async () => {
  const r = await kubectl('get', '--raw', `${V1}?watch=true&timeoutSeconds=1`);
  const first = JSON.parse(r.stdout.split('\n')[0]!) as { type: string; object: { apiVersion: string; metadata: { name: string }; spec: Record<string, unknown> } };
  assert.equal(first.type, 'ADDED');
  assert.equal(first.object.apiVersion, 'autoscaling/v1');
  assert.equal(first.object.metadata.name, 'web');
  assert.equal(first.object.spec.targetCPUUtilizationPercentage, 60);
});

// The behavior annotation is read as written: v1 defaulting does not complete its rules, so validateBehavior sees
// them as given (pkg/apis/autoscaling/v1/conversion.go and defaults.go, validation.go validateScalingRules, v1.36.3).
const behaviorCases: { name: string; behavior: string; error?: string; stored?: unknown }[] = [
  {
    name: 'a v1 behavior annotation whose rules name no policy is refused: v1 does not default them',
    behavior: '{"ScaleUp":{"StabilizationWindowSeconds":300}}',
    error: 'The HorizontalPodAutoscaler "behavior-0" is invalid: spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
  },
  {
    name: 'a v1 behavior annotation with a period and a tolerance out of bounds is refused with every error',
    behavior: '{"ScaleDown":{"Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":3600}],"Tolerance":"-0.1"}}',
    error: 'The HorizontalPodAutoscaler "behavior-1" is invalid: \n'
      + '* spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800\n'
      + '* spec.behavior.scaleDown.tolerance: Invalid value: "-100m": must be greater than or equal to 0',
  },
  {
    name: 'a valid v1 behavior annotation is stored as spec.behavior, the direction it leaves out defaulted',
    behavior: '{"ScaleUp":{"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":50,"PeriodSeconds":60}]}}',
    stored: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] },
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    },
  },
];

for (const [i, c] of behaviorCases.entries()) {
  test(c.name, async () => {
    const name = `behavior-${i}`;
    const body = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name, annotations: { 'autoscaling.alpha.kubernetes.io/behavior': c.behavior } }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, maxReplicas: 4 } };
    const created = await kubectl('create', '-f', serve.file(`${name}.json`, JSON.stringify(body)));
    if (c.error !== undefined) {
      assert.equal(created.code, 1);
      assert.equal(created.stderr.trim(), c.error);
      return;
    }
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual((await v2(name)).spec.behavior, c.stored);
    await kubectl('delete', 'horizontalpodautoscalers.v1.autoscaling', name);
  });
}
