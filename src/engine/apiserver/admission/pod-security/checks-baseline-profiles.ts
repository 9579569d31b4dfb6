// Baseline checks of security profiles and kernel settings: AppArmor, capabilities, /proc mount, SELinux, seccomp
// and sysctls. Each follows its file under staging/src/k8s.io/pod-security-admission/policy.
import type { ObjectMeta, PodSpec } from '../../../api/types';
import {
  ALLOWED, type Check, type CheckResult, containerNames, forbid, goQuote, joinQuote, pluralize, relaxPolicyForUserNamespacePod, sortedSet,
  visitContainers,
} from './checks';
import { majorMinor } from './levels';

const POLICY = 'staging/src/k8s.io/pod-security-admission/policy';
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** allowedAppArmorAnnotation: empty, runtime/default or localhost/* (check_appArmorProfile.go allowedAnnotationValue). */
function allowedAppArmorAnnotation(profile: string): boolean {
  return profile === '' || profile === 'runtime/default' || profile.startsWith('localhost/');
}

/**
 * appArmorProfile_1_0 forbids an appArmorProfile.type other than RuntimeDefault or Localhost on the pod or a container,
 * and the deprecated annotations' other values. See policy/check_appArmorProfile.go.
 */
function appArmorProfile_1_0(podMetadata: ObjectMeta, podSpec: PodSpec): CheckResult {
  const allowedType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = podSpec.securityContext?.appArmorProfile;
  if (podProfile && !allowedType(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type ?? '');
  }
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    const profile = c.securityContext?.appArmorProfile;
    if (profile && !allowedType(profile.type)) {
      badContainers.push(c.name);
      badValues.push(profile.type ?? '');
    }
  });
  if (badContainers.length) badSetters.push(containerNames(badContainers));
  const forbiddenAnnotations = Object.entries(podMetadata.annotations ?? {})
    .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v))
    .map(([k, v]) => `${k}=${goQuote(v)}`);
  const badValueList = sortedSet(badValues);
  if (forbiddenAnnotations.length) {
    badValueList.push(...sortedSet(forbiddenAnnotations));
    badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));
  }
  if (!badSetters.length) return ALLOWED;
  return forbid(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  );
}

/** CAPABILITIES_ALLOWED_1_0 are the capabilities baseline lets a container add (capabilities_allowed_1_0). */
const CAPABILITIES_ALLOWED_1_0 = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

/** capabilitiesBaseline_1_0 forbids adding capabilities beyond the default set. See policy/check_capabilities_baseline.go. */
function capabilitiesBaseline_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  visitContainers(podSpec, (c) => {
    const bad = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !CAPABILITIES_ALLOWED_1_0.has(cap));
    nonDefault.push(...bad);
    if (bad.length) badContainers.push(c.name);
  });
  if (!badContainers.length) return ALLOWED;
  return forbid('non-default capabilities', `${containerNames(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`);
}

/** procMount_1_0 forbids any procMount but Default, unconditionally. See policy/check_procMount_baseline.go. */
export function procMount_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const types: string[] = [];
  visitContainers(podSpec, (c) => {
    const procMount = c.securityContext?.procMount;
    if (procMount == null || procMount === 'Default') return;
    badContainers.push(c.name);
    types.push(procMount);
  });
  if (!badContainers.length) return ALLOWED;
  return forbid('procMount', `${containerNames(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`);
}

/** procMount1_35baseline allows any procMount in a user namespace (`hostUsers: false`), from policy 1.35 (KEP-127). */
function procMount1_35baseline(meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  return relaxPolicyForUserNamespacePod(podSpec) ? ALLOWED : procMount_1_0(meta, podSpec);
}

/** The SELinux types baseline allows: container_engine_t joins at 1.31 (check_seLinuxOptions.go). */
const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

/** seLinuxOptions forbids other SELinux types and any user or role, on the pod or a container. See policy/check_seLinuxOptions.go. */
function seLinuxOptions(allowedTypes: ReadonlySet<string>, podSpec: PodSpec): CheckResult {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (opts: { type?: string; user?: string; role?: string }): boolean => {
    let ok = true;
    if (!allowedTypes.has(opts.type ?? '')) {
      ok = false;
      badTypes.push(opts.type ?? '');
    }
    if (opts.user) {
      ok = false;
      setUser = true;
    }
    if (opts.role) {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const badSetters: string[] = [];
  const podOptions = podSpec.securityContext?.seLinuxOptions;
  if (podOptions && !valid(podOptions)) badSetters.push('pod');
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    const opts = c.securityContext?.seLinuxOptions;
    if (opts && !valid(opts)) badContainers.push(c.name);
  });
  if (badContainers.length) badSetters.push(containerNames(badContainers));
  if (!badSetters.length) return ALLOWED;
  const types = sortedSet(badTypes);
  const badData: string[] = [];
  if (types.length) badData.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) badData.push('user may not be set');
  if (setRole) badData.push('role may not be set');
  return forbid('seLinuxOptions', `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`);
}

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** validSeccompAnnotation: runtime/default, docker/default or localhost/* (check_seccompProfile_baseline.go). */
function validSeccompAnnotation(v: string): boolean {
  return v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
}

