// Generates src/engine/api/schema/schema.generated.ts, the compact API schema the engine decodes with, from the
// Kubernetes 1.36 OpenAPI v2 specification (../shared/kubernetes-api/swagger.json).
// Usage: node scripts/generate-schema.mjs [--swagger FILE] [--out FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KUBERNETES_VERSION = '1.36';

/** KINDS are the kinds the engine stores (src/engine/cluster/store.ts RESOURCES), each in each served version (v1 unless named). */
const KINDS = [
  ['', 'Pod'], ['', 'Node'], ['', 'Namespace'], ['', 'ServiceAccount'], ['', 'Service'], ['', 'Endpoints'], ['', 'ConfigMap'],
  ['', 'Secret'], ['', 'ResourceQuota'], ['', 'LimitRange'], ['', 'PersistentVolume'], ['', 'PersistentVolumeClaim'], ['', 'Event'],
  ['apps', 'Deployment'], ['apps', 'ReplicaSet'], ['apps', 'StatefulSet'], ['apps', 'DaemonSet'], ['batch', 'Job'], ['batch', 'CronJob'],
  ['discovery.k8s.io', 'EndpointSlice'], ['rbac.authorization.k8s.io', 'Role'], ['rbac.authorization.k8s.io', 'ClusterRole'],
  ['rbac.authorization.k8s.io', 'RoleBinding'], ['rbac.authorization.k8s.io', 'ClusterRoleBinding'], ['scheduling.k8s.io', 'PriorityClass'],
  ['node.k8s.io', 'RuntimeClass'], ['storage.k8s.io', 'StorageClass'], ['policy', 'PodDisruptionBudget'],
  ['autoscaling', 'HorizontalPodAutoscaler', 'v2'], ['autoscaling', 'HorizontalPodAutoscaler', 'v1'], ['apps', 'ControllerRevision'],
  ['storage.k8s.io', 'CSINode'], ['storage.k8s.io', 'CSIDriver'], ['storage.k8s.io', 'CSIStorageCapacity'], ['storage.k8s.io', 'VolumeAttachment'],
  ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'], ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
  ['admissionregistration.k8s.io', 'ValidatingAdmissionPolicy'], ['admissionregistration.k8s.io', 'ValidatingAdmissionPolicyBinding'],
];

/** SCALARS are the definitions that decode as JSON scalars through their own UnmarshalJSON, not as structs. */
const SCALARS = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'int-or-string',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'micro-time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'raw',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'raw',
};

