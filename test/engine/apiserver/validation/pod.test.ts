// Pod-level rules of ValidatePodCreate and ValidatePodSpec, and the order errors come in. Each case names the rule in
// pkg/apis/core/validation/validation.go it follows (and its TestValidatePodSpec / TestValidatePodCreate case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_NAME_ERROR, LABEL_ERROR, LABEL_VALUE_ERROR, makeContainer, makePod, podErrors, SUBDOMAIN_ERROR, templateErrors } from './builders';

const IP_ERROR = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const UNDERSCORE_SUBDOMAIN_ERROR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";

const cases = [
  // ValidatePodSpec: "good" cases.
  { name: 'A minimal defaulted pod is valid', pod: makePod(), want: [] },
  {
    name: 'A pod with every common field set well is valid',
    pod: makePod()
      .withSpec({ hostname: 'web-0', subdomain: 'web', nodeSelector: { 'kubernetes.io/os': 'linux' }, priorityClassName: 'high', activeDeadlineSeconds: 600, dnsConfig: { nameservers: ['10.0.0.10'], searches: ['_sip._tcp.example.com', 'svc.cluster.local.'], options: [{ name: 'ndots', value: '2' }] } }),
    want: [],
  },
  // validateContainers: "zero-length containers".
  { name: 'A pod without containers is rejected: containers are required', pod: makePod().withContainers(), want: ['spec.containers: Required value'] },
  // validateRestartPolicy, "bad restartPolicy".
  {
    name: 'An unknown restartPolicy lists the three policies in their Go order',
    pod: makePod().withSpec({ restartPolicy: 'Sometimes' }),
    want: ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
  },
  // validateDNSPolicy, "bad DNSPolicy".
  {
    name: 'An unknown dnsPolicy lists the four policies',
    pod: makePod().withSpec({ dnsPolicy: 'Cluster' }),
    want: ['spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'],
  },
  // validatePodDNSConfig, "bad DNSConfig: DNSNone without DNSConfig" and "without nameservers".
  { name: 'dnsPolicy None needs a dnsConfig', pod: makePod().withSpec({ dnsPolicy: 'None' }), want: ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None'] },
  {
    name: 'dnsPolicy None needs a nameserver in dnsConfig',
    pod: makePod().withSpec({ dnsPolicy: 'None', dnsConfig: { searches: ['example.com'] } }),
    want: ['spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None'],
  },
  // validatePodDNSConfig: MaxDNSNameservers and IsValidIP.
  {
    name: 'More than three nameservers and a bad address are both reported',
    pod: makePod().withSpec({ dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', 'dns.local'] } }),
    want: [
      'spec.dnsConfig.nameservers: Invalid value: ["1.1.1.1","2.2.2.2","3.3.3.3","dns.local"]: must not have more than 3 nameservers',
      `spec.dnsConfig.nameservers[3]: Invalid value: "dns.local": ${IP_ERROR}`,
    ],
  },
  // validatePodDNSConfig with AllowRelaxedDNSSearchValidation (RelaxedDNSSearchValidation, GA in 1.34).
  {
    name: 'A search domain is checked as a subdomain that may hold underscores, without its trailing dot',
    pod: makePod().withSpec({ dnsConfig: { searches: ['Example.com.', '.'], options: [{ value: '2' }] } }),
    want: [
      `spec.dnsConfig.searches[0]: Invalid value: "Example.com": ${UNDERSCORE_SUBDOMAIN_ERROR}`,
      'spec.dnsConfig.options[0]: Required value: must not be empty',
    ],
  },
  // ValidatePodSpec: serviceAccountName, nodeName, priorityClassName and runtimeClassName are DNS subdomains.
  {
    name: 'Service account, node, priority class and runtime class names must be DNS subdomains',
    pod: makePod().withSpec({ serviceAccountName: 'Bad_SA', nodeName: 'Node_1', priorityClassName: 'High', runtimeClassName: 'gVisor' }),
    want: [
      `spec.serviceAccountName: Invalid value: "Bad_SA": ${SUBDOMAIN_ERROR}`,
      `spec.nodeName: Invalid value: "Node_1": ${SUBDOMAIN_ERROR}`,
      `spec.priorityClassName: Invalid value: "High": ${SUBDOMAIN_ERROR}`,
      `spec.runtimeClassName: Invalid value: "gVisor": ${SUBDOMAIN_ERROR}`,
    ],
  },
  // ValidatePodSpec: activeDeadlineSeconds, "bad-active-deadline-seconds".
  {
    name: 'activeDeadlineSeconds must be between 1 and MaxInt32',
    pod: makePod().withSpec({ activeDeadlineSeconds: 0 }),
    want: ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
  },
  // ValidatePodSpec: hostname and subdomain are DNS labels; a dotted name says so (IsDNS1123Label).
  {
    name: 'A dotted hostname is told it must not contain dots, a bad subdomain gets the label message',
    pod: makePod().withSpec({ hostname: 'web.example', subdomain: 'Web' }),
    want: ['spec.hostname: Invalid value: "web.example": must not contain dots', `spec.subdomain: Invalid value: "Web": ${LABEL_ERROR}`],
  },
  // ValidateLabels on spec.nodeSelector: errors sit at the map's path.
  {
    name: 'A nodeSelector key and value are checked as label key and value at the map path',
    pod: makePod().withSpec({ nodeSelector: { 'disk type': 'fast ssd' } }),
    want: [`spec.nodeSelector: Invalid value: "disk type": ${KEY_NAME_ERROR}`, `spec.nodeSelector: Invalid value: "fast ssd": ${LABEL_VALUE_ERROR}`],
  },
  // validateSchedulingGates and ValidatePodCreate ("nodeName cannot be set with schedulingGates").
  {
    name: 'A repeated scheduling gate is a duplicate, and a gated pod may not name its node',
    pod: makePod().withSpec({ nodeName: 'worker-1', schedulingGates: [{ name: 'example.com/gate' }, { name: 'example.com/gate' }] }),
    want: ['spec.schedulingGates[1]: Duplicate value: "example.com/gate"', 'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
  },
  // validateReadinessGates.
  {
    name: 'A readiness gate condition type must be a qualified name',
    pod: makePod().withSpec({ readinessGates: [{ conditionType: 'bad type' }] }),
    want: [`spec.readinessGates[0].conditionType: Invalid value: "bad type": ${KEY_NAME_ERROR}`],
  },
  // ValidatePodCreate: "ephemeral containers cannot be set on create".
  {
    name: 'Ephemeral containers cannot be set on create',
    pod: makePod().withEphemeralContainers({ name: 'debug', image: 'busybox:1.36' }),
    want: ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
  },
  // validateEphemeralContainers: names unique across all kinds, a known target, no ports.
  {
    name: 'An ephemeral container reusing a name, targeting nothing and with ports gets each error',
    pod: makePod().withEphemeralContainers({ name: 'app', image: 'busybox:1.36', targetContainerName: 'db', ports: [{ containerPort: 80 }] }),
    want: [
      'spec.ephemeralContainers[0].name: Duplicate value: "app"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "db"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    ],
  },
  // validatePodMetadataAndSpec: validateContainersOnlyForPod comes after the whole spec.
  {
    name: 'An image with surrounding whitespace is reported after every spec error',
    pod: makePod().withContainer({ image: ' nginx:1.27' }).withSpec({ restartPolicy: 'Sometimes' }),
    want: [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.containers[0].image: Invalid value: " nginx:1.27": must not have leading or trailing whitespace',
    ],
  },
  // validatePodHostNetworkDeps with ResourceIsPod.
  {
    name: 'With hostNetwork a pod container hostPort must equal its containerPort',
    pod: makePod().withSpec({ hostNetwork: true }).withContainer({ ports: [{ containerPort: 80, hostPort: 8080 }] }),
    want: ['spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true'],
  },
  // ValidateHostAliases.
  {
    name: 'A host alias needs an IP and subdomain hostnames',
    pod: makePod().withSpec({ hostAliases: [{ ip: '999.1.1.1', hostnames: ['ok.local', 'Bad_Host'] }] }),
    want: [`spec.hostAliases[0].ip: Invalid value: "999.1.1.1": ${IP_ERROR}`, `spec.hostAliases[0].hostnames[1]: Invalid value: "Bad_Host": ${SUBDOMAIN_ERROR}`],
  },
  // validateOS.
  {
    name: 'An unknown OS lists linux and windows at spec.os',
    pod: makePod().withSpec({ os: { name: 'plan9' } }),
    want: ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"'],
  },
  // validateWindows.
  {
    name: 'A Windows pod may not set Linux-only security fields',
    pod: makePod().withSpec({ os: { name: 'windows' }, hostPID: true, securityContext: { runAsUser: 1000 } }).withContainer({ securityContext: { privileged: false } }),
    want: [
      'spec.hostPID: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
    ],
  },
  // validateLinux.
  {
    name: 'A Linux pod may not set Windows options',
    pod: makePod().withSpec({ os: { name: 'linux' } }).withContainer({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }),
    want: ['spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
  },
  // validateOverhead reuses the container requirements: the path has `limits`.
  {
    name: 'A negative overhead is reported under overhead.limits',
    pod: makePod().withSpec({ overhead: { cpu: '-1' } }),
    want: ['spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
  },
  // ValidatePreemptionPolicy.
  {
    name: 'An unknown preemption policy is unsupported',
    pod: makePod().withSpec({ preemptionPolicy: 'Sometimes' }),
    want: ['spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
  },
  // ValidatePodSpecificAnnotations: mirror pod and deletion cost.
  {
    name: 'A mirror pod annotation needs a node and a deletion cost must be a 32-bit integer',
    pod: makePod().withMetadata({ annotations: { 'kubernetes.io/config.mirror': 'abc', 'controller.kubernetes.io/pod-deletion-cost': '+1' } }),
    want: [
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "abc": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+1": must be a 32bit integer',
    ],
  },
  // ValidateSeccompPodAnnotations.
  {
    name: 'A seccomp annotation must name a known profile',
    pod: makePod().withMetadata({ annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'strict' } }),
    want: ['metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "strict": must be a valid seccomp profile'],
  },
  // ValidateAppArmorPodAnnotations.
  {
    name: 'An AppArmor annotation must name an existing container and a known profile',
    pod: makePod().withMetadata({ annotations: { 'container.apparmor.security.beta.kubernetes.io/db': 'strict' } }),
    want: [
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/db]: Invalid value: "db": container not found',
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/db]: Invalid value: "strict": invalid AppArmor profile name: "strict"',
    ],
  },
  // validatePodMetadataAndSpec: projected tokens need a service account.
  {
    name: 'A projected service account token needs a service account name',
    pod: makePod().withVolumes({ name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }),
    want: ['spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set'],
  },
  // ValidatePodSpec's order: volumes, containers, init containers, then the pod-level fields.
  {
    name: 'Errors come in ValidatePodSpec order: volumes, containers, init containers, pod fields',
    pod: makePod()
      .withSpec({ restartPolicy: 'Sometimes', tolerations: [{ operator: 'Equal' }] })
      .withVolumes({ name: 'Data', emptyDir: {} })
      .withInitContainers(makeContainer('init', { imagePullPolicy: 'Sometimes' }))
      .withContainer({ name: 'App' }),
    want: [
      `spec.volumes[0].name: Invalid value: "Data": ${LABEL_ERROR}`,
      `spec.containers[0].name: Invalid value: "App": ${LABEL_ERROR}`,
      'spec.initContainers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}

// validatePodSpec for a workload's template: ResourceIsPod is false.
const templateCases = [
  {
    name: 'A template may leave hostPort 0 under hostNetwork for the pod defaulting to fill',
    pod: makePod().withSpec({ hostNetwork: true }).withContainer({ ports: [{ containerPort: 80 }] }),
    want: [],
  },
  {
    name: 'A template image may keep surrounding whitespace (only pods are checked)',
    pod: makePod().withContainer({ image: 'nginx:1.27 ' }),
    want: [],
  },
  {
    name: 'A template error carries the template path',
    pod: makePod().withContainer({ name: 'App' }),
    want: [`spec.template.spec.containers[0].name: Invalid value: "App": ${LABEL_ERROR}`],
  },
];

for (const c of templateCases) {
  test(c.name, () => {
    assert.deepEqual(templateErrors(c.pod), c.want);
  });
}
