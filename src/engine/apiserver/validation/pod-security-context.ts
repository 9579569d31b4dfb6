// Security contexts of containers and of the pod: IDs, privilege escalation, proc mount, seccomp and AppArmor
// profiles, sysctls, Windows options, user namespaces. See pkg/apis/core/validation/validation.go
// (ValidateSecurityContext, validatePodSpecSecurityContext, validateSeccompProfileField, ValidateAppArmorProfileField,
// validateSysctls, validateWindowsSecurityContextOptions, validateHostUsers).
import type { PodSpec, SecurityContext } from 'kubernetes-types/core/v1';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, notSupported, required, tooLong } from './field-errors';
import { isValidGroupID, isValidUserID } from './names';
import { validateLocalDescendingPath } from './pod-paths';
import type { PodSecurityContext136 } from './pod-types';
import { validateWindowsOptions } from './pod-windows';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'];
// With SELinuxMount off (Beta, off by default in 1.36), a pod on create may only ask for Recursive
// (AllowOnlyRecursiveSELinuxChangePolicy: pkg/api/pod/util.go useOnlyRecursiveSELinuxChangePolicy, validation.go
// validateSELinuxChangePolicy, v1.36.3); a stored pod that has another policy keeps it on update (not modelled).
const SELINUX_CHANGE_POLICIES = ['Recursive'];
const MAX_LOCALHOST_PROFILE_LENGTH = 4095; // PATH_MAX - 1
const SYSCTL_MAX_LENGTH = 253;
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_RE_TEXT = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const SYSCTL_RE = new RegExp(SYSCTL_RE_TEXT);

type Profile = { type?: string; localhostProfile?: string };

