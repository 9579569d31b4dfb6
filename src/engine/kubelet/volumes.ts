// The kubelet's volume manager for one pod: each volume a container uses is set up by its plugin; a failed SetUp is
// retried with the operation executor's exponential back-off while SyncPod waits (WaitForAttachAndMount, 2m3s) and,
// after each timeout, the pod worker syncs again. See pkg/kubelet/volumemanager/volume_manager.go,
// pkg/volume/util/nestedpendingoperations and pkg/util/goroutinemap/exponentialbackoff, and the plugins in pkg/volume/.
import type { ConfigMap, PersistentVolume, PersistentVolumeClaim, Secret, Volume } from 'kubernetes-types/core/v1';
import type { Pod } from '../api/types';
import type { EngineContext } from '../context';
import { goDuration } from '../runtime/durations';
import { sleep, type Steps } from '../runtime/step';
import { notFound } from './env';
import { checkHostPathType, HostFilesystem } from './host-paths';
import type { Kubelet } from './kubelet';
import type { PodRuntimeState } from './pod-state';
import { syncRetryDelay } from './pod-worker-backoff';

/** POD_ATTACH_AND_MOUNT_TIMEOUT_MS is podAttachAndMountTimeout: 2 minutes, offset by 3 s to be recognizable. */
export const POD_ATTACH_AND_MOUNT_TIMEOUT_MS = 123_000;
/** POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS is podAttachAndMountRetryInterval: how often the wait checks the mounts. */
export const POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS = 300;
/** INITIAL_DURATION_BEFORE_RETRY_MS is exponentialbackoff.InitialDurationBeforeRetry: the wait after a first failure. */
export const INITIAL_DURATION_BEFORE_RETRY_MS = 500;
/** MAX_DURATION_BEFORE_RETRY_MS is exponentialbackoff.MaxDurationBeforeRetry (2m2s): the doubling stops there. */
export const MAX_DURATION_BEFORE_RETRY_MS = 122_000;
/** KUBELET_PODS_DIR is where the kubelet keeps each pod's volumes (--root-dir /var/lib/kubelet). */
export const KUBELET_PODS_DIR = '/var/lib/kubelet/pods';

/** MountedVolume is a volume set up for the pod: what a teardown unmounts. */
export interface MountedVolume {
  /** name is the pod's volume name (the outer volume spec name). */
  name: string;
  /** field is the volume's manifest path, `spec.volumes[i]`. */
  field: string;
  /** plugin is the volume plugin, as kubernetes.io/configmap. */
  plugin: string;
  /** path is where the volume is mounted on the node (a hostPath volume's own path). */
  path: string;
  /** persistentVolume is the PV behind a claim volume. */
  persistentVolume?: string;
}

/** SetUpResult is the outcome of one SetUp: mounted, failed (with back-off), or not processable (populator error). */
type SetUpResult =
  | { kind: 'mounted'; plugin: string; path: string; persistentVolume?: string; detail: Record<string, unknown> }
  | { kind: 'failed'; specName: string; error: string }
  | { kind: 'unprocessable'; error: string };

/** VolumeOp is the volume manager's view of one volume: mounted, or the back-off of its failed mount. */
interface VolumeOp {
  index: number;
  volume: Volume;
  mounted?: MountedVolume;
  /** durationBeforeRetry doubles on each failure from 500 ms up to 2m2s (ExponentialBackoff.Update). */
  durationBeforeRetry: number;
  nextAttemptAt: number;
  /** processError is the populator's error for a claim that cannot be used yet. */
  processError?: string;
}

const podOps = new WeakMap<PodRuntimeState, VolumeOp[]>();
const nodeFilesystems = new WeakMap<Kubelet, HostFilesystem>();

/** mountedVolumes lists the pod's mounted volumes, in spec order: what the cleanup of a deleted pod tears down. */
export function mountedVolumes(state: PodRuntimeState): MountedVolume[] {
  return (podOps.get(state) ?? []).flatMap((op) => (op.mounted ? [op.mounted] : []));
}

