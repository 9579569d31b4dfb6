// Go's encoding/json as kube-controller-manager applies it to an API object it holds: the JSON a Go struct of
// k8s.io/api marshals to (omitempty, always-written fields, quantities in canonical form), and the bytes json.Marshal
// writes for a map[string]interface{} (keys sorted, <, > and & escaped). The struct layouts come from go-layout.ts.
import { GO_TYPES } from './go-layout';
import { parseQuantity } from './quantity';
import { splitMap } from './go-dump';

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * ALWAYS_WRITTEN are the fields a core/v1 PodTemplateSpec reaches whose json tag has no omitempty: encoding/json writes
 * them even when zero ("" / 0 / null). Listed with reflect over k8s.io/api@v0.36.3 core/v1.PodTemplateSpec (every
 * struct it reaches, each field's json tag); non-pointer struct fields are always written whatever their tag and need
 * no entry. Keyed by the struct's bare name and the JSON key.
 */
const ALWAYS_WRITTEN: ReadonlySet<string> = new Set([
  'AWSElasticBlockStoreVolumeSource.volumeID', 'AppArmorProfile.type', 'AzureDiskVolumeSource.diskName', 'AzureDiskVolumeSource.diskURI',
  'AzureFileVolumeSource.secretName', 'AzureFileVolumeSource.shareName', 'CSIVolumeSource.driver', 'CephFSVolumeSource.monitors',
  'CinderVolumeSource.volumeID', 'ClusterTrustBundleProjection.path', 'ConfigMapKeySelector.key', 'Container.name',
  'ContainerPort.containerPort', 'ContainerResizePolicy.resourceName', 'ContainerResizePolicy.restartPolicy', 'DownwardAPIVolumeFile.path',
  'EnvVar.name', 'EphemeralContainerCommon.name', 'FileKeySelector.key', 'FileKeySelector.path', 'FileKeySelector.volumeName',
  'FlexVolumeSource.driver', 'GCEPersistentDiskVolumeSource.pdName', 'GRPCAction.port', 'GRPCAction.service', 'GitRepoVolumeSource.repository',
  'GlusterfsVolumeSource.endpoints', 'GlusterfsVolumeSource.path', 'HTTPHeader.name', 'HTTPHeader.value', 'HostAlias.ip',
  'HostPathVolumeSource.path', 'ISCSIVolumeSource.iqn', 'ISCSIVolumeSource.lun', 'ISCSIVolumeSource.targetPortal', 'KeyToPath.key',
  'KeyToPath.path', 'LabelSelectorRequirement.key', 'LabelSelectorRequirement.operator', 'NFSVolumeSource.path', 'NFSVolumeSource.server',
  'NodeSelector.nodeSelectorTerms', 'NodeSelectorRequirement.key', 'NodeSelectorRequirement.operator', 'ObjectFieldSelector.fieldPath',
  'OwnerReference.apiVersion', 'OwnerReference.kind', 'OwnerReference.name', 'OwnerReference.uid', 'PersistentVolumeClaimVolumeSource.claimName',
  'PhotonPersistentDiskVolumeSource.pdID', 'PodAffinityTerm.topologyKey', 'PodOS.name', 'PodReadinessGate.conditionType',
  'PodResourceClaim.name', 'PodSchedulingGate.name', 'PodSpec.containers', 'PortworxVolumeSource.volumeID', 'PreferredSchedulingTerm.weight',
  'ProjectedVolumeSource.sources', 'QuobyteVolumeSource.registry', 'QuobyteVolumeSource.volume', 'RBDVolumeSource.image',
  'RBDVolumeSource.monitors', 'ResourceClaim.name', 'ResourceFieldSelector.resource', 'ScaleIOVolumeSource.gateway',
  'ScaleIOVolumeSource.secretRef', 'ScaleIOVolumeSource.system', 'SeccompProfile.type', 'SecretKeySelector.key',
  'ServiceAccountTokenProjection.path', 'SleepAction.seconds', 'Sysctl.name', 'Sysctl.value', 'TopologySpreadConstraint.maxSkew',
  'TopologySpreadConstraint.topologyKey', 'TopologySpreadConstraint.whenUnsatisfiable', 'TypedLocalObjectReference.apiGroup',
  'TypedLocalObjectReference.kind', 'TypedLocalObjectReference.name', 'TypedObjectReference.apiGroup', 'TypedObjectReference.kind',
  'TypedObjectReference.name', 'Volume.name', 'VolumeDevice.devicePath', 'VolumeDevice.name', 'VolumeMount.mountPath', 'VolumeMount.name',
  'VsphereVirtualDiskVolumeSource.volumePath', 'WeightedPodAffinityTerm.weight',
]);

/** OMITZERO are the fields tagged omitzero: ObjectMeta.creationTimestamp (`json:"creationTimestamp,omitempty,omitzero"`). */
const OMITZERO: ReadonlySet<string> = new Set(['ObjectMeta.creationTimestamp']);

/** OMIT marks a field encoding/json leaves out. */
const OMIT = Symbol('omit');

const INTS = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64']);

function underlyingOf(expr: string): string {
  const named = GO_TYPES[expr];
  return named && named.kind === 'named' ? underlyingOf(named.underlying) : expr;
}

/** goTime is metav1.Time.MarshalJSON: RFC 3339 in UTC to the second; null for the zero time. */
function goTime(json: Json): Json {
  const ms = typeof json === 'string' ? Date.parse(json) : NaN;
  return Number.isFinite(ms) ? new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z') : null;
}

/** goQuantity is resource.Quantity.MarshalJSON: the canonical text ("0" for the zero Quantity). */
function goQuantity(json: Json): Json {
  if (typeof json !== 'string' && typeof json !== 'number') return '0';
  try {
    return parseQuantity(json).toString();
  } catch {
    return '0';
  }
}

/**
 * goStructJson is the plain JSON value encoding/json writes for `json` decoded into the Go type `expr`, as
 * kube-controller-manager holds it: it came over protobuf, so an empty list or map is nil (written null, or left
 * out with omitempty); unknown keys are dropped. `omitEmpty` is the field's omitempty flag.
 */
export function goStructJson(expr: string, json: Json, omitEmpty = false): Json | typeof OMIT {
  return encoderFor(expr)(json, omitEmpty);
}

/** Encoder writes one value of a Go type; OMIT when omitempty leaves it out. */
type Encoder = (json: Json, omitEmpty: boolean) => Json | typeof OMIT;
/** StructWriter writes a struct's fields into `out` (an embedded struct writes into its container's object). */
type StructWriter = (json: Record<string, Json>, out: Record<string, Json>) => void;

/**
 * ENCODERS keeps one encoder per Go type expression, made the first time the type is met: the layouts, the tags and
 * the omitempty decisions are read once per type, not once per object (a Deployment's pods all share them).
 */
const ENCODERS = new Map<string, Encoder>();
const WRITERS = new Map<string, StructWriter>();

/**
 * madeOnce returns the function kept under `key`, making it the first time. A type that reaches itself (through a
 * pointer or a list) refers to its function while that is being made: a stand-in calls it once it is there.
 */
function madeOnce<A extends unknown[], R>(kept: Map<string, (...args: A) => R>, key: string, make: (key: string) => (...args: A) => R): (...args: A) => R {
  const known = kept.get(key);
  if (known) return known;
  let made: ((...args: A) => R) | undefined;
  kept.set(key, (...args) => made!(...args));
  made = make(key);
  kept.set(key, made);
  return made;
}

const encoderFor = (expr: string): Encoder => madeOnce(ENCODERS, expr, makeEncoder);
const writerFor = (type: string): StructWriter => madeOnce(WRITERS, type, makeWriter);

const nullOf = (v: Json | typeof OMIT): Json => (v === OMIT ? null : v);

function makeEncoder(expr: string): Encoder {
  if (expr === 'resource.Quantity') return (json) => goQuantity(json);
  if (expr === 'intstr.IntOrString') return (json) => (typeof json === 'string' ? json : typeof json === 'number' ? Math.trunc(json) : 0);
  if (expr === 'meta/v1.Time') return (json) => goTime(json);
  if (expr === 'meta/v1.FieldsV1') return (json) => json ?? null;
  const under = underlyingOf(expr);
  if (under.startsWith('*')) {
    const target = encoderFor(under.slice(1));
    return (json, omitEmpty) => (json === undefined || json === null ? (omitEmpty ? OMIT : null) : nullOf(target(json, false)));
  }
  if (under.startsWith('[]')) {
    const item = encoderFor(under.slice(2));
    return (json, omitEmpty) => {
      if (!Array.isArray(json) || json.length === 0) return omitEmpty ? OMIT : null;
      return json.map((v) => nullOf(item(v, false)));
    };
  }
  const map = splitMap(under);
  if (map) {
    const value = encoderFor(map[1]);
    return (json, omitEmpty) => {
      if (!isObject(json)) return omitEmpty ? OMIT : null;
      const keys = Object.keys(json);
      if (keys.length === 0) return omitEmpty ? OMIT : null;
      const out: Record<string, Json> = {};
      for (const k of keys) out[k] = nullOf(value(json[k], false));
      return out;
    };
  }
  if (GO_TYPES[under]?.kind === 'struct') {
    const write = writerFor(under);
    return (json) => {
      const out: Record<string, Json> = {};
      write(isObject(json) ? json : {}, out);
      return out;
    };
  }
  if (under === 'string') {
    return (json, omitEmpty) => {
      const s = json === undefined || json === null ? '' : String(json);
      return omitEmpty && s === '' ? OMIT : s;
    };
  }
  if (under === 'bool') return (json, omitEmpty) => (omitEmpty && json !== true ? OMIT : json === true);
  if (INTS.has(under)) {
    return (json, omitEmpty) => {
      const n = typeof json === 'number' ? Math.trunc(json) : 0;
      return omitEmpty && n === 0 ? OMIT : n;
    };
  }
  // A type the layouts do not know: kept as it is stored.
  return (json, omitEmpty) => (json === undefined || json === null ? (omitEmpty ? OMIT : null) : json);
}

/** makeWriter writes a struct's fields in their declared order; an embedded `json:",inline"` struct's in its place. */
function makeWriter(type: string): StructWriter {
  const layout = GO_TYPES[type];
  const bare = type.slice(type.lastIndexOf('.') + 1);
  const steps: StructWriter[] = [];
  for (const [, expr, key] of layout?.kind === 'struct' ? layout.fields : []) {
    if (key === '-') continue;
    if (key === '') {
      const embedded = underlyingOf(expr);
      if (GO_TYPES[embedded]?.kind === 'struct') steps.push(writerFor(embedded));
      continue;
    }
    const name = `${bare}.${key}`;
    const omitZero = OMITZERO.has(name);
    const omitEmpty = !ALWAYS_WRITTEN.has(name);
    const encode = encoderFor(expr);
    steps.push((json, out) => {
      const given = json[key];
      if (omitZero && (given === undefined || given === null)) return;
      const v = encode(given, omitEmpty);
      if (v !== OMIT) out[key] = v;
    });
  }
  return (json, out) => {
    for (const step of steps) step(json, out);
  };
}

/**
 * goMarshal is json.Marshal of a map[string]interface{} holding `value` (what json.Unmarshal made of some JSON): keys
 * sorted by bytes at every level, integers as Go prints float64s, strings escaped as encoding/json does with HTML
 * escaping on (`<`, `>`, `&`, U+2028 and U+2029 as \u escapes). See encoding/json encode.go (appendString).
 */
export function goMarshal(value: Json): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goMarshal).join(',')}]`;
  const entries = Object.entries(value as Record<string, Json>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => compareGoStrings(a, b));
  return `{${entries.map(([k, v]) => `${goString(k)}:${goMarshal(v)}`).join(',')}}`;
}

/** compareGoStrings orders strings by code point, which is the order of their UTF-8 bytes (Go's sort.Strings). */
export function compareGoStrings(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** goString is a JSON string as encoding/json writes it (lone surrogates, invalid UTF-8 in Go, become U+FFFD). */
export function goString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    const short = SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/**
 * goJson is JSON as encoding/json writes a struct, its fields in their order: <, > and & (and U+2028, U+2029) escaped
 * in every string, as kube-apiserver's serializer writes them.
 */
export function goJson(body: unknown): string {
  return JSON.stringify(body).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
