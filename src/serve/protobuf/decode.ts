// Request bodies in Kubernetes' protobuf encoding (application/vnd.kubernetes.protobuf), which kubectl's typed clients
// send (create deployment, drain's evictions, auth can-i): the `k8s\0` envelope around a runtime.Unknown, and the
// object's message decoded into the JSON the same Go object would encode to. See
// staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go and runtime/generated.proto (Unknown).
import { type ProtoField, PROTOBUF_KINDS, PROTOBUF_TYPES } from './schema';

/** PROTOBUF_MAGIC is the prefix of every protobuf-encoded object (protobuf.go protoEncodingPrefix). */
const PROTOBUF_MAGIC = [0x6b, 0x38, 0x73, 0x00];

/** ProtobufError is a body that does not decode; its message is the one the server's decoder gives. */
export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

/** Wire is one field as read off the wire: its number, wire type and value (a varint, fixed bytes or a slice). */
interface Wire {
  num: number;
  type: number;
  varint?: bigint;
  bytes?: Uint8Array;
}

/** readFields splits a message into its fields. */
function readFields(buf: Uint8Array): Wire[] {
  const out: Wire[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (pos >= buf.length) throw new ProtobufError('unexpected EOF');
      const b = buf[pos++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  };
  while (pos < buf.length) {
    const tag = Number(varint());
    const num = tag >>> 3;
    const type = tag & 7;
    if (type === 0) out.push({ num, type, varint: varint() });
    else if (type === 1 || type === 5) {
      const n = type === 1 ? 8 : 4;
      out.push({ num, type, bytes: buf.subarray(pos, pos + n) });
      pos += n;
    } else if (type === 2) {
      const n = Number(varint());
      if (pos + n > buf.length) throw new ProtobufError('unexpected EOF');
      out.push({ num, type, bytes: buf.subarray(pos, pos + n) });
      pos += n;
    } else throw new ProtobufError(`proto: illegal wireType ${type}`);
  }
  return out;
}

const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('utf8');

/** ZERO_TIME_SECONDS is Go's zero time.Time in Unix seconds (January 1, year 1). */
const ZERO_TIME_SECONDS = -62135596800n;

/** rfc3339 writes a metav1.Time (seconds) or MicroTime (with microseconds) as its JSON does, in UTC. */
function rfc3339(seconds: bigint, nanos: number, micro: boolean): string {
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** goDuration is time.Duration.String for the durations metav1.Duration carries. */
function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  let n = ns < 0n ? -ns : ns;
  if (n < 1_000_000_000n) return `${sign}${Number(n) / 1e6}ms`;
  const h = n / 3_600_000_000_000n;
  n %= 3_600_000_000_000n;
  const m = n / 60_000_000_000n;
  const s = Number(n % 60_000_000_000n) / 1e9;
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

/** scalar decodes one value of a kind from its wire form. */
function scalar(kind: string, w: Wire): unknown {
  switch (kind) {
    case 'string': return text(w.bytes);
    case 'bytes': return Buffer.from(w.bytes ?? []).toString('base64');
    case 'bool': return (w.varint ?? 0n) !== 0n;
    case 'int': return Number(BigInt.asIntN(64, w.varint ?? 0n));
    case 'uint': return Number(BigInt.asUintN(64, w.varint ?? 0n));
    case 'double': return Buffer.from(w.bytes ?? new Uint8Array(8)).readDoubleLE(0);
    case 'float': return Buffer.from(w.bytes ?? new Uint8Array(4)).readFloatLE(0);
    default: return special(kind, w.bytes ?? new Uint8Array());
  }
}

/** special decodes the types with their own JSON form: times, quantities, int-or-strings, raw JSON, lists, messages. */
function special(kind: string, bytes: Uint8Array): unknown {
  const fields = readFields(bytes);
  const f = (n: number): Wire | undefined => fields.filter((x) => x.num === n).pop();
  switch (kind) {
    case 'time':
    case 'microtime': {
      // An empty Timestamp is the zero time, which metav1.Time encodes as null (time_proto.go Unmarshal).
      const seconds = f(1)?.varint;
      if (bytes.length === 0 || seconds === undefined || BigInt.asIntN(64, seconds) === ZERO_TIME_SECONDS) return null;
      return rfc3339(BigInt.asIntN(64, seconds), Number(f(2)?.varint ?? 0n), kind === 'microtime');
    }
    case 'duration': return goDuration(BigInt.asIntN(64, f(1)?.varint ?? 0n));
    case 'quantity': return text(f(1)?.bytes);
    // intstr.IntOrString: type 0 is an int (intVal), 1 a string (strVal). See util/intstr/intstr.go.
    case 'intstr': return Number(f(1)?.varint ?? 0n) === 1 ? text(f(3)?.bytes) : Number(BigInt.asIntN(32, f(2)?.varint ?? 0n));
    case 'rawjson': {
      const raw = f(1)?.bytes;
      if (!raw || raw.length === 0) return null;
      try {
        return JSON.parse(text(raw)) as unknown;
      } catch {
        return Buffer.from(raw).toString('base64');
      }
    }
  }
  if (kind.startsWith('items:')) return fields.filter((x) => x.num === 1).map((x) => scalar(kind.slice('items:'.length), x));
  if (kind.startsWith('msg:')) return decodeMessage(kind.slice('msg:'.length), bytes);
  throw new ProtobufError(`unknown protobuf kind ${kind}`);
}

/** isZero tells a Go zero value, which a non-pointer omitempty field leaves out of its JSON (a zero time: creationTimestamp is omitzero). */
const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false || v === null;

/** values reads every occurrence of a field: repeated scalars may come packed in one length-delimited field. */
function values(field: ProtoField, wires: Wire[]): unknown[] {
  const [, , kind] = field;
  const out: unknown[] = [];
  for (const w of wires) {
    if (w.type === 2 && ['bool', 'int', 'uint', 'double', 'float'].includes(kind)) {
      for (const x of readPacked(kind, w.bytes ?? new Uint8Array())) out.push(x);
    } else out.push(scalar(kind, w));
  }
  return out;
}

/** readPacked decodes a packed run of scalars. */
function readPacked(kind: string, bytes: Uint8Array): unknown[] {
  const out: unknown[] = [];
  if (kind === 'double' || kind === 'float') {
    const n = kind === 'double' ? 8 : 4;
    for (let i = 0; i + n <= bytes.length; i += n) out.push(scalar(kind, { num: 0, type: n === 8 ? 1 : 5, bytes: bytes.subarray(i, i + n) }));
    return out;
  }
  // A packed varint run re-read as fields numbered 0 with wire type 0: prefix each with a zero tag.
  const buf: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (i === 0 || bytes[i - 1]! < 0x80) buf.push(0);
    buf.push(bytes[i]!);
  }
  return readFields(Uint8Array.from(buf)).map((w) => scalar(kind, w));
}

/** decodeMessage decodes a message of a Go type into its JSON object, fields in declaration order. */
function decodeMessage(type: string, bytes: Uint8Array): Record<string, unknown> {
  const layout = PROTOBUF_TYPES[type];
  if (!layout) throw new ProtobufError(`no protobuf layout for ${type}`);
  const wires = readFields(bytes);
  const out: Record<string, unknown> = {};
  for (const field of layout) {
    const [num, json, kind, flags] = field;
    const mine = wires.filter((w) => w.num === num);
    if (mine.length === 0) continue;
    if (flags.includes('m')) {
      const [keyKind, valueKind] = kind.split('=') as [string, string];
      const map: Record<string, unknown> = {};
      for (const entry of mine) {
        const kv = readFields(entry.bytes ?? new Uint8Array());
        const k = kv.filter((x) => x.num === 1).pop();
        const v = kv.filter((x) => x.num === 2).pop();
        map[String(k ? scalar(keyKind, k) : '')] = v ? scalar(valueKind, v) : special(valueKind, new Uint8Array());
      }
      out[json] = map;
    } else if (flags.includes('r')) out[json] = values(field, mine);
    else {
      const value = values(field, mine).pop();
      if (flags.includes('i') && value && typeof value === 'object') Object.assign(out, value);
      else if (!(flags.includes('o') && !flags.includes('p') && isZero(value))) out[json] = value;
    }
  }
  return out;
}

/** isProtobuf tells whether a body starts with the protobuf envelope's magic number. */
export function isProtobuf(body: Uint8Array): boolean {
  return PROTOBUF_MAGIC.every((b, i) => body[i] === b);
}

/**
 * decodeProtobuf decodes a protobuf body into the JSON object of its kind: apiVersion and kind from the envelope's
 * TypeMeta, then the object's fields. An unknown kind is the serializer's error (protobuf.go: no kind is registered).
 */
export function decodeProtobuf(body: Uint8Array): Record<string, unknown> {
  if (!isProtobuf(body)) throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  const unknown = readFields(body.subarray(PROTOBUF_MAGIC.length));
  const typeMeta = readFields(unknown.find((w) => w.num === 1)?.bytes ?? new Uint8Array());
  const apiVersion = text(typeMeta.find((w) => w.num === 1)?.bytes);
  const kind = text(typeMeta.find((w) => w.num === 2)?.bytes);
  // DeleteOptions is registered in every group version (metav1.AddToGroupVersion): one Go type for all of them.
  const type = PROTOBUF_KINDS[`${apiVersion}/${kind}`] ?? (kind === 'DeleteOptions' ? 'meta/v1.DeleteOptions' : undefined);
  if (!type) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:100"`);
  const raw = unknown.find((w) => w.num === 2)?.bytes ?? new Uint8Array();
  return { kind, apiVersion, ...decodeMessage(type, raw) };
}
