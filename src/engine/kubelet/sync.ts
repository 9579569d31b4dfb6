// The pod worker's create path: admit, volumes, sandbox, network, init containers, containers, then probes.
// See pkg/kubelet/kubelet.go (SyncPod) and pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod).
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { randomHex } from './containers';
import type { Kubelet } from './kubelet';
import type { PodRuntimeState } from './pod-state';
import { beginContainers, startProbing } from './pod-worker';
import { resolvConf } from './dns';
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
  // The probe workers start before the runtime starts any container (SyncPod: probeManager.AddPod).
  startProbing(ctx, kubelet, state);

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
  // The status shows the sandbox (PodReadyToStartContainers, the pod's IP) from the next sync on: this one sent its
  // status before it made the sandbox (kubelet.go SyncPod, v1.36.3).
  kubelet.markSandboxReady(state, true);

  const inits = state.containers.filter((c) => c.init);
  const sidecars = inits.filter((c) => c.sidecar);
  yield {
    phase: 'kubelet.initContainers', object: state.ref, field: inits.length ? 'spec.initContainers' : undefined,
    result: inits.length
      ? `running ${inits.length} init container(s) in order: ${inits.map((c) => c.name).join(', ')}${sidecars.length ? `; sidecar(s) that keep running: ${sidecars.map((c) => c.name).join(', ')}` : ''}`
      : 'no init containers',
    detail: { initContainers: inits.map((c) => c.name), sidecars: sidecars.map((c) => c.name) },
  };
  // From here the pod worker drives the containers, one sync at a time.
  beginContainers(ctx, kubelet, state);
}
