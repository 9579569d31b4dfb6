// CSIDriver and CSINode validation on create and update: ValidateCSIDriver (after storage/v1 defaulting, see
// api/defaults-kinds.ts), ValidateCSIDriverUpdate's immutable fields, ValidateCSINode and ValidateCSINodeUpdate's
// immutable drivers. See pkg/apis/storage/validation/validation.go and pkg/registry/storage/{csidriver,csinode}/strategy.go
// (k8s.io/kubernetes v1.36.3). Feature gates as 1.36 ships them: SELinuxMountReadWriteOncePod, MutableCSINodeAllocatableCount
// and CSIServiceAccountTokenSecrets on (GA), VolumeLimitScaling off (alpha).
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, child, duplicate, FIELD_IMMUTABLE, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { nonNegative, validateObjectMeta } from './metadata';
import { byteLength, isQualifiedName, nameIsDNSSubdomain } from './names';
import { validateCSIDriverName } from './pod-volume-sources';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** FS_GROUP_POLICIES are supportedFSGroupPolicy, sorted. */
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
/** VOLUME_LIFECYCLE_MODES are the two modes validateVolumeLifecycleModes names, in its order. */
const VOLUME_LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
/** CSI_NODE_ID_MAX_LENGTH is csiNodeIDMaxLength. */
const CSI_NODE_ID_MAX_LENGTH = 256;
/** MIN_TOKEN_SECONDS is validateTokenRequests' 10 minutes; MAX_TOKEN_SECONDS its 2^32. */
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** validateCSIDriver is ValidateCSIDriver: the metadata (ValidateCSIDriverName, a DNS subdomain), then the spec. */
export function validateCSIDriver(driver: KubeObject): FieldError[] {
  const errs = validateObjectMeta(driver, false, nameIsDNSSubdomain);
  return [...errs, ...validateCSIDriverSpec(rec(driver['spec']), 'spec')];
}

/** validateCSIDriverSpec is validateCSIDriverSpec, its checks in Go's order (attachRequired's path is spelled `attachedRequired` there). */
function validateCSIDriverSpec(spec: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // Defaulting sets the three booleans; a null the request could not send is what Required is for.
  if (typeof spec['attachRequired'] !== 'boolean') errs.push(required(child(path, 'attachedRequired')));
  if (typeof spec['podInfoOnMount'] !== 'boolean') errs.push(required(child(path, 'podInfoOnMount')));
  if (typeof spec['storageCapacity'] !== 'boolean') errs.push(required(child(path, 'storageCapacity')));
  const fsGroupPolicy = spec['fsGroupPolicy'];
  // A *FSGroupPolicy: ErrorBody prints the pointer with json.Marshal.
  if (typeof fsGroupPolicy === 'string' && !FS_GROUP_POLICIES.includes(fsGroupPolicy)) errs.push(notSupported(child(path, 'fsGroupPolicy'), asJSON(fsGroupPolicy), FS_GROUP_POLICIES));
  const tokenRequests = list(spec['tokenRequests']).map(rec);
  errs.push(...validateTokenRequests(tokenRequests, child(path, 'tokenRequests')));
  for (const mode of list(spec['volumeLifecycleModes'])) {
    if (!VOLUME_LIFECYCLE_MODES.includes(str(mode))) errs.push(notSupported(child(path, 'volumeLifecycleModes'), asJSON(mode), VOLUME_LIFECYCLE_MODES));
  }
  if (typeof spec['seLinuxMount'] !== 'boolean') errs.push(required(child(path, 'seLinuxMount')));
  const period = spec['nodeAllocatableUpdatePeriodSeconds'];
  if (typeof period === 'number' && period < 10) errs.push(invalidValue(child(path, 'nodeAllocatableUpdatePeriodSeconds'), period, 'must be greater than or equal to 10 seconds'));
  const inSecrets = spec['serviceAccountTokenInSecrets'];
  if (typeof inSecrets === 'boolean' && tokenRequests.length === 0) {
    errs.push(invalidValue(child(path, 'serviceAccountTokenInSecrets'), asJSON(inSecrets), 'serviceAccountTokenInSecrets is set but no tokenRequests are specified'));
  }
  // preventPodSchedulingIfMissing is required only with VolumeLimitScaling on; it is off in 1.36.
  return errs;
}