/** validateSeccompProfileField is validateSeccompProfileField: a known type, localhostProfile exactly for Localhost. */
export function validateSeccompProfileField(sp: Profile | undefined, path: string): FieldError[] {
  if (!sp) return [];
  const errs: FieldError[] = [];
  const type = sp.type ?? '';
  if (!type) errs.push(required(child(path, 'type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(notSupported(child(path, 'type'), asJSON(type), SECCOMP_TYPES));
  const localhost = sp.localhostProfile;
  if (type === 'Localhost') {
    if (localhost === undefined || localhost === null) errs.push(required(child(path, 'localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(localhost, child(path, 'localhostProfile')));
  } else if (localhost !== undefined && localhost !== null) {
    // The value is the internal core.SeccompProfile, printed by json.Marshal with its Go field names.
    errs.push(invalidValue(child(path, 'localhostProfile'), asJSON({ Type: type, LocalhostProfile: localhost }), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** validateAppArmorProfileField is ValidateAppArmorProfileField. */
export function validateAppArmorProfileField(profile: Profile | undefined, path: string): FieldError[] {
  if (!profile) return [];
  const errs: FieldError[] = [];
  const localhost = profile.localhostProfile;
  switch (profile.type ?? '') {
    case 'Localhost':
      if (localhost === undefined || localhost === null) {
        errs.push(required(child(path, 'localhostProfile'), 'must be set when AppArmor type is Localhost'));
        break;
      }
      if (localhost.trim() !== localhost) errs.push(invalidValue(child(path, 'localhostProfile'), localhost, 'must not be padded with whitespace'));
      else if (localhost === '') errs.push(required(child(path, 'localhostProfile'), 'must be set when AppArmor type is Localhost'));
      if (Buffer.byteLength(localhost) > MAX_LOCALHOST_PROFILE_LENGTH) errs.push(tooLong(child(path, 'localhostProfile'), MAX_LOCALHOST_PROFILE_LENGTH));
      break;
    case 'RuntimeDefault': case 'Unconfined':
      if (localhost !== undefined && localhost !== null) errs.push(invalidValue(child(path, 'localhostProfile'), asJSON(localhost), 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errs.push(required(child(path, 'type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(notSupported(child(path, 'type'), asJSON(profile.type), APPARMOR_TYPES));
  }
  return errs;
}

/**
 * securityContextJSON is the internal core.SecurityContext as json.Marshal prints it (Go field names, Go order), the
 * value of the privilege escalation errors.
 */
function securityContextJSON(sc: SecurityContext): unknown {
  const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
  const se = sc.seLinuxOptions;
  const win = sc.windowsOptions;
  return {
    Capabilities: sc.capabilities ? { Add: opt(sc.capabilities.add), Drop: opt(sc.capabilities.drop) } : null,
    Privileged: opt(sc.privileged),
    SELinuxOptions: se ? { User: se.user ?? '', Role: se.role ?? '', Type: se.type ?? '', Level: se.level ?? '' } : null,
    WindowsOptions: win ? { GMSACredentialSpecName: opt(win.gmsaCredentialSpecName), GMSACredentialSpec: opt(win.gmsaCredentialSpec), RunAsUserName: opt(win.runAsUserName), HostProcess: opt(win.hostProcess) } : null,
    RunAsUser: opt(sc.runAsUser),
    RunAsGroup: opt(sc.runAsGroup),
    RunAsNonRoot: opt(sc.runAsNonRoot),
    ReadOnlyRootFilesystem: opt(sc.readOnlyRootFilesystem),
    AllowPrivilegeEscalation: opt(sc.allowPrivilegeEscalation),
    ProcMount: opt(sc.procMount),
    SeccompProfile: sc.seccompProfile ? { Type: sc.seccompProfile.type ?? '', LocalhostProfile: opt(sc.seccompProfile.localhostProfile) } : null,
    AppArmorProfile: sc.appArmorProfile ? { Type: sc.appArmorProfile.type ?? '', LocalhostProfile: opt(sc.appArmorProfile.localhostProfile) } : null,
  };
}

/**
 * validateSecurityContext is ValidateSecurityContext for a container. Privileged containers are allowed, as with
 * kube-apiserver's --allow-privileged=true (kubeadm's setting).
 */
export function validateSecurityContext(sc: SecurityContext | undefined, hostUsers: boolean, path: string): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  if (sc.runAsUser !== undefined && sc.runAsUser !== null) errs.push(...isValidUserID(sc.runAsUser).map((msg) => invalidValue(child(path, 'runAsUser'), sc.runAsUser, msg)));
  if (sc.runAsGroup !== undefined && sc.runAsGroup !== null) errs.push(...isValidGroupID(sc.runAsGroup).map((msg) => invalidValue(child(path, 'runAsGroup'), sc.runAsGroup, msg)));
  if (sc.procMount !== undefined && sc.procMount !== null) {
    if (!PROC_MOUNT_TYPES.includes(sc.procMount)) errs.push(notSupported(child(path, 'procMount'), asJSON(sc.procMount), PROC_MOUNT_TYPES));
    if (hostUsers && sc.procMount === 'Unmasked') errs.push(invalidValue(child(path, 'procMount'), asJSON(sc.procMount), '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, child(path, 'seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalidValue(path, asJSON(securityContextJSON(sc)), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalidValue(path, asJSON(securityContextJSON(sc)), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}

/** sysctlNamespace is utilsysctl.GetNamespace: net.* is the network namespace; shm, msg, sem and mqueue are IPC. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const normalized = name.replaceAll('/', '.');
  if (normalized.startsWith('net.')) return 'net';
  if (normalized === 'kernel.sem' || normalized.startsWith('kernel.shm') || normalized.startsWith('kernel.msg') || normalized.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

/** validateSysctls is validateSysctls: named, well formed, unique, and not of a namespace the pod shares with the host. */
function validateSysctls(spec: PodSpec, sysctls: { name?: string }[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  sysctls.forEach((s, i) => {
    const at = child(index(path, i), 'name');
    const name = s.name ?? '';
    if (!name) errs.push(required(at));
    else if (Buffer.byteLength(name) > SYSCTL_MAX_LENGTH || !SYSCTL_RE.test(name)) {
      errs.push(invalidValue(at, name, `must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_RE_TEXT}`));
    } else if (names.has(name)) errs.push(duplicate(at, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') errs.push(invalidValue(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') errs.push(invalidValue(at, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  return errs;
}

/** validatePodSecurityContext is validatePodSpecSecurityContext. hostNetwork, hostPID and hostIPC live in the spec in v1. */
export function validatePodSecurityContext(spec: PodSpec, path: string): FieldError[] {
  // Why: converting v1 to the internal type always allocates the pod security context (it holds hostNetwork & co.).
  const sc = (spec.securityContext ?? {}) as PodSecurityContext136;
  const errs: FieldError[] = [];
  const id = (name: 'fsGroup' | 'runAsUser' | 'runAsGroup', rule: (n: number) => string[]): void => {
    const v = sc[name];
    if (v !== undefined && v !== null) errs.push(...rule(v).map((msg) => invalidValue(child(path, name), v, msg)));
  };
  id('fsGroup', isValidGroupID);
  id('runAsUser', isValidUserID);
  id('runAsGroup', isValidGroupID);
  (sc.supplementalGroups ?? []).forEach((gid, g) => errs.push(...isValidGroupID(gid).map((msg) => invalidValue(index(child(path, 'supplementalGroups'), g), gid, msg))));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalidValue(child(path, 'shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if ((sc.sysctls ?? []).length) errs.push(...validateSysctls(spec, sc.sysctls ?? [], child(path, 'sysctls')));
  const enumerated = (name: 'fsGroupChangePolicy' | 'supplementalGroupsPolicy' | 'seLinuxChangePolicy', allowed: string[]): void => {
    const v = sc[name];
    if (v !== undefined && v !== null && !allowed.includes(v)) errs.push(notSupported(child(path, name), asJSON(v), allowed));
  };
  enumerated('fsGroupChangePolicy', FS_GROUP_CHANGE_POLICIES);
  errs.push(...validateSeccompProfileField(sc.seccompProfile, child(path, 'seccompProfile')));
  errs.push(...validateWindowsOptions(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, child(path, 'appArmorProfile')));
  enumerated('supplementalGroupsPolicy', SUPPLEMENTAL_GROUPS_POLICIES);
  enumerated('seLinuxChangePolicy', SELINUX_CHANGE_POLICIES);
  return errs;
}

/** validateHostUsers is validateHostUsers: with hostUsers false, no host network, PID or IPC namespace (paths as Go spells them). */
export function validateHostUsers(spec: PodSpec, path: string): FieldError[] {
  if (spec.hostUsers !== false) return [];
  const errs: FieldError[] = [];
  if (spec.hostNetwork === true) errs.push(forbidden(child(path, 'hostNetwork'), 'when `pod.Spec.HostUsers` is false'));
  if (spec.hostPID === true) errs.push(forbidden(child(path, 'HostPID'), 'when `pod.Spec.HostUsers` is false'));
  if (spec.hostIPC === true) errs.push(forbidden(child(path, 'HostIPC'), 'when `pod.Spec.HostUsers` is false'));
  return errs;
}