// Go types the OpenAPI document does not carry: named string types, named maps, typed slices (`field=GoType`) and
// structs embedded with `json:",inline"` (`@Embedded=field,field` or `@Embedded=!field` for all fields but those).
// A map of quantities is v1.ResourceList unless listed; every kind embeds metav1.TypeMeta (apiVersion, kind).
// Why: the field declarations in staging/src/k8s.io/api/{core,apps,batch,discovery,storage,policy,scheduling}/v1/types.go
// and staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go; decoding errors print these names.
const CONTAINER = 'restartPolicy=v1.ContainerRestartPolicy terminationMessagePolicy=v1.TerminationMessagePolicy imagePullPolicy=v1.PullPolicy';
const LOCAL_REF = '@LocalObjectReference=name';
const GO_TYPES = {
  'autoscaling.v2.MetricSpec': 'type=v2.MetricSourceType',
  'autoscaling.v2.MetricTarget': 'type=v2.MetricTargetType',
  'autoscaling.v2.HPAScalingRules': 'selectPolicy=v2.ScalingPolicySelect',
  'autoscaling.v2.HPAScalingPolicy': 'type=v2.HPAScalingPolicyType',
  'core.v1.Volume': '@VolumeSource=!name',
  'core.v1.PersistentVolumeSpec': '@PersistentVolumeSource=awsElasticBlockStore,azureDisk,azureFile,cephfs,cinder,csi,fc,flexVolume,flocker,gcePersistentDisk,glusterfs,hostPath,iscsi,local,nfs,photonPersistentDisk,portworxVolume,quobyte,rbd,scaleIO,storageos,vsphereVolume accessModes=[]v1.PersistentVolumeAccessMode persistentVolumeReclaimPolicy=v1.PersistentVolumeReclaimPolicy volumeMode=v1.PersistentVolumeMode',
  'core.v1.PersistentVolumeStatus': 'phase=v1.PersistentVolumePhase',
  'core.v1.PersistentVolumeClaimSpec': 'accessModes=[]v1.PersistentVolumeAccessMode volumeMode=v1.PersistentVolumeMode',
  'core.v1.ModifyVolumeStatus': 'status=v1.PersistentVolumeClaimModifyVolumeStatus',
  'core.v1.PersistentVolumeClaimCondition': 'type=v1.PersistentVolumeClaimConditionType status=v1.ConditionStatus',
  'core.v1.PersistentVolumeClaimStatus': 'phase=v1.PersistentVolumeClaimPhase accessModes=[]v1.PersistentVolumeAccessMode allocatedResourceStatuses=map[v1.ResourceName]v1.ClaimResourceStatus',
  'core.v1.HostPathVolumeSource': 'type=v1.HostPathType',
  'core.v1.EmptyDirVolumeSource': 'medium=v1.StorageMedium',
  'core.v1.AzureDiskVolumeSource': 'cachingMode=v1.AzureDataDiskCachingMode kind=v1.AzureDataDiskKind',
  'core.v1.SecretProjection': LOCAL_REF, 'core.v1.ConfigMapVolumeSource': LOCAL_REF, 'core.v1.ConfigMapProjection': LOCAL_REF,
  'core.v1.ConfigMapKeySelector': LOCAL_REF, 'core.v1.SecretKeySelector': LOCAL_REF, 'core.v1.ConfigMapEnvSource': LOCAL_REF, 'core.v1.SecretEnvSource': LOCAL_REF,
  'core.v1.ContainerPort': 'protocol=v1.Protocol',
  'core.v1.VolumeMount': 'mountPropagation=v1.MountPropagationMode recursiveReadOnly=v1.RecursiveReadOnlyMode',
  'core.v1.VolumeMountStatus': 'recursiveReadOnly=v1.RecursiveReadOnlyMode',
  'core.v1.HTTPGetAction': 'scheme=v1.URIScheme',
  'core.v1.Probe': '@ProbeHandler=exec,httpGet,tcpSocket,grpc',
  'core.v1.ContainerResizePolicy': 'resourceName=v1.ResourceName restartPolicy=v1.ResourceResizeRestartPolicy',
  'core.v1.Capabilities': 'add=[]v1.Capability drop=[]v1.Capability',
  'core.v1.Container': CONTAINER,
  'core.v1.EphemeralContainer': `@EphemeralContainerCommon=!targetContainerName ${CONTAINER}`,
  'core.v1.ContainerRestartRule': 'action=v1.ContainerRestartRuleAction',
  'core.v1.ContainerRestartRuleOnExitCodes': 'operator=v1.ContainerRestartRuleOnExitCodesOperator',
  'core.v1.Lifecycle': 'stopSignal=v1.Signal',
  'core.v1.ContainerStatus': 'stopSignal=v1.Signal',
  'core.v1.ResourceStatus': 'name=v1.ResourceName',
  'core.v1.ResourceHealth': 'resourceID=v1.ResourceID health=v1.ResourceHealthStatus',
  'core.v1.PodCondition': 'type=v1.PodConditionType status=v1.ConditionStatus',
  'core.v1.NodeSelectorRequirement': 'operator=v1.NodeSelectorOperator',
  'core.v1.Taint': 'effect=v1.TaintEffect',
  'core.v1.Toleration': 'operator=v1.TolerationOperator effect=v1.TaintEffect',
  'core.v1.PodReadinessGate': 'conditionType=v1.PodConditionType',
  'core.v1.PodSpec': 'restartPolicy=v1.RestartPolicy dnsPolicy=v1.DNSPolicy preemptionPolicy=v1.PreemptionPolicy',
  'core.v1.PodOS': 'name=v1.OSName',
  'core.v1.TopologySpreadConstraint': 'whenUnsatisfiable=v1.UnsatisfiableConstraintAction nodeAffinityPolicy=v1.NodeInclusionPolicy nodeTaintsPolicy=v1.NodeInclusionPolicy',
  'core.v1.PodSecurityContext': 'fsGroupChangePolicy=v1.PodFSGroupChangePolicy supplementalGroupsPolicy=v1.SupplementalGroupsPolicy seLinuxChangePolicy=v1.PodSELinuxChangePolicy',
  'core.v1.SeccompProfile': 'type=v1.SeccompProfileType',
  'core.v1.AppArmorProfile': 'type=v1.AppArmorProfileType',
  'core.v1.SecurityContext': 'procMount=v1.ProcMountType',
  'core.v1.PodStatus': 'phase=v1.PodPhase qosClass=v1.PodQOSClass resize=v1.PodResizeStatus',
  'core.v1.ImageVolumeSource': 'pullPolicy=v1.PullPolicy',
  'core.v1.LoadBalancerIngress': 'ipMode=v1.LoadBalancerIPMode',
  'core.v1.ServiceSpec': 'type=v1.ServiceType sessionAffinity=v1.ServiceAffinity externalTrafficPolicy=v1.ServiceExternalTrafficPolicy ipFamilies=[]v1.IPFamily ipFamilyPolicy=v1.IPFamilyPolicy internalTrafficPolicy=v1.ServiceInternalTrafficPolicy',
  'core.v1.ServicePort': 'protocol=v1.Protocol',
  'core.v1.EndpointPort': 'protocol=v1.Protocol',
  'core.v1.ConfigMapNodeConfigSource': 'uid=types.UID',
  'core.v1.NodeStatus': 'phase=v1.NodePhase volumesInUse=[]v1.UniqueVolumeName',
  'core.v1.AttachedVolume': 'name=v1.UniqueVolumeName',
  'core.v1.NodeCondition': 'type=v1.NodeConditionType status=v1.ConditionStatus',
  'core.v1.NodeAddress': 'type=v1.NodeAddressType',
  'core.v1.NamespaceSpec': 'finalizers=[]v1.FinalizerName',
  'core.v1.NamespaceStatus': 'phase=v1.NamespacePhase',
  'core.v1.NamespaceCondition': 'type=v1.NamespaceConditionType status=v1.ConditionStatus',
  'core.v1.ObjectReference': 'uid=types.UID',
  'core.v1.LimitRangeItem': 'type=v1.LimitType',
  'core.v1.ResourceQuotaSpec': 'scopes=[]v1.ResourceQuotaScope',
  'core.v1.ScopedResourceSelectorRequirement': 'scopeName=v1.ResourceQuotaScope operator=v1.ScopeSelectorOperator',
  'core.v1.Secret': 'type=v1.SecretType',
  'meta.v1.ObjectMeta': 'uid=types.UID',
  'meta.v1.OwnerReference': 'uid=types.UID',
  'meta.v1.LabelSelectorRequirement': 'operator=v1.LabelSelectorOperator',
  'meta.v1.ManagedFieldsEntry': 'operation=v1.ManagedFieldsOperationType',
  'meta.v1.Condition': 'status=v1.ConditionStatus',
  'apps.v1.DeploymentStrategy': 'type=v1.DeploymentStrategyType',
  'apps.v1.DeploymentCondition': 'type=v1.DeploymentConditionType status=v1.ConditionStatus',
  'apps.v1.ReplicaSetCondition': 'type=v1.ReplicaSetConditionType status=v1.ConditionStatus',
  'apps.v1.StatefulSetSpec': 'podManagementPolicy=v1.PodManagementPolicyType',
  'apps.v1.StatefulSetUpdateStrategy': 'type=v1.StatefulSetUpdateStrategyType',
  'apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy': 'whenDeleted=v1.PersistentVolumeClaimRetentionPolicyType whenScaled=v1.PersistentVolumeClaimRetentionPolicyType',
  'apps.v1.StatefulSetCondition': 'type=v1.StatefulSetConditionType status=v1.ConditionStatus',
  'apps.v1.DaemonSetUpdateStrategy': 'type=v1.DaemonSetUpdateStrategyType',
  'apps.v1.DaemonSetCondition': 'type=v1.DaemonSetConditionType status=v1.ConditionStatus',
  'batch.v1.JobSpec': 'completionMode=v1.CompletionMode podReplacementPolicy=v1.PodReplacementPolicy',
  'batch.v1.PodFailurePolicyRule': 'action=v1.PodFailurePolicyAction',
  'batch.v1.PodFailurePolicyOnExitCodesRequirement': 'operator=v1.PodFailurePolicyOnExitCodesOperator',
  'batch.v1.PodFailurePolicyOnPodConditionsPattern': 'type=v1.PodConditionType status=v1.ConditionStatus',
  'batch.v1.JobCondition': 'type=v1.JobConditionType status=v1.ConditionStatus',
  'batch.v1.UncountedTerminatedPods': 'succeeded=[]types.UID failed=[]types.UID',
  'batch.v1.CronJobSpec': 'concurrencyPolicy=v1.ConcurrencyPolicy',
  'discovery.v1.EndpointSlice': 'addressType=v1.AddressType',
  'discovery.v1.EndpointPort': 'protocol=v1.Protocol',
  'storage.v1.StorageClass': 'reclaimPolicy=v1.PersistentVolumeReclaimPolicy volumeBindingMode=v1.VolumeBindingMode',
  'policy.v1.PodDisruptionBudgetSpec': 'unhealthyPodEvictionPolicy=v1.UnhealthyPodEvictionPolicyType',
  'scheduling.v1.PriorityClass': 'preemptionPolicy=v1.PreemptionPolicy',
};

