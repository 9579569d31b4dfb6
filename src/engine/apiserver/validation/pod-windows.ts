// The OS of a pod and what it rules out (Linux-only fields on Windows and back), Windows security options and
// HostProcess pods. See pkg/apis/core/validation/validation.go (validateOS, validateLinux, validateWindows,
// validateWindowsSecurityContextOptions, validateWindowsHostProcessPod).
import type { Container, PodSpec, WindowsSecurityContextOptions } from 'kubernetes-types/core/v1';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { isDNS1123Subdomain } from './names';
import type { PodSecurityContext136 } from './pod-types';

const OS_NAMES = ['linux', 'windows'];
const MAX_GMSA_SPEC_KIB = 64;
const MAX_GMSA_SPEC_BYTES = MAX_GMSA_SPEC_KIB * 1024;
const MAX_DOMAIN_LENGTH = 256;
const MAX_USER_LENGTH = 104;
const CONTROL_RE = /[\x00-\x1f\x7f]/;
const NETBIOS_RE = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_DOMAIN_RE = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const BAD_USER_CHARS_RE = /["/\\:;|=,+*?<>@[\]]/;
const DOTS_SPACES_RE = /^[. ]+$/;
const NOT_FOR_WINDOWS = 'cannot be set for a windows pod';

/** visitContainersWithPath is podshelper.VisitContainersWithPath: init containers, containers, then ephemeral ones. */
export function visitContainersWithPath(spec: PodSpec, path: string, visit: (c: Container, at: string) => void): void {
  (spec.initContainers ?? []).forEach((c, i) => visit(c, index(child(path, 'initContainers'), i)));
  (spec.containers ?? []).forEach((c, i) => visit(c, index(child(path, 'containers'), i)));
  (spec.ephemeralContainers ?? []).forEach((c, i) => visit(c as Container, index(child(path, 'ephemeralContainers'), i)));
}

/** validateWindowsOptions is validateWindowsSecurityContextOptions. The values are *string, printed JSON-quoted. */
export function validateWindowsOptions(options: WindowsSecurityContextOptions | undefined, path: string): FieldError[] {
  if (!options) return [];
  const errs: FieldError[] = [];
  const specName = options.gmsaCredentialSpecName;
  if (specName !== undefined && specName !== null) {
    errs.push(...isDNS1123Subdomain(specName).map((msg) => invalidValue(child(path, 'gmsaCredentialSpecName'), asJSON(specName), msg)));
  }
  const spec = options.gmsaCredentialSpec;
  if (spec !== undefined && spec !== null) {
    if (spec.length === 0) errs.push(invalidValue(child(path, 'gmsaCredentialSpec'), asJSON(spec), 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > MAX_GMSA_SPEC_BYTES) errs.push(invalidValue(child(path, 'gmsaCredentialSpec'), asJSON(spec), `gmsaCredentialSpec size must be under ${MAX_GMSA_SPEC_KIB} KiB`));
  }
  if (options.runAsUserName !== undefined && options.runAsUserName !== null) {
    errs.push(...runAsUserNameErrors(options.runAsUserName).map((msg) => invalidValue(child(path, 'runAsUserName'), asJSON(options.runAsUserName), msg)));
  }
  return errs;
}

/** runAsUserNameErrors lists what is wrong with a Windows [DOMAIN\]USER name. */
function runAsUserNameErrors(name: string): string[] {
  if (name.length === 0) return ['runAsUserName cannot be an empty string'];
  if (CONTROL_RE.test(name)) return ['runAsUserName cannot contain control characters'];
  const parts = name.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];
  const errs: string[] = [];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0]! : '';
  const user = hasDomain ? parts[1]! : parts[0]!;
  if (Buffer.byteLength(domain) >= MAX_DOMAIN_LENGTH) errs.push(`runAsUserName's Domain length must be under ${MAX_DOMAIN_LENGTH} characters`);
  if (hasDomain && !(NETBIOS_RE.test(domain) || DNS_DOMAIN_RE.test(domain))) errs.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  if (user.length === 0) errs.push("runAsUserName's User cannot be empty");
  else if (Buffer.byteLength(user) > MAX_USER_LENGTH) errs.push(`runAsUserName's User length must not be longer than ${MAX_USER_LENGTH} characters`);
  if (DOTS_SPACES_RE.test(user)) errs.push("runAsUserName's User cannot contain only periods or spaces");
  if (BAD_USER_CHARS_RE.test(user)) errs.push('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
  return errs;
}

/** validateWindowsHostProcessPod is validateWindowsHostProcessPod: all containers HostProcess or none, on the host network. */
export function validateWindowsHostProcessPod(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podHostProcess = spec.securityContext?.windowsOptions?.hostProcess;
  let containers = 0;
  let hostProcessContainers = 0;
  visitContainersWithPath(spec, path, (c, at) => {
    containers++;
    const own = c.securityContext?.windowsOptions?.hostProcess;
    if (podHostProcess !== undefined && podHostProcess !== null && own !== undefined && own !== null && podHostProcess !== own) {
      errs.push(invalidValue(child(at, 'securityContext', 'windowsOptions', 'hostProcess'), own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`));
    }
    if (own === true || ((own === undefined || own === null) && podHostProcess === true)) hostProcessContainers++;
  });
  if (hostProcessContainers > 0) {
    if (hostProcessContainers !== containers) errs.push(invalidValue(path, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    if (spec.hostNetwork !== true) errs.push(invalidValue(child(path, 'hostNetwork'), false, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return errs;
}

/** validateOS is validateOS, then validateLinux or validateWindows when the name is valid. */
export function validateOS(spec: PodSpec, path: string): FieldError[] {
  if (!spec.os) return [];
  const name = spec.os.name ?? '';
  // An empty name is only Required, without a detail (validateOS, pkg/apis/core/validation/validation.go, v1.36.3).
  if (!name) return [required(child(path, 'os', 'name'))];
  if (!OS_NAMES.includes(name)) return [notSupported(child(path, 'os'), asJSON(name), OS_NAMES)];
  return name === 'linux' ? validateLinux(spec, path) : validateWindows(spec, path);
}

function validateLinux(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const linuxOnly = 'windows options cannot be set for a linux pod';
  if (spec.securityContext?.windowsOptions) errs.push(forbidden(child(path, 'securityContext', 'windowsOptions'), linuxOnly));
  visitContainersWithPath(spec, path, (c, at) => {
    if (c.securityContext?.windowsOptions) errs.push(forbidden(child(at, 'securityContext', 'windowsOptions'), linuxOnly));
  });
  return errs;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

function validateWindows(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // Why: converting v1 to the internal type always allocates the pod security context (it holds hostNetwork & co.).
  const sc = (spec.securityContext ?? {}) as PodSecurityContext136;
  const scPath = child(path, 'securityContext');
  const podChecks: [boolean, string][] = [
    [isSet(sc.appArmorProfile), child(scPath, 'appArmorProfile')], [isSet(sc.seLinuxOptions), child(scPath, 'seLinuxOptions')],
    [isSet(spec.hostUsers), child(path, 'hostUsers')], [spec.hostPID === true, child(path, 'hostPID')],
    [spec.hostIPC === true, child(path, 'hostIPC')], [isSet(sc.seccompProfile), child(scPath, 'seccompProfile')],
    [isSet(sc.fsGroup), child(scPath, 'fsGroup')], [isSet(sc.fsGroupChangePolicy), child(scPath, 'fsGroupChangePolicy')],
    [(sc.sysctls ?? []).length > 0, child(scPath, 'sysctls')], [isSet(spec.shareProcessNamespace), child(path, 'shareProcessNamespace')],
    [isSet(sc.runAsUser), child(scPath, 'runAsUser')], [isSet(sc.runAsGroup), child(scPath, 'runAsGroup')],
    [isSet(sc.supplementalGroups), child(scPath, 'supplementalGroups')],
    [isSet(sc.supplementalGroupsPolicy), child(scPath, 'supplementalGroupsPolicy')],
    [isSet(sc.seLinuxChangePolicy), child(scPath, 'seLinuxChangePolicy')],
  ];
  for (const [set, at] of podChecks) if (set) errs.push(forbidden(at, NOT_FOR_WINDOWS));
  const containerFields = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'] as const;
  visitContainersWithPath(spec, path, (c, at) => {
    const csc = c.securityContext;
    if (!csc) return;
    for (const f of containerFields) if (isSet(csc[f])) errs.push(forbidden(child(at, 'securityContext', f), NOT_FOR_WINDOWS));
  });
  return errs;
}