/** validateTokenRequests: no audience twice (a repeat is not checked further); expirationSeconds within 10 minutes..2^32 seconds. */
function validateTokenRequests(requests: Rec[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  requests.forEach((request, i) => {
    const at = index(path, i);
    const audience = str(request['audience']);
    if (audiences.has(audience)) {
      errs.push(duplicate(child(at, 'audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = request['expirationSeconds'];
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS) errs.push(invalidValue(child(at, 'expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_SECONDS) errs.push(invalidValue(child(at, 'expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

/**
 * validateCSIDriverUpdate is the update-only part of ValidateCSIDriverUpdate: attachRequired (at
 * `spec.attachedRequired`) and volumeLifecycleModes may not change, each printed with json.Marshal.
 */
export function validateCSIDriverUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const n = rec(next['spec']);
  const o = rec(old['spec']);
  const errs: FieldError[] = [];
  if (JSON.stringify(n['attachRequired'] ?? null) !== JSON.stringify(o['attachRequired'] ?? null)) {
    errs.push(invalidValue('spec.attachedRequired', asJSON(n['attachRequired'] ?? null), FIELD_IMMUTABLE));
  }
  const modes = (s: Rec): unknown[] | null => (list(s['volumeLifecycleModes']).length ? list(s['volumeLifecycleModes']) : null);
  if (JSON.stringify(modes(n)) !== JSON.stringify(modes(o))) errs.push(invalidValue('spec.volumeLifecycleModes', asJSON(modes(n)), FIELD_IMMUTABLE));
  return errs;
}

/** validateCSINode is ValidateCSINode: the metadata (ValidateNodeName, a DNS subdomain), then each driver. */
export function validateCSINode(node: KubeObject): FieldError[] {
  const errs = validateObjectMeta(node, false, nameIsDNSSubdomain);
  const names = new Set<string>();
  list(rec(node['spec'])['drivers']).forEach((driver, i) => errs.push(...validateCSINodeDriver(rec(driver), names, index('spec.drivers', i))));
  return errs;
}

/**
 * validateCSINodeDriver: the name (ValidateCSIDriverName), the node ID (required, 256 bytes at most), a non-negative
 * allocatable count, no name twice; each topology key present, not repeated and a qualified name, reported at the
 * driver's own path.
 */
function validateCSINodeDriver(driver: Rec, names: Set<string>, path: string): FieldError[] {
  const name = str(driver['name']);
  const errs = validateCSIDriverName(name, child(path, 'name'));
  const nodeID = str(driver['nodeID']);
  if (nodeID.length === 0) errs.push(required(child(path, 'nodeID')));
  if (byteLength(nodeID) > CSI_NODE_ID_MAX_LENGTH) errs.push(invalidValue(child(path, 'nodeID'), nodeID, `must be ${CSI_NODE_ID_MAX_LENGTH} characters or less`));
  const count = rec(driver['allocatable'])['count'];
  if (typeof count === 'number') errs.push(...nonNegative(count, child(path, 'allocatable', 'count')));
  if (names.has(name)) errs.push(duplicate(child(path, 'name'), name));
  names.add(name);
  const keys = new Set<string>();
  for (const raw of list(driver['topologyKeys'])) {
    const key = str(raw);
    if (key.length === 0) errs.push(required(path));
    if (keys.has(key)) errs.push(duplicate(path, key));
    keys.add(key);
    errs.push(...isQualifiedName(key).map((msg) => invalidValue(path, key, msg)));
  }
  return errs;
}

/**
 * validateCSINodeUpdate is the update-only part of ValidateCSINodeUpdate: a driver kept by name may change only its
 * allocatable (MutableCSINodeAllocatableCount is on); the changed one prints as the internal CSINodeDriver (no json
 * tags: Go field names), allocatable nil.
 */
export function validateCSINodeUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const drivers = (o: KubeObject): Rec[] => list(rec(o['spec'])['drivers']).map(rec);
  const shown = (d: Rec) => ({
    Name: str(d['name']), NodeID: str(d['nodeID']),
    TopologyKeys: Array.isArray(d['topologyKeys']) ? d['topologyKeys'] : null, Allocatable: null,
  });
  const errs: FieldError[] = [];
  for (const o of drivers(old)) {
    for (const n of drivers(next)) {
      if (str(o['name']) !== str(n['name'])) continue;
      const a = shown(n);
      const b = shown(o);
      // Semantic.DeepEqual holds a nil and an empty list of keys apart: only the stored object's missing list is nil.
      if (JSON.stringify(a) !== JSON.stringify(b)) errs.push(invalidValue('spec.drivers', asJSON(a), FIELD_IMMUTABLE));
    }
  }
  return errs;
}
