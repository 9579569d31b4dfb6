// A mutating webhook's JSONPatch applied as the mutating dispatcher applies it: decoded, applied to the object's JSON,
// decoded back into the kind's Go type and defaulted. See webhook/mutating/dispatcher.go (callAttrMutatingHook).
import { convertFromV1, convertToV1 } from '../../../api/conversion';
import { formatFieldPath } from '../../../api/fieldpath';
import { applyJsonPatch, decodeJsonPatch, JsonPatchError, type JsonPatchOperation, patchedPointers, pointerTokens } from '../../../api/json-patch';
import { isObject, type KubeObject } from '../../../api/types';
import { decodeObject } from '../../decode';
import { applyDefaults } from '../../defaulting';
import type { StatusError } from '../../request';
import { internalError } from './matching';

/** PatchOutcome is the patched object and whether it changed, a bad patch (a calling error) or an error that ends admission. */
export type PatchOutcome =
  | { object: KubeObject; changed: boolean; paths: string[] }
  | { callError: string }
  | { error: StatusError };

/** semanticEqual is equality.Semantic.DeepEqual on JSON values: an empty map or list equals an absent one. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual(a[k], b[k]));
  }
  return a === b;
}

/**
 * fieldPathOf writes a JSON Pointer as a field path of the patched object: `/spec/containers/0/image` →
 * `spec.containers[0].image`, with `-` as the index it appended at.
 */
export function fieldPathOf(pointer: string, patched: unknown): string {
  let at: unknown = patched;
  const segments = pointerTokens(pointer).map((t) => {
    const segment = Array.isArray(at) ? (t === '-' ? at.length - 1 : /^\d+$/.test(t) ? Number(t) : t) : t;
    at = Array.isArray(at) && typeof segment === 'number' ? at[segment] : isObject(at) ? at[t] : undefined;
    return segment;
  });
  return formatFieldPath(segments);
}

/**
 * applyWebhookPatch applies a webhook's patch to the object. An undecodable patch is a calling error (the failure policy
 * decides); a patch that does not apply, or gives an object the kind's type cannot hold, is `Internal error occurred:
 * <error>` whatever the policy; an empty patch changes nothing.
 */
export function applyWebhookPatch(object: KubeObject, patch: unknown): PatchOutcome {
  let operations: JsonPatchOperation[];
  try {
    operations = decodeJsonPatch(patch);
  } catch (err) {
    if (err instanceof JsonPatchError) return { callError: `received undecodable patch in webhook response: ${err.message}` };
    throw err;
  }
  if (operations.length === 0) return { object, changed: false, paths: [] };
  let patched: KubeObject;
  try {
    patched = applyJsonPatch(object, operations);
  } catch (err) {
    if (err instanceof JsonPatchError) return { error: internalError(err.message) };
    throw err;
  }
  const decoded = decodeObject(patched, { strict: false });
  if ('error' in decoded) {
    // The dispatcher decodes with the bare JSON serializer: its error, without the handler's `cannot be handled as` prefix.
    const message = decoded.error.message.replace(/^\S+ in version "[^"]*" cannot be handled as a \S+: /, '');
    return { error: internalError(message) };
  }
  // Decoded, defaulted and converted as a request body is, then seen as v1 again (api/conversion.ts).
  convertFromV1(decoded.object);
  const defaulted = convertToV1(applyDefaults(decoded.object).object);
  const paths = [...new Set(patchedPointers(operations).map((p) => fieldPathOf(p, patched)))];
  return { object: defaulted, changed: !semanticEqual(object, defaulted), paths };
}
