// A small DER writer: the ASN.1 pieces an X.509 certificate is made of, encoded the way Go's encoding/asn1 and
// cryptobyte insist on (minimal lengths and integers, UTCTime before 2050, BIT STRINGs with exact unused bits).

/** derLength encodes a definite length: short form below 128, else the long form with the fewest octets. */
export function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** tlv is one element: identifier octet, length, content. */
export function tlv(tag: number, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(value.length), value]);
}

/** sequence is a SEQUENCE of already encoded elements. */
export function sequence(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

/** set is a SET of already encoded elements (a relative distinguished name holds one). */
export function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

/** explicit wraps an element in the constructed context tag [n]. */
export function explicit(n: number, value: Buffer): Buffer {
  return tlv(0xa0 + n, value);
}

/** boolean is a BOOLEAN; DER writes TRUE as 0xff. */
export function boolean(v: boolean): Buffer {
  return tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
}

/** octetString is an OCTET STRING. */
export function octetString(b: Buffer): Buffer {
  return tlv(0x04, b);
}

/** utf8String is a UTF8String, which Go and the engine's reader both decode. */
export function utf8String(s: string): Buffer {
  return tlv(0x0c, Buffer.from(s, 'utf8'));
}

/** bitString is a BIT STRING of whole octets (a key or a signature: no unused bits). */
export function bitString(b: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
}

/**
 * namedBits is a BIT STRING of named bits (KeyUsage): bit n is the n-th bit from the left. DER drops trailing zero
 * octets and counts the trailing zero bits of the last octet as unused, which Go's parser checks.
 */
export function namedBits(bits: readonly number[]): Buffer {
  const width = bits.length === 0 ? 0 : Math.max(...bits) + 1;
  const octets = Buffer.alloc(Math.ceil(width / 8));
  for (const n of bits) octets[n >> 3]! |= 0x80 >> (n & 7);
  const unused = width === 0 ? 0 : octets.length * 8 - width;
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), octets]));
}

/** integer is an INTEGER in the fewest two's-complement octets (cryptobyte refuses a needless leading 0x00). */
export function integer(v: bigint): Buffer {
  if (v < 0n) throw new RangeError('integer: only non-negative values are written');
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let b = Buffer.from(hex, 'hex');
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

/** objectIdentifier encodes a dotted OID: the first two arcs in one octet, then base-128 arcs. */
export function objectIdentifier(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const bytes: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) bytes.unshift((v & 0x7f) | 0x80);
    out.push(...bytes);
  }
  return tlv(0x06, Buffer.from(out));
}

/**
 * time is a certificate Time as RFC 5280 section 4.1.2.5 requires: UTCTime (YYMMDDHHMMSSZ) for 1950–2049,
 * GeneralizedTime (YYYYMMDDHHMMSSZ) from 2050 on; seconds always, no fraction.
 */
export function time(d: Date): Buffer {
  const p = (n: number): string => String(n).padStart(2, '0');
  const rest = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${p(year % 100)}${rest}`, 'ascii')) : tlv(0x18, Buffer.from(`${year}${rest}`, 'ascii'));
}
