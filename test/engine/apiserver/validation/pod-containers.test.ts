// Container rules of validateContainers, validateInitContainers and validateContainerCommon, with env and envFrom
// (ValidateEnv, ValidateEnvFrom) and volume mounts (ValidateVolumeMounts), from pkg/apis/core/validation/validation.go.
// Case names echo TestValidateContainers, TestValidateInitContainers, TestValidateEnv and TestValidateVolumeMounts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_NAME_ERROR, LABEL_ERROR, makeContainer, makePod, podErrors, SUBDOMAIN_ERROR } from './builders';

const ENV_NAME_ERROR = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_KEY_ERROR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const NOT_WITHOUT_ALWAYS = 'may not be set for init containers without restartPolicy=Always';
const c0 = 'spec.containers[0]';

const cases = [
  // validateContainerCommon: name.
  { name: 'A container name must be a DNS label', pod: makePod().withContainer({ name: 'App' }), want: [`${c0}.name: Invalid value: "App": ${LABEL_ERROR}`] },
  { name: 'A container name is required', pod: makePod().withContainer({ name: '' }), want: [`${c0}.name: Required value`] },
  // validateContainers / validateInitContainers: names unique across regular and init containers.
  {
    name: 'Two containers with one name: the second is a duplicate',
    pod: makePod().withContainers(makeContainer('app'), makeContainer('app')),
    want: ['spec.containers[1].name: Duplicate value: "app"'],
  },
  {
    name: 'An init container may not reuse a container name',
    pod: makePod().withInitContainers(makeContainer('app')),
    want: ['spec.initContainers[0].name: Duplicate value: "app"'],
  },
  // validateContainerCommon: image, pull policy, termination message policy.
  { name: 'An image is required', pod: makePod().withContainer({ image: '' }), want: [`${c0}.image: Required value`] },
  {
    name: 'An unknown imagePullPolicy lists the three policies',
    pod: makePod().withContainer({ imagePullPolicy: 'Sometimes' }),
    want: [`${c0}.imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`],
  },
  {
    name: 'An unknown terminationMessagePolicy lists File and FallbackToLogsOnError',
    pod: makePod().withContainer({ terminationMessagePolicy: 'Never' }),
    want: [`${c0}.terminationMessagePolicy: Unsupported value: "Never": supported values: "File", "FallbackToLogsOnError"`],
  },
  // validateContainerPorts.
  {
    name: 'A container port is required and must be between 1 and 65535, and so must a host port',
    pod: makePod().withContainer({ ports: [{ name: 'a' }, { containerPort: 70000, hostPort: 65536 }] }),
    want: [
      `${c0}.ports[0].containerPort: Required value`,
      `${c0}.ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
      `${c0}.ports[1].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive`,
    ],
  },
  {
    name: 'An unknown protocol lists SCTP, TCP and UDP',
    pod: makePod().withContainer({ ports: [{ containerPort: 80, protocol: 'HTTP' }] }),
    want: [`${c0}.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`],
  },
  {
    name: 'Port names follow IANA_SVC_NAME and are unique in a container',
    pod: makePod().withContainer({ ports: [{ name: 'HTTP', containerPort: 80 }, { name: 'metrics-endpoint-1', containerPort: 81 }, { name: '8080', containerPort: 82 }, { name: 'web', containerPort: 83 }, { name: 'web', containerPort: 84 }] }),
    want: [
      `${c0}.ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      `${c0}.ports[0].name: Invalid value: "HTTP": must contain at least one letter (a-z)`,
      `${c0}.ports[1].name: Invalid value: "metrics-endpoint-1": must be no more than 15 characters`,
      `${c0}.ports[2].name: Invalid value: "8080": must contain at least one letter (a-z)`,
      `${c0}.ports[4].name: Duplicate value: "web"`,
    ],
  },
  // checkHostPortConflicts across containers.
  {
    name: 'Two containers on one host port and protocol conflict',
    pod: makePod().withContainers(makeContainer('a', { ports: [{ containerPort: 80, hostPort: 80 }] }), makeContainer('b', { ports: [{ containerPort: 81, hostPort: 80 }] })),
    want: ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"'],
  },
  // validateInitContainers: checkHostPortConflicts([]core.Container{ctr}, fldPath) always says [0].
  {
    name: 'An init container host port clash is reported at index 0, as Go passes a one-element list',
    pod: makePod().withInitContainers(makeContainer('a'), makeContainer('b', { ports: [{ containerPort: 80, hostPort: 80 }, { containerPort: 81, hostPort: 80 }] })),
    want: ['spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//80"'],
  },
  // validateInitContainerRestartPolicy and validateContainerRestartPolicy (ContainerRestartRules and
  // RestartAllContainersOnContainerExits on), and the sidecar rules; messages as the reference cluster gives them.
  {
    name: 'An init container may restart OnFailure (ContainerRestartRules), but not Sometimes',
    pod: makePod().withInitContainers(makeContainer('a', { restartPolicy: 'OnFailure' }), makeContainer('b', { restartPolicy: 'Sometimes' })),
    want: ['spec.initContainers[1].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"'],
  },
  {
    name: 'Restart rules need a restart policy, a known action and exit codes with a known operator',
    pod: makePod().withContainer({ restartPolicyRules: [{ action: 'Panic', exitCodes: { operator: 'Between', values: [1] } }, { action: 'Restart' }] })
      .withInitContainers(makeContainer('init', { restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }] })),
    want: [
      `${c0}.restartPolicy: Required value: must specify restartPolicy when restart rules are used`,
      `${c0}.restartPolicyRules[0].action: Unsupported value: "Panic": supported values: "Restart", "RestartAllContainers"`,
      `${c0}.restartPolicyRules[0].exitCodes.operator: Unsupported value: "Between": supported values: "In", "NotIn"`,
      `${c0}.restartPolicyRules[1].exitCodes: Required value: must be specified`,
      'spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
    ],
  },
  {
    name: 'Only a sidecar init container may restart itself for a resize',
    pod: makePod().withInitContainers(makeContainer('init', { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] })),
    want: ['spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to \'RestartContainer\' for non-sidecar initContainers'],
  },
  {
    name: 'A plain init container may not have a lifecycle or probes',
    pod: makePod().withInitContainers(makeContainer('init', { lifecycle: { preStop: { exec: { command: ['true'] } } }, readinessProbe: { exec: { command: ['true'] } } })),
    want: [`spec.initContainers[0].lifecycle: Forbidden: ${NOT_WITHOUT_ALWAYS}`, `spec.initContainers[0].readinessProbe: Forbidden: ${NOT_WITHOUT_ALWAYS}`],
  },
  {
    name: 'A sidecar may have probes, which are then validated',
    pod: makePod().withInitContainers(makeContainer('proxy', { restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 15021 } }, livenessProbe: { tcpSocket: { port: 0 } } })),
    want: ['spec.initContainers[0].livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive'],
  },
  // ValidateEnv with the relaxed names of 1.34+.
  {
    name: 'Env names may be any printable ASCII but =, and are required',
    pod: makePod().withContainer({ env: [{ name: 'MY VAR.1', value: 'x' }, { name: 'A=B', value: 'x' }, { name: '', value: 'x' }] }),
    want: [`${c0}.env[1].name: Invalid value: "A=B": ${ENV_NAME_ERROR}`, `${c0}.env[2].name: Required value`],
  },
  // validateEnvVarValueFrom.
  {
    name: 'valueFrom needs exactly one source and no value beside it',
    pod: makePod().withContainer({
      env: [
        { name: 'A', valueFrom: {} },
        { name: 'B', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
      ],
    }),
    want: [
      `${c0}.env[0].valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\`, \`secretKeyRef\` or \`fileKeyRef\``,
      `${c0}.env[1].valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`,
      `${c0}.env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
    ],
  },
  // validateObjectFieldSelector with validEnvDownwardAPIFieldPathExpressions.
  {
    name: 'A fieldRef path must convert and be one env may read',
    pod: makePod().withContainer({
      env: [
        { name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } },
        { name: 'B', valueFrom: { fieldRef: { fieldPath: 'spec.foo' } } },
        { name: 'C', valueFrom: { fieldRef: { fieldPath: "metadata.labels['bad key']" } } },
        { name: 'D', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['example.com/owner']" } } },
      ],
    }),
    want: [
      `${c0}.env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
      `${c0}.env[1].valueFrom.fieldRef.fieldPath: Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo`,
      `${c0}.env[2].valueFrom.fieldRef: Invalid value: "bad key": ${KEY_NAME_ERROR}`,
    ],
  },
  // validateContainerResourceFieldSelector and validateContainerResourceDivisor.
  {
    name: 'A resourceFieldRef names a supported resource with a supported divisor',
    pod: makePod().withContainer({
      env: [
        { name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
        { name: 'B', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1Ki' } } },
      ],
    }),
    want: [
      `${c0}.env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
      `${c0}.env[1].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
    ],
  },
  // validateConfigMapKeySelector / validateSecretKeySelector: the name is checked (even empty), the key required.
  {
    name: 'Key selectors need a subdomain name and a config key',
    pod: makePod().withContainer({
      env: [
        { name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'bad/key' } } },
        { name: 'B', valueFrom: { secretKeyRef: { name: '', key: '' } } },
      ],
    }),
    want: [
      `${c0}.env[0].valueFrom.configMapKeyRef.key: Invalid value: "bad/key": ${CONFIG_KEY_ERROR}`,
      `${c0}.env[1].valueFrom.secretKeyRef.name: Invalid value: "": ${SUBDOMAIN_ERROR}`,
      `${c0}.env[1].valueFrom.secretKeyRef.key: Required value`,
    ],
  },
  // ValidateEnvFrom: the source-count errors sit at the list path.
  {
    name: 'envFrom needs one source, reported at the envFrom path, and a valid prefix',
    pod: makePod().withContainer({ envFrom: [{ prefix: 'A=' }, { configMapRef: { name: 'cm' }, secretRef: { name: 's' } }] }),
    want: [
      `${c0}.envFrom[0].prefix: Invalid value: "A=": ${ENV_NAME_ERROR}`,
      `${c0}.envFrom: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``,
      `${c0}.envFrom: Invalid value: "": may not have more than one field specified at a time`,
    ],
  },
  // ValidateVolumeMounts.
  {
    name: 'A mount of a missing volume is not found',
    pod: makePod().withContainer({ volumeMounts: [{ name: 'data', mountPath: '/data' }] }),
    want: [`${c0}.volumeMounts[0].name: Not found: "data"`],
  },
  {
    name: 'Mount paths are required and unique',
    pod: makePod().withVolumes({ name: 'a', emptyDir: {} }, { name: 'b', emptyDir: {} }).withContainer({ volumeMounts: [{ name: 'a', mountPath: '/data' }, { name: 'b', mountPath: '/data' }, { name: 'a', mountPath: '' }] }),
    want: [`${c0}.volumeMounts[1].mountPath: Invalid value: "/data": must be unique`, `${c0}.volumeMounts[2].mountPath: Required value`],
  },
  {
    name: 'A subPath is relative without backsteps, reported at the volumeMounts path, and excludes subPathExpr',
    pod: makePod().withVolumes({ name: 'a', emptyDir: {} }).withContainer({ volumeMounts: [{ name: 'a', mountPath: '/a', subPath: '/etc' }, { name: 'a', mountPath: '/b', subPath: 'x/../y', subPathExpr: '$(POD)' }] }),
    want: [
      `${c0}.volumeMounts.subPath: Invalid value: "/etc": must be a relative path`,
      `${c0}.volumeMounts.subPath: Invalid value: "x/../y": must not contain '..'`,
      `${c0}.volumeMounts[1].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive`,
    ],
  },
  {
    name: 'Bidirectional propagation needs a privileged container; recursive read-only needs readOnly',
    pod: makePod().withVolumes({ name: 'a', emptyDir: {} }).withContainer({ volumeMounts: [{ name: 'a', mountPath: '/a', mountPropagation: 'Bidirectional' }, { name: 'a', mountPath: '/b', recursiveReadOnly: 'Enabled' }] }),
    want: [
      `${c0}.volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`,
      `${c0}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`,
    ],
  },
  // ValidateVolumeDevices.
  {
    name: 'A block device must come from a PVC or an ephemeral volume',
    pod: makePod().withVolumes({ name: 'a', emptyDir: {} }).withContainer({ volumeDevices: [{ name: 'a', devicePath: '/dev/xvda' }] }),
    want: [`${c0}.volumeDevices[0].name: Invalid value: "a": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
