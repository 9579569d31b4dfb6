// The restricted checks: privilege escalation, capabilities, /proc mount, volume types, non-root, user and seccomp.
// Each follows its file under staging/src/k8s.io/pod-security-admission/policy.
import type { ObjectMeta, PodSpec, Volume } from '../../../api/types';
import { HOST_PATH_VOLUMES_ID } from './checks-baseline-host';
import { procMount_1_0, validSeccomp } from './checks-baseline-profiles';
import {
  ALLOWED, type Check, type CheckPodFn, type CheckResult, containerNames, forbid, isWindowsPod, joinQuote, pluralize, relaxPolicyForUserNamespacePod,
  sortedSet, visitContainers,
} from './checks';
import { majorMinor } from './levels';

const POLICY = 'staging/src/k8s.io/pod-security-admission/policy';

/**
 * exceptWindows skips a check for a pod whose spec.os.name is windows: Pod validation already refuses the Linux-only
 * fields there (the _1_25 revisions of allowPrivilegeEscalation, capabilities_restricted and seccompProfile_restricted).
 */
function exceptWindows(check: CheckPodFn): CheckPodFn {
  return (meta, spec) => (isWindowsPod(spec) ? ALLOWED : check(meta, spec));
}

/** exceptUserNamespace skips a check for a pod with `hostUsers: false` (the 1.35 revisions of runAsNonRoot and runAsUser, KEP-127). */
function exceptUserNamespace(check: CheckPodFn): CheckPodFn {
  return (meta, spec) => (relaxPolicyForUserNamespacePod(spec) ? ALLOWED : check(meta, spec));
}

/** allowPrivilegeEscalation_1_8 requires allowPrivilegeEscalation=false on every container. See policy/check_allowPrivilegeEscalation.go. */
function allowPrivilegeEscalation_1_8(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) badContainers.push(c.name);
  });
  if (!badContainers.length) return ALLOWED;
  return forbid('allowPrivilegeEscalation != false', `${containerNames(badContainers)} must set securityContext.allowPrivilegeEscalation=false`);
}

