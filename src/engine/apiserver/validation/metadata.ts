// Object metadata validation on create (ValidateObjectMeta) and the name rules kinds pick from, with the API server's
// own messages. See staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go and generic.go.
import type { Meta, ObjectMeta, OwnerReference } from '../../api/types';
import { isLabelKey, isLabelValue } from '../../api/labels-validation';
import {
  asJSON, type FieldError, forbidden, goJSONMarshal, invalidValue, required, tooLong,
} from './field-errors';
import { byteLength, isDNS1123Label, maxLenError, nameIsDNSSubdomain, regexError } from './names';

export { nameIsDNSSubdomain };

/** NameRule is a ValidateNameFunc: the problems of a name; `prefix` is true for a generateName, which gets a suffix. */
export type NameRule = (name: string, prefix: boolean) => string[];

// ---- Name rules: generic.go (NameIsDNSLabel, NameIsDNS1035Label) and content/path.go; NameIsDNSSubdomain is names.ts's. ----

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/**
 * maskTrailingDash replaces a generateName's trailing dash so the prefix can pass a name rule: Go drops the last
 * TWO bytes and appends "a" ("web-" checks as "wea"). Go would panic on "-" alone; it is left as it is here.
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** isDNS1035Label is validation.IsDNS1035Label (Service names). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errs;
}

/** nameIsDNSLabel is NameIsDNSLabel: namespaces (ValidateNamespaceName) and statefulsets. */
export const nameIsDNSLabel: NameRule = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
/** nameIsDNS1035Label is NameIsDNS1035Label: services. */
export const nameIsDNS1035Label: NameRule = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** pathSegmentName is ValidatePathSegmentName (content.IsPathSegmentName / IsPathSegmentPrefix): RBAC objects, persistent volumes. */
export const pathSegmentName: NameRule = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

// ---- Values field.Error prints as json.Marshal (field/errors.go ErrorBody, since kubernetes/kubernetes#132314). ----

/** goJSONMap is json.Marshal of a map[string]string: keys sorted as Go sorts them, `null` for a nil map. */
export function goJSONMap(map: Readonly<Record<string, string>> | null | undefined): string {
  if (map === null || map === undefined) return 'null';
  return `{${Object.keys(map).sort().map((k) => `${goJSONMarshal(k)}:${goJSONMarshal(map[k])}`).join(',')}}`;
}

/** invalidShown is field.Invalid with a value already printed (a map, whose keys a JS object would not keep sorted). */
export function invalidShown(field: string, shown: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, body: `Invalid value: ${shown}${detail ? `: ${detail}` : ''}` };
}

/** nonNegative is ValidateNonnegativeField (validate.NonNegative): `Invalid value: -1: must be greater than or equal to 0`. */
export function nonNegative(value: number, field: string): FieldError[] {
  return value < 0 ? [invalidValue(field, value, 'must be greater than or equal to 0')] : [];
}

// ---- ValidateObjectMeta. ----

/** TOTAL_ANNOTATION_SIZE_LIMIT_B is TotalAnnotationSizeLimitB: 256 KiB of keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);

/**
 * validateObjectMeta is ValidateObjectMeta on create: generateName (a prefix, trailing dash masked), then name (it
 * expects name generation to have happened, as the registry does it first), then the namespace, generation, labels,
 * annotations, ownerReferences, finalizers and managedFields. uid, resourceVersion, creationTimestamp and
 * deletionTimestamp are not validated on create: the registry overwrites or clears them (registry.ts).
 * `nameRule` defaults to the DNS subdomain rule of pods, deployments and replicasets.
 */
export function validateObjectMeta(obj: Meta, namespaced: boolean, nameRule: NameRule = nameIsDNSSubdomain, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  const meta: ObjectMeta = obj.metadata ?? {};
  // Why: ValidateObjectMetaAccessor in staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
  if (meta.generateName) {
    for (const msg of nameRule(meta.generateName, true)) errs.push(invalidValue(`${path}.generateName`, meta.generateName, msg));
  }
  if (!meta.name) errs.push(required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameRule(meta.name, false)) errs.push(invalidValue(`${path}.name`, meta.name, msg));
  return [...errs, ...validateObjectMetaCommon(meta, namespaced, path)];
}

/**
 * validateObjectMetaWithOpts is ValidateObjectMetaWithOpts on create: generateName is not validated (the name it
 * generated is), then the name with `nameRule`, then what validateObjectMeta checks after it.
 * Why: ValidateObjectMetaAccessorWithOpts in staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
 */
