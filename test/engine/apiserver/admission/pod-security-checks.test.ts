// Every Pod Security check on its own, through the registry at the level that runs it, with the reasons and details
// of the upstream tests (staging/src/k8s.io/pod-security-admission/policy/check_*_test.go, named beside each case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ObjectMeta, PodSpec } from '../../../../src/engine/api/types';
import type { CheckResult } from '../../../../src/engine/apiserver/admission/pod-security/checks';
import { type Level, LATEST, majorMinor, type Version } from '../../../../src/engine/apiserver/admission/pod-security/levels';
import { evaluatePod } from '../../../../src/engine/apiserver/admission/pod-security/registry';

type Sc = NonNullable<Container['securityContext']>;

/** c builds a container with a name and, optionally, a security context and more fields. */
function c(name: string, securityContext?: Sc, more: Partial<Container> = {}): Container {
  return { name, ...(securityContext ? { securityContext } : {}), ...more };
}

interface Case {
  name: string;
  id: string;
  level?: Level;
  version?: Version;
  metadata?: ObjectMeta;
  spec: Partial<PodSpec>;
  /** want is the reason and detail, `allowed`, or `not run` when the check is not part of the evaluation. */
  want: { reason: string; detail: string } | 'allowed' | 'not run';
}

/** run evaluates the pod at the check's level (restricted for restricted checks) and returns the check's result. */
function run(k: Case): CheckResult | undefined {
  const level = k.level ?? (RESTRICTED_IDS.has(k.id) ? 'restricted' : 'baseline');
  const spec = { containers: [], ...k.spec } as PodSpec;
  const { outcomes } = evaluatePod({ level, version: k.version ?? LATEST }, k.metadata ?? {}, spec);
  return outcomes.find((o) => o.id === k.id)?.result;
}

const RESTRICTED_IDS = new Set(['allowPrivilegeEscalation', 'capabilities_restricted', 'procMount_restricted', 'restrictedVolumes', 'runAsNonRoot', 'runAsUser', 'seccompProfile_restricted']);
const APPARMOR = 'container.apparmor.security.beta.kubernetes.io/';

