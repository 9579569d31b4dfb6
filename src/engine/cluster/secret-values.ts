// Secret values never leave the engine. The store keeps a Secret with each value replaced by a note of its size (as
// `kubectl describe secret` shows a Secret: keys and sizes), and the values themselves here, for the few parts of the
// engine that need them (bootstrap token authentication). Whatever reads the store — the report, the debugger, the
// console, the state view, the trace — sees only the notes.
import type { KubeObject } from '../api/types';

/** LAST_APPLIED is the annotation client-side apply writes: the applied object, values included. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** REDACTED_NOTE matches a value's note: `<redacted: 12 bytes>`. */
const REDACTED_NOTE = /^<redacted: \d+ bytes?>$/;

/** redactedNote is what stands for a value of `bytes` bytes. */
export function redactedNote(bytes: number): string {
  return `<redacted: ${bytes} byte${bytes === 1 ? '' : 's'}>`;
}

/** isRedactedNote tells a note from a value. */
export function isRedactedNote(value: unknown): boolean {
  return typeof value === 'string' && REDACTED_NOTE.test(value);
}

/** SecretValues are a Secret's values by key, decoded (data is base64 on the wire; stringData is text). */
export type SecretValues = Readonly<Record<string, string>>;

interface SecretShape {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  metadata?: { annotations?: Record<string, string> };
}

/**
 * redactSecret splits a Secret into what the store keeps (values replaced by notes) and its values. stringData merges
 * into data, as the API server's conversion does (pkg/apis/core/v1/conversion.go, Convert_v1_Secret_To_core_Secret:
 * stringData wins over data and is never returned). A value that is already a note keeps the value `previous` had.
 */
export function redactSecret(secret: KubeObject, previous: SecretValues | undefined): { stored: KubeObject; values: SecretValues } {
  const s = secret as unknown as SecretShape;
  const values: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.data ?? {})) {
    if (isRedactedNote(value) || isWireStandIn(value, previous?.[key])) {
      if (previous && Object.hasOwn(previous, key)) values[key] = previous[key]!;
    } else if (typeof value === 'string') values[key] = Buffer.from(value, 'base64').toString('latin1');
    data[key] = value;
  }
  for (const [key, value] of Object.entries(s.stringData ?? {})) {
    if (typeof value !== 'string') continue;
    values[key] = Buffer.from(value, 'utf8').toString('latin1');
    data[key] = value;
  }
  for (const key of Object.keys(data)) {
    data[key] = redactedNote(values[key] !== undefined ? values[key]!.length : noteBytes(data[key]!));
  }
  const { stringData: _dropped, ...rest } = secret as KubeObject & { stringData?: unknown };
  const stored: Record<string, unknown> = { ...rest };
  if (s.data !== undefined || s.stringData !== undefined) stored['data'] = data;
  const annotations = s.metadata?.annotations;
  if (annotations && typeof annotations[LAST_APPLIED] === 'string') {
    stored['metadata'] = { ...secret.metadata, annotations: { ...annotations, [LAST_APPLIED]: redactLastApplied(annotations[LAST_APPLIED]) } };
  }
  return { stored: stored as KubeObject, values };
}

/**
 * isWireStandIn tells the value a served client got for a kept one (as many zero bytes, serve/secret-wire.ts) sent
 * back unchanged, as `kubectl apply` or `kubectl edit` of a Secret read from the server does: the value stays.
 */
function isWireStandIn(value: unknown, kept: string | undefined): boolean {
  if (typeof value !== 'string' || kept === undefined || value.length === 0) return false;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === kept.length && bytes.toString('base64') === value && bytes.every((b) => b === 0);
}

/** noteBytes reads the size back from a note. */
function noteBytes(note: string): number {
  return Number(/\d+/.exec(note)?.[0] ?? 0);
}

/** redactLastApplied replaces the values in the last-applied configuration of a Secret by their notes. */
function redactLastApplied(json: string): string {
  let applied: SecretShape;
  try {
    applied = JSON.parse(json) as SecretShape;
  } catch {
    return redactedNote(Buffer.byteLength(json));
  }
  if (typeof applied !== 'object' || applied === null) return redactedNote(Buffer.byteLength(json));
  const redact = (m: Record<string, string> | undefined, encoded: boolean): Record<string, string> | undefined =>
    m && typeof m === 'object'
      ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, redactedNote(typeof v === 'string' ? (encoded ? Buffer.from(v, 'base64').length : Buffer.byteLength(v)) : 0)]))
      : m;
  const out: Record<string, unknown> = { ...applied };
  if (applied.data !== undefined) out['data'] = redact(applied.data, true);
  if (applied.stringData !== undefined) out['stringData'] = redact(applied.stringData, false);
  // kubectl writes the annotation as compact JSON with a final line break.
  return `${JSON.stringify(out)}\n`;
}

/** decodeSecretValue is a kept value as text (values are kept as bytes, one character per byte). */
export function decodeSecretValue(value: string): string {
  return Buffer.from(value, 'latin1').toString('utf8');
}
