// The values the manifest-variant generator writes: the smallest valid object of each definition (so that a variant
// is the one thing wrong in its pod), and a valid sample of each field, by definition and field name, then by shape.
import { shortName } from './spec.mjs';

const MATCH = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] };
const EXEC = { exec: { command: ['true'] } };

/** unionOf fills a one-of object with its default member unless the path goes into another member of it. */
const unionOf = (members, fallback, extra = {}) => (next) => (members.includes(next) ? { ...extra } : { ...extra, ...fallback });

/**
 * MINIMAL are the smallest objects 1.36 accepts, by short definition name, as functions of the key the path takes
 * next (a one-of type leaves its default member out when the path goes into another one) and the list key it sits
 * under (a container's name depends on its list). A definition not here gets its required fields' samples.
 */
const MINIMAL = {
  Container: (_next, under) => (under === 'initContainers' ? { name: 'init', image: 'busybox:1.36' } : { name: 'app', image: 'nginx:1.27' }),
  EphemeralContainer: () => ({ name: 'debug', image: 'busybox:1.36' }),
  Volume: unionOf(['secret', 'configMap', 'hostPath', 'persistentVolumeClaim', 'nfs', 'downwardAPI', 'projected', 'csi', 'ephemeral', 'image',
    'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs',
    'iscsi', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume', 'emptyDir'], { emptyDir: {} }, { name: 'vol' }),
  Probe: unionOf(['exec', 'httpGet', 'tcpSocket', 'grpc'], EXEC),
  LifecycleHandler: unionOf(['exec', 'httpGet', 'tcpSocket', 'sleep'], EXEC),
  EnvVar: (next) => (next === 'valueFrom' ? { name: 'E' } : { name: 'E', value: 'v' }),
  EnvVarSource: unionOf(['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'], { fieldRef: { fieldPath: 'metadata.name' } }),
  EnvFromSource: unionOf(['configMapRef', 'secretRef'], { configMapRef: { name: 'cm' } }),
  VolumeProjection: unionOf(['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle', 'podCertificate'], { configMap: { name: 'cm' } }),
  ContainerPort: () => ({ containerPort: 8080 }),
  VolumeMount: () => ({ name: 'vol', mountPath: '/data' }),
  VolumeDevice: () => ({ name: 'vol', devicePath: '/dev/xvda' }),
  Toleration: () => ({ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }),
  TopologySpreadConstraint: () => ({ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }),
  NodeSelector: () => ({ nodeSelectorTerms: [MATCH] }),
  NodeSelectorTerm: () => MATCH,
  NodeSelectorRequirement: () => ({ key: 'zone', operator: 'In', values: ['a'] }),
  PreferredSchedulingTerm: () => ({ weight: 1, preference: MATCH }),
  PodAffinityTerm: () => ({ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } } }),
  WeightedPodAffinityTerm: () => ({ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } } } }),
  LabelSelectorRequirement: () => ({ key: 'app', operator: 'In', values: ['web'] }),
  HostAlias: () => ({ ip: '10.0.0.1', hostnames: ['h'] }),
  PodDNSConfigOption: () => ({ name: 'ndots', value: '2' }),
  PodReadinessGate: () => ({ conditionType: 'example.com/ready' }),
  PodSchedulingGate: () => ({ name: 'example.com/gate' }),
  LocalObjectReference: () => ({ name: 'regcred' }),
  PodResourceClaim: () => ({ name: 'rc', resourceClaimName: 'claim' }),
  ContainerResizePolicy: () => ({ resourceName: 'cpu', restartPolicy: 'NotRequired' }),
  ContainerRestartRule: () => ({ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }),
  ContainerRestartRuleOnExitCodes: () => ({ operator: 'In', values: [42] }),
  ResourceClaim: () => ({ name: 'rc' }),
  SeccompProfile: () => ({ type: 'RuntimeDefault' }),
  AppArmorProfile: () => ({ type: 'RuntimeDefault' }),
  Sysctl: () => ({ name: 'kernel.shm_rmid_forced', value: '0' }),
  HTTPGetAction: () => ({ port: 8080 }),
  TCPSocketAction: () => ({ port: 8080 }),
  GRPCAction: () => ({ port: 9090 }),
  ExecAction: () => ({ command: ['true'] }),
  SleepAction: () => ({ seconds: 1 }),
  HTTPHeader: () => ({ name: 'X-Probe', value: 'yes' }),
  PodOS: () => ({ name: 'linux' }),
  KeyToPath: () => ({ key: 'k', path: 'p' }),
  SecretVolumeSource: () => ({ secretName: 's' }),
  ConfigMapVolumeSource: () => ({ name: 'cm' }),
  HostPathVolumeSource: () => ({ path: '/data' }),
  PersistentVolumeClaimVolumeSource: () => ({ claimName: 'claim' }),
  NFSVolumeSource: () => ({ server: 'nfs.example.com', path: '/exports' }),
  DownwardAPIVolumeSource: () => ({ items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] }),
  DownwardAPIVolumeFile: () => ({ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }),
  DownwardAPIProjection: () => ({ items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] }),
  ProjectedVolumeSource: () => ({ sources: [{ configMap: { name: 'cm' } }] }),
  CSIVolumeSource: () => ({ driver: 'csi.example.com' }),
  EphemeralVolumeSource: () => ({ volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } }),
  PersistentVolumeClaimTemplate: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  PersistentVolumeClaimSpec: () => ({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }),
  VolumeResourceRequirements: () => ({ requests: { storage: '1Gi' } }),
  ImageVolumeSource: () => ({ reference: 'nginx:1.27' }),
  ObjectFieldSelector: () => ({ fieldPath: 'metadata.name' }),
  ResourceFieldSelector: () => ({ resource: 'limits.cpu', containerName: 'app' }),
  ConfigMapKeySelector: () => ({ name: 'cm', key: 'k' }),
  SecretKeySelector: () => ({ name: 's', key: 'k' }),
  FileKeySelector: () => ({ volumeName: 'vol', path: 'env', key: 'k' }),
  ConfigMapEnvSource: () => ({ name: 'cm' }),
  SecretEnvSource: () => ({ name: 's' }),
  ConfigMapProjection: () => ({ name: 'cm' }),
  SecretProjection: () => ({ name: 's' }),
  ServiceAccountTokenProjection: () => ({ path: 'token' }),
  ClusterTrustBundleProjection: () => ({ path: 'bundle', signerName: 'example.com/signer' }),
  PodCertificateProjection: () => ({ signerName: 'example.com/signer', keyType: 'ED25519', credentialBundlePath: 'creds.pem' }),
  LabelSelector: () => ({ matchLabels: { app: 'web' } }),
  Capabilities: () => ({ add: ['NET_ADMIN'] }),
};