/** capabilitiesRestricted_1_22 requires drop ["ALL"] and allows adding only NET_BIND_SERVICE. See policy/check_capabilities_restricted.go. */
function capabilitiesRestricted_1_22(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  visitContainers(podSpec, (c) => {
    const capabilities = c.securityContext?.capabilities;
    if (!capabilities) {
      missingDropAll.push(c.name);
      return;
    }
    if (!(capabilities.drop ?? []).includes('ALL')) missingDropAll.push(c.name);
    const bad = (capabilities.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    forbiddenCapabilities.push(...bad);
    if (bad.length) addingForbidden.push(c.name);
  });
  const details: string[] = [];
  if (missingDropAll.length) details.push(`${containerNames(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length) {
    details.push(`${containerNames(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`);
  }
  return details.length ? forbid('unrestricted capabilities', details.join('; ')) : ALLOWED;
}

/** ALLOWED_VOLUME_SOURCES are the volume types restricted allows: core types and those defined through PersistentVolumes. */
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

/** RESTRICTED_VOLUME_SOURCES are the other types, in the order the check tests them; a volume with none is "unknown". */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'portworxVolume', 'photonPersistentDisk', 'scaleIO', 'storageos',
];

/** hasSource tells whether a volume sets a source (a non-null pointer in Go). */
function hasSource(volume: Volume, source: string): boolean {
  const value = (volume as unknown as Readonly<Record<string, unknown>>)[source];
  return value !== undefined && value !== null;
}

/** restrictedVolumes_1_0 allows only the core volume types. See policy/check_restrictedVolumes.go. */
function restrictedVolumes_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of podSpec.volumes ?? []) {
    if (ALLOWED_VOLUME_SOURCES.some((s) => hasSource(volume, s))) continue;
    badVolumes.push(volume.name);
    badTypes.push(RESTRICTED_VOLUME_SOURCES.find((s) => hasSource(volume, s)) ?? 'unknown');
  }
  if (!badVolumes.length) return ALLOWED;
  const types = sortedSet(badTypes);
  return forbid(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
}

/**
 * runAsNonRoot_1_0 requires runAsNonRoot=true on the pod, or on every container the pod does not cover; an explicit
 * false is reported first. See policy/check_runAsNonRoot.go.
 */
function runAsNonRoot_1_0(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const podValue = podSpec.securityContext?.runAsNonRoot;
  if (podValue === false) badSetters.push('pod');
  const podRunAsNonRoot = podValue === true;
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(podSpec, (c) => {
    const value = c.securityContext?.runAsNonRoot;
    if (value === false) explicitlyBad.push(c.name);
    else if (value == null && !podRunAsNonRoot) implicitlyBad.push(c.name);
  });
  if (explicitlyBad.length) badSetters.push(containerNames(explicitlyBad));
  if (badSetters.length) return forbid('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicitlyBad.length) return forbid('runAsNonRoot != true', `pod or ${containerNames(implicitlyBad)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
}

/** runAsUser_1_23 forbids runAsUser=0 on the pod or a container. See policy/check_runAsUser.go. */
function runAsUser_1_23(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  if (podSpec.securityContext?.runAsUser === 0) badSetters.push('pod');
  const badContainers: string[] = [];
  visitContainers(podSpec, (c) => {
    if (c.securityContext?.runAsUser === 0) badContainers.push(c.name);
  });
  if (badContainers.length) badSetters.push(containerNames(badContainers));
  return badSetters.length ? forbid('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
}

/**
 * seccompProfileRestricted_1_19 requires seccompProfile.type RuntimeDefault or Localhost on the pod, or on every container
 * the pod does not cover; a bad explicit value is reported first. See policy/check_seccompProfile_restricted.go.
 */
function seccompProfileRestricted_1_19(_meta: ObjectMeta, podSpec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podSeccompSet = false;
  const podProfile = podSpec.securityContext?.seccompProfile;
  if (podProfile) {
    if (validSeccomp(podProfile.type)) podSeccompSet = true;
    else {
      badSetters.push('pod');
      badValues.push(podProfile.type ?? '');
    }
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(podSpec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (profile) {
      if (!validSeccomp(profile.type)) {
        explicitlyBad.push(c.name);
        badValues.push(profile.type ?? '');
      }
    } else if (!podSeccompSet) implicitlyBad.push(c.name);
  });
  if (explicitlyBad.length) badSetters.push(containerNames(explicitlyBad));
  if (badSetters.length) {
    return forbid('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`);
  }
  if (implicitlyBad.length) {
    return forbid('seccompProfile', `pod or ${containerNames(implicitlyBad)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return ALLOWED;
}

/** RESTRICTED_CHECKS are the restricted checks, each with its revisions and the baseline checks it overrides. */
export const RESTRICTED_CHECKS: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation', level: 'restricted', source: `${POLICY}/check_allowPrivilegeEscalation.go`,
    versions: [
      { minimumVersion: majorMinor(1, 8), checkPod: allowPrivilegeEscalation_1_8 },
      { minimumVersion: majorMinor(1, 25), checkPod: exceptWindows(allowPrivilegeEscalation_1_8) },
    ],
  },
  {
    id: 'capabilities_restricted', level: 'restricted', source: `${POLICY}/check_capabilities_restricted.go`,
    versions: [
      { minimumVersion: majorMinor(1, 22), checkPod: capabilitiesRestricted_1_22, overrideCheckIDs: ['capabilities_baseline'] },
      { minimumVersion: majorMinor(1, 25), checkPod: exceptWindows(capabilitiesRestricted_1_22), overrideCheckIDs: ['capabilities_baseline'] },
    ],
  },
  {
    // Why: from 1.35 baseline procMount relaxes for user namespaces; restricted keeps the unconditional check in its place.
    id: 'procMount_restricted', level: 'restricted', source: `${POLICY}/check_procMount_restricted.go`,
    versions: [{ minimumVersion: majorMinor(1, 35), checkPod: procMount_1_0, overrideCheckIDs: ['procMount'] }],
  },
  {
    id: 'restrictedVolumes', level: 'restricted', source: `${POLICY}/check_restrictedVolumes.go`,
    versions: [{ minimumVersion: majorMinor(1, 0), checkPod: restrictedVolumes_1_0, overrideCheckIDs: [HOST_PATH_VOLUMES_ID] }],
  },
  {
    id: 'runAsNonRoot', level: 'restricted', source: `${POLICY}/check_runAsNonRoot.go`,
    versions: [
      { minimumVersion: majorMinor(1, 0), checkPod: runAsNonRoot_1_0 },
      { minimumVersion: majorMinor(1, 35), checkPod: exceptUserNamespace(runAsNonRoot_1_0) },
    ],
  },
  {
    id: 'runAsUser', level: 'restricted', source: `${POLICY}/check_runAsUser.go`,
    versions: [
      { minimumVersion: majorMinor(1, 23), checkPod: runAsUser_1_23 },
      { minimumVersion: majorMinor(1, 35), checkPod: exceptUserNamespace(runAsUser_1_23) },
    ],
  },
  {
    id: 'seccompProfile_restricted', level: 'restricted', source: `${POLICY}/check_seccompProfile_restricted.go`,
    versions: [
      { minimumVersion: majorMinor(1, 19), checkPod: seccompProfileRestricted_1_19, overrideCheckIDs: ['seccompProfile_baseline'] },
      { minimumVersion: majorMinor(1, 25), checkPod: exceptWindows(seccompProfileRestricted_1_19), overrideCheckIDs: ['seccompProfile_baseline'] },
    ],
  },
];
