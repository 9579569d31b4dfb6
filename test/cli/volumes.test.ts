// The kubelet's volumes and container config, and the PV controller, through the CLI: mounts, their failures and
// back-off on the virtual clock, CreateContainerConfigError, and claims bound (or not) before the pod runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJson, type Report, type StoredObject } from './harness';

const FIXTURES = 'test/fixtures/volumes';

type Event = Report['events'][number] & { count?: number };

const podEvents = (r: Report, reason: string): Event[] => r.events.filter((e) => e.object === 'Pod/default/web' && e.reason === reason);
const volumeSteps = (r: Report, volume: string) => r.trace.filter((e) => e.phase === 'kubelet.volumes' && e.step?.kind === 'volume' && e.step.name === volume);
const object = (r: Report, kind: string, name: string): StoredObject | undefined => r.objects.find((o) => o.kind === kind && o.metadata.name === name);
const containerState = (r: Report): Record<string, { reason?: string; message?: string }> => {
  const statuses = object(r, 'Pod', 'web')?.status?.['containerStatuses'] as { state: Record<string, { reason?: string; message?: string }> }[];
  return statuses[0]!.state;
};

// The back-off of a failed mount: 500 ms, doubling, capped at 2m2s.
// pkg/util/goroutinemap/exponentialbackoff (InitialDurationBeforeRetry, MaxDurationBeforeRetry), used by
// pkg/volume/util/nestedpendingoperations for every operation of the kubelet's operation executor.
const MOUNT_FAILURES_IN_130S = [0, 0.5, 1.5, 3.5, 7.5, 15.5, 31.5, 63.5, 127.5];

const mountFailureCases = [
  {
    name: 'a missing ConfigMap fails its mount with the configmap manager\'s NotFound, retried with the exponential back-off',
    fixture: 'missing-configmap.yaml', volume: 'config',
    // pkg/volume/util/operationexecutor/operation_generator.go (GenerateMountVolumeFunc: "MountVolume.SetUp failed"),
    // pkg/volume/configmap/configmap.go (SetUpAt) and pkg/kubelet/util/manager/watch_based_manager.go (NewNotFound of "configmap").
    message: 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found',
  },
  {
    name: 'a missing Secret fails its mount the same way',
    fixture: 'missing-secret.yaml', volume: 'tls',
    // pkg/volume/secret/secret.go (SetUpAt) with the secret manager's NotFound.
    message: 'MountVolume.SetUp failed for volume "tls" : secret "web-tls" not found',
  },
  {
    name: 'a hostPath of type Directory on a file fails the type check',
    fixture: 'hostpath-mismatch.yaml', volume: 'hosts',
    // pkg/volume/hostpath/host_path.go (checkType, typeMatchedOrError).
    message: "MountVolume.SetUp failed for volume \"hosts\" : hostPath type check failed: /etc/hosts is not a directory, it's a File",
  },
];

for (const c of mountFailureCases) {
  test(c.name, () => {
    const { status, report } = runJson('run', `${FIXTURES}/${c.fixture}`, '--for', '130s');
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Pending');
    const failed = volumeSteps(report, c.volume).filter((e) => e.outcome === 'failed');
    assert.deepEqual(failed.map((e) => e.at), MOUNT_FAILURES_IN_130S);
    // Each failure is one Warning FailedMount; the recorder counts the repeats of the same event.
    const events = podEvents(report, 'FailedMount');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'Warning');
    assert.equal(events[0]!.message, c.message);
    assert.equal(events[0]!.count, MOUNT_FAILURES_IN_130S.length);
    assert.equal(events[0]!.source, 'kubelet');
    // The pod never gets its sandbox: the containers wait in ContainerCreating.
    assert.deepEqual(containerState(report), { waiting: { reason: 'ContainerCreating' } });
    assert.equal(report.trace.some((e) => e.phase === 'kubelet.sandbox'), false);
  });
}

