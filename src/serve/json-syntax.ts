// The syntax errors of Go's encoding/json, which kube-apiserver's JSON serializer passes on when a body is not JSON:
// a byte-level scanner giving the same texts (`invalid character 'b' looking for beginning of object key string`,
// `unexpected end of JSON input`). See go/src/encoding/json/scanner.go (stateBeginValue, quoteChar, ...).

/** quoteChar writes a byte as scanner.go's quoteChar does: `'x'`, `'\''`, `'"'`, `'\n'`, `'\x01'`. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (escapes[c]) return `'${escapes[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // string(c) of a byte is the rune U+00XX; strconv.Quote escapes the ones that are not printable.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u00${c.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/** MAX_NESTING_DEPTH is scanner.go's maxNestingDepth: the deepest nesting of objects and arrays it scans. */
const MAX_NESTING_DEPTH = 10000;

/** JsonScanError carries the scanner's first syntax error. */
class JsonScanError extends Error {}

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Scanner walks a body as encoding/json's checkValid does, throwing the first syntax error. */
class Scanner {
  private pos = 0;

  constructor(private readonly b: Uint8Array) {}

  private fail(c: number, context: string): never {
    throw new JsonScanError(`invalid character ${quoteChar(c)} ${context}`);
  }

  private next(): number {
    if (this.pos >= this.b.length) throw new JsonScanError('unexpected end of JSON input');
    return this.b[this.pos++]!;
  }

  private peek(): number | undefined {
    return this.b[this.pos];
  }

  private skipSpace(): number {
    let c = this.next();
    while (isSpace(c)) c = this.next();
    return c;
  }

  /** document is a whole body: one value, then only whitespace. */
  document(): void {
    this.value(this.skipSpace());
    while (this.pos < this.b.length) {
      const c = this.b[this.pos++]!;
      if (!isSpace(c)) this.fail(c, 'after top-level value');
    }
  }

  /**
   * value scans one value from its first byte. Objects and arrays nest on an explicit stack, as the scanner's
   * parseState does, so no depth of nesting exhausts the call stack; past maxNestingDepth (10000) it is the scanner's
   * `exceeded max depth` error.
   */
  private value(first: number): void {
    const stack: number[] = [];
    let c = first;
    for (;;) {
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= MAX_NESTING_DEPTH) this.fail(c, 'exceeded max depth');
        stack.push(c);
        c = this.skipSpace();
        if (c !== (stack.at(-1) === 0x7b ? 0x7d : 0x5d)) {
          if (stack.at(-1) === 0x7b) c = this.member(c);
          continue;
        }
        stack.pop();
      } else this.scalar(c);
      // A value is complete: close the containers it ends, until one goes on with another member or element.
      for (;;) {
        const top = stack.at(-1);
        if (top === undefined) return;
        c = this.skipSpace();
        if (c === (top === 0x7b ? 0x7d : 0x5d)) {
          stack.pop();
          continue;
        }
        if (c !== 0x2c) this.fail(c, top === 0x7b ? 'after object key:value pair' : 'after array element');
        c = this.skipSpace();
        if (top === 0x7b) c = this.member(c);
        break;
      }
    }
  }

  /** member scans an object member's key and colon from the key's first byte, and returns the first byte of its value. */
  private member(c: number): number {
    if (c !== 0x22) this.fail(c, 'looking for beginning of object key string');
    this.string();
    const colon = this.skipSpace();
    if (colon !== 0x3a) this.fail(colon, 'after object key');
    return this.skipSpace();
  }

  /** scalar scans a string, number or literal from its first byte. */
  private scalar(c: number): void {
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number(c);
    if (c === 0x74) return this.literal('true');
    if (c === 0x66) return this.literal('false');
    if (c === 0x6e) return this.literal('null');
    this.fail(c, 'looking for beginning of value');
  }

  private string(): void {
    for (;;) {
      const c = this.next();
      if (c === 0x22) return;
      if (c < 0x20) this.fail(c, 'in string literal');
      if (c !== 0x5c) continue;
      const e = this.next();
      if (e === 0x75) {
        for (let i = 0; i < 4; i++) {
          const h = this.next();
          if (!isHex(h)) this.fail(h, 'in \\u hexadecimal character escape');
        }
      } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) this.fail(e, 'in string escape code');
    }
  }

  private number(first: number): void {
    let c: number | undefined = first;
    if (c === 0x2d) {
      c = this.next();
      if (!isDigit(c)) this.fail(c, 'in numeric literal');
    }
    if (c !== 0x30) while (isDigit(this.peek())) this.pos++;
    if (this.peek() === 0x2e) {
      this.pos++;
      const d = this.next();
      if (!isDigit(d)) this.fail(d, 'after decimal point in numeric literal');
      while (isDigit(this.peek())) this.pos++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      let d = this.next();
      if (d === 0x2b || d === 0x2d) d = this.next();
      if (!isDigit(d)) this.fail(d, 'in exponent of numeric literal');
      while (isDigit(this.peek())) this.pos++;
    }
  }

  private literal(word: string): void {
    for (let i = 1; i < word.length; i++) {
      const c = this.next();
      if (c !== word.charCodeAt(i)) this.fail(c, `in literal ${word} (expecting '${word[i]}')`);
    }
  }
}

/** goJsonSyntaxError is encoding/json's error for a body that is not JSON, or undefined when it is. */
export function goJsonSyntaxError(body: Uint8Array): string | undefined {
  try {
    new Scanner(body).document();
    return undefined;
  } catch (e) {
    if (e instanceof JsonScanError) return e.message;
    throw e;
  }
}

/** summarizeData is the handlers' summary of a body they cannot decode: its first bytes, as text or hex. See rest.go. */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const head = Buffer.from(data.subarray(0, maxLength));
  const more = data.length > maxLength ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}
