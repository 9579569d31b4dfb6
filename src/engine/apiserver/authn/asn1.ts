// A small DER reader: just enough ASN.1 to read the fields of an X.509 certificate that Go's crypto/x509 parses
// and node:crypto does not expose (raw names, key identifiers, basic constraints, extended key usages).

/** Der is one DER element: its tag, whether it holds other elements, and its bytes. */
export interface Der {
  /** tag is the identifier octet (class, constructed bit and number). */
  tag: number;
  constructed: boolean;
  /** value is the content octets. */
  value: Buffer;
  /** raw is the whole element: identifier, length and content. */
  raw: Buffer;
}

/** DerError is a malformed DER encoding. */
export class DerError extends Error {
  constructor(message: string) {
    super(`asn1: ${message}`);
    this.name = 'DerError';
  }
}

/** TAG names the universal and context tags a certificate uses. */
export const TAG = {
  boolean: 0x01, integer: 0x02, bitString: 0x03, octetString: 0x04, oid: 0x06, utf8String: 0x0c,
  printableString: 0x13, t61String: 0x14, ia5String: 0x16, utcTime: 0x17, generalizedTime: 0x18,
  universalString: 0x1c, bmpString: 0x1e, sequence: 0x30, set: 0x31,
} as const;

/** readDer reads the element that starts at `offset`. */
export function readDer(buf: Buffer, offset = 0): Der {
  if (offset + 2 > buf.length) throw new DerError('truncated element');
  const tag = buf[offset]!;
  let length = buf[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || offset + 2 + count > buf.length) throw new DerError('bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + buf[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new DerError('truncated content');
  return { tag, constructed: (tag & 0x20) !== 0, value: buf.subarray(offset + header, end), raw: buf.subarray(offset, end) };
}

/** children reads the elements inside a constructed element, in order. */
export function children(node: Der): Der[] {
  const out: Der[] = [];
  for (let offset = 0; offset < node.value.length;) {
    const child = readDer(node.value, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** oidOf renders an OBJECT IDENTIFIER in dotted form. */
export function oidOf(node: Der): string {
  const bytes = node.value;
  if (bytes.length === 0) throw new DerError('empty object identifier');
  const parts: number[] = [Math.min(2, Math.floor(bytes[0]! / 40)), bytes[0]! - 40 * Math.min(2, Math.floor(bytes[0]! / 40))];
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    value = value * 128 + (bytes[i]! & 0x7f);
    if ((bytes[i]! & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** stringOf decodes the string types a distinguished name may use. */
export function stringOf(node: Der): string {
  switch (node.tag) {
    case TAG.bmpString: {
      let s = '';
      for (let i = 0; i + 1 < node.value.length; i += 2) s += String.fromCharCode(node.value.readUInt16BE(i));
      return s;
    }
    case TAG.universalString: {
      let s = '';
      for (let i = 0; i + 3 < node.value.length; i += 4) s += String.fromCodePoint(node.value.readUInt32BE(i));
      return s;
    }
    case TAG.t61String:
      return node.value.toString('latin1');
    default:
      return node.value.toString('utf8');
  }
}

/** timeOf decodes a UTCTime or GeneralizedTime (RFC 5280: UTCTime years 50–99 are 19xx). */
export function timeOf(node: Der): Date {
  const text = node.value.toString('ascii');
  const m = node.tag === TAG.utcTime ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text) : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) throw new DerError(`bad time ${JSON.stringify(text)}`);
  let year = Number(m[1]);
  if (node.tag === TAG.utcTime) year += year < 50 ? 2000 : 1900;
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}

/** integerOf reads an INTEGER as a bigint (two's complement). */
export function integerOf(node: Der): bigint {
  if (node.value.length === 0) return 0n;
  let v = BigInt(`0x${node.value.toString('hex')}`);
  if (node.value[0]! & 0x80) v -= 1n << BigInt(node.value.length * 8);
  return v;
}
