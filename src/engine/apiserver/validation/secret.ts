// Secret validation on create and update: the secret strategy's Validate, ValidateSecret of
// pkg/apis/core/validation/validation.go (kubernetes v1.36.3): the metadata, the keys (config keys), 1 MiB of values at
// most, and what each built-in type requires. It reads the request's values, before the store redacts them
// (cluster/secret-values.ts); a value already redacted (an update of a stored Secret) counts by its note's size, and
// a stored docker config sent back redacted or as a served client's stand-in is not parsed again.
import type { KubeObject } from '../../api/types';
import { isRedactedNote } from '../../cluster/secret-values';
import { goJsonSyntaxError } from '../go-json-syntax';
import { MAX_SECRET_SIZE } from './config-map';
import { type FieldError, invalidValue, key, required, tooLong } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isConfigMapKey, nameIsDNSSubdomain } from './names';

/** SecretValue is one key's value as the internal Secret holds it: its size, and its bytes when the request had them. */
interface SecretValue {
  size: number;
  bytes?: Buffer;
}

const mapOf = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** REDACTED_VALUE is the bad value Go shows for a docker config that does not parse. */
const REDACTED_VALUE = '<secret contents redacted>';
/** SERVICE_ACCOUNT_NAME_KEY is core.ServiceAccountNameKey. */
const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';

/**
 * secretValues is the internal Secret's data: data decoded from base64, then stringData, which wins (the v1 conversion,
 * Convert_v1_Secret_To_core_Secret in pkg/apis/core/v1/conversion.go, runs before validation).
 */
function secretValues(secret: KubeObject): Map<string, SecretValue> {
  const values = new Map<string, SecretValue>();
  for (const [k, v] of Object.entries(mapOf(secret['data']))) {
    if (typeof v !== 'string') values.set(k, { size: 0, bytes: Buffer.alloc(0) });
    else if (isRedactedNote(v)) values.set(k, { size: Number(/\d+/.exec(v)?.[0] ?? 0) });
    else {
      const bytes = Buffer.from(v, 'base64');
      values.set(k, { size: bytes.length, bytes });
    }
  }
  for (const [k, v] of Object.entries(mapOf(secret['stringData']))) {
    const bytes = Buffer.from(typeof v === 'string' ? v : '', 'utf8');
    values.set(k, { size: bytes.length, bytes });
  }
  return values;
}

/** validateSecret is ValidateSecret. Go walks the data in random order; keys are taken here in the manifest's. */
export function validateSecret(secret: KubeObject): FieldError[] {
  // ValidateSecretName is NameIsDNSSubdomain.
  const errs = validateObjectMeta(secret, true, nameIsDNSSubdomain);
  const values = secretValues(secret);
  let totalSize = 0;
  for (const [k, value] of values) {
    for (const msg of isConfigMapKey(k)) errs.push(invalidValue(key('data', k), k, msg));
    totalSize += value.size;
  }
  if (totalSize > MAX_SECRET_SIZE) errs.push(tooLong('data', MAX_SECRET_SIZE));
  errs.push(...validateSecretType(secret, values));
  return errs;
}

/** validateSecretType is ValidateSecret's switch on the type: the keys each built-in type needs. */
function validateSecretType(secret: KubeObject, values: Map<string, SecretValue>): FieldError[] {
  const type = typeof secret['type'] === 'string' ? secret['type'] : '';
  const need = (...keys: string[]): FieldError[] => keys.filter((k) => !values.has(k)).map((k) => required(key('data', k)));
  switch (type) {
    case 'kubernetes.io/service-account-token':
      // Only the service account's name; its uid and token come from the token controller.
      return secret.metadata?.annotations?.[SERVICE_ACCOUNT_NAME_KEY] ? [] : [required(key('metadata.annotations', SERVICE_ACCOUNT_NAME_KEY))];
    case 'kubernetes.io/dockercfg':
      return validateDockerConfig(values, '.dockercfg');
    case 'kubernetes.io/dockerconfigjson':
      return validateDockerConfig(values, '.dockerconfigjson');
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of the two must be there.
      return values.has('username') || values.has('password') ? [] : need('username', 'password');
    case 'kubernetes.io/ssh-auth':
      return (values.get('ssh-privatekey')?.size ?? 0) === 0 ? [required(key('data', 'ssh-privatekey'))] : [];
    case 'kubernetes.io/tls':
      return need('tls.crt', 'tls.key');
    default:
      // Opaque, no type, and any other type: nothing more.
      return [];
  }
}

/** validateDockerConfig: the key is there and its value unmarshals as a JSON object (or null), as json.Unmarshal says. */
function validateDockerConfig(values: Map<string, SecretValue>, name: string): FieldError[] {
  const value = values.get(name);
  if (!value) return [required(key('data', name))];
  // A stored value comes back redacted (no bytes), or, from a served client, as as many zero bytes
  // (serve/secret-wire.ts), which the store turns back into the kept value: neither is parsed.
  if (!value.bytes || (value.bytes.length > 0 && value.bytes.every((b) => b === 0))) return [];
  const problem = unmarshalMapError(value.bytes.toString('utf8'));
  return problem ? [invalidValue(key('data', name), REDACTED_VALUE, problem)] : [];
}

/** unmarshalMapError is json.Unmarshal's error for text decoded into a map[string]interface{}, or undefined. */
function unmarshalMapError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return goJsonSyntaxError(text);
  }
  if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) return undefined;
  const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