/** hostFilesystem is the node's filesystem, as hostPath volumes find and change it. */
export function hostFilesystem(kubelet: Kubelet): HostFilesystem {
  let fs = nodeFilesystems.get(kubelet);
  if (!fs) {
    fs = new HostFilesystem(kubelet.node.metadata?.labels?.['node-role.kubernetes.io/control-plane'] !== undefined);
    nodeFilesystems.set(kubelet, fs);
  }
  return fs;
}

/** usedVolumeNames is GetPodVolumeNames: the volumes some container (init, regular or ephemeral) mounts or uses as a device. */
export function usedVolumeNames(pod: Pod): Set<string> {
  const names = new Set<string>();
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
  for (const c of containers) {
    for (const m of c.volumeMounts ?? []) names.add(m.name);
    for (const d of c.volumeDevices ?? []) names.add(d.name);
  }
  return names;
}

/** nextDurationBeforeRetry is ExponentialBackoff.Update: 500 ms first, then twice the last, at most 2m2s. */
export function nextDurationBeforeRetry(previous: number): number {
  return previous === 0 ? INITIAL_DURATION_BEFORE_RETRY_MS : Math.min(2 * previous, MAX_DURATION_BEFORE_RETRY_MS);
}

/**
 * waitForAttachAndMount mounts the pod's volumes before its sandbox is made, and returns once all are mounted (or the pod is
 * being deleted). A failed SetUp is a Warning FailedMount event, `MountVolume.SetUp failed for volume "X" : <error>`, and
 * is retried after the back-off. SyncPod waits 2m3s; the timeout is no event in 1.36 (SyncPod records FailedMount only when
 * the error is not wait.Interrupted), and the pod worker syncs again 10-15 s later. A claim the populator cannot use yet
 * ends the wait at once with `Unable to attach or mount volumes: ...`.
 */
export function* waitForAttachAndMount(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  const volumes = state.pod.spec?.volumes ?? [];
  const used = usedVolumeNames(state.pod);
  yield {
    phase: 'kubelet.volumes', object: state.ref, field: volumes.length ? 'spec.volumes' : undefined,
    result: volumes.length ? `waiting for ${volumes.length} volume(s) to attach and mount: ${volumes.map((v) => v.name).join(', ')}` : 'no volumes to mount',
    detail: { volumes: volumes.map((v) => v.name), timeoutSeconds: POD_ATTACH_AND_MOUNT_TIMEOUT_MS / 1000 },
  };
  const ops: VolumeOp[] = [];
  for (const [index, volume] of volumes.entries()) {
    if (used.has(volume.name)) {
      ops.push({ index, volume, durationBeforeRetry: 0, nextAttemptAt: ctx.clock.now });
      continue;
    }
    yield {
      phase: 'kubelet.volumes', object: state.ref, field: `spec.volumes[${index}]`, step: { kind: 'volume', name: volume.name },
      result: `volume "${volume.name}" is used by no container: the volume manager leaves it alone`, detail: { used: false },
    };
  }
  podOps.set(state, ops);
  if (ops.length === 0) return;
  const startedAt = ctx.clock.now;
  for (;;) {
    const windowStart = ctx.clock.now;
    const deadline = windowStart + POD_ATTACH_AND_MOUNT_TIMEOUT_MS;
    for (const op of ops) if (!op.mounted) op.processError = undefined;
    let outcome: 'mounted' | 'error' | 'timeout' | 'terminating';
    for (;;) {
      yield* attemptDue(ctx, kubelet, state, ops);
      if (state.terminating) return;
      const pending = ops.filter((op) => !op.mounted);
      if (pending.length === 0) {
        outcome = 'mounted';
        break;
      }
      if (pending.some((op) => op.processError)) {
        outcome = 'error';
        break;
      }
      const next = Math.min(...pending.map((op) => op.nextAttemptAt));
      if (next >= deadline) {
        yield* sleep(deadline - ctx.clock.now);
        outcome = state.terminating ? 'terminating' : 'timeout';
        break;
      }
      yield* sleep(next - ctx.clock.now);
      if (state.terminating) return;
    }
    if (outcome === 'terminating') return;
    // The wait polls every 300 ms from its start: it sees the mounts (or the populator's errors) at the next poll.
    const elapsed = ctx.clock.now - windowStart;
    const poll = outcome === 'error' ? Math.max(POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS, elapsed) : elapsed;
    yield* sleep(Math.ceil(poll / POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS) * POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS - elapsed);
    if (state.terminating) return;
    if (outcome === 'mounted') {
      if (ctx.clock.now === startedAt) return;
      yield {
        phase: 'kubelet.volumes', object: state.ref, field: 'spec.volumes',
        result: `all ${ops.length} volume(s) attached and mounted`, detail: { mounted: mountedVolumes(state).map((m) => m.name) },
      };
      return;
    }
    yield* failedWait(ctx, kubelet, state, ops, outcome);
    // Between syncs the reconciler keeps retrying the failed mounts.
    const nextSync = ctx.clock.now + syncRetryDelay(ctx);
    for (;;) {
      const pending = ops.filter((op) => !op.mounted && !op.processError);
      const next = pending.length ? Math.min(...pending.map((op) => op.nextAttemptAt)) : Infinity;
      if (next >= nextSync) break;
      yield* sleep(next - ctx.clock.now);
      if (state.terminating) return;
      yield* attemptDue(ctx, kubelet, state, ops);
    }
    yield* sleep(nextSync - ctx.clock.now);
    if (state.terminating) return;
  }
}

