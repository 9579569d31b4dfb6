// A PATCH's body as kube-apiserver's patch handler reads it: the content type picks the patcher (JSON patch, JSON
// merge patch, strategic merge patch, server-side apply: apply.ts); any other type is a 415 naming the accepted ones,
// and a body that is not JSON a 400 with encoding/json's words. See
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (PatchResource), v0.36.3.
import type { IncomingMessage } from 'node:http';
import { isObject } from '../engine/api/types';
import { PATCH_MEDIA_TYPES, type PatchType } from '../engine/apiserver/patch';
import { badRequest, StatusError } from '../engine/apiserver/request';
import type { UpdateOptions } from '../engine/apiserver/update';
import { APPLY_PATCH_TYPE, readApply, validatePatchOptions } from './apply';
import { contentType, readBody, status } from './http';
import { goJsonSyntaxError } from './json-syntax';

/**
 * ACCEPTED_PATCH_TYPES are the patch media types served, in installer.go's order: server-side apply's YAML last, its
 * CBOR form not (CBORServingAndStorage is off by default in 1.36). See staging/src/k8s.io/apiserver/pkg/endpoints/installer.go.
 */
export const ACCEPTED_PATCH_TYPES: readonly string[] = [PATCH_MEDIA_TYPES.json, PATCH_MEDIA_TYPES.merge, PATCH_MEDIA_TYPES.strategic, APPLY_PATCH_TYPE];

/** unsupportedMediaType is negotiation.NewUnsupportedMediaTypeError as the handler answers it (415). */
function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`));
}

/**
 * readPatchOrApply reads a PATCH of the main resource: a server-side apply, or one of the other patches (readPatch).
 */
export async function readPatchOrApply(req: IncomingMessage, url: URL): Promise<UpdateOptions> {
  return contentType(req) === APPLY_PATCH_TYPE ? readApply(req, url) : readPatch(req, url, ACCEPTED_PATCH_TYPES);
}

/**
 * readPatch reads a PATCH's type and body into the engine's UpdateOptions, its options validated first. Where apply is
 * not served (a subresource, a converted version) it is the 415 of a patcher without it.
 */
export async function readPatch(req: IncomingMessage, url: URL, accepted: readonly string[] = ACCEPTED_PATCH_TYPES.filter((t) => t !== APPLY_PATCH_TYPE)): Promise<Required<Pick<UpdateOptions, 'patch' | 'patchType'>>> {
  const type = contentType(req);
  const patchType = (Object.keys(PATCH_MEDIA_TYPES) as PatchType[]).find((t) => PATCH_MEDIA_TYPES[t] === type);
  if (!patchType) throw unsupportedMediaType(accepted);
  validatePatchOptions(url, false);
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