/** typeId shortens a definition name: io.k8s.api.core.v1.PodSpec → core.v1.PodSpec, ...apis.meta.v1.Time → meta.v1.Time. */
function typeId(definition) {
  return definition.replace(/^io\.k8s\.api\./, '').replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '').replace(/^io\.k8s\.apimachinery\.pkg\./, '');
}

/** goName is the Go type as reflect prints it: the package name and the type name (v1.PodSpec). */
function goName(definition) {
  return definition.split('.').slice(-2).join('.');
}

/**
 * firstSentence keeps a description's first sentence (abbreviations such as "e.g." do not end it) from its first
 * paragraph, before any "More info:" link, whitespace collapsed, at most 200 characters (cut at a word, with "…").
 */
export function firstSentence(text) {
  const flat = (text ?? '').split(/\n\s*\n/)[0].replace(/\s+/g, ' ').trim().split(/ More info: /)[0];
  const re = /[.!?](?=\s|$)/g;
  let sentence = flat;
  for (let m = re.exec(flat); m; m = re.exec(flat)) {
    const before = flat.slice(0, m.index + 1);
    if (/\b(e\.g|i\.e|etc|vs|approx|incl)\.$/i.test(before) || /\b[A-Za-z]\.$/.test(before)) continue;
    sentence = before;
    break;
  }
  if (sentence.length <= 200) return sentence;
  return `${sentence.slice(0, sentence.lastIndexOf(' ', 199))}…`;
}