/** VALID_BY_FIELD are valid samples of fields whose name alone does not tell, by `Definition.field`. */
const VALID_BY_FIELD = {
  'Volume.name': 'data', 'Container.name': 'web', 'EphemeralContainer.name': 'debug2', 'EnvVar.name': 'MY_VAR', 'ContainerPort.name': 'http',
  'HostPathVolumeSource.path': '/var/data', 'NFSVolumeSource.path': '/exports', 'KeyToPath.path': 'key', 'DownwardAPIVolumeFile.path': 'labels',
  'HTTPGetAction.path': '/healthz', 'ServiceAccountTokenProjection.path': 'token', 'FileKeySelector.path': 'env', 'VolumeMount.name': 'vol',
  'VolumeDevice.name': 'vol', 'PodDNSConfigOption.name': 'ndots', 'Sysctl.name': 'kernel.shm_rmid_forced', 'PodOS.name': 'linux',
  'PodSchedulingGate.name': 'example.com/gate', 'ResourceClaim.name': 'rc', 'PodResourceClaim.name': 'rc', 'HTTPHeader.name': 'X-Probe',
  'ContainerResizePolicy.resourceName': 'cpu', 'PodSpec.priorityClassName': 'system-cluster-critical', 'PodSpec.runtimeClassName': 'runc',
  'SELinuxOptions.level': 's0:c123,c456', 'SELinuxOptions.role': 'object_r', 'SELinuxOptions.type': 'container_t', 'SELinuxOptions.user': 'system_u',
  'ResourceFieldSelector.resource': 'limits.memory', 'ResourceFieldSelector.containerName': 'app', 'PodSpec.priority': 0,
  'Probe.successThreshold': 1, 'Probe.terminationGracePeriodSeconds': 10, 'DownwardAPIVolumeFile.mode': 256, 'KeyToPath.mode': 256,
};

