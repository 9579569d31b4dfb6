// JSON Merge Patch (RFC 7386), as kube-apiserver applies an application/merge-patch+json body: null deletes a key,
// objects merge key by key, anything else (lists included) replaces. The semantics of gopkg.in/evanphx/json-patch.v4
// merge.go (MergePatch, mergeDocs, pruneNulls), which staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go uses.
import { isObject } from './types';

/** MergePatchError is a patch that is not a JSON object (merge.go ErrBadJSONPatch). */
export class MergePatchError extends Error {
  constructor() {
    super('Invalid JSON Patch');
    this.name = 'MergePatchError';
  }
}

/** pruneNulls drops the null members of objects, at every depth; nulls in lists stay (pruneAryNulls). */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? v : pruneNulls(v)));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, pruneNulls(v)]));
}

/** mergeDocs merges a patch object into a document object (a fresh one). */
function mergeDocs(doc: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...doc };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(out[k]) && isObject(v)) out[k] = mergeDocs(out[k] as Record<string, unknown>, v);
    // A value that replaces a non-object (or fills an absent key) loses its own null members.
    else out[k] = isObject(v) || out[k] === undefined || out[k] === null ? pruneNulls(v) : v;
  }
  return out;
}

/** applyMergePatch applies a JSON merge patch to an object; a patch that is not an object throws MergePatchError. */
export function applyMergePatch(doc: Record<string, unknown>, patch: unknown): unknown {
  if (Array.isArray(patch)) return pruneNulls(patch);
  if (!isObject(patch)) throw new MergePatchError();
  return mergeDocs(doc, patch);
}