const cases: Case[] = [
  // check_allowPrivilegeEscalation_test.go TestAllowPrivilegeEscalation_1_25 "multiple containers"
  {
    name: 'Containers that leave allowPrivilegeEscalation unset or true are named in spec order', id: 'allowPrivilegeEscalation',
    spec: { containers: [c('a'), c('b', {}), c('c', { allowPrivilegeEscalation: true }), c('d', { allowPrivilegeEscalation: false })] },
    want: { reason: 'allowPrivilegeEscalation != false', detail: 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false' },
  },
  // ... "windows pod, admit without checking privilegeEscalation"
  { name: 'A Windows pod skips allowPrivilegeEscalation from policy 1.25', id: 'allowPrivilegeEscalation', spec: { os: { name: 'windows' }, containers: [c('a')] }, want: 'allowed' },
  {
    name: 'A Windows pod is still checked for allowPrivilegeEscalation at policy 1.24', id: 'allowPrivilegeEscalation', version: majorMinor(1, 24),
    spec: { os: { name: 'windows' }, containers: [c('a')] },
    want: { reason: 'allowPrivilegeEscalation != false', detail: 'container "a" must set securityContext.allowPrivilegeEscalation=false' },
  },
  { name: 'allowPrivilegeEscalation is not checked before policy 1.8', id: 'allowPrivilegeEscalation', version: majorMinor(1, 7), spec: { containers: [c('a')] }, want: 'not run' },
  // check_appArmorProfile_test.go TestCheckAppArmor_Forbidden
  {
    name: 'A pod AppArmor profile of Unconfined is forbidden', id: 'appArmorProfile', spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } } },
    want: { reason: 'forbidden AppArmor profile', detail: 'pod must not set AppArmor profile type to "Unconfined"' },
  },
  {
    name: 'An init container AppArmor profile of Unconfined is forbidden', id: 'appArmorProfile',
    spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('foo')], initContainers: [c('bar', { appArmorProfile: { type: 'Unconfined' } })] },
    want: { reason: 'forbidden AppArmor profile', detail: 'container "bar" must not set AppArmor profile type to "Unconfined"' },
  },
  {
    name: 'Forbidden AppArmor annotations list sorted, each quoted again by joinQuote', id: 'appArmorProfile',
    metadata: { annotations: { [APPARMOR]: 'bogus', [`${APPARMOR}a`]: '', [`${APPARMOR}b`]: 'runtime/default', [`${APPARMOR}c`]: 'localhost/', [`${APPARMOR}d`]: 'localhost/foo', [`${APPARMOR}e`]: 'unconfined', [`${APPARMOR}f`]: 'unknown' } },
    spec: {},
    want: {
      reason: 'forbidden AppArmor profiles',
      detail: `annotations must not set AppArmor profile type to "${APPARMOR}="bogus"", "${APPARMOR}e="unconfined"", "${APPARMOR}f="unknown""`,
    },
  },
  // check_capabilities_baseline_test.go "multiple containers"
  {
    name: 'Capabilities outside the default set are forbidden, sorted and deduplicated', id: 'capabilities_baseline',
    spec: { containers: [c('a', { capabilities: { add: ['FOO', 'BAR'] } }), c('b', { capabilities: { add: ['BAR', 'BAZ'] } }), c('c', { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } })] },
    want: { reason: 'non-default capabilities', detail: 'containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add' },
  },
  // check_capabilities_restricted_test.go "multiple containers"
  {
    name: 'Restricted capabilities require drop ALL and allow adding only NET_BIND_SERVICE', id: 'capabilities_restricted',
    spec: {
      containers: [c('a', { capabilities: { add: ['FOO', 'BAR'] } }), c('b', { capabilities: { add: ['BAR', 'BAZ'] } }),
        c('c', { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'], drop: ['ALL', 'FOO'] } })],
    },
    want: {
      reason: 'unrestricted capabilities',
      detail: 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add',
    },
  },
  { name: 'capabilities_baseline does not run at restricted once capabilities_restricted overrides it', id: 'capabilities_baseline', level: 'restricted', spec: { containers: [c('a', { capabilities: { add: ['FOO'] } })] }, want: 'not run' },
  {
    name: 'capabilities_baseline runs at restricted:v1.21, before capabilities_restricted exists', id: 'capabilities_baseline', level: 'restricted', version: majorMinor(1, 21),
    spec: { containers: [c('a', { capabilities: { add: ['FOO'] } })] },
    want: { reason: 'non-default capabilities', detail: 'container "a" must not include "FOO" in securityContext.capabilities.add' },
  },
  // check_hostNamespaces_test.go "multiple host namespaces"
  {
    name: 'Host namespaces are listed network, PID, IPC', id: 'hostNamespaces', spec: { hostNetwork: true, hostIPC: true, hostPID: true },
    want: { reason: 'host namespaces', detail: 'hostNetwork=true, hostPID=true, hostIPC=true' },
  },
  // check_hostPathVolumes_test.go
  {
    name: 'hostPath volumes are named in spec order', id: 'hostPathVolumes',
    spec: { volumes: [{ name: 'a', hostPath: { path: '/a' } }, { name: 'b', emptyDir: {} }, { name: 'c', hostPath: { path: '/c' } }] },
    want: { reason: 'hostPath volumes', detail: 'volumes "a", "c"' },
  },
  // check_hostPorts_test.go "one container, one host port" and "multiple containers, multiple host port"
  {
    name: 'One container with one host port', id: 'hostPorts', spec: { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 0 }] }), c('b', undefined, { ports: [{ containerPort: 80, hostPort: 0 }, { containerPort: 81, hostPort: 20 }] })] },
    want: { reason: 'hostPort', detail: 'container "b" uses hostPort 20' },
  },
  {
    name: 'Host ports list as a sorted set of strings', id: 'hostPorts',
    spec: { containers: [c('b', undefined, { ports: [{ containerPort: 1, hostPort: 10 }, { containerPort: 2, hostPort: 9 }] }), c('c', undefined, { ports: [{ containerPort: 3, hostPort: 10 }, { containerPort: 4, hostPort: 30 }] })] },
    want: { reason: 'hostPort', detail: 'containers "b", "c" use hostPorts 10, 30, 9' },
  },
  // check_hostProbesAndhostLifecycle_test.go
  {
    name: 'Any probe or lifecycle host is forbidden, localhost included', id: 'hostProbesAndHostLifecycle',
    spec: { containers: [c('a', undefined, { livenessProbe: { httpGet: { port: 80, host: '127.0.0.1' } }, readinessProbe: { tcpSocket: { port: 80, host: '::1' } }, startupProbe: { httpGet: { port: 80, host: 'localhost' } } })] },
    want: { reason: 'probe or lifecycle host', detail: 'container "a" uses probe or lifecycle hosts "127.0.0.1", "::1", "localhost"' },
  },
  {
    name: 'Probe and lifecycle hosts of several containers list sorted and once', id: 'hostProbesAndHostLifecycle',
    spec: {
      containers: [c('valid'), c('invalid1', undefined, { livenessProbe: { httpGet: { port: 80, host: 'a.com' } } }),
        c('invalid2', undefined, { lifecycle: { preStop: { tcpSocket: { port: 80, host: 'b.com' } } }, startupProbe: { httpGet: { port: 80, host: 'a.com' } } })],
    },
    want: { reason: 'probe or lifecycle host', detail: 'containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com"' },
  },
  { name: 'Probes without a host pass', id: 'hostProbesAndHostLifecycle', spec: { containers: [c('a', undefined, { livenessProbe: { httpGet: { port: 80 } }, lifecycle: { postStart: { httpGet: { port: 80 } } } })] }, want: 'allowed' },
  { name: 'Probe hosts are not checked before policy 1.34', id: 'hostProbesAndHostLifecycle', version: majorMinor(1, 33), spec: { containers: [c('a', undefined, { livenessProbe: { httpGet: { port: 80, host: 'x' } } })] }, want: 'not run' },
  // check_privileged_test.go
  {
    name: 'Privileged containers are forbidden', id: 'privileged',
    spec: { containers: [c('a'), c('b', {}), c('c', { privileged: false }), c('d', { privileged: true }), c('e', { privileged: true })] },
    want: { reason: 'privileged', detail: 'containers "d", "e" must not set securityContext.privileged=true' },
  },
  // check_procMount_baseline_test.go and check_procMount_restricted_test.go
  {
    name: 'A procMount other than Default is forbidden at baseline', id: 'procMount',
    spec: { hostUsers: true, containers: [c('a'), c('b', {}), c('c', { procMount: 'Default' }), c('d', { procMount: 'Unmasked' }), c('e', { procMount: 'other' })] },
    want: { reason: 'procMount', detail: 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"' },
  },
  { name: 'Baseline allows any procMount in a user namespace from 1.35', id: 'procMount', spec: { hostUsers: false, containers: [c('d', { procMount: 'Unmasked' })] }, want: 'allowed' },
  {
    name: 'Baseline forbids Unmasked even in a user namespace at 1.34', id: 'procMount', version: majorMinor(1, 34), spec: { hostUsers: false, containers: [c('d', { procMount: 'Unmasked' })] },
    want: { reason: 'procMount', detail: 'container "d" must not set securityContext.procMount to "Unmasked"' },
  },
  {
    name: 'Restricted forbids Unmasked in a user namespace too', id: 'procMount_restricted', spec: { hostUsers: false, containers: [c('d', { procMount: 'Unmasked' })] },
    want: { reason: 'procMount', detail: 'container "d" must not set securityContext.procMount to "Unmasked"' },
  },
  // check_restrictedVolumes_test.go "host path volumes"
  {
    name: 'Only core volume types pass restricted; the others and unknown ones list their types', id: 'restrictedVolumes',
    spec: {
      volumes: [
        { name: 'a1', emptyDir: {} }, { name: 'a2', secret: {} }, { name: 'a3', persistentVolumeClaim: { claimName: 'x' } }, { name: 'a4', downwardAPI: {} },
        { name: 'a5', configMap: {} }, { name: 'a6', projected: { sources: [] } }, { name: 'a7', csi: { driver: 'd' } }, { name: 'a8', ephemeral: {} },
        // The image volume source is newer than the kubernetes-types typings.
        { name: 'a9', image: { reference: 'img' } } as never,
        { name: 'b1', hostPath: { path: '/' } }, { name: 'b2', gcePersistentDisk: { pdName: 'x' } }, { name: 'b4', gitRepo: { repository: 'r' } },
        { name: 'b5', nfs: { server: 's', path: '/' } }, { name: 'b11', cephfs: { monitors: [] } }, { name: 'c1' },
      ],
    },
    want: { reason: 'restricted volume types', detail: 'volumes "b1", "b2", "b4", "b5", "b11", "c1" use restricted volume types "cephfs", "gcePersistentDisk", "gitRepo", "hostPath", "nfs", "unknown"' },
  },
  {
    name: 'One restricted volume is singular', id: 'restrictedVolumes', spec: { volumes: [{ name: 'host', hostPath: { path: '/' } }] },
    want: { reason: 'restricted volume types', detail: 'volume "host" uses restricted volume type "hostPath"' },
  },
  // check_runAsNonRoot_test.go
  { name: 'No runAsNonRoot anywhere asks the pod or the container', id: 'runAsNonRoot', spec: { containers: [c('a')] }, want: { reason: 'runAsNonRoot != true', detail: 'pod or container "a" must set securityContext.runAsNonRoot=true' } },
  {
    name: 'A pod runAsNonRoot=false is named first', id: 'runAsNonRoot', spec: { securityContext: { runAsNonRoot: false }, containers: [c('a')] },
    want: { reason: 'runAsNonRoot != true', detail: 'pod must not set securityContext.runAsNonRoot=false' },
  },
  {
    name: 'Containers with runAsNonRoot=false under a pod-level true', id: 'runAsNonRoot',
    spec: { securityContext: { runAsNonRoot: true }, containers: [c('a'), c('b', {}), c('c', { runAsNonRoot: false }), c('d', { runAsNonRoot: false }), c('e', { runAsNonRoot: true })] },
    want: { reason: 'runAsNonRoot != true', detail: 'containers "c", "d" must not set securityContext.runAsNonRoot=false' },
  },
  {
    name: 'Containers that do not opt in without a pod-level true', id: 'runAsNonRoot',
    spec: { containers: [c('a'), c('b', {}), c('d', { runAsNonRoot: true }), c('e', { runAsNonRoot: true })] },
    want: { reason: 'runAsNonRoot != true', detail: 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true' },
  },
  { name: 'A user-namespace pod passes runAsNonRoot from 1.35', id: 'runAsNonRoot', spec: { hostUsers: false, containers: [c('a')] }, want: 'allowed' },
  { name: 'A user-namespace pod is still checked for runAsNonRoot at 1.34', id: 'runAsNonRoot', version: majorMinor(1, 34), spec: { hostUsers: false, containers: [c('a')] }, want: { reason: 'runAsNonRoot != true', detail: 'pod or container "a" must set securityContext.runAsNonRoot=true' } },
  // check_runAsUser_test.go
  { name: 'A pod runAsUser=0 is forbidden', id: 'runAsUser', spec: { securityContext: { runAsUser: 0 }, containers: [c('a')] }, want: { reason: 'runAsUser=0', detail: 'pod must not set runAsUser=0' } },
  {
    name: 'Pod and containers with runAsUser=0 are joined with and', id: 'runAsUser',
    spec: { securityContext: { runAsUser: 0 }, containers: [c('a'), c('c', { runAsUser: 0 }), c('d', { runAsUser: 0 }), c('e', { runAsUser: 1 })] },
    want: { reason: 'runAsUser=0', detail: 'pod and containers "c", "d" must not set runAsUser=0' },
  },
  { name: 'runAsUser is not checked before policy 1.23', id: 'runAsUser', version: majorMinor(1, 22), spec: { securityContext: { runAsUser: 0 }, containers: [c('a')] }, want: 'not run' },
  // check_seccompProfile_baseline_test.go
  {
    name: 'Before 1.19 baseline reads the seccomp annotations', id: 'seccompProfile_baseline', version: majorMinor(1, 18),
    metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/b': 'unknown' } },
    spec: { containers: [c('a'), c('b'), c('c')] },
    want: {
      reason: 'seccompProfile',
      detail: 'forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", container.seccomp.security.alpha.kubernetes.io/b="unknown", seccomp.security.alpha.kubernetes.io/pod="unconfined"',
    },
  },
  {
    name: 'Pod and containers with an Unconfined seccompProfile', id: 'seccompProfile_baseline',
    spec: { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a'), c('b', {}), c('c', { seccompProfile: { type: 'Unconfined' } }), c('d', { seccompProfile: { type: 'Unconfined' } }), c('e', { seccompProfile: { type: 'RuntimeDefault' } })] },
    want: { reason: 'seccompProfile', detail: 'pod and containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"' },
  },
  // check_seccompProfile_restricted_test.go
  { name: 'No seccompProfile anywhere asks the pod or the container', id: 'seccompProfile_restricted', spec: { containers: [c('a')] }, want: { reason: 'seccompProfile', detail: 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' } },
  {
    name: 'Containers with Unconfined under a RuntimeDefault pod', id: 'seccompProfile_restricted',
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a'), c('b', {}), c('c', { seccompProfile: { type: 'Unconfined' } }), c('d', { seccompProfile: { type: 'Unconfined' } })] },
    want: { reason: 'seccompProfile', detail: 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"' },
  },
  {
    name: 'Containers without a profile and no pod profile', id: 'seccompProfile_restricted',
    spec: { containers: [c('a'), c('b', {}), c('d', { seccompProfile: { type: 'RuntimeDefault' } }), c('e', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } })] },
    want: { reason: 'seccompProfile', detail: 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' },
  },
  // check_seLinuxOptions_test.go TestSELinuxOptions
  {
    name: 'Bad SELinux types, users and roles on the pod and containers', id: 'seLinuxOptions',
    spec: {
      securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } },
      containers: [c('a', { seLinuxOptions: { type: 'container_t' } }), c('b', { seLinuxOptions: { type: 'container_init_t' } }), c('c', { seLinuxOptions: { type: 'container_kvm_t' } }),
        c('d', { seLinuxOptions: { type: 'container_engine_t' } }), c('e', { seLinuxOptions: { type: 'bar' } }), c('f', { seLinuxOptions: { user: 'bar' } }), c('g', { seLinuxOptions: { role: 'baz' } })],
    },
    want: { reason: 'seLinuxOptions', detail: 'pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set' },
  },
  { name: 'A user alone is reported without a type', id: 'seLinuxOptions', spec: { securityContext: { seLinuxOptions: { user: 'bad' } } }, want: { reason: 'seLinuxOptions', detail: 'pod set forbidden securityContext.seLinuxOptions: user may not be set' } },
  {
    name: 'container_engine_t is forbidden before policy 1.31', id: 'seLinuxOptions', version: majorMinor(1, 30), spec: { containers: [c('d', { seLinuxOptions: { type: 'container_engine_t' } })] },
    want: { reason: 'seLinuxOptions', detail: 'container "d" set forbidden securityContext.seLinuxOptions: type "container_engine_t"' },
  },
  // check_sysctls_test.go
  { name: 'Unsafe sysctls are listed as given', id: 'sysctls', spec: { securityContext: { sysctls: [{ name: 'a', value: '1' }, { name: 'b', value: '1' }] } }, want: { reason: 'forbidden sysctls', detail: 'a, b' } },
  {
    name: 'net.ipv4.ip_local_reserved_ports is unsafe before policy 1.27', id: 'sysctls', version: majorMinor(1, 26), spec: { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1024-4999' }] } },
    want: { reason: 'forbidden sysctls', detail: 'net.ipv4.ip_local_reserved_ports' },
  },
  { name: 'net.ipv4.tcp_rmem is safe from policy 1.32', id: 'sysctls', spec: { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 6291456' }] } }, want: 'allowed' },
  // check_windowsHostProcess_test.go "host process"
  {
    name: 'hostProcess on the pod and containers', id: 'windowsHostProcess',
    spec: {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [c('a'), c('b', {}), c('c', { windowsOptions: {} }), c('d', { windowsOptions: { hostProcess: false } }), c('e', { windowsOptions: { hostProcess: true } }), c('f', { windowsOptions: { hostProcess: true } })],
    },
    want: { reason: 'hostProcess', detail: 'pod and containers "e", "f" must not set securityContext.windowsOptions.hostProcess=true' },
  },
];

for (const k of cases) {
  test(k.name, () => {
    const result = run(k);
    if (k.want === 'not run') return assert.equal(result, undefined);
    if (k.want === 'allowed') return assert.deepEqual(result, { allowed: true });
    assert.deepEqual(result, { allowed: false, forbiddenReason: k.want.reason, forbiddenDetail: k.want.detail });
  });
}
