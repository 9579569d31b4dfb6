// Walks the Kubernetes 1.36 OpenAPI v2 specification from io.k8s.api.core.v1.PodSpec down, breadth first, and
// lists every field the manifest-variant generator tries: its path in a Pod, its shape (string, integer, quantity,
// object, list, map...), whether it is required, and the enum values the specification names for it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CORE = 'io.k8s.api.core.v1.';

/** SCALAR_REFS are definitions that are JSON scalars (their own UnmarshalJSON), by the shape the generator gives them. */
const SCALAR_REFS = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
};

/**
 * ENUM_PATTERNS find the values a description lists ("One of Always, OnFailure, Never.", "Valid values are
 * 'ClusterFirst', ..."): the OpenAPI v2 document of 1.36 carries no `enum` keyword, only these sentences.
 */
const ENUM_PATTERNS = [/One of ([^.]*)\./, /[Vv]alid values are:? ([^.]*)\./, /[Pp]ossible values are:? ([^.]*)\./, /[Mm]ust be one of:? ([^.]*)\./];

/**
 * GO_ENUMS are the values of the Go enum types (k8s.io/api/core/v1/types.go, v0.36.3) whose descriptions do not list
 * them in a sentence the patterns read, by `Definition.field` (short definition name).
 */
const GO_ENUMS = {
  'Toleration.operator': ['Exists', 'Equal'],
  'Toleration.effect': ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
  'NodeSelectorRequirement.operator': ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'],
  'LabelSelectorRequirement.operator': ['In', 'NotIn', 'Exists', 'DoesNotExist'],
  'TopologySpreadConstraint.whenUnsatisfiable': ['DoNotSchedule', 'ScheduleAnyway'],
  'TopologySpreadConstraint.nodeAffinityPolicy': ['Honor', 'Ignore'],
  'TopologySpreadConstraint.nodeTaintsPolicy': ['Honor', 'Ignore'],
  'ContainerPort.protocol': ['TCP', 'UDP', 'SCTP'],
  'Container.terminationMessagePolicy': ['File', 'FallbackToLogsOnError'],
  'Container.restartPolicy': ['Always'],
  'HTTPGetAction.scheme': ['HTTP', 'HTTPS'],
  'VolumeMount.mountPropagation': ['None', 'HostToContainer', 'Bidirectional'],
  'VolumeMount.recursiveReadOnly': ['Disabled', 'IfPossible', 'Enabled'],
  'SeccompProfile.type': ['Unconfined', 'RuntimeDefault', 'Localhost'],
  'AppArmorProfile.type': ['Unconfined', 'RuntimeDefault', 'Localhost'],
  'SecurityContext.procMount': ['Default', 'Unmasked'],
  'PodOS.name': ['linux', 'windows'],
  'HostPathVolumeSource.type': ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'],
  'EmptyDirVolumeSource.medium': ['', 'Memory', 'HugePages'],
  'ContainerResizePolicy.restartPolicy': ['NotRequired', 'RestartContainer'],
  'ContainerResizePolicy.resourceName': ['cpu', 'memory'],
  'ContainerRestartRule.action': ['Restart'],
  'ContainerRestartRuleOnExitCodes.operator': ['In', 'NotIn'],
  'ImageVolumeSource.pullPolicy': ['Always', 'Never', 'IfNotPresent'],
  'PodSecurityContext.fsGroupChangePolicy': ['OnRootMismatch', 'Always'],
  'PodSecurityContext.seLinuxChangePolicy': ['MountOption', 'Recursive'],
  'PodSecurityContext.supplementalGroupsPolicy': ['Merge', 'Strict'],
  'PersistentVolumeClaimSpec.volumeMode': ['Filesystem', 'Block'],
  'PersistentVolumeClaimSpec.accessModes': ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
};

/**
 * SHALLOW are definitions whose own fields are not walked: the in-tree volume sources that 1.36 keeps in the API for
 * old objects but no longer mounts (their plugins were removed or migrated to CSI). The Volume field naming each is.
 */
const SHALLOW = new Set(['AWSElasticBlockStoreVolumeSource', 'AzureDiskVolumeSource', 'AzureFileVolumeSource', 'CephFSVolumeSource',
  'CinderVolumeSource', 'FCVolumeSource', 'FlexVolumeSource', 'FlockerVolumeSource', 'GCEPersistentDiskVolumeSource', 'GitRepoVolumeSource',
  'GlusterfsVolumeSource', 'ISCSIVolumeSource', 'PhotonPersistentDiskVolumeSource', 'PortworxVolumeSource', 'QuobyteVolumeSource',
  'RBDVolumeSource', 'ScaleIOVolumeSource', 'StorageOSVolumeSource', 'VsphereVirtualDiskVolumeSource'].map((n) => CORE + n));

