// ConfigMap validation on create: the configmap strategy's Validate, ValidateConfigMap of
// pkg/apis/core/validation/validation.go (kubernetes v1.36.3): the metadata, the keys of data and binaryData (config keys,
// none in both), and 1 MiB at most in all. See pkg/registry/core/configmap/strategy.go.
import type { KubeObject } from '../../api/types';
import { type FieldError, invalidValue, key, tooLong } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isConfigMapKey, nameIsDNSSubdomain } from './names';

/** MAX_SECRET_SIZE is core.MaxSecretSize, the limit of a ConfigMap's and a Secret's values together (1 MiB). */
export const MAX_SECRET_SIZE = 1024 * 1024;

type StringMap = Record<string, unknown>;

const mapOf = (v: unknown): StringMap => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as StringMap) : {});

/**
 * validateConfigMap is ValidateConfigMap. Go walks the maps in random order; keys are taken here in the manifest's. A
 * data value counts its UTF-8 bytes, a binaryData value its decoded bytes. The size error names the whole object: its
 * path is empty, so the cause prints as `: Too long: ...`.
 */
export function validateConfigMap(cm: KubeObject): FieldError[] {
  // ValidateConfigMapName is NameIsDNSSubdomain.
  const errs = validateObjectMeta(cm, true, nameIsDNSSubdomain);
  const data = mapOf(cm['data']);
  const binaryData = mapOf(cm['binaryData']);
  let totalSize = 0;
  for (const [k, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(k)) errs.push(invalidValue(key('data', k), k, msg));
    if (Object.hasOwn(binaryData, k)) errs.push(invalidValue(key('data', k), k, 'duplicate of key present in binaryData'));
    totalSize += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0;
  }
  for (const [k, value] of Object.entries(binaryData)) {
    for (const msg of isConfigMapKey(k)) errs.push(invalidValue(key('binaryData', k), k, msg));
    totalSize += typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
  }
  if (totalSize > MAX_SECRET_SIZE) errs.push(tooLong('', MAX_SECRET_SIZE));
  return errs;
}