/** failedWait records the end of a wait that did not see every volume mounted: the error, and the event when there is one. */
function* failedWait(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, ops: VolumeOp[], outcome: 'error' | 'timeout'): Steps<void> {
  const unmounted = ops.filter((op) => !op.mounted).map((op) => op.volume.name).sort();
  const notProcessed = ops.filter((op) => op.processError).map((op) => op.volume.name).sort();
  const errors = [...new Set(ops.flatMap((op) => (op.processError ? [op.processError] : [])))];
  const cause = outcome === 'timeout' ? 'context deadline exceeded' : errors.join('; ');
  const message = `unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[], failed to process volumes=[${notProcessed.join(' ')}]: ${cause}`;
  if (outcome === 'error') kubelet.event(state, 'Warning', 'FailedMount', `Unable to attach or mount volumes: ${message}`);
  yield {
    phase: 'kubelet.volumes', object: state.ref, field: 'spec.volumes',
    result: outcome === 'timeout'
      ? `WaitForAttachAndMount timed out after ${goDuration(POD_ATTACH_AND_MOUNT_TIMEOUT_MS)}: ${message} (no event: the error is wait.Interrupted); the pod worker syncs again`
      : `Unable to attach or mount volumes: ${message}; the pod worker syncs again`,
    detail: { unmountedVolumes: unmounted, unattachedVolumes: [], failedToProcessVolumes: notProcessed, error: message }, outcome: 'waiting',
  };
}

/** attemptDue runs SetUp for every unmounted volume whose back-off has passed, in spec order, as the reconciler does. */
function* attemptDue(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, ops: VolumeOp[]): Steps<void> {
  for (const op of ops) {
    if (op.mounted || op.processError || op.nextAttemptAt > ctx.clock.now) continue;
    const field = `spec.volumes[${op.index}]`;
    const step = { kind: 'volume' as const, name: op.volume.name };
    const r = setUp(ctx, kubelet, state, op.volume);
    if (r.kind === 'mounted') {
      op.mounted = { name: op.volume.name, field, plugin: r.plugin, path: r.path, ...(r.persistentVolume ? { persistentVolume: r.persistentVolume } : {}) };
      yield {
        phase: 'kubelet.volumes', object: state.ref, field, step,
        result: `MountVolume.SetUp succeeded for volume "${r.persistentVolume ?? op.volume.name}" (${r.plugin})`,
        detail: { plugin: r.plugin, path: r.path, ...r.detail },
      };
    } else if (r.kind === 'unprocessable') {
      op.processError = r.error;
      yield { phase: 'kubelet.volumes', object: state.ref, field, step, result: `the volume manager cannot process volume "${op.volume.name}": ${r.error}`, detail: { error: r.error }, outcome: 'waiting' };
    } else {
      op.durationBeforeRetry = nextDurationBeforeRetry(op.durationBeforeRetry);
      op.nextAttemptAt = ctx.clock.now + op.durationBeforeRetry;
      const message = `MountVolume.SetUp failed for volume "${r.specName}" : ${r.error}`;
      kubelet.event(state, 'Warning', 'FailedMount', message);
      yield {
        phase: 'kubelet.volumes', object: state.ref, field, step,
        result: `${message}; no retries permitted for ${goDuration(op.durationBeforeRetry)}`,
        detail: { error: r.error, durationBeforeRetrySeconds: op.durationBeforeRetry / 1000 }, outcome: 'failed',
      };
    }
  }
}

