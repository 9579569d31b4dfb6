// A Secret as serve hands it to a client. The engine keeps no Secret value where a front can read it: each value of a
// stored Secret is a note of its size (`<redacted: 8 bytes>`, engine/cluster/secret-values.ts). A note is not base64,
// and a real client decodes `data` as bytes (Secret.Data is map[string][]byte: encoding/json reads base64), so
// `kubectl create secret` would fail on the answer with `illegal base64 data`. On the wire each value is instead that
// many zero bytes: the client decodes it, `kubectl describe secret` shows the right size, and no value leaves the
// engine. A client that sends such a value back unchanged leaves the value as it was (secret-values.ts).
import { isRedactedNote } from '../engine/cluster/secret-values';

/** wireSecretValue is what a client gets for a stored value: a note becomes as many zero bytes, base64; a value stays. */
function wireSecretValue(value: unknown): unknown {
  if (!isRedactedNote(value)) return value;
  const bytes = Number(/\d+/.exec(value as string)?.[0] ?? 0);
  return Buffer.alloc(bytes).toString('base64');
}

/** wireSecret is a stored Secret as a client gets it; any other object is returned as it is. */
function wireSecret(obj: unknown): unknown {
  if (obj === null || typeof obj !== 'object') return obj;
  const o = obj as { kind?: unknown; data?: unknown };
  if (o.kind !== 'Secret' || o.data === null || typeof o.data !== 'object') return obj;
  const data = Object.fromEntries(Object.entries(o.data as Record<string, unknown>).map(([k, v]) => [k, wireSecretValue(v)]));
  return { ...o, data };
}

/**
 * onTheWire is an answer's body as a client gets it: a Secret, the items of a list of Secrets (their kind is left out
 * of a list's items) and the objects a Table carries, with their values as wireSecret gives them.
 */
export function onTheWire(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const b = body as { kind?: unknown; items?: unknown; rows?: unknown };
  if (b.kind === 'Secret') return wireSecret(body);
  if (b.kind === 'SecretList' && Array.isArray(b.items)) return { ...b, items: b.items.map((i) => wireSecret({ kind: 'Secret', ...(i as object) })).map(dropKind) };
  if (b.kind === 'Table' && Array.isArray(b.rows)) {
    return { ...b, rows: b.rows.map((r: { object?: unknown }) => (r && typeof r === 'object' && r.object ? { ...r, object: wireSecret(r.object) } : r)) };
  }
  return body;
}

/** dropKind takes back the kind wireSecret was given to know a list's item for a Secret. */
function dropKind(item: unknown): unknown {
  const { kind: _kind, ...rest } = item as { kind?: unknown };
  return rest;
}
