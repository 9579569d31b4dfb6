// A PATCH's body as kube-apiserver's patch handler reads it: the content type picks the patcher (JSON patch, JSON
// merge patch, strategic merge patch); any other type is a 415 naming the accepted ones, and a body that is not JSON
// a 400 with encoding/json's words. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (PatchResource).
import type { IncomingMessage } from 'node:http';
import { isObject } from '../engine/api/types';
import { PATCH_MEDIA_TYPES, type PatchType } from '../engine/apiserver/patch';
import { badRequest, StatusError } from '../engine/apiserver/request';
import type { UpdateOptions } from '../engine/apiserver/update';
import { contentType, readBody, status } from './http';
import { goJsonSyntaxError } from './json-syntax';

/**
 * ACCEPTED_PATCH_TYPES are the patch media types served, in installer.go's order. Server-side apply
 * (application/apply-patch+yaml) is not simulated, so it is not among them and gets the 415 a server without it gives.
 */
export const ACCEPTED_PATCH_TYPES: readonly string[] = [PATCH_MEDIA_TYPES.json, PATCH_MEDIA_TYPES.merge, PATCH_MEDIA_TYPES.strategic];

/** unsupportedMediaType is negotiation.NewUnsupportedMediaTypeError as the handler answers it (415). */
function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`));
}

/** readPatch reads a PATCH's type and body into the engine's UpdateOptions. */
export async function readPatch(req: IncomingMessage): Promise<Required<UpdateOptions>> {
  const type = contentType(req);
  const patchType = (Object.keys(PATCH_MEDIA_TYPES) as PatchType[]).find((t) => PATCH_MEDIA_TYPES[t] === type);
  if (!patchType) throw unsupportedMediaType(ACCEPTED_PATCH_TYPES);
  const body = await readBody(req);
  const syntax = goJsonSyntaxError(body);
  if (syntax) {
    // The merge patcher's MergePatch turns a syntax error into ErrBadJSONPatch; the others pass encoding/json's on.
    throw badRequest(patchType === 'merge' ? 'Invalid JSON Patch' : syntax);
  }
  return { patch: JSON.parse(body.toString('utf8')) as unknown, patchType };
}

/** mergePatchOf is the JSON merge patch that turns `from` into `to`: changed values, removed keys as null, lists whole. */
export function mergePatchOf(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return to;
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!(k in to)) patch[k] = null;
  for (const [k, v] of Object.entries(to)) {
    if (JSON.stringify(from[k]) !== JSON.stringify(v)) patch[k] = isObject(from[k]) && isObject(v) ? mergePatchOf(from[k], v) : v;
  }
  return patch;
}
