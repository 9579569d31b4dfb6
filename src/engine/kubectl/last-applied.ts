// The last-applied-configuration annotation client-side apply keeps, written as kubectl writes it.
import { deepClone, type KubeObject } from '../api/types';

/** LAST_APPLIED is the annotation client-side apply keeps the applied configuration in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * withLastApplied adds the last-applied-configuration annotation: the applied object as JSON with
 * sorted keys (json.Marshal of an unstructured map) and a trailing newline, the annotation itself left out.
 * See staging/src/k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration).
 */
export function withLastApplied(obj: KubeObject, namespace: string | undefined): KubeObject {
  const applied = deepClone(obj);
  applied.metadata = { ...applied.metadata, ...(namespace ? { namespace } : {}) };
  const annotations = { ...(applied.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  applied.metadata.annotations = annotations;
  const out = deepClone(applied);
  out.metadata = { ...out.metadata, annotations: { ...annotations, [LAST_APPLIED]: `${sortedJson(applied)}\n` } };
  return out;
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${goJsonString(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return typeof value === 'string' ? goJsonString(value) : JSON.stringify(value);
}

/** goTypeName is the Go type a JSON value decodes to in an unstructured object. */
export function goTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return '<nil>';
}

/** goJsonString quotes a string as Go's encoding/json does: HTML characters and line separators escaped. */
export function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