/** podDir is the pod's volume directory for a plugin: /var/lib/kubelet/pods/<uid>/volumes/<escaped plugin>/<name>. */
function podDir(state: PodRuntimeState, plugin: string, name: string): string {
  // Joined into one piece: the kubelet keeps it as long as the pod.
  return [KUBELET_PODS_DIR, '/', state.uid, '/volumes/', plugin.replace('/', '~'), '/', name].join('');
}

/** setUp runs one volume's plugin SetUp against the cluster as it is now. */
function setUp(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, v: Volume): SetUpResult {
  const ns = state.pod.metadata?.namespace ?? 'default';
  const mounted = (plugin: string, detail: Record<string, unknown> = {}, path = podDir(state, plugin, v.name)): SetUpResult => ({ kind: 'mounted', plugin, path, detail });
  const failed = (error: string): SetUpResult => ({ kind: 'failed', specName: v.name, error });
  if (v.emptyDir) return mounted('kubernetes.io/empty-dir', { medium: v.emptyDir.medium || 'node disk', sizeLimit: v.emptyDir.sizeLimit ?? null });
  if (v.configMap) {
    const err = configMapSource(ctx, ns, v.configMap.name ?? '', v.configMap.items, v.configMap.optional === true);
    return err ? failed(err) : mounted('kubernetes.io/configmap', { configMap: v.configMap.name, optional: v.configMap.optional === true });
  }
  if (v.secret) {
    const err = secretSource(ctx, ns, v.secret.secretName ?? '', v.secret.items, v.secret.optional === true);
    return err ? failed(err) : mounted('kubernetes.io/secret', { secret: v.secret.secretName, optional: v.secret.optional === true });
  }
  if (v.projected) {
    // Every source is collected; the errors come back together (utilerrors.NewAggregate). See pkg/volume/projected (collectData).
    const errors: string[] = [];
    for (const s of v.projected.sources ?? []) {
      const err = s.configMap ? configMapSource(ctx, ns, s.configMap.name ?? '', s.configMap.items, s.configMap.optional === true)
        : s.secret ? secretSource(ctx, ns, s.secret.name ?? '', s.secret.items, s.secret.optional === true) : undefined;
      if (err) errors.push(err);
    }
    if (errors.length) return failed(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
    return mounted('kubernetes.io/projected', { sources: (v.projected.sources ?? []).map((s) => Object.keys(s)[0]) });
  }
  if (v.downwardAPI) return mounted('kubernetes.io/downward-api', { items: (v.downwardAPI.items ?? []).map((i) => i.path) });
  if (v.hostPath) {
    const err = checkHostPathType(hostFilesystem(kubelet), v.hostPath.path, v.hostPath.type);
    return err ? failed(err) : mounted('kubernetes.io/host-path', { type: v.hostPath.type || 'unset: no check (the runtime creates a missing directory)' }, v.hostPath.path);
  }
  if (v.persistentVolumeClaim || v.ephemeral) {
    const claimName = v.persistentVolumeClaim?.claimName ?? `${state.pod.metadata?.name ?? ''}-${v.name}`;
    return claimSetUp(ctx, kubelet, state, v, ns, claimName);
  }
  const type = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
  return mounted(`kubernetes.io/${type.toLowerCase()}`);
}

/**
 * configMapSource is the configMap plugin's SetUp check: the ConfigMap must exist unless optional, and each item's key too.
 * See pkg/volume/configmap/configmap.go (SetUpAt, MakePayload).
 */
function configMapSource(ctx: EngineContext, ns: string, name: string, items: readonly { key: string }[] | undefined, optional: boolean): string | undefined {
  const cm = ctx.store.get<ConfigMap>('ConfigMap', ns, name);
  if (!cm) return optional ? undefined : notFound('configmap', name);
  for (const item of items ?? []) {
    if (!(item.key in (cm.data ?? {})) && !(item.key in (cm.binaryData ?? {})) && !optional) return `configmap references non-existent config key: ${item.key}`;
  }
  return undefined;
}

/** secretSource is the secret plugin's SetUp check. See pkg/volume/secret/secret.go (SetUpAt, MakePayload). */
function secretSource(ctx: EngineContext, ns: string, name: string, items: readonly { key: string }[] | undefined, optional: boolean): string | undefined {
  const secret = ctx.store.get<Secret>('Secret', ns, name);
  if (!secret) return optional ? undefined : notFound('secret', name);
  const keys = new Set([...Object.keys(secret.data ?? {}), ...Object.keys((secret as { stringData?: Record<string, string> }).stringData ?? {})]);
  for (const item of items ?? []) if (!keys.has(item.key) && !optional) return `references non-existent secret key: ${item.key}`;
  return undefined;
}

/**
 * claimSetUp follows a claim to its PersistentVolume, as the desired state of world populator does (getPVCExtractPV): the
 * claim must exist, not be deleting, be Bound with a volumeName; then the PV's plugin mounts it, named after the PV.
 * See pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (createVolumeSpec).
 */
function claimSetUp(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, v: Volume, ns: string, claimName: string): SetUpResult {
  const wrap = (err: string): SetUpResult => ({ kind: 'unprocessable', error: `error processing PVC ${ns}/${claimName}: ${err}` });
  const pvc = ctx.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', ns, claimName);
  if (!pvc) return wrap(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (pvc.metadata?.deletionTimestamp) return wrap('PVC is being deleted');
  if (pvc.status?.phase !== 'Bound') return wrap('PVC is not bound');
  const pvName = pvc.spec?.volumeName ?? '';
  if (pvName === '') return wrap('PVC has empty pvc.Spec.VolumeName');
  const pv = ctx.store.get<PersistentVolume>('PersistentVolume', undefined, pvName);
  if (!pv) return wrap(`failed to fetch PV ${pvName} from API server: persistentvolumes "${pvName}" not found`);
  // getPVSpec: the PV must point back at this claim.
  const ref = pv.spec?.claimRef;
  if (!ref) return wrap(`found PV object ${pvName} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim`);
  if ((ref.uid ?? '') !== (pvc.metadata?.uid ?? '')) return wrap(`found PV object ${pvName} but its pv.Spec.ClaimRef.UID ${ref.uid ?? ''} does not point to claim.UID ${pvc.metadata?.uid ?? ''}`);
  const detail = { claim: claimName, persistentVolume: pvName, readOnly: v.persistentVolumeClaim?.readOnly === true };
  const spec = pv.spec ?? {};
  if (spec.hostPath) {
    const err = checkHostPathType(hostFilesystem(kubelet), spec.hostPath.path, spec.hostPath.type);
    if (err) return { kind: 'failed', specName: pvName, error: err };
    return { kind: 'mounted', plugin: 'kubernetes.io/host-path', path: spec.hostPath.path, persistentVolume: pvName, detail };
  }
  const plugin = spec.csi ? 'kubernetes.io/csi' : spec.local ? 'kubernetes.io/local-volume' : spec.nfs ? 'kubernetes.io/nfs'
    : `kubernetes.io/${(Object.keys(spec).find((k) => typeof (spec as Record<string, unknown>)[k] === 'object' && !['accessModes', 'capacity', 'claimRef', 'nodeAffinity', 'mountOptions'].includes(k)) ?? 'unknown').toLowerCase()}`;
  const path = spec.csi ? `${podDir(state, plugin, pvName)}/mount` : podDir(state, plugin, pvName);
  return { kind: 'mounted', plugin, path, persistentVolume: pvName, detail: { ...detail, ...(spec.csi ? { driver: spec.csi.driver } : {}) } };
}
