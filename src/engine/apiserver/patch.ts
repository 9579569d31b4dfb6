// The patch handler's three patchers: a strategic merge patch, a JSON merge patch (RFC 7386) and a JSON patch
// (RFC 6902) applied to the stored object, and the errors each gives. See
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch, smpPatcher).
import { applyJsonPatch, decodeJsonPatch, JsonPatchError } from '../api/json-patch';
import { applyMergePatch, MergePatchError } from '../api/merge-patch';
import { applyStrategicMergePatch, type JsonMap } from '../api/strategic-merge';
import { deepClone, isObject, type KubeObject } from '../api/types';
import { badRequest, StatusError } from './request';

/** PatchType is a PATCH's content type: strategic merge (kubectl's default), JSON merge, or JSON patch. */
export type PatchType = 'strategic' | 'merge' | 'json';

/** PATCH_MEDIA_TYPES are the media types of each patch type (types.PatchType). */
export const PATCH_MEDIA_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json', merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json',
};

/** MAX_JSON_PATCH_OPERATIONS is patch.go's maxJSONPatchOperations. */
const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * applyPatch is the object a patch makes of the stored one. A JSON patch that does not decode is a 400 with
 * json-patch's words, one that does not apply a 422 (NewGenericServerResponse); a merge patch that is not an
 * object is a 400 `Invalid JSON Patch`.
 */
export function applyPatch(current: KubeObject, patch: unknown, type: PatchType): KubeObject {
  switch (type) {
    case 'strategic':
      if (!isObject(patch)) throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      return applyStrategicMergePatch(deepClone(current) as JsonMap, patch) as KubeObject;
    case 'merge':
      try {
        return applyMergePatch(deepClone(current) as JsonMap, patch) as KubeObject;
      } catch (e) {
        if (e instanceof MergePatchError) throw badRequest(e.message);
        throw e;
      }
    case 'json': {
      let operations;
      try {
        operations = decodeJsonPatch(patch);
      } catch (e) {
        if (e instanceof JsonPatchError) throw badRequest(e.message);
        throw e;
      }
      if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
        throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations.length}`, reason: 'RequestEntityTooLarge', code: 413 });
      }
      try {
        return applyJsonPatch(current, operations);
      } catch (e) {
        // errors.NewGenericServerResponse(422, "", GroupResource{}, "", err.Error(), 0, false): the generic message, empty details.
        if (e instanceof JsonPatchError) {
          throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 });
        }
        throw e;
      }
    }
  }
}