/** validSeccomp: the seccompProfile types both levels allow (check_seccompProfile_baseline.go validSeccomp). */
export function validSeccomp(t: string | undefined): boolean {
  return t === 'Localhost' || t === 'RuntimeDefault';
}

/** seccompProfileBaseline_1_0 checks the alpha seccomp annotations, as policies before 1.19 do. See policy/check_seccompProfile_baseline.go. */
function seccompProfileBaseline_1_0(podMetadata: ObjectMeta, podSpec: PodSpec): CheckResult {
  const annotations = podMetadata.annotations ?? {};
  const forbidden: string[] = [];
  const podValue = annotations[SECCOMP_POD_ANNOTATION];
  if (podValue !== undefined && !validSeccompAnnotation(podValue)) forbidden.push(`${SECCOMP_POD_ANNOTATION}=${goQuote(podValue)}`);
  visitContainers(podSpec, (c) => {
    const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name;
    const value = annotations[key];
    if (value !== undefined && !validSeccompAnnotation(value)) forbidden.push(`${key}=${goQuote(value)}`);
  });
  const list = sortedSet(forbidden);
  if (!list.length) return ALLOWED;
  return forbid('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
}

/** seccompProfileBaseline_1_19 forbids a seccompProfile.type set to anything but RuntimeDefault or Localhost. See policy/check_seccompProfile_baseline.go. */
function seccompProfileBaseline_1_19(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = podSpec.securityContext?.seccompProfile;
  if (podProfile && !validSeccomp(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type ?? '');
  }
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (profile && !validSeccomp(profile.type)) {
      badContainers.push(c.name);
      badValues.push(profile.type ?? '');
    }
  });
  if (badContainers.length) badSetters.push(containerNames(badContainers));
  if (!badSetters.length) return ALLOWED;
  return forbid('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`);
}

/** The safe sysctls of each policy version (check_sysctls.go sysctlsAllowedV1Dot0 ... V1Dot32). */
const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

/** sysctls forbids pod sysctls outside the safe set, listed as given. See policy/check_sysctls.go. */
function sysctls(allowed: readonly string[]): (meta: ObjectMeta, podSpec: PodSpec) => CheckResult {
  return (_meta, podSpec) => {
    const forbidden = (podSpec.securityContext?.sysctls ?? []).map((s) => s.name).filter((name) => !allowed.includes(name));
    return forbidden.length ? forbid('forbidden sysctls', forbidden.join(', ')) : ALLOWED;
  };
}

/** BASELINE_PROFILE_CHECKS are the baseline checks of profiles and kernel settings, each with its revisions. */
export const BASELINE_PROFILE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', source: `${POLICY}/check_appArmorProfile.go`, versions: [{ minimumVersion: majorMinor(1, 0), checkPod: appArmorProfile_1_0 }] },
  {
    id: 'capabilities_baseline', level: 'baseline', source: `${POLICY}/check_capabilities_baseline.go`,
    versions: [{ minimumVersion: majorMinor(1, 0), checkPod: capabilitiesBaseline_1_0 }],
  },
  {
    id: 'procMount', level: 'baseline', source: `${POLICY}/check_procMount_baseline.go`,
    versions: [{ minimumVersion: majorMinor(1, 0), checkPod: procMount_1_0 }, { minimumVersion: majorMinor(1, 35), checkPod: procMount1_35baseline }],
  },
  {
    id: 'seLinuxOptions', level: 'baseline', source: `${POLICY}/check_seLinuxOptions.go`,
    versions: [
      { minimumVersion: majorMinor(1, 0), checkPod: (_m, spec) => seLinuxOptions(SELINUX_TYPES_1_0, spec) },
      { minimumVersion: majorMinor(1, 31), checkPod: (_m, spec) => seLinuxOptions(SELINUX_TYPES_1_31, spec) },
    ],
  },
  {
    id: 'seccompProfile_baseline', level: 'baseline', source: `${POLICY}/check_seccompProfile_baseline.go`,
    versions: [{ minimumVersion: majorMinor(1, 0), checkPod: seccompProfileBaseline_1_0 }, { minimumVersion: majorMinor(1, 19), checkPod: seccompProfileBaseline_1_19 }],
  },
  {
    id: 'sysctls', level: 'baseline', source: `${POLICY}/check_sysctls.go`,
    versions: [
      { minimumVersion: majorMinor(1, 0), checkPod: sysctls(SYSCTLS_1_0) },
      { minimumVersion: majorMinor(1, 27), checkPod: sysctls(SYSCTLS_1_27) },
      { minimumVersion: majorMinor(1, 29), checkPod: sysctls(SYSCTLS_1_29) },
      { minimumVersion: majorMinor(1, 32), checkPod: sysctls(SYSCTLS_1_32) },
    ],
  },
];
