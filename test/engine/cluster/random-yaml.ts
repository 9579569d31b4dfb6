// Random YAML files in and around the plain reader's subset, for comparing its readings with the full reader's:
// nested mappings and sequences in both indentation styles, compact entries, literals, flow collections, quoted and
// path-quoted keys, missing values, Lists, several documents, and blank and comment lines at every indentation.

/** SCALARS are one-line values: plain (some the full reader trims as blank space), quoted, unicode. */
const SCALARS = [
  'v', 'nginx:1.25', '1', '-5', '3.5', 'true', 'null', '~', '"q"', "'s'", '"a # b"', "'it''s'", '""', 'a b', 'x\u00a0', 'a#b',
  '10.0.0.1', '61255492Ki', '"\\u00e9"', '2001-12-14', '-x', 'é é', '"x\\ty"', '😀', 'a😀b', '[]', '{}', '[a, b]',
  '{a: 1, b: [x, "y"]}', '[a, {b: c}, [d]]', '[ 1 , 2 ]', '{ k: v }', '[[a], [b, [c]]]', '{"a.b": 1, \'c\': [x]}', '["😀", b]',
];
const WORDS = ['a', 'name', 'image', 'kubernetes.io/hostname', 'app.kubernetes.io/name', 'key with spaces', 'on', '0x10', '1e6'];
const COMMENTS = ['# c', '#', '# a: b', '# - x', '# x  ', '#\u00a0'];
const LITERAL_LINES = ['text', '# not a comment', 'a: b', '- x', 'x  ', 'tab\tin'];

/** randomYaml builds the file of one seed. */
export function randomYaml(seed: number): string {
  return new Writer(seed).file();
}

/** Writer writes one random file, line by line. */
class Writer {
  private readonly out: string[] = [];
  private keys = 0;

  constructor(private seed: number) {}

  /** file is one to three documents (an empty or comment-only one among them at times), with or without a final break. */
  file(): string {
    const docs = [this.document()];
    while (this.chance(0.2)) docs.push(this.chance(0.2) ? this.pick(['', '# only a comment']) : this.document());
    return docs.join('\n---\n') + (this.chance(0.9) ? '\n' : '');
  }

  /** random is mulberry32: a number in [0, 1). */
  private random(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let t = Math.imul(this.seed ^ (this.seed >>> 15), 1 | this.seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** chance is true with probability p. */
  private chance(p: number): boolean {
    return this.random() < p;
  }

  /** pick is one of the choices. */
  private pick<T>(choices: readonly T[]): T {
    return choices[Math.floor(this.random() * choices.length)]!;
  }

  /** document is a Pod or a List of them, with random fields. */
  private document(): string {
    this.out.length = 0;
    this.filler(0);
    if (this.chance(0.15)) {
      this.out.push('apiVersion: v1', 'kind: List', 'items:');
      const indent = this.pick([0, 2]);
      for (let n = 1 + Math.floor(this.random() * 3); n > 0; n--) {
        this.out.push(`${' '.repeat(indent)}- apiVersion: v1`, `${' '.repeat(indent + 2)}kind: Pod`);
        this.mapping(indent + 2, 2);
        this.filler(indent + 2);
      }
    } else {
      this.out.push('apiVersion: v1', 'kind: Pod');
      this.mapping(0, 0);
    }
    this.filler(0);
    return this.out.join('\n');
  }

  /** key is a fresh key: plain, quoted, or followed by spaces. */
  private key(): string {
    const key = `${this.pick(WORDS)}${this.keys++}`;
    if (this.chance(0.15)) return JSON.stringify(key);
    if (this.chance(0.05)) return `'${key}'`;
    return this.chance(0.05) ? `${key}  ` : key;
  }

  /** trailer is what may follow a value on its line: spaces, a comment. */
  private trailer(): string {
    if (this.chance(0.25)) return `${this.pick([' ', '  '])}${this.pick(COMMENTS)}`;
    return this.chance(0.1) ? ' ' : '';
  }

  /** filler adds blank and comment lines, the comments at most a little deeper than `indent`. */
  private filler(indent: number): void {
    while (this.chance(0.25)) {
      if (this.chance(0.5)) this.out.push(this.chance(0.8) ? '' : ' '.repeat(Math.floor(this.random() * 3)));
      else this.out.push(`${' '.repeat(Math.floor(this.random() * (indent + 6)))}${this.pick(COMMENTS)}`);
    }
  }

  /** literal adds a literal scalar's header at the end of `prefix` and its lines. */
  private literal(prefix: string, indent: number): void {
    this.out.push(`${prefix}${this.pick(['|', '|-', '|+'])}${this.chance(0.2) ? ` ${this.pick(COMMENTS)}` : ''}`);
    const body = indent + this.pick([1, 2, 4]);
    for (let n = Math.floor(this.random() * 4); n > 0; n--) {
      this.out.push(this.chance(0.2) ? '' : `${' '.repeat(body + (this.chance(0.2) ? 2 : 0))}${this.pick(LITERAL_LINES)}`);
    }
  }

  /** value adds a mapping value after `prefix` (the line up to the colon) of a key at `indent`. */
  private value(prefix: string, indent: number, depth: number): void {
    const r = this.random();
    if (depth > 4 || r < 0.35) this.out.push(`${prefix} ${this.pick(SCALARS)}${this.trailer()}`);
    else if (r < 0.45) this.literal(`${prefix} `, indent);
    else if (r < 0.55) this.out.push(`${prefix}${this.trailer()}`);
    else {
      this.out.push(`${prefix}${this.trailer()}`);
      this.filler(indent);
      if (this.chance(0.5)) this.mapping(indent + this.pick([1, 2, 4]), depth + 1);
      else this.sequence(this.chance(0.5) ? indent : indent + 2, depth + 1);
    }
  }

  /** mapping adds a block mapping at `indent`; `first` starts its first line instead of the indentation. */
  private mapping(indent: number, depth: number, first?: string): void {
    for (let i = 0, n = 1 + Math.floor(this.random() * 4); i < n; i++) {
      this.value(`${i === 0 && first !== undefined ? first : ' '.repeat(indent)}${this.key()}:`, indent, depth);
      this.filler(indent);
    }
  }

  /** sequence adds a block sequence at `indent`; `first` starts its first line instead of the indentation. */
  private sequence(indent: number, depth: number, first?: string): void {
    for (let i = 0, n = 1 + Math.floor(this.random() * 3); i < n; i++) {
      const dash = `${i === 0 && first !== undefined ? first : ' '.repeat(indent)}-`;
      const r = this.random();
      if (depth > 4 || r < 0.3) this.out.push(`${dash} ${this.pick(SCALARS)}${this.trailer()}`);
      else if (r < 0.55) this.mapping(indent + 2, depth + 1, `${dash} `);
      else if (r < 0.65) this.sequence(indent + 2, depth + 1, `${dash} `);
      else if (r < 0.75) this.out.push(`${dash}${this.trailer()}`);
      else if (r < 0.82) this.literal(`${dash} `, indent);
      else {
        this.out.push(`${dash}${this.trailer()}`);
        this.filler(indent);
        if (this.chance(0.5)) this.mapping(indent + 2, depth + 1);
        else this.sequence(indent + 2, depth + 1);
      }
      this.filler(indent);
    }
  }
}
