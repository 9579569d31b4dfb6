// The pod worker's create path: admit, volumes, sandbox, network, init containers, containers, then probes.
// See pkg/kubelet/kubelet.go (SyncPod) and pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod).
import type { Container, Pod } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { containerBehavior, ensureImage, randomHex, startContainer } from './containers';
import type { Kubelet } from './kubelet';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';
import { retryImagePull } from './image-backoff';
import { watchContainer } from './probes';
import { resolvConf } from './dns';
import { CREATE_CONTAINER_CONFIG_ERROR } from './env';
import { awaitContainerConfig, retryContainerConfig } from './pod-worker-backoff';
import { waitForAttachAndMount } from './volumes';

export { resolvConf } from './dns';

/** PAUSE_IMAGE is the sandbox image a 1.36 kubelet and containerd use. See cmd/kubeadm/app/constants (PauseVersion). */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10.1';

/** syncPod takes a newly bound pod to running containers. */
export function* syncPod(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): Steps<void> {
  if (!(yield* kubelet.admit(state))) {
    yield* kubelet.writeStatus(state, 'pod rejected by the kubelet', true);
    return;
  }
  state.admittedAt = ctx.clock.now;
  kubelet.markSandboxReady(state, false);
  yield* kubelet.writeStatus(state, 'pod admitted, containers being created');

  yield* waitForAttachAndMount(ctx, kubelet, state);
  if (state.terminating) return;

  state.sandboxId = randomHex(ctx, 64);
  const qos = (state.pod.status?.qosClass ?? 'BestEffort').toLowerCase();
  const cgroup = qos === 'guaranteed' ? `kubepods/pod${state.uid}` : `kubepods/${qos}/pod${state.uid}`;
  yield {
    phase: 'kubelet.sandbox', object: state.ref, field: 'spec',
    result: `RunPodSandbox: pause container ${PAUSE_IMAGE} in cgroup ${cgroup}`,
    detail: { sandboxId: state.sandboxId, pauseImage: PAUSE_IMAGE, cgroupParent: cgroup, qosClass: state.pod.status?.qosClass, dnsPolicy: state.pod.spec?.dnsPolicy, resolvConf: resolvConf(state.pod, (m) => kubelet.event(state, 'Warning', 'DNSConfigForming', m)) },
  };
  const hostNetwork = state.pod.spec?.hostNetwork === true;
  const ip = hostNetwork ? kubelet.hostIP : kubelet.ipam.allocate(state.sandboxId);
  if (!ip) {
    kubelet.event(state, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${state.sandboxId}": plugin type="host-local" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${kubelet.ipam.cidr}`);
    yield { phase: 'kubelet.network', object: state.ref, result: `no free address in ${kubelet.ipam.cidr}`, detail: { podCIDR: kubelet.ipam.cidr }, outcome: 'failed' };
    return;
  }
  state.ip = ip;
  yield {
    phase: 'kubelet.network', object: state.ref, field: hostNetwork ? 'spec.hostNetwork' : undefined,
    result: hostNetwork ? `host network: the pod uses the node's address ${ip}` : `CNI ADD: eth0 ${ip}/${kubelet.ipam.cidr.split('/')[1]} from ${kubelet.ipam.cidr} (host-local), gateway ${kubelet.ipam.gateway}`,
    detail: { podIP: ip, podCIDR: kubelet.ipam.cidr, gateway: kubelet.ipam.gateway, node: kubelet.name },
  };
  kubelet.markSandboxReady(state, true);
  yield* kubelet.writeStatus(state, 'sandbox ready');

  const emit = (type: 'Normal' | 'Warning', reason: string, message: string) => kubelet.event(state, type, reason, message);
  const inits = state.containers.filter((c) => c.init);
  yield {
    phase: 'kubelet.initContainers', object: state.ref, field: inits.length ? 'spec.initContainers' : undefined,
    result: inits.length ? `running ${inits.length} init container(s) in order: ${inits.map((c) => c.name).join(', ')}` : 'no init containers',
    detail: { initContainers: inits.map((c) => c.name) },
  };
  for (const c of inits) {
    if (!(yield* runInitContainer(ctx, kubelet, state, c, specOf(state.pod, c), emit))) return;
  }
  const regular = state.containers.filter((c) => !c.init);
  yield {
    phase: 'kubelet.containers', object: state.ref, field: 'spec.containers',
    result: `starting ${regular.length} container(s): ${regular.map((c) => c.name).join(', ')}`,
    detail: { containers: regular.map((c) => c.name) },
  };
  for (const c of regular) {
    const spec = specOf(state.pod, c);
    const watch = () => ctx.schedule(0, `kubelet ${kubelet.name}: watch ${state.ref} ${c.name}`, () => watchContainer(ctx, kubelet, state, c, spec));
    if (!(yield* ensureImage(ctx, state, c, spec, kubelet.images, emit))) {
      yield* kubelet.writeStatus(state, `container ${c.name} cannot start`);
      if (state.terminating) return;
      if (c.reason === 'ErrImagePull') ctx.schedule(0, `kubelet ${kubelet.name}: image back-off ${state.ref} ${c.name}`, () => retryImagePull(ctx, kubelet, state, c, spec, watch));
      continue;
    }
    if (!(yield* startContainer(ctx, state, c, spec, emit))) {
      if (state.terminating) return;
      if (c.reason === CREATE_CONTAINER_CONFIG_ERROR) ctx.schedule(0, `kubelet ${kubelet.name}: pod sync retry ${state.ref} ${c.name}`, () => retryContainerConfig(ctx, kubelet, state, c, spec, watch));
      continue;
    }
    watch();
  }
  yield* kubelet.writeStatus(state, 'containers started');
}

function* runInitContainer(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, emit: (type: 'Normal' | 'Warning', reason: string, message: string) => void): Steps<boolean> {
  if (!(yield* ensureImage(ctx, state, c, spec, kubelet.images, emit))) {
    yield* kubelet.writeStatus(state, `init container ${c.name} cannot start`);
    return false;
  }
  if (!(yield* startContainer(ctx, state, c, spec, emit)) && !(c.reason === CREATE_CONTAINER_CONFIG_ERROR && (yield* awaitContainerConfig(ctx, kubelet, state, c, spec)))) return false;
  yield* kubelet.writeStatus(state, `init container ${c.name} running`);
  // An init container runs to completion; unless its Behavior says otherwise it exits 0 at once.
  const behavior = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name);
  yield* sleep((behavior.exitAfterSeconds ?? 0) * 1000);
  if (state.terminating) return false;
  c.state = 'terminated';
  c.exitCode = behavior.exitCode ?? 0;
  c.reason = c.exitCode === 0 ? 'Completed' : 'Error';
  c.finishedAt = ctx.clock.now;
  yield {
    phase: 'kubelet.initContainers', object: state.ref, field: `spec.initContainers[${state.containers.filter((x) => x.init).indexOf(c)}]`, step: { kind: 'container', name: c.name },
    result: `init container ${c.name} exited with code ${c.exitCode}`, detail: { exitCode: c.exitCode }, outcome: c.exitCode === 0 ? 'ok' : 'failed',
  };
  yield* kubelet.writeStatus(state, `init container ${c.name} completed`);
  return c.exitCode === 0;
}

function specOf(pod: Pod, c: ContainerRuntimeState): Container {
  const list = c.init ? pod.spec?.initContainers ?? [] : pod.spec?.containers ?? [];
  return list.find((s) => s.name === c.name) ?? { name: c.name };
}
