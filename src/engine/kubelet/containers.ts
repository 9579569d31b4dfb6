// Starting one container: its image, CreateContainer, StartContainer and the postStart hook, with the kubelet's events.
// See pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer).
import type { Container, LifecycleHandler, Pod } from '../api/types';
import { goQuote } from '../apiserver/decode-go';
import type { EngineContext } from '../context';
import type { ContainerBehavior, ImageBehavior } from '../cluster/inputs';
import { sleep, type Steps } from '../runtime/step';
import { checkContainerConfig } from './env';
import { decidePull, imageID, imageSize, pullSeconds, pulledMessage } from './images';
import { httpGetURL, resolveContainerPort } from './handler-target';
import { imageNameError, invalidImageNameMessage } from './image-reference';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';

/**
 * ContainerEmit records a kubelet event about a container: fieldPath is the container's reference (containerRef),
 * which the Event carries as involvedObject.fieldPath.
 */
export type ContainerEmit = (type: 'Normal' | 'Warning', reason: string, message: string, fieldPath: string) => void;

/** NodeImages is what a node knows of images: those present, and when its serialized puller is free. */
export interface NodeImages {
  present: Set<string>;
  pullerFreeAt: number;
}

/** containerBehavior finds the Behavior of a container: `POD/CONTAINER` first, then the container name. */
export function containerBehavior(ctx: EngineContext, podName: string, containerName: string): ContainerBehavior {
  return ctx.behavior.containers[`${podName}/${containerName}`] ?? ctx.behavior.containers[containerName] ?? {};
}

/** fieldOf is the manifest path of a container: `spec.containers[0]` or `spec.initContainers[1]`. */
export function fieldOf(state: PodRuntimeState, c: ContainerRuntimeState): string {
  const list = c.init ? state.pod.spec?.initContainers ?? [] : state.pod.spec?.containers ?? [];
  return `spec.${c.init ? 'initContainers' : 'containers'}[${list.findIndex((s) => s.name === c.name)}]`;
}

/**
 * ensureImage runs the image manager for a container: an image whose reference cannot be parsed fails before anything
 * else, a present image is used, an absent one pulled (waiting for the node's puller), and Never with no image fails.
 * Returns false when the container cannot start.
 */
export function* ensureImage(ctx: EngineContext, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, images: NodeImages, emit: ContainerEmit): Steps<boolean> {
  const field = fieldOf(state, c);
  const ref = containerRef(c);
  // image_manager.go EnsureImageExists (v1.36.3): applyDefaultImageTag parses the reference first; a reference it
  // cannot parse is a Warning InspectFailed (events.FailedToInspectImage) and ErrInvalidImageName, with no pull and
  // no back-off. startContainer then records "Error: InvalidImageName" (grpcstatus.FromError of a plain error keeps
  // its text) and the container waits with reason InvalidImageName and the message, retried at each sync.
  const nameError = imageNameError(spec.image ?? '');
  if (nameError) {
    const message = invalidImageNameMessage(spec.image ?? '', nameError);
    c.state = 'waiting'; c.reason = 'InvalidImageName'; c.message = message;
    emit('Warning', 'InspectFailed', message, ref);
    emit('Warning', 'Failed', 'Error: InvalidImageName', ref);
    yield { phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`, step: { kind: 'container', name: c.name }, result: `${c.name}: InvalidImageName: ${message}`, detail: { container: c.name, image: spec.image ?? '', error: nameError }, outcome: 'failed' };
    return false;
  }
  const present = images.present.has(c.imageRef);
  const decision = decidePull(spec, present);
  const policy = spec.imagePullPolicy ?? 'IfNotPresent';
  if (decision.action === 'neverPull') {
    c.state = 'waiting'; c.reason = 'ErrImageNeverPull'; c.message = decision.message;
    emit('Warning', 'ErrImageNeverPull', decision.message, ref);
    // The runtime manager reports every failed image step as "Error: <reason>" (kuberuntime_container.go startContainer).
    emit('Warning', 'Failed', 'Error: ErrImageNeverPull', ref);
    yield { phase: 'kubelet.imagePull', object: state.ref, field: `${field}.imagePullPolicy`, result: `${c.name}: ErrImageNeverPull: ${decision.message}`, detail: { container: c.name, policy, present }, outcome: 'failed' };
    return false;
  }
  if (decision.action === 'present') {
    emit('Normal', 'Pulled', decision.message, ref);
    c.imageID = imageID(c.imageRef);
    yield { phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`, result: `${c.name}: image ${c.imageRef} is already on the node; pull policy ${policy} does not pull it`, detail: { container: c.name, policy, present, imageRef: c.imageRef } };
    return true;
  }
  const behavior = ctx.behavior.images[spec.image ?? ''];
  const requestedAt = ctx.clock.now;
  const waitMs = Math.max(0, images.pullerFreeAt - requestedAt);
  const pullMs = pullSeconds(behavior) * 1000;
  images.pullerFreeAt = requestedAt + waitMs + pullMs;
  emit('Normal', 'Pulling', decision.pullingMessage, ref);
  yield {
    phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`,
    result: `${c.name}: pulling ${c.imageRef} (policy ${policy}${present ? '' : ', not on the node'})${waitMs ? `, after ${waitMs / 1000}s behind other pulls` : ''}`,
    detail: { container: c.name, policy, present, imageRef: c.imageRef, waitSeconds: waitMs / 1000, pullSeconds: pullMs / 1000 },
  };
  yield* sleep(waitMs + pullMs);
  if (state.terminating) return false;
  const failure = pullFailure(c.imageRef, behavior, state.pod);
  if (failure) {
    c.state = 'waiting'; c.reason = 'ErrImagePull'; c.message = failure;
    emit('Warning', 'Failed', `Failed to pull image "${spec.image}": ${failure}`, ref);
    emit('Warning', 'Failed', 'Error: ErrImagePull', ref);
    yield { phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`, step: { kind: 'container', name: c.name }, result: `ErrImagePull: ${failure}`, detail: { error: failure }, outcome: 'failed' };
    return false;
  }
  images.present.add(c.imageRef);
  c.imageID = imageID(c.imageRef);
  const size = imageSize(behavior);
  emit('Normal', 'Pulled', pulledMessage(spec.image ?? '', pullMs, waitMs + pullMs, size), ref);
  yield { phase: 'kubelet.imagePull', object: state.ref, field: `${field}.image`, step: { kind: 'container', name: c.name }, result: `pulled ${c.imageRef} in ${pullMs / 1000}s (${size} bytes)`, detail: { imageID: c.imageID, size } };
  return true;
}

