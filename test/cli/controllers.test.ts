// The workload controllers through the CLI: kubectl apply on an existing Deployment (configured, unchanged, refused),
// rolling updates, scaling, Recreate, EndpointSlices, the garbage collector's three propagation policies, and Jobs.
// Every expected message sits beside the Kubernetes source it comes from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { CLI, type Report, ROOT, runJson, type StoredObject } from './harness';

const F = 'test/fixtures/controllers';
const DEFAULT_CLUSTER = ['--cluster', 'src/engine/cluster/default-cluster.yaml'];
const WEB_V1 = [...DEFAULT_CLUSTER, '--cluster', `${F}/web-v1-cluster.yaml`];

const objects = (r: Report, kind: string): StoredObject[] => r.objects.filter((o) => o.kind === kind);
const one = (r: Report, kind: string, name: string): StoredObject => {
  const o = r.objects.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(o, `${kind} ${name} is stored`);
  return o;
};
/** controllerEvents are the events of the Deployment, its ReplicaSets and Jobs, as [at, reason, message]. */
const controllerEvents = (r: Report, kinds = ['Deployment', 'ReplicaSet', 'Job']): [number, string, string][] =>
  r.events.filter((e) => kinds.some((k) => e.object.startsWith(`${k}/`))).map((e) => [e.at, e.reason, e.message]);
const conditions = (o: StoredObject) => (o.status?.['conditions'] as { type: string; status: string; reason: string; message: string }[]).map((c) => [c.type, c.status, c.reason, c.message]);
const annotation = (o: StoredObject, key: string) => o.metadata.annotations?.[key];

