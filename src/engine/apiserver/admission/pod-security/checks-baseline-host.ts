// Baseline checks of host access: host namespaces, hostPath volumes, host ports, probe and lifecycle hosts,
// privileged containers and Windows HostProcess. Each follows its staging/src/k8s.io/pod-security-admission/policy file.
import type { LifecycleHandler, ObjectMeta, PodSpec, Probe } from '../../../api/types';
import { ALLOWED, type Check, type CheckResult, containerNames, forbid, joinQuote, pluralize, sortedSet, visitContainers } from './checks';
import { majorMinor } from './levels';

const POLICY = 'staging/src/k8s.io/pod-security-admission/policy';

/** hostNamespaces_1_0 forbids hostNetwork, hostPID and hostIPC, listed in that order. See policy/check_hostNamespaces.go. */
function hostNamespaces_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const hostNamespaces: string[] = [];
  if (podSpec.hostNetwork) hostNamespaces.push('hostNetwork=true');
  if (podSpec.hostPID) hostNamespaces.push('hostPID=true');
  if (podSpec.hostIPC) hostNamespaces.push('hostIPC=true');
  return hostNamespaces.length ? forbid('host namespaces', hostNamespaces.join(', ')) : ALLOWED;
}

/** hostPathVolumes_1_0 forbids hostPath volumes, named in spec order. See policy/check_hostPathVolumes.go. */
function hostPathVolumes_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const hostVolumes = (podSpec.volumes ?? []).filter((v) => v.hostPath != null).map((v) => v.name);
  if (!hostVolumes.length) return ALLOWED;
  return forbid('hostPath volumes', `${pluralize('volume', 'volumes', hostVolumes.length)} ${joinQuote(hostVolumes)}`);
}

/**
 * hostPorts_1_0 forbids any non-zero hostPort. The ports are a set of strings, so they list in string order
 * (`10, 20, 9`). See policy/check_hostPorts.go.
 */
function hostPorts_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const forbiddenHostPorts: string[] = [];
  visitContainers(podSpec, (c) => {
    const bad = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0);
    forbiddenHostPorts.push(...bad.map((p) => String(p.hostPort)));
    if (bad.length) badContainers.push(c.name);
  });
  if (!badContainers.length) return ALLOWED;
  const ports = sortedSet(forbiddenHostPorts);
  return forbid('hostPort', `${containerNames(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', ports.length)} ${ports.join(', ')}`);
}

/** probeHosts lists the non-empty hosts of a probe's or handler's httpGet and tcpSocket actions. */
function probeHosts(handler: Probe | LifecycleHandler | undefined): string[] {
  if (!handler) return [];
  return [handler.httpGet?.host, handler.tcpSocket?.host].filter((h): h is string => !!h);
}

/**
 * hostProbesAndHostLifecycleV1Dot34 forbids any host in the httpGet or tcpSocket action of a probe or a
 * postStart/preStop handler. Containers and hosts are sets, so both list sorted.
 * See policy/check_hostProbesAndhostLifecycle.go (KEP-4940).
 */
function hostProbesAndHostLifecycleV1Dot34(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const forbidden: string[] = [];
  visitContainers(podSpec, (c) => {
    const handlers = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop];
    const hosts = handlers.flatMap(probeHosts);
    if (hosts.length) {
      badContainers.push(c.name);
      forbidden.push(...hosts);
    }
  });
  if (!badContainers.length) return ALLOWED;
  const names = sortedSet(badContainers);
  const hosts = sortedSet(forbidden);
  return forbid('probe or lifecycle host', `${containerNames(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hosts.length)} ${joinQuote(hosts)}`);
}

/** privileged_1_0 forbids securityContext.privileged=true. See policy/check_privileged.go. */
function privileged_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    if (c.securityContext?.privileged === true) badContainers.push(c.name);
  });
  if (!badContainers.length) return ALLOWED;
  return forbid('privileged', `${containerNames(badContainers)} must not set securityContext.privileged=true`);
}

/** windowsHostProcess_1_0 forbids windowsOptions.hostProcess=true on the pod or a container. See policy/check_windowsHostProcess.go. */
function windowsHostProcess_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) badContainers.push(c.name);
  });
  const forbiddenSetters: string[] = [];
  if (podSpec.securityContext?.windowsOptions?.hostProcess === true) forbiddenSetters.push('pod');
  if (badContainers.length) forbiddenSetters.push(containerNames(badContainers));
  if (!forbiddenSetters.length) return ALLOWED;
  return forbid('hostProcess', `${forbiddenSetters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
}

/** HOST_PATH_VOLUMES_ID is the ID restrictedVolumes overrides (checkHostPathVolumesID). */
export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

/** BASELINE_HOST_CHECKS are the baseline checks of host access, each with its revisions. */
export const BASELINE_HOST_CHECKS: readonly Check[] = [
  { id: 'hostNamespaces', level: 'baseline', source: `${POLICY}/check_hostNamespaces.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: hostNamespaces_1_0 }] },
  { id: HOST_PATH_VOLUMES_ID, level: 'baseline', source: `${POLICY}/check_hostPathVolumes.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: hostPathVolumes_1_0 }] },
  { id: 'hostPorts', level: 'baseline', source: `${POLICY}/check_hostPorts.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: hostPorts_1_0 }] },
  {
    id: 'hostProbesAndHostLifecycle', level: 'baseline', source: `${POLICY}/check_hostProbesAndhostLifecycle.go`,
    versions: [{ minimumVersion: majorMinor(1, 34), checkPod: hostProbesAndHostLifecycleV1Dot34 }],
  },
  { id: 'privileged', level: 'baseline', source: `${POLICY}/check_privileged.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: privileged_1_0 }] },
  { id: 'windowsHostProcess', level: 'baseline', source: `${POLICY}/check_windowsHostProcess.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: windowsHostProcess_1_0 }] },
];
