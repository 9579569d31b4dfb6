// Pod specs from the manifest-variant family of the reference cluster (`npm run oracle -- --only fields`: kube-apiserver
// v1.36.3 answering POST /api/v1/namespaces/default/pods?fieldValidation=Strict), each with the reference's answer
// copied here: the code and message of a refusal, the warnings, and the stored form of an accepted pod. One or two per
// family of differences the family found and the engine now agrees with; the source of each rule is beside its code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { DEFAULT_CREDENTIALS } from '../../../src/engine/apiserver/authn/x509';
import type { ApiOutcome } from '../../../src/engine/apiserver/server';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { loadInputs } from '../../../src/engine/cluster/loader';
import type { Steps } from '../../../src/engine/runtime/step';
import { Simulation } from '../../../src/engine/simulation';

type Spec = Record<string, unknown>;
type Rec = Record<string, unknown>;

/** createObject POSTs an object to the engine's API server on the embedded cluster, as the cluster admin. */
function createObject(object: KubeObject, resource: string, group = ''): ApiOutcome {
  const inputs = loadInputs({ manifest: { file: 'object.json', text: '' }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  const name = object.metadata?.name ?? '';
  const steps: Steps<ApiOutcome> = sim.api.serve({
    verb: 'create', method: 'POST', path: `${group ? `/apis/${group}/v1` : '/api/v1'}/namespaces/default/${resource}?fieldValidation=Strict`,
    apiVersion: String(object.apiVersion), kind: String(object.kind), group, resource, namespace: 'default', name, object,
    credentials: { certificatePem: DEFAULT_CREDENTIALS },
  }, `${object.kind}/default/${name}`);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** create POSTs a Pod named web with this spec. */
const create = (spec: Spec): ApiOutcome => createObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec }, 'pods');

const app = (fields: Rec = {}): Rec => ({ name: 'app', image: 'nginx:1.27', ...fields });
const withApp = (spec: Spec = {}, fields: Rec = {}): Spec => ({ containers: [app(fields)], ...spec });
const storedSpec = (out: ApiOutcome): Rec => {
  assert.ok(out.ok, `expected the pod to be created, got ${out.ok ? '' : out.error.message}`);
  return (out.object as unknown as { spec: Rec }).spec;
};
const container0 = (spec: Rec): Rec => {
  const { volumeMounts: _token, ...c } = (spec['containers'] as Rec[])[0]!;
  return c;
};
const DEFAULTED = { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };

const refusals: { name: string; spec: Spec; code: number; reason?: string; message: string }[] = [
  // validateContainerRestartPolicy, validateInitContainerRestartPolicy (pkg/apis/core/validation/validation.go).
  {
    name: 'Restart rules need a container restart policy', spec: withApp({}, { restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }] }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
  },
  {
    name: 'An init container restart policy is one of three, listed sorted',
    spec: withApp({ initContainers: [{ name: 'init', image: 'busybox:1.36', restartPolicy: '' }] }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.initContainers[0].restartPolicy: Unsupported value: "": supported values: "Always", "Never", "OnFailure"',
  },
  {
    name: 'A restart rule needs exit codes', spec: withApp({}, { restartPolicyRules: [{ action: 'Restart', exitCodes: null }] }),
    code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: [spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used, spec.containers[0].restartPolicyRules[0].exitCodes: Required value: must be specified]',
  },
  // validateEnvVarValueFrom, validateFileKeySelector, validateFileKeyRefVolumes (EnvFiles on).
  {
    name: 'An empty valueFrom names fileKeyRef among its choices', spec: withApp({}, { env: [{ name: 'E', valueFrom: {} }] }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`',
  },
  {
    name: 'An empty fileKeyRef misses its key, volume name and path, and names no volume of the pod',
    spec: withApp({ volumes: [{ name: 'vol', emptyDir: {} }] }, { env: [{ name: 'E', valueFrom: { fileKeyRef: {} } }] }),
    code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: [spec.containers[0].env[0].valueFrom.fileKeyRef.key: Required value, spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Required value, spec.containers[0].env[0].valueFrom.fileKeyRef.path: Required value, spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: ""]',
  },
  // validatePodResources, validateOS, content.IsLabelKey, IsValidUserID, validateSELinuxChangePolicy, ValidateCSIDriverName,
  // validatePodHostName.
  {
    name: 'Pod-level resources may not have claims', spec: withApp({ resources: { claims: [{ name: 'rc' }] }, resourceClaims: [{ name: 'rc', resourceClaimName: 'claim' }] }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.resources.claims: Forbidden: claims may not be set for Resources at pod-level',
  },
  { name: 'An empty OS name is only required', spec: withApp({ os: { name: '' } }), code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.os.name: Required value' },
  {
    name: 'A toleration key longer than 63 bytes says so in bytes', spec: withApp({ tolerations: [{ operator: 'Equal', value: 'v', effect: 'NoSchedule', key: 'a'.repeat(254) }] }),
    code: 422, reason: 'Invalid', message: `Pod "web" is invalid: spec.tolerations[0].key: Invalid value: "${'a'.repeat(254)}": name part must be no more than 63 bytes`,
  },
  {
    name: 'User IDs stop at the largest int32', spec: withApp({ securityContext: { runAsUser: -1 } }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
  },
  {
    name: 'Only the Recursive SELinux change policy is allowed while SELinuxMount is off', spec: withApp({ securityContext: { seLinuxChangePolicy: 'MountOption' } }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"',
  },
  { name: 'An empty CSI driver name is only required', spec: withApp({ volumes: [{ name: 'vol', csi: { driver: '' } }] }), code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.volumes[0].csi.driver: Required value' },
  {
    name: 'A hostname override is a DNS subdomain', spec: withApp({ hostnameOverride: 'Not_Valid!' }), code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: spec.hostnameOverride: Invalid value: "Not_Valid!": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  },
  // validateFieldAllowList: a pointer to an empty struct, or an empty list, is set.
  {
    name: 'An ephemeral container with an empty lifecycle has one', spec: withApp({ ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36', lifecycle: {} }] }), code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: [spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers: Forbidden: cannot be set on create]',
  },
  {
    name: 'A claim template with an empty finalizers list sets it',
    spec: withApp({ volumes: [{ name: 'vol', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, metadata: { finalizers: [] } } } }] }),
    code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.finalizers: Forbidden: cannot be set',
  },
  // Admission: RuntimeClass (client-go's empty-name error, a 500 with no reason), RuntimeClass's overhead, Priority.
  { name: 'An empty runtime class name fails the live lookup with a 500', spec: withApp({ runtimeClassName: '' }), code: 500, message: 'resource name may not be empty' },
  {
    name: 'An empty overhead is an overhead', spec: withApp({ overhead: {} }), code: 403, reason: 'Forbidden',
    message: 'pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
  {
    name: 'An empty preemption policy differs from the computed one', spec: withApp({ preemptionPolicy: '' }), code: 403, reason: 'Forbidden',
    message: 'pods "web" is forbidden: the string value of PreemptionPolicy () must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
  },
  // Specs the engine used to fail on (an exception instead of an answer).
  { name: 'A volume without a name is refused', spec: withApp({ volumes: [{ emptyDir: {} }] }), code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.volumes[0].name: Required value' },
  {
    name: 'A weighted pod affinity term without its term is a term without a topology key',
    spec: withApp({ affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }] } } }), code: 422, reason: 'Invalid',
    message: 'Pod "web" is invalid: [spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty, spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "": name part must be non-empty, spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')]',
  },
];

for (const c of refusals) {
  test(`${c.name} (as the reference cluster answers)`, () => {
    const out = create(c.spec);
    assert.ok(!out.ok, 'expected a refusal');
    assert.deepEqual({ code: out.error.status.code, reason: out.error.status.reason || undefined, message: out.error.message }, { code: c.code, reason: c.reason, message: c.message });
  });
}

// pkg/api/pod/warnings.go (warningsForPodSpecAndMeta), sent with the created pod.
const warnings: { name: string; spec: Spec; want: string[] }[] = [
  {
    name: 'A spread constraint without a label selector matches no pod',
    spec: withApp({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: null }] }),
    want: ['spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod'],
  },
  { name: 'An rbd volume is deprecated', spec: withApp({ volumes: [{ name: 'vol', rbd: { monitors: ['x'], image: 'nginx:1.27' } }] }), want: ['spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+'] },
  { name: 'A port twice is a duplicate', spec: withApp({}, { ports: [{ containerPort: 8080 }, { containerPort: 8080 }] }), want: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'] },
  {
    name: 'A host IP without a host port is printed as the internal struct', spec: withApp({}, { ports: [{ containerPort: 8080, hostIP: '10.0.0.1' }] }),
    want: ['spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:8080 Protocol:TCP HostIP:10.0.0.1}'],
  },
  {
    name: 'Two items of a ConfigMap volume on one path overlap',
    spec: withApp({ volumes: [{ name: 'vol', configMap: { name: 'cm', items: [{ key: 'k', path: 'p' }, { key: 'k', path: 'p' }] } }] }),
    want: ['volume "vol" (ConfigMap "cm"): overlapping paths: "p" with "p"'],
  },
  { name: 'An env var defined twice hides the first', spec: withApp({}, { env: [{ name: 'E', value: 'v' }, { name: 'E', value: 'v' }] }), want: ['spec.containers[0].env[1]: hides previous definition of "E", which may be dropped when using apply'] },
  { name: 'An image pull secret with an empty name is named', spec: withApp({ imagePullSecrets: [{ name: '' }] }), want: ['spec.imagePullSecrets[0].name: invalid empty name ""'] },
  {
    name: 'A host alias IP twice is a duplicate', spec: withApp({ hostAliases: [{ ip: '10.0.0.1', hostnames: ['h'] }, { ip: '10.0.0.1', hostnames: ['h'] }] }),
    want: ['spec.hostAliases[1].ip: duplicate ip "10.0.0.1"'],
  },
  {
    name: 'A projected source of a disabled feature is dropped and leaves an empty source',
    spec: withApp({ volumes: [{ name: 'vol', projected: { sources: [{ clusterTrustBundle: { path: 'bundle', signerName: 'example.com/signer' } }] } }] }),
    want: ['volume "vol" (Projected) has no sources provided'],
  },
  // The generated case fractional-memory of `npm run oracle` (a number 1.5 is the quantity 1500m).
  {
    name: 'Memory in fractions of a byte is named, limits first', spec: withApp({}, { resources: { requests: { memory: '100m' }, limits: { memory: 1.5 } } }),
    want: ['spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer', 'spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer'],
  },
];

for (const c of warnings) {
  test(`${c.name} (the reference cluster's warnings)`, () => {
    const out = create(c.spec);
    assert.ok(out.ok);
    assert.deepEqual(out.warnings ?? [], c.want);
  });
}

// The stored pod as encoding/json writes the v1 struct after etcd (go-json.ts), and the fields of disabled features dropped.
const stored: { name: string; spec: Spec; got: (spec: Rec) => unknown; want: unknown }[] = [
  { name: 'An empty env list is not stored', spec: withApp({}, { env: [] }), got: container0, want: { ...app(), ...DEFAULTED } },
  { name: 'A false tty is not stored', spec: withApp({}, { tty: false }), got: container0, want: { ...app(), ...DEFAULTED } },
  {
    name: 'A resource field reference keeps a zero divisor', spec: withApp({}, { env: [{ name: 'E', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', containerName: 'app' } } }] }),
    got: (s) => container0(s)['env'], want: [{ name: 'E', valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '0' } } }],
  },
  {
    name: 'An ephemeral volume claim template has empty metadata',
    spec: withApp({ volumes: [{ name: 'vol', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }] }),
    got: (s) => (s['volumes'] as Rec[])[0],
    want: { name: 'vol', ephemeral: { volumeClaimTemplate: { metadata: {}, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' } } } },
  },
  {
    name: 'An empty list of projected sources is null', spec: withApp({ volumes: [{ name: 'vol', projected: { sources: [] } }] }),
    got: (s) => (s['volumes'] as Rec[])[0], want: { name: 'vol', projected: { sources: null, defaultMode: 420 } },
  },
  {
    name: 'A file key reference is not optional unless it says so',
    spec: withApp({ volumes: [{ name: 'vol', emptyDir: {} }] }, { env: [{ name: 'E', valueFrom: { fileKeyRef: { volumeName: 'vol', path: 'env', key: 'k' } } }] }),
    got: (s) => container0(s)['env'], want: [{ name: 'E', valueFrom: { fileKeyRef: { volumeName: 'vol', path: 'env', key: 'k', optional: false } } }],
  },
  { name: 'A sleep action keeps its zero seconds', spec: withApp({}, { lifecycle: { postStart: { sleep: {} } } }), got: (s) => container0(s)['lifecycle'], want: { postStart: { sleep: { seconds: 0 } } } },
  { name: 'A scheduling group is dropped while GenericWorkload is off', spec: withApp({ schedulingGroup: {} }), got: (s) => 'schedulingGroup' in s, want: false },
  { name: 'A stop signal is dropped while ContainerStopSignals is off', spec: withApp({}, { lifecycle: { stopSignal: 'x' } }), got: (s) => 'lifecycle' in container0(s), want: false },
  {
    name: 'A cluster trust bundle source is dropped while ClusterTrustBundleProjection is off',
    spec: withApp({ volumes: [{ name: 'vol', projected: { sources: [{ clusterTrustBundle: { path: 'bundle', signerName: 'example.com/signer' } }] } }] }),
    got: (s) => (s['volumes'] as Rec[])[0], want: { name: 'vol', projected: { sources: [{}], defaultMode: 420 } },
  },
];

for (const c of stored) {
  test(`${c.name} (the reference cluster's stored pod)`, () => assert.deepEqual(c.got(storedSpec(create(c.spec))), c.want));
}

// The generated case deploy-deprecated-labels of `npm run oracle`: a template's warnings are named under spec.template.
test('A Deployment template warns of deprecated node labels and of preferred values that are no label values (the reference cluster\'s warnings)', () => {
  const out = createObject({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: {
      replicas: 1, selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: [app()],
          affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a', 'b c'] }] } }] } },
        },
      },
    },
  }, 'deployments', 'apps');
  assert.ok(out.ok);
  const preferred = 'spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0]';
  assert.deepEqual(out.warnings, [
    'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    `${preferred}.key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
    `${preferred}.values[1]: b c is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
  ]);
});
