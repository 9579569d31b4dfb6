// The pod worker's create path: admit, volumes, sandbox, network, init containers, containers, then probes.
// See pkg/kubelet/kubelet.go (SyncPod) and pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod).
import type { Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { randomHex } from './containers';
import type { Kubelet } from './kubelet';
import type { PodRuntimeState } from './pod-state';
import { beginContainers, startProbing } from './pod-worker';

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

  yield* mountVolumes(state);
  if (state.terminating) return;
  // The probe workers start before the runtime starts any container (SyncPod: probeManager.AddPod).
  startProbing(ctx, kubelet, state);

  state.sandboxId = randomHex(ctx, 64);
  const qos = (state.pod.status?.qosClass ?? 'BestEffort').toLowerCase();
  const cgroup = qos === 'guaranteed' ? `kubepods/pod${state.uid}` : `kubepods/${qos}/pod${state.uid}`;
  yield {
    phase: 'kubelet.sandbox', object: state.ref, field: 'spec',
    result: `RunPodSandbox: pause container ${PAUSE_IMAGE} in cgroup ${cgroup}`,
    detail: { sandboxId: state.sandboxId, pauseImage: PAUSE_IMAGE, cgroupParent: cgroup, qosClass: state.pod.status?.qosClass, dnsPolicy: state.pod.spec?.dnsPolicy, resolvConf: resolvConf(state.pod) },
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

function* mountVolumes(state: PodRuntimeState): Steps<void> {
  const volumes = state.pod.spec?.volumes ?? [];
  yield {
    phase: 'kubelet.volumes', object: state.ref, field: volumes.length ? 'spec.volumes' : undefined,
    result: volumes.length ? `waiting for ${volumes.length} volume(s) to attach and mount: ${volumes.map((v) => v.name).join(', ')}` : 'no volumes to mount',
    detail: { volumes: volumes.map((v) => v.name) },
  };
  for (const [i, v] of volumes.entries()) {
    const type = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
    yield {
      phase: 'kubelet.volumes', object: state.ref, field: `spec.volumes[${i}]`, step: { kind: 'volume', name: v.name },
      result: `MountVolume.SetUp succeeded for volume "${v.name}" (${type})`,
      detail: { type, path: `/var/lib/kubelet/pods/${state.uid}/volumes/kubernetes.io~${type.toLowerCase()}/${v.name}` },
    };
  }
}

/**
 * resolvConf is the pod's /etc/resolv.conf under its dnsPolicy, for the embedded cluster's DNS
 * (kube-dns at 10.96.0.10, domain cluster.local). See pkg/kubelet/network/dns/dns.go.
 */
export function resolvConf(pod: Pod): string {
  const ns = pod.metadata?.namespace ?? 'default';
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  const hostNet = pod.spec?.hostNetwork === true;
  if (policy === 'None') {
    const cfg = pod.spec?.dnsConfig ?? {};
    return [`search ${(cfg.searches ?? []).join(' ')}`, ...(cfg.nameservers ?? []).map((n) => `nameserver ${n}`)].join('\n');
  }
  if (policy === 'Default' || (policy === 'ClusterFirst' && hostNet)) return 'nameserver 192.168.49.1';
  return `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5`;
}
