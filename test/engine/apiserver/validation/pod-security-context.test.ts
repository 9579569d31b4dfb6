// Security contexts: ValidateSecurityContext (containers) and validatePodSpecSecurityContext (the pod), seccomp and
// AppArmor profiles, sysctls, user namespaces and the seccomp annotation/field agreement, from
// pkg/apis/core/validation/validation.go; cases echo TestValidateSecurityContext and TestValidatePodSpec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePod, podErrors } from './builders';

const sc0 = 'spec.containers[0].securityContext';
// IsValidUserID and IsValidGroupID: 0..math.MaxInt32 (apimachinery util/validation, v0.36.3), as the reference cluster says.
const ID_RANGE = 'must be between 0 and 2147483647, inclusive';

const cases = [
  // ValidateSecurityContext.
  {
    name: 'Container user and group IDs must fit an int32',
    pod: makePod().withContainer({ securityContext: { runAsUser: -1, runAsGroup: 2147483648 } }),
    want: [`${sc0}.runAsUser: Invalid value: -1: ${ID_RANGE}`, `${sc0}.runAsGroup: Invalid value: 2147483648: ${ID_RANGE}`],
  },
  {
    name: 'Privileged with allowPrivilegeEscalation false is invalid, printed as the internal struct',
    pod: makePod().withContainer({ securityContext: { privileged: true, allowPrivilegeEscalation: false } }),
    want: [`${sc0}: Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`],
  },
  {
    name: 'Adding CAP_SYS_ADMIN with allowPrivilegeEscalation false is invalid',
    pod: makePod().withContainer({ securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] } } }),
    want: [`${sc0}: Invalid value: {"Capabilities":{"Add":["CAP_SYS_ADMIN"],"Drop":null},"Privileged":null,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`],
  },
  {
    name: 'An unmasked proc mount needs hostUsers false; unknown ones are unsupported',
    pod: makePod().withContainer({ securityContext: { procMount: 'Unmasked' } }).withInitContainers({ name: 'init', image: 'busybox:1.36', securityContext: { procMount: 'Masked' } }),
    want: [
      `${sc0}.procMount: Invalid value: "Unmasked": \`hostUsers\` must be false to use \`Unmasked\``,
      'spec.initContainers[0].securityContext.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"',
    ],
  },
  { name: 'An unmasked proc mount is fine in a user namespace', pod: makePod().withSpec({ hostUsers: false }).withContainer({ securityContext: { procMount: 'Unmasked' } }), want: [] },
  // validateSeccompProfileField.
  {
    name: 'A seccomp profile needs a type, a Localhost one its profile, others none',
    pod: makePod().withContainer({ securityContext: { seccompProfile: { type: 'Localhost' } } }).withSpec({ securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'p.json' } } }),
    want: [
      `${sc0}.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost`,
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"p.json"}: can only be set when seccomp type is Localhost',
    ],
  },
  {
    name: 'An empty or unknown seccomp type is reported',
    pod: makePod().withContainer({ securityContext: { seccompProfile: { type: '' } } }, 0).withSpec({ securityContext: { seccompProfile: { type: 'Strict' } } }),
    want: [
      `${sc0}.seccompProfile.type: Required value: type is required when seccompProfile is set`,
      'spec.securityContext.seccompProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ],
  },
  // ValidateAppArmorProfileField.
  {
    name: 'A Localhost AppArmor profile may not be padded; other types take none',
    pod: makePod().withContainer({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: ' k8s-nginx ' } } }).withSpec({ securityContext: { appArmorProfile: { type: 'Unconfined', localhostProfile: 'x' } } }),
    want: [
      `${sc0}.appArmorProfile.localhostProfile: Invalid value: " k8s-nginx ": must not be padded with whitespace`,
      'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "x": can only be set when AppArmor type is Localhost',
    ],
  },
  // validatePodSpecSecurityContext.
  {
    name: 'Pod IDs must fit an int32 and process namespace sharing excludes hostPID',
    pod: makePod().withSpec({ hostPID: true, shareProcessNamespace: true, securityContext: { fsGroup: -1, runAsUser: -2, supplementalGroups: [5, -3] } }),
    want: [
      `spec.securityContext.fsGroup: Invalid value: -1: ${ID_RANGE}`,
      `spec.securityContext.runAsUser: Invalid value: -2: ${ID_RANGE}`,
      `spec.securityContext.supplementalGroups[1]: Invalid value: -3: ${ID_RANGE}`,
      'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
    ],
  },
  {
    name: 'Enumerated pod security fields list their values',
    pod: makePod().withSpec({ securityContext: { fsGroupChangePolicy: 'Sometimes', supplementalGroupsPolicy: 'Loose', seLinuxChangePolicy: 'Relabel' } }),
    want: [
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
      // SELinuxMount is off in 1.36: a new pod may only ask for Recursive (the reference cluster's answer).
      'spec.securityContext.seLinuxChangePolicy: Unsupported value: "Relabel": supported values: "Recursive"',
    ],
  },
  // validateSysctls and ValidateHostSysctl.
  {
    name: 'Sysctls are named, well formed, unique, and not of a namespace shared with the host',
    pod: makePod().withSpec({ hostNetwork: true, securityContext: { sysctls: [{ name: '', value: '1' }, { name: 'Kernel.Foo', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '0' }, { name: 'net.core.somaxconn', value: '1024' }] } }),
    want: [
      'spec.securityContext.sysctls[0].name: Required value',
      'spec.securityContext.sysctls[1].name: Invalid value: "Kernel.Foo": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'spec.securityContext.sysctls[3].name: Duplicate value: "kernel.shm_rmid_forced"',
      "spec.securityContext.sysctls[4].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
    ],
  },
  // validateHostUsers: the paths are Go's (hostNetwork, HostPID, HostIPC).
  {
    name: 'A pod in a user namespace may not share host namespaces',
    pod: makePod().withSpec({ hostUsers: false, hostNetwork: true, hostPID: true, hostIPC: true }).withContainer({ ports: [] }),
    want: [
      'spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false',
      'spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false',
      'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false',
    ],
  },
  // validateWindowsSecurityContextOptions.
  {
    name: 'A Windows user name has at most one backslash',
    pod: makePod().withContainer({ securityContext: { windowsOptions: { runAsUserName: 'a\\b\\c' } } }),
    want: [`${sc0}.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`],
  },
  // validateSeccompAnnotationsAndFields.
  {
    name: 'A seccomp annotation and field that disagree are forbidden',
    pod: makePod().withMetadata({ annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }).withSpec({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }),
    want: ['spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
