// StorageClass validation on create: the storageclass strategy's Validate, ValidateStorageClass of
// pkg/apis/storage/validation/validation.go (kubernetes v1.36.3): the metadata, the provisioner, the parameters, the
// reclaim policy, the volume binding mode and the allowed topologies. The declarative rules of storage/v1 are alpha in
// 1.36 and off, so these hand-written ones decide. See pkg/registry/storage/storageclass/strategy.go.
import type { KubeObject } from '../../api/types';
import { asJSON, child, duplicate, type FieldError, index, invalidValue, notSupported, required, tooLong } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isQualifiedName, nameIsDNSSubdomain } from './names';
import { validateLabelName } from './pod-label-selectors';

/** MAX_PROVISIONER_PARAMETER_SIZE and MAX_PROVISIONER_PARAMETER_LEN are maxProvisionerParameterSize (256 kB) and ...Len. */
const MAX_PROVISIONER_PARAMETER_SIZE = 256 * 1024;
const MAX_PROVISIONER_PARAMETER_LEN = 512;
/** RECLAIM_POLICIES are the storage class's supportedReclaimPolicy (no Recycle), sorted. */
const RECLAIM_POLICIES = ['Delete', 'Retain'];
/** VOLUME_BINDING_MODES are supportedVolumeBindingModes, sorted. */
const VOLUME_BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

type Rec = Record<string, unknown>;
interface TopologyRequirement { key?: string; values?: string[] }

const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);

/** validateStorageClass is ValidateStorageClass. */
export function validateStorageClass(sc: KubeObject): FieldError[] {
  // ValidateClassName is NameIsDNSSubdomain; a StorageClass has no namespace.
  const errs = validateObjectMeta(sc, false, nameIsDNSSubdomain);
  errs.push(...validateProvisioner(typeof sc['provisioner'] === 'string' ? sc['provisioner'] : '', 'provisioner'));
  errs.push(...validateParameters(rec(sc['parameters']) ?? {}, 'parameters'));
  const policy = sc['reclaimPolicy'];
  // A *PersistentVolumeReclaimPolicy: ErrorBody prints the pointer with json.Marshal.
  if (typeof policy === 'string' && policy && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported('reclaimPolicy', asJSON(policy), RECLAIM_POLICIES));
  const mode = sc['volumeBindingMode'];
  // Defaulting sets Immediate, so Required is for a null the request could not send.
  if (typeof mode !== 'string') errs.push(required('volumeBindingMode'));
  else if (!VOLUME_BINDING_MODES.includes(mode)) errs.push(notSupported('volumeBindingMode', asJSON(mode), VOLUME_BINDING_MODES));
  errs.push(...validateAllowedTopologies(Array.isArray(sc['allowedTopologies']) ? (sc['allowedTopologies'] as unknown[]) : [], 'allowedTopologies'));
  return errs;
}

/** validateProvisioner: required, and a qualified name once lower-cased (ValidateQualifiedName). */
function validateProvisioner(provisioner: string, path: string): FieldError[] {
  if (!provisioner) return [required(path)];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((msg) => invalidValue(path, lower, msg));
}

/** validateParameters with allowEmpty: at most 512 of them, no empty key, 256 kB of keys and values at most. */
function validateParameters(params: Rec, path: string): FieldError[] {
  const entries = Object.entries(params);
  if (entries.length > MAX_PROVISIONER_PARAMETER_LEN) return [tooLong(path, MAX_PROVISIONER_PARAMETER_LEN)];
  const errs: FieldError[] = [];
  let totalSize = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalidValue(path, k, 'field can not be empty.'));
    totalSize += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : '');
  }
  if (totalSize > MAX_PROVISIONER_PARAMETER_SIZE) errs.push(tooLong(path, MAX_PROVISIONER_PARAMETER_SIZE));
  return errs;
}

/**
 * validateAllowedTopologies: each term valid (ValidateTopologySelectorTerm), none the same as an earlier one. Go's list
 * of earlier terms starts with as many empty ones as there are terms (make with a length, then append), and a term with
 * no expressions equals those (Semantic.DeepEqual holds an empty map equal to a nil one): such a term is a duplicate
 * once for each.
 */
function validateAllowedTopologies(terms: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen: Map<string, Set<string>>[] = terms.map(() => new Map());
  terms.forEach((term, i) => {
    const at = index(path, i);
    const { exprMap, errors } = validateTopologySelectorTerm(rec(term) ?? {}, at);
    errs.push(...errors);
    for (const earlier of seen) if (sameTopology(exprMap, earlier)) errs.push(duplicate(child(at, 'matchLabelExpressions'), ''));
    seen.push(exprMap);
  });
  return errs;
}

/** validateTopologySelectorTerm is ValidateTopologySelectorTerm: each requirement valid, no key twice. */
function validateTopologySelectorTerm(term: Rec, path: string): { exprMap: Map<string, Set<string>>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const exprMap = new Map<string, Set<string>>();
  const exprPath = child(path, 'matchLabelExpressions');
  const requirements = Array.isArray(term['matchLabelExpressions']) ? (term['matchLabelExpressions'] as TopologyRequirement[]) : [];
  requirements.forEach((rq, i) => {
    const at = index(exprPath, i);
    const valuesPath = child(at, 'values');
    const values = rq?.values ?? [];
    // validateTopologySelectorLabelRequirement: values required and a set, then the key a label name.
    if (values.length === 0) errors.push(required(valuesPath));
    const valueSet = new Set<string>();
    values.forEach((v, j) => {
      if (valueSet.has(v)) errors.push(duplicate(index(valuesPath, j), v));
      valueSet.add(v);
    });
    const k = rq?.key ?? '';
    errors.push(...validateLabelName(k, child(at, 'key')));
    if (exprMap.has(k)) errors.push(duplicate(child(at, 'key'), k));
    exprMap.set(k, valueSet);
  });
  return { exprMap, errors };
}

/** sameTopology compares two terms' key → value set maps. */
function sameTopology(a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, values] of a) {
    const other = b.get(k);
    if (!other || other.size !== values.size || [...values].some((v) => !other.has(v))) return false;
  }
  return true;
}