test('SyncPod waits 2m3s for the mounts, and the timeout is no event in 1.36', () => {
  const { report } = runJson('run', `${FIXTURES}/missing-configmap.yaml`, '--for', '130s');
  // pkg/kubelet/volumemanager/volume_manager.go: podAttachAndMountTimeout = 2*time.Minute + 3*time.Second, and the error
  // "unmounted volumes=%v, unattached volumes=%v, failed to process volumes=%v: %w" wrapping context.DeadlineExceeded.
  const timeout = report.trace.find((e) => e.phase === 'kubelet.volumes' && e.detail['unmountedVolumes'] !== undefined);
  assert.equal(timeout?.at, 123);
  assert.equal(timeout?.detail['error'], 'unmounted volumes=[config], unattached volumes=[], failed to process volumes=[]: context deadline exceeded');
  // pkg/kubelet/kubelet.go (SyncPod): "Unable to attach or mount volumes" is recorded only when !wait.Interrupted(err).
  assert.equal(report.events.some((e) => e.message.startsWith('Unable to attach or mount volumes')), false);
});

test('an optional ConfigMap that does not exist mounts empty, and the pod runs', () => {
  const { status, report } = runJson('run', `${FIXTURES}/optional-configmap.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  const steps = volumeSteps(report, 'config');
  assert.equal(steps.length, 1);
  assert.equal(steps[0]!.result, 'MountVolume.SetUp succeeded for volume "config" (kubernetes.io/configmap)');
  assert.equal(steps[0]!.field, 'spec.volumes[0]');
  assert.equal(podEvents(report, 'FailedMount').length, 0);
});

test('a ConfigMap applied after the pod in the same manifest is there before the kubelet mounts it', () => {
  const { report } = runJson('run', `${FIXTURES}/configmap-after-pod.yaml`);
  assert.equal(report.outcome, 'Running');
  assert.equal(podEvents(report, 'FailedMount').length, 0);
});

test('a Secret volume and env from the Secret, a field and an expansion resolve, and every volume gets a sub-step', () => {
  const { status, report } = runJson('run', `${FIXTURES}/secret.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  const creds = volumeSteps(report, 'creds')[0]!;
  assert.equal(creds.detail['plugin'], 'kubernetes.io/secret');
  assert.match(String(creds.detail['path']), /^\/var\/lib\/kubelet\/pods\/[0-9a-f-]+\/volumes\/kubernetes\.io~secret\/creds$/);
  // The ServiceAccount admission plugin's projected token volume mounts too (plugin/pkg/admission/serviceaccount).
  const token = report.trace.find((e) => e.phase === 'kubelet.volumes' && e.step?.name.startsWith('kube-api-access-'));
  assert.equal(token?.detail['plugin'], 'kubernetes.io/projected');
  // pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables): secretKeyRef resolved (shown by its source, never its
  // value), fieldRef metadata.name, $(VAR) expanded.
  const env = report.trace.find((e) => e.phase === 'kubelet.containers' && e.field === 'spec.containers[0].env');
  const vars = env?.detail['env'] as { name: string; value: string }[];
  assert.deepEqual(vars.slice(0, 3), [
    { name: 'DB_PASSWORD', value: "<set to the key 'password' in secret 'db-credentials'>" }, { name: 'POD_NAME', value: 'web' }, { name: 'GREETING', value: 'hello web' },
  ]);
  assert.doesNotMatch(JSON.stringify(report), /s3cr3t|czNjcjN0/);
  // getServiceEnvVarMap and pkg/kubelet/envvars (FromServices): the default namespace's kubernetes Service, Docker link style.
  assert.deepEqual(vars.slice(3), [
    { name: 'KUBERNETES_PORT', value: 'tcp://10.96.0.1:443' },
    { name: 'KUBERNETES_PORT_443_TCP', value: 'tcp://10.96.0.1:443' },
    { name: 'KUBERNETES_PORT_443_TCP_ADDR', value: '10.96.0.1' },
    { name: 'KUBERNETES_PORT_443_TCP_PORT', value: '443' },
    { name: 'KUBERNETES_PORT_443_TCP_PROTO', value: 'tcp' },
    { name: 'KUBERNETES_SERVICE_HOST', value: '10.96.0.1' },
    { name: 'KUBERNETES_SERVICE_PORT', value: '443' },
    { name: 'KUBERNETES_SERVICE_PORT_HTTPS', value: '443' },
  ]);
});

const configErrorCases = [
  {
    name: 'a configMapKeyRef to a missing key leaves the container in CreateContainerConfigError',
    fixture: 'env-missing-key.yaml', field: 'spec.containers[0].env[1].valueFrom',
    // pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables): "couldn't find key %v in ConfigMap %v/%v".
    message: "couldn't find key log-level in ConfigMap default/app-settings",
  },
  {
    name: 'an envFrom of a missing ConfigMap leaves the container in CreateContainerConfigError',
    fixture: 'env-missing-configmap.yaml', field: 'spec.containers[0].envFrom[0].configMapRef',
    message: 'configmap "app-env" not found',
  },
];

for (const c of configErrorCases) {
  test(c.name, () => {
    const { status, report } = runJson('run', `${FIXTURES}/${c.fixture}`, '--for', '60s');
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Pending');
    // pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer): the status reason is ErrCreateContainerConfig,
    // the message the error, and the Warning Failed event "Error: %v".
    assert.deepEqual(containerState(report), { waiting: { message: c.message, reason: 'CreateContainerConfigError' } });
    const failed = podEvents(report, 'Failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.message, `Error: ${c.message}`);
    const attempts = report.trace.filter((e) => e.phase === 'kubelet.containers' && e.outcome === 'failed');
    assert.ok(attempts.length >= 4, `retried at each pod sync (${attempts.length} attempts)`);
    assert.equal(attempts[0]!.field, c.field);
    assert.equal(attempts[0]!.at, 2);
    assert.equal(failed[0]!.count, attempts.length);
    // pkg/kubelet/pod_workers.go (completeWork): the PLEG's report of the sandbox the first sync made is a pending
    // update, so the second sync comes at once; then wait.Jitter(backOffPeriod = 10s, 0.5) between syncs.
    assert.equal(attempts[1]!.at, attempts[0]!.at);
    for (let i = 2; i < attempts.length; i++) {
      const gap = attempts[i]!.at! - attempts[i - 1]!.at!;
      assert.ok(gap >= 10 && gap <= 15, `sync ${i} came ${gap}s after the one before`);
    }
    // Every sync runs the image manager first: the image is on the node by then.
    assert.equal(podEvents(report, 'Pulled').find((e) => e.message.includes('already present'))?.count, attempts.length - 1);
    assert.equal(report.trace.some((e) => e.phase === 'kubelet.containers' && e.result.startsWith('created container')), false);
  });
}

test('the PV controller binds an Immediate claim to the smallest PV that fits, and the kubelet mounts the PV', () => {
  const { status, report } = runJson('run', `${FIXTURES}/pvc-bound.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  const pvc = object(report, 'PersistentVolumeClaim', 'data')!;
  // pkg/controller/volume/persistentvolume/pv_controller.go (bind, bindClaimToVolume, updateClaimStatus).
  assert.equal(pvc.spec?.['volumeName'], 'data-pv');
  assert.equal(pvc.metadata.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
  assert.equal(pvc.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.deepEqual(pvc.status, { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } });
  const pv = object(report, 'PersistentVolume', 'data-pv')!;
  assert.equal(pv.status?.['phase'], 'Bound');
  assert.equal((pv.spec?.['claimRef'] as { name: string }).name, 'data');
  assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.equal(object(report, 'PersistentVolume', 'big-pv')?.status?.['phase'], 'Available');
  // The volume is named after its PV once the claim is followed (desired_state_of_world_populator.go, createVolumeSpec).
  const mount = volumeSteps(report, 'data')[0]!;
  assert.equal(mount.result, 'MountVolume.SetUp succeeded for volume "data-pv" (kubernetes.io/host-path)');
  assert.equal(mount.detail['path'], '/mnt/data');
});

test('a claim that never binds keeps the pod Pending with the scheduler\'s reason and the controller\'s event every 15s', () => {
  const { status, report } = runJson('run', `${FIXTURES}/pvc-unbound.yaml`, '--for', '60s');
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Pending');
  const scheduling = report.events.find((e) => e.reason === 'FailedScheduling');
  // pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (ErrReasonBindConflict... PreFilter: unbound immediate claims).
  assert.match(scheduling?.message ?? '', /^0\/3 nodes are available: pod has unbound immediate PersistentVolumeClaims\./);
  const binding = report.events.filter((e) => e.object === 'PersistentVolumeClaim/default/data') as Event[];
  assert.equal(binding.length, 1);
  // pv_controller.go (syncUnboundClaim): Normal FailedBinding when no PV matches and the claim names no class; the
  // controller syncs every claim again each --pvclaimbinder-sync-period (15s).
  assert.deepEqual({ type: binding[0]!.type, reason: binding[0]!.reason, source: binding[0]!.source, message: binding[0]!.message, count: binding[0]!.count },
    { type: 'Normal', reason: 'FailedBinding', source: 'persistentvolume-controller', message: 'no persistent volumes available for this claim and no storage class is set', count: 5 });
  assert.equal(object(report, 'PersistentVolumeClaim', 'data')?.status?.['phase'], 'Pending');
});

test('a WaitForFirstConsumer claim waits for the scheduler, which binds it to the PV on the chosen node', () => {
  const { status, report } = runJson('run', `${FIXTURES}/pvc-wait-for-first-consumer.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  // pv_controller.go (emitEventForUnboundDelayBindingClaim).
  const waiting = report.events.find((e) => e.object === 'PersistentVolumeClaim/default/data');
  assert.deepEqual({ reason: waiting?.reason, message: waiting?.message }, { reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' });
  assert.equal(object(report, 'Pod', 'web')?.spec?.['nodeName'], 'worker-2');
  assert.equal(object(report, 'PersistentVolumeClaim', 'data')?.spec?.['volumeName'], 'local-pv');
  assert.equal(volumeSteps(report, 'data')[0]!.detail['plugin'], 'kubernetes.io/local-volume');
});

test('a pod placed on a node with an unbound claim gets the populator\'s error at every sync', () => {
  const { report } = runJson('run', `${FIXTURES}/pvc-unbound-on-node.yaml`, '--for', '30s');
  // desired_state_of_world_populator.go (getPVCExtractPV: "PVC is not bound", wrapped "error processing PVC %s/%s: %v"); the
  // wait returns the populator's error at its next 300 ms poll, which is not wait.Interrupted, so SyncPod records the event.
  const events = podEvents(report, 'FailedMount');
  assert.equal(events.length, 1);
  assert.equal(events[0]!.message, 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC default/data: PVC is not bound');
  const ends = report.trace.filter((e) => e.phase === 'kubelet.volumes' && e.detail['failedToProcessVolumes'] !== undefined);
  assert.equal(ends[0]!.at, 0.3);
  assert.equal(events[0]!.count, ends.length);
});

test('hostPath volumes of the right type mount, and DirectoryOrCreate makes the directory', () => {
  const { report } = runJson('run', `${FIXTURES}/hostpath-mismatch.yaml`, '--for', '5s');
  assert.equal(volumeSteps(report, 'sock')[0]!.outcome, undefined);
  assert.equal(volumeSteps(report, 'sock')[0]!.detail['path'], '/run/containerd/containerd.sock');
  assert.equal(volumeSteps(report, 'cache')[0]!.result, 'MountVolume.SetUp succeeded for volume "cache" (kubernetes.io/host-path)');
});

const claimEventCases = [
  {
    name: 'a claim naming a PV too small for it gets VolumeMismatch at every resync',
    fixture: 'pvc-volume-mismatch.yaml',
    // pv_controller.go (syncUnboundClaim, checkVolumeSatisfyClaim: "requested PV is too small").
    want: { type: 'Warning', reason: 'VolumeMismatch', message: 'Cannot bind to requested volume "small-pv": requested PV is too small' },
  },
  {
    name: 'a claim of a class with kubernetes.io/no-provisioner and no PV fails to provision',
    fixture: 'pvc-no-provisioner.yaml',
    // pv_controller.go (provisionClaimOperation, findProvisionablePlugin) and pkg/volume/plugins.go (FindPluginByName).
    want: { type: 'Warning', reason: 'ProvisioningFailed', message: 'no volume plugin matched name: kubernetes.io/no-provisioner' },
  },
  {
    name: 'a claim of a class with an external provisioner is handed to it',
    fixture: 'pvc-external-provisioner.yaml',
    // pv_controller.go (provisionClaimOperation: events.ExternalProvisioning).
    want: {
      type: 'Normal', reason: 'ExternalProvisioning',
      message: "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    },
  },
];

for (const c of claimEventCases) {
  test(c.name, () => {
    const { report } = runJson('run', `${FIXTURES}/${c.fixture}`, '--for', '31s');
    const events = report.events.filter((e) => e.object === 'PersistentVolumeClaim/default/data') as Event[];
    assert.equal(events.length, 1);
    const e = events[0]!;
    assert.deepEqual({ type: e.type, reason: e.reason, message: e.message, source: e.source, count: e.count }, { ...c.want, source: 'persistentvolume-controller', count: 3 });
    assert.equal(object(report, 'PersistentVolumeClaim', 'data')?.status?.['phase'], 'Pending');
  });
}

test('a claim handed to an external provisioner carries the provisioner annotations', () => {
  const { report } = runJson('run', `${FIXTURES}/pvc-external-provisioner.yaml`, '--for', '1s');
  const annotations = object(report, 'PersistentVolumeClaim', 'data')?.metadata.annotations ?? {};
  // pv_controller.go (setClaimProvisioner): both the GA and the beta annotation.
  assert.equal(annotations['volume.kubernetes.io/storage-provisioner'], 'ebs.csi.aws.com');
  assert.equal(annotations['volume.beta.kubernetes.io/storage-provisioner'], 'ebs.csi.aws.com');
});

test('an init container whose Secret is missing waits in CreateContainerConfigError and is retried at every sync', () => {
  const { report } = runJson('run', `${FIXTURES}/init-env-missing-secret.yaml`, '--for', '40s');
  assert.equal(report.outcome, 'Pending');
  const init = (object(report, 'Pod', 'web')?.status?.['initContainerStatuses'] as { state: unknown }[])[0]!;
  // kubelet_pods.go (makeEnvironmentVariables) returns the secret manager's NotFound; kuberuntime_container.go records it.
  assert.deepEqual(init.state, { waiting: { message: 'secret "db-credentials" not found', reason: 'CreateContainerConfigError' } });
  const attempts = report.trace.filter((e) => e.phase === 'kubelet.initContainers' && e.outcome === 'failed');
  assert.deepEqual(attempts.map((e) => e.field), Array(attempts.length).fill('spec.initContainers[0].env[0].valueFrom'));
  assert.ok(attempts.length >= 3);
  assert.equal((podEvents(report, 'Failed')[0] as Event).count, attempts.length);
});

test('a WaitForFirstConsumer claim made after its pod names the pod it waits for', () => {
  const { report } = runJson('run', `${FIXTURES}/pvc-pod-before-claim.yaml`);
  assert.equal(report.outcome, 'Running');
  // pv_controller.go (emitEventForUnboundDelayBindingClaim, findNonScheduledPodsByPVC).
  const waiting = report.events.find((e) => e.object === 'PersistentVolumeClaim/default/data');
  assert.deepEqual({ reason: waiting?.reason, message: waiting?.message }, { reason: 'WaitForPodScheduled', message: 'waiting for pod web to be scheduled' });
});

test('a volume no container mounts is left alone, even when its ConfigMap is missing', () => {
  const { status, report } = runJson('run', `${FIXTURES}/unused-volume.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  // desired_state_of_world_populator.go (processPodVolumes): "Volume is not used in the pod, ignore it".
  assert.equal(volumeSteps(report, 'config')[0]!.detail['used'], false);
  assert.equal(podEvents(report, 'FailedMount').length, 0);
});

test('a claim written before its volume is bound at the PV controller\'s next periodic resync, 15 s on, and the run waits for it', () => {
  // pkg/controller/volume/persistentvolume/pv_controller_base.go (resync every --pvclaimbinder-sync-period, 15 s):
  // syncVolume leaves a volume no claim names alone, so the claim made before it waits for the resync.
  const { status, report: r } = runJson('run', `${FIXTURES}/claim-before-volume.yaml`);
  assert.equal(status, 0);
  assert.equal(r.outcome, 'Succeeded');
  const bound = r.trace.find((e) => e.phase === 'controllers.persistentvolume' && e.result.startsWith('bound claim data'));
  assert.equal(bound?.at, 15);
  assert.equal(object(r, 'PersistentVolumeClaim', 'data')?.status?.['phase'], 'Bound');
  assert.equal((object(r, 'PersistentVolume', 'disk-1')?.spec as { claimRef?: { name?: string } } | undefined)?.claimRef?.name, 'data');
});