/**
 * ENUM_PHRASE finds the values of a named string type in its description: "One of Always, OnFailure, Never.",
 * "Valid operators are Exists and Equal.", "Must be UDP, TCP, or SCTP." (the OpenAPI v2 document has no `enum`); a stray
 * period before the last values ("In, NotIn, Exists, DoesNotExist. Gt, and Lt.") does not end the list.
 */
const ENUM_PHRASE = /(?:[Oo]ne of|[Vv]alid \w+ are|[Aa]llowed values are|[Mm]ust be(?: one of)?|[Ss]upported values are|[Pp]ossible values are)[: ]+((?:["'`]?[A-Z][A-Za-z0-9]*["'`]?)(?:(?:,|,? or|,? and|\.(?= [A-Z][A-Za-z0-9]*,? and [A-Z])) ["'`]?[A-Z][A-Za-z0-9]*["'`]?)+)/;

/**
 * GO_ENUMS are the values of named string types whose descriptions do not list them in words enumOf reads: the
 * constants declared with each type in staging/src/k8s.io/api/{apps,batch,core,storage}/v1/types.go and
 * autoscaling/v2/types.go (k8s.io/api v0.36.3).
 */
const GO_ENUMS = {
  'v1.PodManagementPolicyType': ['OrderedReady', 'Parallel'],
  'v1.StatefulSetUpdateStrategyType': ['RollingUpdate', 'OnDelete'],
  'v1.DaemonSetUpdateStrategyType': ['RollingUpdate', 'OnDelete'],
  'v1.DeploymentStrategyType': ['Recreate', 'RollingUpdate'],
  'v1.PersistentVolumeClaimRetentionPolicyType': ['Retain', 'Delete'],
  'v1.ConcurrencyPolicy': ['Allow', 'Forbid', 'Replace'],
  'v2.MetricSourceType': ['Object', 'Pods', 'Resource', 'ContainerResource', 'External'],
  'v2.MetricTargetType': ['Utilization', 'Value', 'AverageValue'],
  'v2.ScalingPolicySelect': ['Max', 'Min', 'Disabled'],
  'v2.HPAScalingPolicyType': ['Pods', 'Percent'],
  'v1.PersistentVolumeReclaimPolicy': ['Retain', 'Delete', 'Recycle'],
  'v1.PersistentVolumeMode': ['Block', 'Filesystem'],
  'v1.VolumeBindingMode': ['Immediate', 'WaitForFirstConsumer'],
};