/**
 * AGAIN are the lists whose items' own fields are walked once more where they are met again (one level, not below):
 * an init container is validated by other rules than an app container (restartPolicy, probes, lifecycle).
 */
const AGAIN = new Set(['initContainers']);

/** specPath finds the 1.36 swagger.json: --swagger FILE, $KUBERNETES_API_SPEC, or ../shared/kubernetes-api beside the project. */
export function specPath(root, argv) {
  const flag = argv.includes('--swagger') ? argv[argv.indexOf('--swagger') + 1] : undefined;
  const candidates = [flag, process.env.KUBERNETES_API_SPEC, join(root, '..', 'shared', 'kubernetes-api', 'swagger.json')].filter(Boolean);
  return candidates.find((f) => existsSync(f));
}

/** shortName is a definition's last segment: `io.k8s.api.core.v1.Container` → `Container`. */
export const shortName = (def) => def.split('.').pop();

function enumOf(defName, prop, schema) {
  const table = GO_ENUMS[`${shortName(defName)}.${prop}`];
  if (table) return table;
  const desc = schema.description ?? '';
  for (const re of ENUM_PATTERNS) {
    const m = re.exec(desc);
    if (!m) continue;
    const values = m[1].split(/,|\band\b|\bor\b/).map((s) => s.trim().replace(/^['"`]|['"`]$/g, '')).filter((s) => /^[A-Za-z][A-Za-z0-9]*$/.test(s));
    if (values.length >= 2) return values;
  }
  return undefined;
}

/** shapeOf names the shape of a property schema: its kind, and for lists and maps the shape of their items. */
function shapeOf(definitions, schema) {
  if (schema.$ref) {
    const ref = schema.$ref.split('/').pop();
    if (SCALAR_REFS[ref]) return { kind: SCALAR_REFS[ref] };
    return definitions[ref]?.properties ? { kind: 'object', def: ref } : { kind: 'opaque', def: ref };
  }
  if (schema.type === 'array') return { kind: 'array', items: shapeOf(definitions, schema.items ?? {}) };
  if (schema.type === 'object') return { kind: 'map', values: schema.additionalProperties ? shapeOf(definitions, schema.additionalProperties) : { kind: 'string' } };
  if (schema.type === 'integer') return { kind: 'integer', format: schema.format ?? 'int64' };
  if (schema.type === 'boolean') return { kind: 'boolean' };
  if (schema.type === 'number') return { kind: 'number' };
  return { kind: 'string' };
}

/**
 * walkPodSpec lists the fields under PodSpec, breadth first: each definition's fields are walked where it is first
 * met (the shallowest place), to `maxDepth` definitions below PodSpec; a definition met again later gets no walk of
 * its own fields there (but in the AGAIN lists, one level), nor does a SHALLOW one. Each field: `{ path, label, def, prop, shape, owners, required, enum, listKeys }`, where `path` holds
 * the keys and list indexes (0) from the Pod down and `owners` the definition of each object on it, as
 * `[length of the path to it, definition]`.
 */
export function walkPodSpec(spec, { maxDepth = 4 } = {}) {
  const definitions = spec.definitions;
  const fields = [];
  const expanded = new Set([`${CORE}PodSpec`]);
  const queue = [{ def: `${CORE}PodSpec`, path: ['spec'], depth: 0, owners: [[1, `${CORE}PodSpec`]] }];
  while (queue.length) {
    const { def, path, depth, owners, again } = queue.shift();
    const d = definitions[def];
    const required = new Set(d.required ?? []);
    for (const [prop, schema] of Object.entries(d.properties ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      const shape = shapeOf(definitions, schema);
      const fieldPath = [...path, prop];
      const values = enumOf(def, prop, schema);
      const keys = schema['x-kubernetes-list-map-keys'];
      fields.push({ path: fieldPath, label: labelOf(fieldPath), def, prop, shape, owners, required: required.has(prop), ...(values ? { enum: values } : {}), ...(keys ? { listKeys: keys } : {}) });
      const inner = shape.kind === 'array' ? shape.items : shape;
      const at = shape.kind === 'array' ? [...fieldPath, 0] : fieldPath;
      if (inner.kind === 'object' && depth < maxDepth && !expanded.has(inner.def) && !SHALLOW.has(inner.def)) {
        expanded.add(inner.def);
        queue.push({ def: inner.def, path: at, depth: depth + 1, owners: [...owners, [at.length, inner.def]] });
      } else if (inner.kind === 'object' && AGAIN.has(prop) && !again) {
        queue.push({ def: inner.def, path: at, depth: maxDepth, owners: [...owners, [at.length, inner.def]], again: true });
      }
    }
  }
  return fields;
}

/** labelOf prints a path as Kubernetes names fields: `spec.containers[0].ports[0].containerPort`. */
export function labelOf(path) {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** loadSpec reads and parses the specification. */
export function loadSpec(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