test('kubectl apply of a new image to a running 3-replica Deployment prints "configured" and rolls it out 1 pod at a time', () => {
  const { status, report } = runJson('run', `${F}/web-v2.yaml`, ...WEB_V1);
  assert.equal(status, 0);
  // staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go: a non-empty patch prints "configured".
  assert.equal(report.kubectl, 'deployment.apps/web configured');
  assert.equal(report.outcome, 'Running');
  const sets = objects(report, 'ReplicaSet');
  assert.equal(sets.length, 2);
  const [oldRS, newRS] = [sets.find((s) => annotation(s, 'deployment.kubernetes.io/revision') === '1')!, sets.find((s) => annotation(s, 'deployment.kubernetes.io/revision') === '2')!];
  assert.ok(oldRS && newRS, 'the old ReplicaSet keeps revision 1, the new one has revision 2 (deployment_util.go SetNewReplicaSetAnnotations)');
  const o = oldRS.metadata.name;
  const n = newRS.metadata.name;
  assert.match(n, /^web-[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  // maxSurge 25% of 3 rounds up to 1, maxUnavailable rounds down to 0 (deployment_util.go ResolveFenceposts):
  // one new pod at a time, an old one goes once the new one is available. Events: sync.go
  // "Scaled up replica set %s from 0 to %d" and scaleReplicaSet's "Scaled %s replica set %s from %d to %d";
  // controller_utils.go RealPodControl "Created pod: %v" / "Deleted pod: %v".
  const events = controllerEvents(report).map(([at, reason, message]) => [at, reason, message.replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')]);
  assert.deepEqual(events, [
    [0, 'ScalingReplicaSet', `Scaled up replica set ${n} from 0 to 1`],
    [0, 'SuccessfulCreate', `Created pod: ${n}-*`],
    [2, 'ScalingReplicaSet', `Scaled down replica set ${o} from 3 to 2`],
    [2, 'SuccessfulDelete', `Deleted pod: ${o}-*`],
    [2, 'ScalingReplicaSet', `Scaled up replica set ${n} from 1 to 2`],
    [2, 'SuccessfulCreate', `Created pod: ${n}-*`],
    [4, 'ScalingReplicaSet', `Scaled down replica set ${o} from 2 to 1`],
    [4, 'SuccessfulDelete', `Deleted pod: ${o}-*`],
    [4, 'ScalingReplicaSet', `Scaled up replica set ${n} from 2 to 3`],
    [4, 'SuccessfulCreate', `Created pod: ${n}-*`],
    [4, 'ScalingReplicaSet', `Scaled down replica set ${o} from 1 to 0`],
    [4, 'SuccessfulDelete', `Deleted pod: ${o}-*`],
  ]);
  const d = one(report, 'Deployment', 'web');
  assert.equal(annotation(d, 'deployment.kubernetes.io/revision'), '2');
  assert.equal((d.metadata as { generation?: number }).generation, 2, 'a spec change bumps the generation (pkg/registry/apps/deployment/strategy.go PrepareForUpdate)');
  // progress.go: NewReplicaSetAvailable `ReplicaSet %q has successfully progressed.`; sync.go calculateStatus: MinimumReplicasAvailable.
  assert.deepEqual(conditions(d), [
    ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
    ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${n}" has successfully progressed.`],
  ]);
  assert.deepEqual({ ...newRS.metadata.annotations }, { 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': '2' });
  assert.equal(oldRS.spec?.['replicas'], 0, 'the old ReplicaSet is kept at 0 replicas for rollback');
  const pods = objects(report, 'Pod');
  assert.equal(pods.length, 3);
  for (const p of pods) assert.ok(p.metadata.name.startsWith(`${n}-`));
  const patch = report.trace.find((e) => e.phase === 'kubectl.validate' && e.result.includes('kubectl sends PATCH'));
  assert.ok(patch, 'kubectl sends a PATCH');
  assert.equal(patch.field, 'metadata.annotations');
  // patch.go CreateThreeWayMergePatch: the container merged by name, the list order kept; sent as a strategic merge patch.
  const req = patch.detail['request'] as { verb: string; headers: Record<string, string[]>; body: string };
  assert.equal(req.verb, 'PATCH');
  assert.deepEqual(req.headers['Content-Type'], ['application/strategic-merge-patch+json']);
  assert.match(req.body, /"spec":\{"template":\{"spec":\{"\$setElementOrder\/containers":\[\{"name":"app"\}\],"containers":\[\{"image":"nginx:1\.28","name":"app"\}\]\}\}\}/);
  assert.match(req.body, /^\{"metadata":\{"annotations":\{"kubectl\.kubernetes\.io\/last-applied-configuration":/);
});

test('the rolling update\'s ReplicaSet and pods carry the pod-template-hash and the controller owner references', () => {
  const { report } = runJson('run', `${F}/web-v2.yaml`, ...WEB_V1);
  const d = one(report, 'Deployment', 'web') as StoredObject & { metadata: { uid?: string } };
  const newRS = objects(report, 'ReplicaSet').find((s) => annotation(s, 'deployment.kubernetes.io/revision') === '2')! as StoredObject & { metadata: { ownerReferences?: unknown[]; uid?: string } };
  const hash = newRS.metadata.labels?.['pod-template-hash'];
  assert.equal(newRS.metadata.name, `web-${hash}`);
  assert.deepEqual(newRS.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  for (const p of objects(report, 'Pod') as (StoredObject & { metadata: { generateName?: string; ownerReferences?: unknown[] } })[]) {
    assert.equal(p.metadata.generateName, `${newRS.metadata.name}-`);
    assert.equal(p.metadata.labels?.['pod-template-hash'], hash);
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: newRS.metadata.name, uid: newRS.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  }
});

const applyCases: { name: string; manifest: string; cluster: string; kubectl: string; outcome: string; events: number }[] = [
  {
    name: 'applying the configuration last applied sends no patch and prints "unchanged"',
    manifest: 'web-unchanged.yaml', cluster: 'web-v1-cluster.yaml', outcome: 'Running', events: 0,
    // apply.go: an empty patch ("{}") is not sent; the object is printed as "unchanged".
    kubectl: 'deployment.apps/web unchanged',
  },
  {
    name: 'a live Deployment without the last-applied annotation gets kubectl\'s warning, then the patch',
    manifest: 'web-v2.yaml', cluster: 'web-unannotated-cluster.yaml', outcome: 'Running', events: -1,
    // apply.go warningNoLastAppliedConfigAnnotation.
    kubectl: 'Warning: resource deployments/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\ndeployment.apps/web configured',
  },
  {
    name: 'changing a Deployment\'s selector is refused: the selector is immutable',
    manifest: 'web-new-selector.yaml', cluster: 'web-v1-cluster.yaml', outcome: 'Rejected', events: 0,
    // pkg/registry/apps/deployment/strategy.go ValidateUpdate: ValidateImmutableField, "field is immutable"
    // (apimachinery/pkg/api/validation/generic.go FieldImmutableErrorMsg); kubectl prints Invalid errors as "The %s %q is invalid: ...".
    kubectl: 'The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
  },
  {
    name: 'a new image is one of the few changes a Pod accepts',
    manifest: 'pod-new-image.yaml', cluster: 'pod-cluster.yaml', outcome: 'Running', events: -1,
    kubectl: 'pod/web configured',
  },
  {
    name: 'any other change to a Pod\'s spec is forbidden',
    manifest: 'pod-new-port.yaml', cluster: 'pod-cluster.yaml', outcome: 'Rejected', events: -1,
    // pkg/apis/core/validation/validation.go ValidatePodUpdate (the cmp.Diff the API server appends is not reproduced).
    kubectl: 'The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
  },
];
for (const c of applyCases) {
  test(`kubectl apply: ${c.name}`, () => {
    const { report } = runJson('run', `${F}/${c.manifest}`, ...DEFAULT_CLUSTER, '--cluster', `${F}/${c.cluster}`);
    assert.equal(report.kubectl, c.kubectl);
    assert.equal(report.outcome, c.outcome);
    if (c.events >= 0) assert.equal(report.events.length, c.events);
  });
}

test('the refused selector change is a 422 Invalid found at apiserver.validate, nothing stored changes', () => {
  const { status, report } = runJson('run', `${F}/web-new-selector.yaml`, ...WEB_V1);
  assert.equal(status, 1);
  assert.deepEqual(report.rejection, {
    phase: 'apiserver.validate', code: 422, reason: 'Invalid', object: 'Deployment/web',
    message: 'Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
  });
  assert.equal((one(report, 'Deployment', 'web').metadata as { generation?: number }).generation ?? 1, 1);
  assert.equal(objects(report, 'ReplicaSet').length, 1);
});

const scaleCases: { name: string; manifest: string; events: [number, string, string][]; pods: number }[] = [
  {
    name: 'scaling up from 3 to 5 grows the one ReplicaSet, its pods created in slow-start batches',
    manifest: 'web-scale-up.yaml', pods: 5,
    events: [[0, 'ScalingReplicaSet', 'Scaled up replica set RS from 3 to 5'], [0, 'SuccessfulCreate', 'Created pod: RS-*'], [0, 'SuccessfulCreate', 'Created pod: RS-*']],
  },
  {
    name: 'scaling down from 3 to 1 deletes two pods of the one ReplicaSet',
    manifest: 'web-scale-down.yaml', pods: 1,
    events: [[0, 'ScalingReplicaSet', 'Scaled down replica set RS from 3 to 1'], [0, 'SuccessfulDelete', 'Deleted pod: RS-*'], [0, 'SuccessfulDelete', 'Deleted pod: RS-*']],
  },
];
for (const c of scaleCases) {
  test(`Deployment: ${c.name}`, () => {
    const { report } = runJson('run', `${F}/${c.manifest}`, ...WEB_V1);
    assert.equal(report.kubectl, 'deployment.apps/web configured');
    assert.equal(report.outcome, 'Running');
    const sets = objects(report, 'ReplicaSet');
    assert.equal(sets.length, 1, 'a scaling event makes no new ReplicaSet (sync.go isScalingEvent)');
    const rs = sets[0]!.metadata.name;
    const events = controllerEvents(report).map(([at, reason, message]) => [at, reason, message.replaceAll(rs, 'RS').replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')]);
    assert.deepEqual(events, c.events);
    assert.equal(objects(report, 'Pod').length, c.pods);
    assert.equal(annotation(sets[0]!, 'deployment.kubernetes.io/desired-replicas'), String(c.pods));
  });
}

test('strategy Recreate scales the old ReplicaSet to 0 and makes the new one only once the old pods are gone', () => {
  const { report } = runJson('run', `${F}/web-recreate.yaml`, ...WEB_V1);
  assert.equal(report.outcome, 'Running');
  const sets = objects(report, 'ReplicaSet');
  const n = sets.find((s) => annotation(s, 'deployment.kubernetes.io/revision') === '2')!.metadata.name;
  const o = sets.find((s) => annotation(s, 'deployment.kubernetes.io/revision') === '1')!.metadata.name;
  // recreate.go rolloutRecreate: scaleDownOldReplicaSetsForRecreate, wait while oldPodsRunning, then the new
  // ReplicaSet with every replica at once (NewRSNewReplicas is spec.replicas for Recreate; max-replicas has no surge).
  const events = controllerEvents(report).map(([at, reason, message]) => [at, reason, message.replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')]);
  assert.deepEqual(events.slice(0, 4), [
    [0, 'ScalingReplicaSet', `Scaled down replica set ${o} from 3 to 0`], [0, 'SuccessfulDelete', `Deleted pod: ${o}-*`],
    [0, 'SuccessfulDelete', `Deleted pod: ${o}-*`], [0, 'SuccessfulDelete', `Deleted pod: ${o}-*`],
  ]);
  const up = events.findIndex(([, , m]) => m === `Scaled up replica set ${n} from 0 to 3`);
  assert.ok(up === 4, 'the new ReplicaSet comes right after the old pods are gone');
  assert.ok((events[up]![0] as number) > 0, 'not before the old pods have terminated');
  assert.equal(annotation(one(report, 'ReplicaSet', n), 'deployment.kubernetes.io/max-replicas'), '3');
});

test('an EndpointSlice lists the selected pods: not ready, then ready and serving, then terminating, then gone', () => {
  const { status, report } = runJson('run', `${F}/web-service.yaml`, ...DEFAULT_CLUSTER, '--cluster', `${F}/web-service-cluster.yaml`, '--delete');
  assert.equal(status, 0);
  const steps = report.trace.filter((e) => e.phase === 'controllers.endpoints').map((e) => e.result);
  const sliceName = /EndpointSlice (web-[bcdfghjklmnpqrstvwxz2456789]{5}) of Service web/.exec(steps[0] ?? '')?.[1];
  assert.ok(sliceName, 'the slice is named <service>-<5 random> (generateName)');
  const conds = (want: string) => steps.some((s) => s.includes(want));
  // staging/src/k8s.io/endpointslice/utils.go podToEndpoint: serving is readiness, terminating the deletionTimestamp,
  // ready = serving && !terminating. Terminating pods stay listed (ShouldPodBeInEndpoints(pod, true)).
  assert.ok(conds('ready=false serving=false terminating=false'));
  assert.ok(conds('ready=true serving=true terminating=false'));
  assert.ok(conds('ready=false serving=true terminating=true'));
  assert.ok(steps.at(-1)!.endsWith(': no endpoints'), 'the deleted pods leave the slice');
  const slice = report.objects.find((o) => o.kind === 'EndpointSlice') as StoredObject & Record<string, unknown>;
  assert.equal(slice.metadata.name, sliceName);
  assert.deepEqual(slice.metadata.labels, { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  assert.equal(slice['addressType'], 'IPv4');
});

// The reference cluster's slices for these (scripts/oracle.mjs, test/fixtures/endpointslice/no-ready-pods.yaml) read
// back with "endpoints": null and "ports": null: reconciler.go makes the placeholder with ports []discovery.EndpointPort{}
// and endpoints [], and neither field of discovery/v1 EndpointSlice is omitempty.
test('a Service whose pods have no IP gets a placeholder EndpointSlice: no endpoints, ports null, its labels', () => {
  const { report } = runJson('run', 'test/fixtures/endpointslice/no-ready-pods.yaml');
  const slices = report.objects.filter((o) => o.kind === 'EndpointSlice') as (StoredObject & Record<string, unknown>)[];
  assert.deepEqual(slices.map((x) => x.metadata.name.replace(/-[a-z0-9]{5}$/, '')).sort(), ['headless', 'idle', 'web']);
  for (const x of slices) {
    assert.equal(x['endpoints'], null);
    assert.ok('ports' in x && x['ports'] === null, `${x.metadata.name}: ports null`);
  }
  const idle = slices.find((x) => x.metadata.name.startsWith('idle-'))!;
  assert.deepEqual(idle.metadata.labels, { tier: 'backend', 'kubernetes.io/service-name': 'idle', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  assert.equal(slices.find((x) => x.metadata.name.startsWith('headless-'))!.metadata.labels?.['service.kubernetes.io/headless'], '');
});

test('an EndpointSlice resolves the Service\'s named targetPort to the container port and names node and pod', () => {
  const { report } = runJson('run', `${F}/web-service.yaml`, ...DEFAULT_CLUSTER, '--cluster', `${F}/web-service-cluster.yaml`);
  const slice = report.objects.find((o) => o.kind === 'EndpointSlice') as StoredObject & { endpoints: { nodeName: string; targetRef: { kind: string; name: string }; conditions: unknown }[]; ports: unknown };
  // utils.go getEndpointPorts: FindPort looks the name "http" up in the pod's containers.
  assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.equal(slice.endpoints.length, 2);
  for (const e of slice.endpoints) {
    assert.match(e.nodeName, /^worker-/);
    assert.equal(e.targetRef.kind, 'Pod');
    assert.deepEqual(e.conditions, { ready: true, serving: true, terminating: false });
  }
});

const cascadeCases: { name: string; cascade: string; left: string[]; gcSteps: RegExp[] }[] = [
  {
    name: 'background deletes the Deployment at once, then its ReplicaSet, then the pods', cascade: 'background', left: [],
    gcSteps: [/^its owner Deployment\/default\/web is gone: deleting it \(propagationPolicy Background\)$/],
  },
  {
    name: 'foreground keeps the Deployment (foregroundDeletion) until its ReplicaSet and pods are gone', cascade: 'foreground', left: [],
    gcSteps: [/deleted in the foreground: deleting it first \(propagationPolicy Foreground\)$/, /^foreground deletion waits for 3 dependent\(s\) with blockOwnerDeletion/, /^removing the foregroundDeletion finalizer: no blocking dependent is left$/],
  },
  {
    name: 'orphan removes the Deployment and leaves its ReplicaSet and pods running without owner', cascade: 'orphan', left: ['ReplicaSet', 'Pod', 'Pod', 'Pod'],
    gcSteps: [/^orphaning: removing the ownerReference to Deployment\/default\/web$/, /^removing the orphan finalizer: its dependents are orphaned$/],
  },
];
for (const c of cascadeCases) {
  test(`kubectl delete --cascade=${c.cascade}: ${c.name}`, () => {
    const { status, report } = runJson('run', 'examples/deployment.yaml', '--delete', '--cascade', c.cascade);
    assert.equal(status, 0);
    assert.equal(report.outcome, 'Deleted');
    // staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go: the same line for every policy.
    assert.equal(report.kubectl, 'deployment.apps/web created\ndeployment.apps "web" deleted from default namespace');
    const left = report.objects.filter((o) => ['Deployment', 'ReplicaSet', 'Pod'].includes(o.kind));
    assert.deepEqual(left.map((o) => o.kind).sort(), [...c.left].sort());
    // garbagecollector.go orphanDependents: the dependents lose their reference to the owner; the pods keep their ReplicaSet's.
    for (const o of left.filter((x) => x.kind === 'ReplicaSet')) assert.equal((o.metadata as { ownerReferences?: unknown }).ownerReferences, undefined);
    const gc = report.trace.filter((e) => e.phase === 'controllers.garbagecollector').map((e) => e.result);
    for (const want of c.gcSteps) assert.ok(gc.some((s) => want.test(s)), `a garbage collector step matches ${want}`);
  });
}

test('the foreground deletion removes the owner last: pods, then the ReplicaSet, then the Deployment', () => {
  const { report } = runJson('run', 'examples/deployment.yaml', '--delete', '--cascade', 'foreground');
  const removed = report.trace.filter((e) => e.phase === 'apiserver.finalize' && /removed (Pod|ReplicaSet|Deployment) /.test(e.result)).map((e) => e.object!.split('/')[0]);
  assert.deepEqual(removed, ['Pod', 'Pod', 'Pod', 'ReplicaSet', 'Deployment']);
  const kept = report.trace.find((e) => e.phase === 'apiserver.finalize' && e.object === 'Deployment/default/web');
  assert.match(kept?.result ?? '', /^kept: finalizers \[foregroundDeletion\] must be removed before the object goes; it stays with deletionTimestamp \S+ and deletionGracePeriodSeconds 0$/);
});

test('--cascade with a bad value is a usage error worded as kubectl\'s', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', 'examples/deployment.yaml', '--delete', '--cascade', 'sideways'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 2);
  // staging/src/k8s.io/kubectl/pkg/cmd/delete/delete_flags.go GetCascadingStrategy.
  assert.match(r.stderr, /^error: invalid cascade value \(sideways\)\. Must be "background", "foreground", or "orphan"\n/);
});

test('a Job with completions 3 and parallelism 2 runs two pods, then a third, and completes', () => {
  const { status, report } = runJson('run', `${F}/job-pi.yaml`, '--behavior', `${F}/job-behavior.yaml`);
  assert.equal(status, 0);
  assert.equal(report.kubectl, 'job.batch/pi created');
  assert.equal(report.outcome, 'Succeeded');
  // controller_utils.go "Created pod: %v"; job_controller.go recordJobFinished "Job completed". Pods exit 5 s after
  // starting at 2 s; the job controller syncs 1 s after a pod changes (syncJobBatchPeriod).
  const events = controllerEvents(report).map(([at, reason, message]) => [at, reason, message.replace(/^Created pod: pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/, 'Created pod: pi-*')]);
  assert.deepEqual(events, [
    [0, 'SuccessfulCreate', 'Created pod: pi-*'], [0, 'SuccessfulCreate', 'Created pod: pi-*'],
    [8, 'SuccessfulCreate', 'Created pod: pi-*'], [14, 'Completed', 'Job completed'],
  ]);
  const job = one(report, 'Job', 'pi');
  assert.deepEqual(conditions(job), [
    // pkg/apis/batch/types.go JobReasonCompletionsReached; job_controller.go "Reached expected number of succeeded pods".
    ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
  ]);
  assert.equal(job.status?.['succeeded'], 3);
  assert.equal(job.status?.['completionTime'], '2026-01-01T00:00:14Z');
  const pods = objects(report, 'Pod');
  assert.equal(pods.length, 3, 'completed pods stay');
  for (const p of pods) {
    assert.equal(p.status?.['phase'], 'Succeeded');
    assert.equal((p.metadata as { finalizers?: unknown }).finalizers, undefined, 'the batch.kubernetes.io/job-tracking finalizer is removed once counted');
  }
});

test('a Job is defaulted and gets its generated selector and labels', () => {
  const { report } = runJson('run', `${F}/job-pi.yaml`, '--behavior', `${F}/job-behavior.yaml`);
  const job = one(report, 'Job', 'pi') as StoredObject & { metadata: { uid: string } };
  const uid = job.metadata.uid;
  const spec = job.spec as Record<string, unknown> & { template: { metadata: { labels: Record<string, string> } } };
  // pkg/apis/batch/v1/defaults.go SetDefaults_Job.
  assert.equal(spec['backoffLimit'], 6);
  assert.equal(spec['completionMode'], 'NonIndexed');
  assert.equal(spec['suspend'], false);
  assert.equal(spec['manualSelector'], false);
  assert.equal(spec['podReplacementPolicy'], 'TerminatingOrFailed');
  // pkg/registry/batch/job/strategy.go generateSelector.
  assert.deepEqual(spec['selector'], { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
  assert.deepEqual(spec.template.metadata.labels, labels);
  assert.deepEqual(job.metadata.labels, labels);
  for (const p of objects(report, 'Pod')) assert.deepEqual(p.metadata.labels, labels);
});

test('a Job whose pods keep failing retries with a doubling back-off and fails past backoffLimit', () => {
  const { status, report } = runJson('run', `${F}/job-backoff.yaml`, '--behavior', `${F}/job-fail-behavior.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  const created = report.events.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.at);
  assert.equal(created.length, 3, 'backoffLimit 2: the first pod and two retries');
  // backoff_utils.go: 10 s after the first failure, 20 s after the second (DefaultJobPodFailureBackOff, doubled).
  const failedAt = report.trace.filter((e) => e.phase === 'controllers.job' && /^counted pod .* as failed/.test(e.result)).map((e) => e.at!);
  assert.equal(failedAt.length, 3);
  const finishes = objects(report, 'Pod').map((p) => Date.parse(((p.status?.['containerStatuses'] as { state: { terminated: { finishedAt: string } } }[])[0]!.state.terminated.finishedAt)) / 1000 - Date.parse('2026-01-01T00:00:00Z') / 1000).sort((a, b) => a - b);
  assert.equal(created[1]! - finishes[0]!, 10);
  assert.equal(created[2]! - finishes[1]!, 20);
  const last = controllerEvents(report).at(-1);
  // job_controller.go: newFailureCondition(JobReasonBackoffLimitExceeded, "Job has reached the specified backoff limit").
  assert.deepEqual(last?.slice(1), ['BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
  assert.deepEqual(conditions(one(report, 'Job', 'pi')), [
    ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
  ]);
  assert.equal(one(report, 'Job', 'pi').status?.['failed'], 3);
});

test('ttlSecondsAfterFinished deletes the Job 30 s after it completed, and its pod with it', () => {
  const { status, report } = runJson('run', `${F}/job-ttl.yaml`, '--behavior', `${F}/job-behavior.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Succeeded');
  const completed = report.events.find((e) => e.reason === 'Completed');
  assert.equal(completed?.at, 8);
  // pkg/controller/ttlafterfinished: the Job is deleted with propagationPolicy Foreground once finish time + TTL has passed.
  const ttl = report.trace.find((e) => e.phase === 'controllers.job' && e.result.startsWith('the TTL of 30s after finishing has expired'));
  assert.equal(ttl?.at, 38);
  assert.equal(ttl?.field, 'spec.ttlSecondsAfterFinished');
  assert.deepEqual(report.objects.filter((o) => o.kind === 'Job' || o.kind === 'Pod'), []);
});

test('a Job without restartPolicy is refused: defaulting made it Always', () => {
  const { status, report } = runJson('run', `${F}/job-no-restart-policy.yaml`);
  assert.equal(status, 1);
  // pkg/apis/batch/validation/validation.go validateJobSpec: Required, fmt.Sprintf("valid values: %q, %q", OnFailure, Never).
  assert.equal(report.kubectl, 'The Job "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
  assert.equal(report.rejection?.phase, 'apiserver.validate');
});

test('with minReadySeconds 5 an old pod goes only once a new pod has been ready for 5 s', () => {
  const { report } = runJson('run', `${F}/web-v2-min-ready.yaml`, ...WEB_V1);
  assert.equal(report.outcome, 'Running');
  // replica_set.go calculateStatus counts a pod available when podutil.IsPodAvailable(pod, minReadySeconds, now);
  // the ReplicaSet is synced again minReadySeconds later, so each old pod goes 5 s after a new one became ready.
  const downs = controllerEvents(report).filter(([, reason, m]) => reason === 'ScalingReplicaSet' && m.startsWith('Scaled down')).map(([at]) => at);
  assert.deepEqual(downs, [7, 14, 19]);
});

test('a Job past activeDeadlineSeconds deletes its running pod and fails with DeadlineExceeded', () => {
  const { status, report } = runJson('run', `${F}/job-deadline.yaml`, '--behavior', `${F}/job-slow-behavior.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  const job = controllerEvents(report, ['Job']).map(([at, reason, message]) => [at, reason, message.replace(/pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/, 'pi-*')]);
  // job_controller.go: pastActiveDeadline, newFailureCondition(JobReasonDeadlineExceeded, "Job was active longer than
  // specified deadline"); the active pod is deleted at once, the Failed condition follows once it has terminated.
  assert.deepEqual(job.slice(0, 2), [[0, 'SuccessfulCreate', 'Created pod: pi-*'], [10, 'SuccessfulDelete', 'Deleted pod: pi-*']]);
  assert.deepEqual(job.at(-1)!.slice(1), ['DeadlineExceeded', 'Job was active longer than specified deadline']);
  assert.deepEqual(conditions(one(report, 'Job', 'pi')).map((c) => c.slice(0, 3)), [['FailureTarget', 'True', 'DeadlineExceeded'], ['Failed', 'True', 'DeadlineExceeded']]);
});

test('revisionHistoryLimit 0 deletes the old ReplicaSet once the rollout is complete', () => {
  const { report } = runJson('run', `${F}/web-v2-no-history.yaml`, ...WEB_V1);
  assert.equal(report.outcome, 'Running');
  // sync.go cleanupDeployment: the oldest revisions beyond the limit, with no replicas, are deleted.
  const sets = objects(report, 'ReplicaSet');
  assert.deepEqual(sets.map((s) => annotation(s, 'deployment.kubernetes.io/revision')), ['2']);
  const step = report.trace.find((e) => e.field === 'spec.revisionHistoryLimit');
  assert.match(step?.result ?? '', /^revisionHistoryLimit 0: deleting old ReplicaSet web-[bcdfghjklmnpqrstvwxz2456789]+ \(revision 1\)$/);
});

test('under restartPolicy OnFailure the container restarts count against backoffLimit', () => {
  const { status, report } = runJson('run', `${F}/job-on-failure.yaml`, '--behavior', `${F}/job-fail-behavior.yaml`);
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  // job_controller.go pastBackoffLimitOnFailure: the active pods' restartCounts reach backoffLimit; the pod is deleted.
  assert.deepEqual(controllerEvents(report, ['Job']).map(([, reason]) => reason), ['SuccessfulCreate', 'SuccessfulDelete', 'BackoffLimitExceeded']);
  const restarts = report.events.filter((e) => e.object.startsWith('Pod/') && e.reason === 'BackOff');
  assert.ok(restarts.length > 0, 'the kubelet restarted the container with a back-off first');
});

test('a cluster dump that already holds the ReplicaSet and its Running pods is taken as it is, then rolled', () => {
  const { report } = runJson('run', `${F}/web-v2.yaml`, ...DEFAULT_CLUSTER, '--cluster', `${F}/web-v1-dump-cluster.yaml`);
  assert.equal(report.kubectl, 'deployment.apps/web configured');
  assert.equal(report.outcome, 'Running');
  assert.equal(report.trace[0]?.phase, 'kubectl.validate', 'nothing happens before kubectl acts: the dump is already steady');
  // The dump's ReplicaSet is found by its template (deployment_util.go FindNewReplicaSet, EqualIgnoreHash) and becomes the old one.
  const deleted = report.events.filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message).sort();
  assert.deepEqual(deleted, ['Deleted pod: web-66764b56c4-524xg', 'Deleted pod: web-66764b56c4-pb98m', 'Deleted pod: web-66764b56c4-z2r8r']);
  assert.equal(annotation(one(report, 'ReplicaSet', 'web-66764b56c4'), 'deployment.kubernetes.io/revision'), '1');
});

test('a cluster file\'s bare Deployment is brought up before kubectl acts, out of the trace', () => {
  const { report } = runJson('run', `${F}/web-unchanged.yaml`, ...WEB_V1);
  assert.equal(report.trace[0]?.phase, 'kubectl.validate');
  assert.equal(report.trace[0]?.at, 0);
  const pods = objects(report, 'Pod');
  assert.equal(pods.length, 3);
  for (const p of pods) assert.equal(p.status?.['phase'], 'Running');
});

test('kube-proxy on every node sends the Service to the ready pods, keeps serving terminating ones while none is ready, then drops them', () => {
  const { status, report } = runJson('run', `${F}/web-service.yaml`, ...DEFAULT_CLUSTER, '--cluster', `${F}/web-service-cluster.yaml`, '--delete');
  assert.equal(status, 0);
  const syncs = report.trace.filter((e) => e.phase === 'kubeproxy.sync');
  // The cluster file's Service had no cluster IP: it gets the one the API server would have allocated.
  const svc = report.objects.find((o) => o.kind === 'Service' && o.metadata.name === 'web') as StoredObject & { spec: { clusterIP: string } };
  assert.match(svc.spec.clusterIP, /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
  const target = `default/web:http (${svc.spec.clusterIP}:80/TCP)`;
  // pkg/proxy/iptables/proxier.go: KUBE-SEP-<base32(sha256(port name + protocol + ip:port))[:16]>; the pods' readiness at
  // 2 s is synced one minSyncPeriod (1 s) after the sync at 2 s that saw them not ready yet.
  const added = syncs.filter((e) => e.result.startsWith('kube-proxy on 3 nodes sends '));
  assert.deepEqual(added.map((e) => e.at), [3, 3]);
  for (const e of added) {
    assert.match(e.result, new RegExp(`^kube-proxy on 3 nodes sends ${target.replace(/[().]/g, '\\$&')} to 10\\.244\\.[12]\\.2:8080 through KUBE-SEP-[A-Z2-7]{16}; 2 endpoints$`));
    assert.match(e.object ?? '', /^Pod\/default\/web-/);
  }
  // The delete marks both pods terminating at once: with no ready endpoint left, kube-proxy sends new connections to
  // the serving terminating ones (CategorizeEndpoints), until they leave the slice.
  const deleteAt = report.trace.find((e) => e.phase === 'apiserver.delete' && e.object?.startsWith('Pod/'))!.at!;
  const fallback = syncs.find((e) => e.result.endsWith('serving but terminating: no endpoint is ready'));
  assert.ok(fallback && fallback.at! >= deleteAt);
  const removed = syncs.filter((e) => e.result.includes('no longer sends new connections'));
  assert.equal(removed.length, 2);
  assert.ok(removed.every((e) => e.at! > fallback!.at! && e.result.endsWith('(gone from the EndpointSlices); 0 endpoints')));
  const rules = (added[0]!.detail['rules'] as Record<string, { nat: string[] }>)['every node (3 nodes)']!.nat;
  assert.ok(rules.some((l) => /^-A KUBE-SERVICES -m comment --comment "default\/web:http cluster IP" -m tcp -p tcp -d \S+ --dport 80 -j KUBE-SVC-CDGGSHYLG3RE2FKL$/.test(l)), rules.join('\n'));
});

test('explain: during a rolling update each old pod got SIGTERM a sync before the nodes stopped sending it new connections', () => {
  const args = ['explain', `${F}/web-service.yaml`, ...DEFAULT_CLUSTER, '--cluster', `${F}/web-service-cluster.yaml`, '--then-apply', `10s,${F}/web-service-new-image.yaml`, '--json'];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  const report = JSON.parse(r.stdout) as { pods: { pod: string; deleted?: boolean; traffic?: { exposed: boolean; fallback: boolean; sigtermAt?: number; stoppedAt?: number; advice?: string } }[] };
  const old = report.pods.filter((p) => p.deleted);
  assert.equal(old.length, 2);
  for (const p of old) {
    // The kubelet sends SIGTERM as the delete arrives (no preStop hook); kube-proxy syncs at most once a second, and
    // the new pods are ready, so the old endpoint leaves the rules at the next sync: one minSyncPeriod later.
    assert.deepEqual([p.traffic?.exposed, p.traffic?.fallback, p.traffic!.stoppedAt! - p.traffic!.sigtermAt!], [true, false, 1], p.pod);
    assert.match(p.traffic?.advice ?? '', /^a preStop hook that waits a few seconds/);
  }
  const human = spawnSync(process.execPath, [CLI, ...args.slice(0, -1)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.match(human.stdout, /\nTRAFFIC DURING THE DELETE kube-proxy on the nodes stopped sending it new connections at \d+s, 1s after the delete; its containers got SIGTERM at \d+s, 1s earlier: a request sent in between reached a process that was shutting down\n/);
});