/** enumOf lists the values a named string type (v1.RestartPolicy) takes, as its description states them. */
export function enumOf(description, go) {
  if (!go || go.startsWith('map[')) return undefined;
  const m = ENUM_PHRASE.exec((description ?? '').replace(/\s+/g, ' '));
  if (!m) return undefined;
  return [...new Set(m[1].split(/,? or |,? and |, |\. /).map((v) => v.replace(/["'`]/g, '').trim()).filter(Boolean))];
}

/** refName is the definition a property or items schema points at. */
function refName(schema) {
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  return ref ? ref.replace('#/definitions/', '') : undefined;
}

/** typeExpr writes a property's type: string, int32, quantity, #core.v1.PodSpec, []X (list), {}X (map of string keys). */
function typeExpr(schema, where) {
  const ref = refName(schema);
  if (ref) return SCALARS[ref] ?? `#${typeId(ref)}`;
  switch (schema.type) {
    case 'string': return schema.format === 'byte' ? 'bytes' : 'string';
    case 'boolean': return 'boolean';
    case 'number': return 'number';
    case 'integer': return schema.format === 'int32' ? 'int32' : 'int64';
    case 'array': return `[]${typeExpr(schema.items, where)}`;
    case 'object': return schema.additionalProperties ? `{}${typeExpr(schema.additionalProperties, where)}` : 'raw';
    default: throw new Error(`${where}: unsupported schema ${JSON.stringify(schema).slice(0, 120)}`);
  }
}

/** parseGoTypes reads one GO_TYPES entry into field overrides and embedded field groups. */
function parseGoTypes(spec) {
  const go = {};
  const embedded = [];
  for (const word of spec.split(/\s+/).filter(Boolean)) {
    const [left, right] = word.split('=');
    if (left.startsWith('@')) embedded.push({ name: left.slice(1), except: right.startsWith('!'), fields: right.replace(/^!/, '').split(',') });
    else go[left] = right;
  }
  return { go, embedded };
}

/** collect walks every type the kinds reach, in the order of their ids. */
function collect(definitions) {
  const roots = new Map();
  for (const [name, def] of Object.entries(definitions)) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      if (KINDS.some(([group, kind, version]) => gvk.version === (version ?? 'v1') && group === gvk.group && kind === gvk.kind)) roots.set(name, gvk);
    }
  }
  const missing = KINDS.filter(([group, kind]) => ![...roots.values()].some((g) => g.group === group && g.kind === kind));
  if (missing.length) throw new Error(`kinds not in the specification: ${missing.map((k) => k.join('/')).join(', ')}`);
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || SCALARS[name]) return;
    if (!definitions[name]) throw new Error(`missing definition ${name}`);
    seen.add(name);
    for (const prop of Object.values(definitions[name].properties ?? {})) {
      let schema = prop;
      while (schema.items || (schema.additionalProperties && typeof schema.additionalProperties === 'object')) schema = schema.items ?? schema.additionalProperties;
      const ref = refName(schema);
      if (ref) visit(ref);
    }
  };
  for (const name of roots.keys()) visit(name);
  return { roots, names: [...seen].sort((a, b) => (typeId(a) < typeId(b) ? -1 : 1)) };
}

/** buildType turns one definition into the schema entry written to the generated file. */
function buildType(name, def, gvk) {
  const id = typeId(name);
  const { go, embedded } = parseGoTypes(GO_TYPES[id] ?? '');
  const props = def.properties ?? {};
  const known = new Set(Object.keys(props));
  for (const field of Object.keys(go)) if (!known.has(field)) throw new Error(`GO_TYPES ${id}.${field}: no such property`);
  const embeddedIn = {};
  if (gvk) embeddedIn.apiVersion = embeddedIn.kind = 'TypeMeta';
  for (const group of embedded) {
    for (const field of group.fields) if (!known.has(field)) throw new Error(`GO_TYPES ${id} @${group.name}: no property ${field}`);
    for (const field of known) if (group.fields.includes(field) !== group.except) embeddedIn[field] = group.name;
  }
  const properties = {};
  for (const [field, schema] of Object.entries(props)) {
    const type = typeExpr(schema, `${id}.${field}`);
    const entry = { type };
    const override = go[field] ?? (/^\{\}quantity$/.test(type) ? 'v1.ResourceList' : undefined);
    if (override) {
      if (override.startsWith('[]') !== type.startsWith('[]')) throw new Error(`GO_TYPES ${id}.${field}: ${override} does not fit ${type}`);
      entry.go = override;
    }
    if (embeddedIn[field]) entry.embedded = embeddedIn[field];
    const values = Array.isArray(schema.enum) ? schema.enum : GO_ENUMS[entry.go] ?? enumOf(schema.description ?? schema.items?.description, entry.go);
    if (values) entry.enum = values;
    const doc = firstSentence(schema.description);
    if (doc) entry.doc = doc;
    properties[field] = entry;
  }
  const type = { go: goName(name), doc: firstSentence(def.description) };
  if (gvk) type.kind = { group: gvk.group, version: gvk.version, kind: gvk.kind };
  if (def.required?.length) type.required = def.required;
  type.properties = properties;
  return [id, type];
}

/** render writes the TypeScript module. */
function render(types, roots, swaggerPath) {
  const kinds = [...roots.entries()].map(([name, g]) => [`${g.group ? `${g.group}/` : ''}${g.version}/${g.kind}`, typeId(name)]).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = [
    `// Code generated by scripts/generate-schema.mjs from the Kubernetes ${KUBERNETES_VERSION} OpenAPI specification; do not edit.`,
    `// Source: ${swaggerPath} (OpenAPI v2, Kubernetes ${KUBERNETES_VERSION}). Regenerate with \`node scripts/generate-schema.mjs\`.`,
    '//',
    '// The data below is derived from the Kubernetes API specification: Copyright The Kubernetes Authors,',
    '// licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).',
    '',
    `/** KUBERNETES_VERSION is the Kubernetes release whose OpenAPI specification this schema was generated from. */`,
    `export const KUBERNETES_VERSION = '${KUBERNETES_VERSION}';`,
    '',
    '/**',
    ' * SchemaProperty is one field of a type. `type` is string, boolean, number (float64), int32, int64, bytes (base64),',
    ' * quantity, int-or-string, time, micro-time, raw (any JSON), #<type id>, []<type> (a list) or {}<type> (a map).',
    ' * `go` is the Go type when the field has a named type (v1.RestartPolicy, v1.ResourceList, []v1.Capability);',
    ' * `embedded` names the struct the field is promoted from (`json:",inline"`), as decoding errors name it.',
    ' */',
    'export interface SchemaProperty {',
    '  readonly type: string;',
    '  readonly go?: string;',
    '  readonly embedded?: string;',
    '  readonly enum?: readonly string[];',
    '  readonly doc?: string;',
    '}',
    '',
    '/** SchemaType is one Go struct of the API: its Go name (v1.PodSpec), first doc sentence, kind, required fields and fields. */',
    'export interface SchemaType {',
    '  readonly go: string;',
    '  readonly doc: string;',
    '  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };',
    '  readonly required?: readonly string[];',
    '  readonly properties: Readonly<Record<string, SchemaProperty>>;',
    '}',
    '',
    '/** SCHEMA_KINDS maps `apiVersion/kind` (v1/Pod, apps/v1/Deployment) to the id of the type that holds it. */',
    'export const SCHEMA_KINDS: Readonly<Record<string, string>> = {',
    ...kinds.map(([key, id]) => `  ${JSON.stringify(key)}: ${JSON.stringify(id)},`),
    '};',
    '',
    '/** SCHEMA_TYPES holds every type the kinds reach, by id (core.v1.PodSpec, meta.v1.ObjectMeta, apps.v1.Deployment). */',
    'export const SCHEMA_TYPES: Readonly<Record<string, SchemaType>> = {',
  ];
  for (const [id, type] of types) {
    const head = { go: type.go, doc: type.doc, ...(type.kind ? { kind: type.kind } : {}), ...(type.required ? { required: type.required } : {}) };
    lines.push(`  ${JSON.stringify(id)}: {`);
    for (const [key, value] of Object.entries(head)) lines.push(`    ${key}: ${JSON.stringify(value)},`);
    lines.push('    properties: {');
    for (const [field, prop] of Object.entries(type.properties)) lines.push(`      ${JSON.stringify(field)}: ${JSON.stringify(prop)},`);
    lines.push('    },', '  },');
  }
  lines.push('};', '');
  return lines.join('\n');
}

/** generate reads the specification and returns the module text. */
export function generate(swaggerFile) {
  const spec = JSON.parse(readFileSync(swaggerFile, 'utf8'));
  const { roots, names } = collect(spec.definitions);
  const types = names.map((name) => buildType(name, spec.definitions[name], roots.get(name)));
  const unused = Object.keys(GO_TYPES).filter((id) => !types.some(([t]) => t === id));
  if (unused.length) throw new Error(`GO_TYPES entries for types no kind reaches: ${unused.join(', ')}`);
  return render(types, roots, relative(root, swaggerFile).replace(/\\/g, '/'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (flag) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const swaggerFile = resolve(arg('--swagger') ?? join(root, '..', 'shared', 'kubernetes-api', 'swagger.json'));
  const outFile = resolve(arg('--out') ?? join(root, 'src', 'engine', 'api', 'schema', 'schema.generated.ts'));
  const text = generate(swaggerFile);
  writeFileSync(outFile, text);
  console.log(`wrote ${relative(process.cwd(), outFile) || outFile} (${Buffer.byteLength(text)} bytes)`);
}
