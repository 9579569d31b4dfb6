// The downwardAPI and projected volume sources: file modes, items, one source per projection, token lifetimes and
// paths unique across the projection. See pkg/apis/core/validation/validation.go (validateDownwardAPIVolumeSource,
// validateDownwardAPIVolumeFile, validateProjectionSources).
import type { DownwardAPIVolumeFile, KeyToPath } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, required } from './field-errors';
import { validateObjectFieldSelector, validateResourceFieldSelector, VOLUME_FIELD_PATHS } from './pod-env';
import { validateLabelSelector } from './pod-label-selectors';
import { validateFileMode, validateKeyToPath, validateLocalNonReservedPath } from './pod-paths';
import type { VolumeProjection136 } from './pod-types';

const MIN_TOKEN_SECONDS = 10 * 60;
const MAX_TOKEN_SECONDS = 2 ** 32;
const DUPLICATE_PATHS = 'conflicting duplicate paths';

/**
 * validateDownwardAPIVolumeFile is validateDownwardAPIVolumeFile: a path, then one of fieldRef and resourceFieldRef,
 * then the mode. Its errors sit under the source's path, not the item's, as in Go.
 */
function validateDownwardAPIVolumeFile(file: DownwardAPIVolumeFile, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!file.path) errs.push(required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(file.path ?? '', child(path, 'path')));
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, child(path, 'fieldRef')));
    if (file.resourceFieldRef) errs.push(invalidValue(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (file.resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, true, child(path, 'resourceFieldRef')));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateFileMode(file.mode, child(path, 'mode')));
  return errs;
}

/** validateDownwardAPIVolumeSource is validateDownwardAPIVolumeSource: the default mode, then each file. */
export function validateDownwardAPIVolumeSource(source: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateFileMode(source['defaultMode'] as number | undefined, child(path, 'defaultMode'));
  for (const file of arrayOf<DownwardAPIVolumeFile>(source['items'])) errs.push(...validateDownwardAPIVolumeFile(file, path));
  return errs;
}

/** validateProjectedVolumeSource is validateProjectedVolumeSource: the default mode, then validateProjectionSources. */
export function validateProjectedVolumeSource(source: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateFileMode(source['defaultMode'] as number | undefined, child(path, 'defaultMode'));
  const seenPaths = new Set<string>();
  arrayOf<VolumeProjection136>(source['sources']).forEach((projection, i) => {
    errs.push(...validateProjection(projection, index(child(path, 'sources'), i), path, seenPaths));
  });
  return errs;
}

/** validateProjection checks one projected source; duplicate paths are reported at the projected volume's path. */
function validateProjection(projection: VolumeProjection136, srcPath: string, path: string, seenPaths: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  let sources = 0;
  const notePath = (p: string | undefined, shown: string): void => {
    if (!p) return;
    if (seenPaths.has(p)) errs.push(invalidValue(path, shown, DUPLICATE_PATHS));
    else seenPaths.add(p);
  };
  for (const kind of ['secret', 'configMap'] as const) {
    const ref = projection[kind];
    if (!ref) continue;
    sources++;
    const at = child(srcPath, kind);
    if (!ref.name) errs.push(required(child(at, 'name')));
    arrayOf<KeyToPath>(ref.items).forEach((kp, j) => {
      errs.push(...validateKeyToPath(kp, index(child(at, 'items'), j)));
      notePath(kp.path, ref.name ?? '');
    });
  }
  if (projection.downwardAPI) {
    sources++;
    for (const file of arrayOf<DownwardAPIVolumeFile>(projection.downwardAPI.items)) {
      errs.push(...validateDownwardAPIVolumeFile(file, child(srcPath, 'downwardAPI')));
      notePath(file.path, file.path ?? '');
    }
  }
  const token = projection.serviceAccountToken;
  if (token) {
    sources++;
    errs.push(...validateServiceAccountToken(token, child(srcPath, 'serviceAccountToken'), path));
  }
  if (projection.clusterTrustBundle) {
    sources++;
    errs.push(...validateClusterTrustBundle(projection.clusterTrustBundle, child(srcPath, 'clusterTrustBundle')));
    const p = projection.clusterTrustBundle.path ?? '';
    if (seenPaths.has(p)) errs.push(invalidValue(path, p, DUPLICATE_PATHS));
    else seenPaths.add(p);
  }
  // podCertificate (PodCertificateRequest) counts as a source; its own rules are not modelled.
  if (projection.podCertificate) sources++;
  if (sources > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  return errs;
}

/** validateServiceAccountToken checks a token's lifetime (10 minutes to 2^32 s) and its path (at the volume's path). */
function validateServiceAccountToken(token: NonNullable<VolumeProjection136['serviceAccountToken']>, at: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seconds = token.expirationSeconds ?? 0;
  if (seconds < MIN_TOKEN_SECONDS) errs.push(invalidValue(child(at, 'expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > MAX_TOKEN_SECONDS) errs.push(invalidValue(child(at, 'expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  // Why: Go reports the token's path at fldPath.Child("path"), the projected volume's path.
  if (!token.path) errs.push(required(child(path, 'path')));
  else errs.push(...validateLocalNonReservedPath(token.path, child(path, 'path')));
  return errs;
}

/**
 * validateClusterTrustBundle checks a clusterTrustBundle projection: exactly one of name and signerName, no label
 * selector beside a name, a valid selector beside a signer name, and a path. The name and signer name formats
 * (ValidateClusterTrustBundleName, ValidateSignerName) are not modelled.
 */
function validateClusterTrustBundle(ctb: NonNullable<VolumeProjection136['clusterTrustBundle']>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const usingName = ctb.name !== undefined && ctb.name !== null;
  const usingSigner = ctb.signerName !== undefined && ctb.signerName !== null;
  if (usingName && usingSigner) {
    const shown = { Name: ctb.name, SignerName: ctb.signerName, LabelSelector: ctb.labelSelector ?? null, Optional: ctb.optional ?? null, Path: ctb.path ?? '' };
    errs.push(invalidValue(at, asJSON(shown), 'only one of name and signerName may be used'));
  } else if (usingName) {
    if (ctb.name === '') errs.push(required(child(at, 'name'), 'must be a valid object name'));
    if (ctb.labelSelector) errs.push(invalidValue(child(at, 'labelSelector'), asJSON(ctb.labelSelector), 'labelSelector must be unset if name is specified'));
  } else if (usingSigner) {
    if (ctb.signerName === '') errs.push(required(child(at, 'signerName'), 'must be a valid signer name'));
    errs.push(...validateLabelSelector(ctb.labelSelector as LabelSelector | undefined, child(at, 'labelSelector')));
  } else {
    errs.push(required(at, 'either name or signerName must be specified'));
  }
  if (!ctb.path) errs.push(required(child(at, 'path')));
  errs.push(...validateLocalNonReservedPath(ctb.path ?? '', child(at, 'path')));
  return errs;
}

function arrayOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}