export function validateObjectMetaWithOpts(obj: Meta, namespaced: boolean, nameRule: NameRule, path = 'metadata'): FieldError[] {
  const meta: ObjectMeta = obj.metadata ?? {};
  const errs: FieldError[] = [];
  if (!meta.name) errs.push(required(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameRule(meta.name, false)) errs.push(invalidValue(`${path}.name`, meta.name, msg));
  return [...errs, ...validateObjectMetaCommon(meta, namespaced, path)];
}

/** validateObjectMetaCommon is validateObjectMetaAccessorWithOptsCommon: everything after the name. */
function validateObjectMetaCommon(meta: ObjectMeta, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (namespaced) {
    if (!meta.namespace) errs.push(required(`${path}.namespace`));
    else for (const msg of nameIsDNSLabel(meta.namespace, false)) errs.push(invalidValue(`${path}.namespace`, meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  errs.push(...nonNegative(meta.generation ?? 0, `${path}.generation`));
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(meta.finalizers, `${path}.finalizers`));
  errs.push(...validateManagedFields(meta.managedFields, `${path}.managedFields`));
  return errs;
}

/**
 * validateLabels is v1validation.ValidateLabels: each key a qualified name, each value a label value, every error at
 * the map's own path. Go walks the map in random order; this walks it as written, as pod-label-selectors.ts does.
 * Why: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go.
 */
export function validateLabels(labels: Readonly<Record<string, string>> | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of isLabelKey(key)) errs.push(invalidValue(path, key, msg));
    for (const msg of isLabelValue(value)) errs.push(invalidValue(path, value, msg));
  }
  return errs;
}

/**
 * validateAnnotations is ValidateAnnotations: keys are qualified names checked in lower case (the error shows the key
 * as written), and keys plus values may not pass 256 KiB in all. Why: objectmeta.go (ValidateAnnotations).
 */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of isLabelKey(key.toLowerCase())) errs.push(invalidValue(path, key, msg));
    total += byteLength(key) + byteLength(value);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** ownerReferenceGo is a metav1.OwnerReference as json.Marshal writes it: its struct's field order, omitempty pointers. */
function ownerReferenceGo(ref: OwnerReference): Record<string, unknown> {
  return {
    apiVersion: ref.apiVersion ?? '', kind: ref.kind ?? '', name: ref.name ?? '', uid: ref.uid ?? '',
    ...(typeof ref.controller === 'boolean' ? { controller: ref.controller } : {}),
    ...(typeof ref.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: ref.blockOwnerDeletion } : {}),
  };
}

/** groupVersionOf is schema.ParseGroupVersion: "" and "/" are empty, "v1" has no group, two slashes fail (undefined). */
function groupVersionOf(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  return parts.length === 2 ? { group: parts[0]!, version: parts[1]! } : undefined;
}

/**
 * validateOwnerReferences is ValidateOwnerReferences: apiVersion with a version, kind, name and uid set, no Event as
 * an owner (BannedOwners), and at most one controller. Errors sit at the list's path, not an index, as in Go.
 */
export function validateOwnerReferences(refs: readonly OwnerReference[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    // Why: validateOwnerReference in objectmeta.go; the uid is a types.UID, a named string printed as JSON.
    const gv = groupVersionOf(ref.apiVersion ?? '') ?? { group: '', version: '' };
    const kind = ref.kind ?? '';
    if (!gv.version) errs.push(invalidValue(`${path}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
    if (!kind) errs.push(invalidValue(`${path}.kind`, kind, 'must not be empty'));
    if (!ref.name) errs.push(invalidValue(`${path}.name`, ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(invalidValue(`${path}.uid`, asJSON(ref.uid ?? ''), 'must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      errs.push(invalidValue(path, asJSON(ownerReferenceGo(ref)), `${gv.group}/${gv.version}, Kind=${kind} is disallowed from being an owner`));
    }
    if (ref.controller === true) {
      const current = `${kind}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(invalidValue(path, asJSON((refs ?? []).map(ownerReferenceGo)),
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** validateFinalizers is ValidateFinalizers: qualified names, and not both orphan and foregroundDeletion. */
export function validateFinalizers(finalizers: readonly string[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) for (const msg of isLabelKey(f)) errs.push(invalidValue(path, f, msg));
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalidValue(path, asJSON(finalizers), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** isGoPrint is unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const isGoPrint = (ch: string): boolean => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);

/**
 * validateManagedFields is v1validation.ValidateManagedFields: operation Apply or Update, fieldsType FieldsV1 when
 * set, a manager of at most 128 bytes of printable characters (ValidateFieldManager), a subresource of at most 256.
 */
export function validateManagedFields(entries: ObjectMeta['managedFields'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const p = `${path}[${i}]`;
    const operation = entry.operation ?? '';
    // The operation is a named string type (ManagedFieldsOperationType): printed as JSON.
    if (operation !== 'Apply' && operation !== 'Update') errs.push(invalidValue(`${p}.operation`, asJSON(operation), 'must be `Apply` or `Update`'));
    if (entry.fieldsType && entry.fieldsType !== 'FieldsV1') errs.push(invalidValue(`${p}.fieldsType`, entry.fieldsType, 'must be `FieldsV1`'));
    const manager = entry.manager ?? '';
    if (byteLength(manager) > 128) errs.push(tooLong(`${p}.manager`, 128));
    let offset = 0;
    for (const ch of manager) {
      if (!isGoPrint(ch)) {
        const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
        errs.push(invalidValue(`${p}.manager`, manager, `invalid character U+${code} (at position ${offset})`));
      }
      offset += byteLength(ch);
    }
    if (byteLength(entry.subresource ?? '') > 256) errs.push(tooLong(`${p}.subresource`, 256));
  });
  return errs;
}