/** VALID_BY_PROP are valid samples by field name. */
const VALID_BY_PROP = {
  image: 'nginx:1.27', command: ['sh', '-c', 'sleep 3600'], args: ['--verbose'], workingDir: '/srv/app', mountPath: '/data', subPath: 'sub',
  subPathExpr: '$(POD_NAME)', devicePath: '/dev/xvda', key: 'k', value: 'v', fieldPath: 'metadata.name', apiVersion: 'v1', resource: 'limits.cpu',
  containerName: 'app', port: 8080, host: 'example.com', hostPort: 8080, containerPort: 8080, hostIP: '10.0.0.1', ip: '10.0.0.1',
  hostnames: ['db.local'], topologyKey: 'kubernetes.io/hostname', nodeName: 'worker-1', schedulerName: 'default-scheduler',
  serviceAccountName: 'default', serviceAccount: 'default', hostname: 'web', subdomain: 'web', hostnameOverride: 'web', signerName: 'example.com/signer',
  driver: 'csi.example.com', secretName: 's', claimName: 'claim', server: 'nfs.example.com', reference: 'nginx:1.27', conditionType: 'example.com/ready',
  localhostProfile: 'profiles/audit.json', runAsUserName: 'ContainerUser', gmsaCredentialSpecName: 'gmsa', gmsaCredentialSpec: '{}', prefix: 'CFG_',
  expirationSeconds: 3600, audience: 'api', defaultMode: 420, mode: 420, sizeLimit: '1Gi', activeDeadlineSeconds: 60, terminationGracePeriodSeconds: 30,
  maxSkew: 1, minDomains: 1, weight: 10, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3, initialDelaySeconds: 5, runAsUser: 1000,
  runAsGroup: 1000, fsGroup: 2000, supplementalGroups: [1000], seconds: 1, nameservers: ['1.1.1.1'], searches: ['example.com'], values: ['a'],
  matchLabelKeys: ['pod-template-hash'], mismatchLabelKeys: ['tier'], namespaces: ['default'], resourceClaimName: 'claim',
  resourceClaimTemplateName: 'tmpl', keyType: 'ED25519', credentialBundlePath: 'creds.pem', keyPath: 'key.pem', certificateChainPath: 'chain.pem',
  maxExpirationSeconds: 3600, userAnnotations: { 'example.com/a': 'b' }, volumeName: 'vol', storageClassName: 'standard', shareProcessNamespace: true,
  optional: true, readOnly: true, add: ['NET_ADMIN'], drop: ['ALL'], nodeSelector: { disktype: 'ssd' }, matchLabels: { app: 'web' },
  medium: 'Memory', operator: 'In', effect: 'NoSchedule', tolerationSeconds: 60, service: 'grpc.health.v1.Health', scheme: 'HTTPS',
};

/**
 * minimalOf is the smallest valid object of a definition, given the next key of the path (left out: the path builds
 * it) and the list it is in.
 */
export function minimalOf(definitions, def, next, under) {
  const make = MINIMAL[shortName(def)];
  if (make) {
    const out = structuredClone(make(next, under));
    if (next !== undefined) delete out[next];
    return out;
  }
  const d = definitions[def] ?? {};
  const out = {};
  for (const prop of d.required ?? []) {
    if (prop === next) continue;
    const sample = validSample(definitions, { def, prop, shape: shapeOfProp(definitions, d.properties?.[prop] ?? {}) });
    if (sample !== undefined) out[prop] = sample;
  }
  return out;
}

/** shapeOfProp is spec.mjs's shape of a property schema, for the required fields of a definition not walked. */
function shapeOfProp(definitions, schema) {
  if (schema.$ref) {
    const ref = schema.$ref.split('/').pop();
    if (ref.endsWith('.Quantity')) return { kind: 'quantity' };
    if (ref.endsWith('.IntOrString')) return { kind: 'intOrString' };
    return { kind: 'object', def: ref };
  }
  if (schema.type === 'array') return { kind: 'array', items: shapeOfProp(definitions, schema.items ?? {}) };
  if (schema.type === 'object') return { kind: 'map', values: { kind: 'string' } };
  return { kind: schema.type === 'integer' ? 'integer' : schema.type === 'boolean' ? 'boolean' : 'string' };
}

/** validSample is a valid value of a field: by definition and name, by name, then by enum and shape. */
export function validSample(definitions, field) {
  const { def, prop, shape } = field;
  const byField = VALID_BY_FIELD[`${shortName(def)}.${prop}`];
  if (byField !== undefined) return structuredClone(byField);
  if (field.enum) return shape.kind === 'array' ? [field.enum[0]] : field.enum.find((v) => v !== '') ?? field.enum[0];
  const byProp = VALID_BY_PROP[prop];
  if (byProp !== undefined && matchesShape(byProp, shape)) return structuredClone(byProp);
  return sampleOfShape(definitions, shape, prop);
}

function matchesShape(value, shape) {
  switch (shape.kind) {
    case 'string': case 'time': return typeof value === 'string';
    case 'integer': case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'quantity': return typeof value === 'string';
    case 'intOrString': return typeof value === 'number' || typeof value === 'string';
    case 'array': return Array.isArray(value);
    case 'map': return value !== null && typeof value === 'object' && !Array.isArray(value);
    default: return false;
  }
}

/** sampleOfShape is the fallback valid value of a shape. */
export function sampleOfShape(definitions, shape, prop) {
  switch (shape.kind) {
    case 'string': return 'x';
    case 'integer': case 'number': return 1;
    case 'boolean': return true;
    case 'quantity': return '1';
    case 'intOrString': return 8080;
    case 'time': return '2024-01-01T00:00:00Z';
    case 'object': return minimalOf(definitions, shape.def, undefined, prop);
    case 'array': return [shape.items.kind === 'object' ? minimalOf(definitions, shape.items.def, undefined, prop) : sampleOfShape(definitions, shape.items, prop)];
    case 'map': return shape.values.kind === 'quantity' ? { cpu: '1' } : { 'example.com/key': 'v' };
    default: return undefined;
  }
}