/**
 * pullFailure is the runtime's error for an image the Behavior says is missing, or private to a
 * pull secret the pod does not have; undefined when the pull succeeds. The texts are containerd's.
 */
export function pullFailure(imageRef: string, behavior: ImageBehavior | undefined, pod: Pod): string | undefined {
  if (behavior?.exists === false) {
    return `rpc error: code = NotFound desc = failed to pull and unpack image "${imageRef}": failed to resolve reference "${imageRef}": ${imageRef}: not found`;
  }
  const secret = behavior?.pullSecret;
  if (secret && !(pod.spec?.imagePullSecrets ?? []).some((s) => s.name === secret)) {
    return `rpc error: code = Unknown desc = failed to pull and unpack image "${imageRef}": failed to resolve reference "${imageRef}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
  }
  return undefined;
}

/** StartResult is how a container start ended: started, or the kubelet's error for the reason cache. */
export type StartResult = { ok: true } | { ok: false; reason: string; message: string };

/** podLabel is format.Pod: `web_default(<uid>)`. See pkg/kubelet/util/format/pod.go. */
export function podLabel(state: PodRuntimeState): string {
  return `${state.pod.metadata?.name ?? ''}_${state.pod.metadata?.namespace ?? 'default'}(${state.uid})`;
}

/**
 * startContainer creates and starts a container whose image is ready, then runs its postStart hook.
 * The hook blocks the pod worker: the container is reported running only once it completed. A failed
 * hook records FailedPostStartHook, kills the container and fails the start with PostStartHookError.
 * See pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer).
 */
export function* startContainer(ctx: EngineContext, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, emit: ContainerEmit): Steps<StartResult> {
  const field = fieldOf(state, c);
  const ref = containerRef(c);
  if (!(yield* checkContainerConfig(ctx, state, c, spec, field, emit))) return { ok: false, reason: c.reason ?? 'CreateContainerConfigError', message: c.message ?? '' };
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  // A container that ran before is restarted: its restart count is the last one's plus one, and the
  // run that ended becomes its last state. See startContainer (restartCount) and convertToAPIContainerStatuses.
  if (c.containerID) {
    if (c.state === 'terminated') {
      c.lastTerminated = { exitCode: c.exitCode ?? 0, reason: c.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error'), startedAt: c.startedAt, finishedAt: c.finishedAt, containerID: c.containerID };
    }
    c.restartCount++;
  }
  c.containerID = `containerd://${randomHex(ctx, 64)}`;
  c.createdAt = ctx.clock.now;
  c.probeResults = {};
  c.started = false;
  c.ready = false;
  // kuberuntime_container.go startContainer (v1.36.3; since 1.35, #134043): "Container created" and "Container
  // started", the container named by the event's involvedObject.fieldPath only.
  emit('Normal', 'Created', 'Container created', ref);
  const phase = c.init ? 'kubelet.initContainers' : 'kubelet.containers';
  yield { phase, object: state.ref, field, step: { kind: 'container', name: c.name }, result: `created container ${c.name} (${c.containerID.slice(0, 25)}…)${c.restartCount ? `, restart ${c.restartCount}` : ''}`, detail: { containerID: c.containerID, image: c.imageRef, command: spec.command ?? null, args: spec.args ?? null, restartCount: c.restartCount, sidecar: c.sidecar } };
  yield* sleep((behavior.startSeconds ?? 0) * 1000);
  if (state.terminating) return { ok: false, reason: 'ContainerCreating', message: '' };
  c.startedAt = ctx.clock.now;
  c.everStarted = true;
  emit('Normal', 'Started', 'Container started', ref);
  yield { phase, object: state.ref, field, step: { kind: 'container', name: c.name }, result: `started container ${c.name}`, detail: { startedAt: ctx.clock.timestamp() } };
  const hook = spec.lifecycle?.postStart;
  if (hook) {
    // Until the hook returns, the pod worker is blocked and the container is not reported running.
    // An httpGet hook on a port the kubelet cannot resolve fails at once, whatever the Behavior says.
    const unresolvable = hookAlwaysFails(hook, spec);
    const seconds = unresolvable ? 0 : hook.sleep?.seconds ?? behavior.postStartSeconds ?? 0;
    yield { phase, object: state.ref, field: `${field}.lifecycle.postStart`, step: { kind: 'container', name: c.name }, result: `running the postStart hook of ${c.name} (${hookKind(hook)}); the container is not reported running until it returns`, detail: { seconds, handler: hook } };
    c.hookRunning = true;
    yield* sleep(seconds * 1000);
    c.hookRunning = false;
    if (state.terminating) return { ok: false, reason: 'ContainerCreating', message: '' };
    if (unresolvable || (behavior.postStartFails && !hook.sleep)) {
      // kuberuntime_container.go startContainer: Warning FailedPostStartHook "PostStartHook failed", without the
      // handler's message "so that secrets won't leak from the server"; then killContainer and ErrPostStartHook.
      emit('Warning', 'FailedPostStartHook', 'PostStartHook failed', ref);
      const message = hookFailure(hook, c.name, podLabel(state), state.ip ?? '', spec);
      yield { phase, object: state.ref, field: `${field}.lifecycle.postStart`, step: { kind: 'container', name: c.name }, result: `postStart hook failed: ${message}; the container is killed`, detail: { error: message }, outcome: 'failed' };
      return { ok: false, reason: 'PostStartHookError', message };
    }
    yield { phase, object: state.ref, field: `${field}.lifecycle.postStart`, step: { kind: 'container', name: c.name }, result: 'postStart hook completed', detail: { seconds } };
  }
  c.state = 'running';
  c.reason = undefined;
  c.message = undefined;
  return { ok: true };
}

function hookKind(hook: LifecycleHandler): string {
  if (hook.exec) return `exec ${JSON.stringify(hook.exec.command ?? [])}`;
  if (hook.httpGet) return `httpGet ${hook.httpGet.path ?? '/'} on port ${hook.httpGet.port}`;
  if (hook.sleep) return `sleep ${hook.sleep.seconds}s`;
  if (hook.tcpSocket) return 'tcpSocket';
  return 'unknown handler';
}

/**
 * hookFailure is the lifecycle handler's error message, kept in the container's waiting message: the runner's
 * "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q" with the CRI client's
 * "command '%s' exited with %d: %s", or "HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v"
 * with Go's url.Error for the request (or the error that kept the kubelet from building it).
 * See pkg/kubelet/lifecycle/handlers.go (handlerRunner.Run) and staging/src/k8s.io/cri-client/pkg/remote_runtime.go (execSyncV1).
 */
export function hookFailure(hook: LifecycleHandler, container: string, pod: string, podIP: string, spec: Container): string {
  const who = `for Container ${goQuote(container)} in Pod ${goQuote(pod)} failed`;
  if (hook.exec) {
    const cmd = hook.exec.command ?? [];
    return `Exec lifecycle hook ([${cmd.join(' ')}]) ${who} - error: command '${cmd.join(' ')}' exited with 1: , message: ""`;
  }
  if (hook.httpGet) {
    const target = httpGetURL(hook.httpGet, spec, podIP);
    const error = target.ok ? `Get ${goQuote(target.url)}: dial tcp ${target.address}: connect: connection refused` : target.error;
    return `HTTP lifecycle hook (${hook.httpGet.path ?? ''}) ${who} - error: ${error}`;
  }
  return `lifecycle hook ${who}`;
}

/**
 * hookAlwaysFails is true for an httpGet hook whose port the kubelet cannot resolve: the handler runner fails
 * before any request, whatever the container would answer. See pkg/probe/http/request.go (NewRequestForHTTPGetAction).
 */
export function hookAlwaysFails(hook: LifecycleHandler, spec: Container): boolean {
  return hook.httpGet !== undefined && !resolveContainerPort(hook.httpGet.port, spec).ok;
}

/** randomHex draws n hex digits from the seeded source, for container and sandbox ids. */
export function randomHex(ctx: EngineContext, n: number): string {
  const words: string[] = [];
  for (let length = 0; length < n; length += 8) words.push(ctx.rng.nextUint32().toString(16).padStart(8, '0'));
  // Joined into one piece (a sandbox's or container's id is kept as long as the pod).
  return words.join('').slice(0, n);
}
