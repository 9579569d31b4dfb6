// A fast reader for the YAML that `kubectl get -o yaml` and most hand-written cluster files use: block mappings and
// sequences, plain and quoted one-line scalars, literal block scalars and one-line flow collections, with go-yaml v2's
// scalar resolution (go-yaml.ts, the same the full reader's tags use). It builds values, and when asked the source
// ranges the full reader would give (plain-yaml-ranges.ts); else the loader computes them with the full parser when a
// message needs a line. Anything else — anchors, tags, multi-line plain or quoted scalars, folded scalars, duplicate
// or merge keys, any syntax error — makes it return undefined, and the loader reads the file with the full parser
// instead, so the result is always the full parser's.
import type { FieldRange, Range } from './inputs';
import { type Line, RangeKeeper } from './plain-yaml-ranges';
import {
  FlowReader, PLAIN_START, plainEnd, quoted, restIsComment, ScalarResolver, Unsupported, unsupported, type Json,
} from './plain-yaml-scalars';

/**
 * PlainDocument is one non-empty document: its position among the file's `---` sections and its value; with the
 * `ranges` option, and when they are sure to be the full reader's, its range and its fields' ranges too.
 */
export interface PlainDocument {
  index: number;
  value: Json;
  range?: Range;
  fields?: Map<string, FieldRange>;
}

/** PlainOptions: `ranges` records every document's range and fields' ranges as the full reader does. */
export interface PlainOptions {
  ranges?: boolean;
}

/**
 * readPlainYaml reads every non-empty document of the text, each a block mapping at its top; undefined when the text
 * uses anything beyond this reader's subset (the caller then uses the full parser). The ranges asked for are given
 * for all the documents or for none.
 */
export function readPlainYaml(text: string, options: PlainOptions = {}): PlainDocument[] | undefined {
  // Carriage returns (CRLF files) are left to the full parser.
  if (text.includes('\r')) return undefined;
  try {
    return new PlainReader(text, new ScalarResolver(), options.ranges === true).documents();
  } catch (err) {
    if (err instanceof Unsupported || err instanceof RangeError) return undefined;
    throw err;
  }
}

class PlainReader {
  private readonly lines: Line[] = [];
  private at = 0;
  /** ranges records the source ranges, when asked for. */
  private readonly ranges: RangeKeeper | undefined;

  constructor(
    private readonly text: string,
    private readonly scalars: ScalarResolver,
    ranges: boolean,
  ) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let i = start;
      while (text.charCodeAt(i) === 32) i++;
      const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      // A tab or a carriage return inside the indentation needs the full parser.
      if (i < contentEnd && (text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) unsupported();
      // The empty rest after a final line break is not a line.
      if (!(start === end && end === text.length && end > 0)) this.lines.push({ start, indent: i - start, end: contentEnd });
      if (end === text.length) break;
      start = end + 1;
    }
    this.ranges = ranges ? new RangeKeeper(text, this.lines) : undefined;
  }

  /** documents reads the documents of the text, with their ranges when asked for and sound. */
  documents(): PlainDocument[] {
    const out: PlainDocument[] = [];
    const ranged: { range: Range; fields: Map<string, FieldRange> }[] = [];
    let index = 0;
    let started = false;
    for (;;) {
      this.skipBlank();
      if (this.at >= this.lines.length) break;
      const line = this.lines[this.at]!;
      const content = this.text.slice(line.start, line.end);
      if (content.startsWith('%') || content.startsWith('...')) unsupported();
      if (content.startsWith('---')) {
        if (content.trimEnd() !== '---') unsupported();
        if (started) index++;
        started = true;
        this.at++;
        continue;
      }
      if (line.indent !== 0) unsupported();
      started = true;
      this.ranges?.startDocument();
      const value = this.mapping(this.at, 0, -1, '');
      out.push({ index, value });
      if (this.ranges) ranged.push(this.ranges.document());
      this.skipBlank();
      // The next line must open another document.
      if (this.at < this.lines.length && !this.isSeparator(this.lines[this.at]!)) unsupported();
    }
    if (this.ranges?.sound()) return out.map((doc, k) => ({ ...doc, ...ranged[k]! }));
    return out;
  }

  /** isSeparator tells a `---` line. */
  private isSeparator(line: Line): boolean {
    return line.indent === 0 && this.text.startsWith('---', line.start);
  }

  /** skipBlank moves past empty and comment-only lines. */
  private skipBlank(): void {
    while (this.at < this.lines.length && this.isBlank(this.lines[this.at]!)) this.at++;
  }

  /** isBlank tells an empty or comment-only line. */
  private isBlank(line: Line): boolean {
    const i = line.start + line.indent;
    return i >= line.end || this.text.charCodeAt(i) === 35;
  }

  /** nextContent is the next non-blank line at or after `from` (this.lines.length when none). */
  private nextContent(from: number): number {
    let i = from;
    while (i < this.lines.length && this.isBlank(this.lines[i]!)) i++;
    return i;
  }

  /**
   * node reads the block node whose content starts at column `col` of line `lineNo`, inside a parent at
   * `parentIndent`; `path` is its field path (for the ranges).
   */
  private node(lineNo: number, col: number, parentIndent: number, path: string): Json {
    const line = this.lines[lineNo]!;
    const from = line.start + col;
    if (this.isSequenceEntry(from, line.end)) return this.sequence(lineNo, col, parentIndent, path);
    if (this.keyEnd(from, line.end) !== undefined) return this.mapping(lineNo, col, parentIndent, path);
    return this.inline(lineNo, from, parentIndent, path);
  }

  /** isSequenceEntry tells a `-` entry at `from`. */
  private isSequenceEntry(from: number, end: number): boolean {
    return this.text.charCodeAt(from) === 45 && (from + 1 >= end || this.text.charCodeAt(from + 1) === 32);
  }

  /** mapping reads a block mapping whose first key is at column `col` of line `lineNo`; later keys are lines indented `col`. */
  private mapping(lineNo: number, col: number, parentIndent: number, path: string): Json {
    if (col <= parentIndent) unsupported();
    const ranges = this.ranges;
    const out: { [key: string]: Json } = {};
    let i = lineNo;
    let from = this.lines[i]!.start + col;
    for (;;) {
      const line = this.lines[i]!;
      const colon = this.keyEnd(from, line.end) ?? unsupported();
      const key = this.key(from, colon);
      if (Object.hasOwn(out, key)) unsupported();
      const child = ranges ? ranges.reserve(path, key) : '';
      this.at = i + 1;
      const value = this.value(i, colon + 1, col, child);
      ranges?.field(child, i, from, colon);
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      const next = this.sibling(col);
      ranges?.entryEnd(col, this.at, next !== undefined, true);
      if (next === undefined) break;
      i = next;
      from = this.lines[i]!.start + col;
    }
    ranges?.blockEnd(lineNo, this.lines[lineNo]!.start + col, col);
    return out;
  }

  /** value reads a mapping value that starts after the colon at `from` on line `lineNo`, for a key at `keyIndent`. */
  private value(lineNo: number, from: number, keyIndent: number, path: string): Json {
    const line = this.lines[lineNo]!;
    let i = from;
    while (i < line.end && this.text.charCodeAt(i) === 32) i++;
    if (i >= line.end || this.text.charCodeAt(i) === 35) return this.below(lineNo, keyIndent, true, path, i);
    return this.inline(lineNo, i, keyIndent, path);
  }

  /**
   * below reads the value on the lines after a key or `-` with nothing after it (but spaces up to `emptyAt` and a
   * comment): a nested node, or null.
   */
  private below(lineNo: number, indent: number, sequenceMayAlign: boolean, path: string, emptyAt: number): Json {
    const i = this.nextContent(lineNo + 1);
    const next = this.lines[i];
    if (next && next.indent > indent && !(next.indent === 0 && this.isSeparator(next))) return this.node(i, next.indent, indent, path);
    // A mapping's sequence value may start at the key's own indentation.
    if (next && sequenceMayAlign && next.indent === indent && this.isSequenceEntry(next.start + indent, next.end)) {
      return this.sequence(i, indent, indent - 1, path);
    }
    this.at = next ? lineNo + 1 : i;
    this.ranges?.empty(lineNo, emptyAt);
    return null;
  }

  /** sequence reads a block sequence whose first `-` is at column `col` of line `lineNo`. */
  private sequence(lineNo: number, col: number, parentIndent: number, path: string): Json {
    if (col <= parentIndent) unsupported();
    const ranges = this.ranges;
    const out: Json[] = [];
    let i = lineNo;
    let from = this.lines[i]!.start + col;
    for (;;) {
      const line = this.lines[i]!;
      const child = ranges ? ranges.reserve(path, out.length) : '';
      let j = from + 1;
      while (j < line.end && this.text.charCodeAt(j) === 32) j++;
      if (j >= line.end || this.text.charCodeAt(j) === 35) {
        out.push(this.below(i, col, false, child, j));
      } else {
        this.at = i + 1;
        out.push(this.node(i, j - line.start, col, child));
      }
      ranges?.item(child);
      // The block ends at a line less indented, or at a mapping's next key where it shares the key's column.
      const next = this.sibling(col);
      const more = next !== undefined && this.isSequenceEntry(this.lines[next]!.start + col, this.lines[next]!.end);
      ranges?.entryEnd(col, this.at, more, false);
      if (!more) break;
      i = next;
      from = this.lines[i]!.start + col;
    }
    ranges?.blockEnd(lineNo, this.lines[lineNo]!.start + col, col);
    return out;
  }

  /**
   * sibling finds the next entry of a block at column `col`: the next content line, unless it ends the block (less
   * indented, or a document separator). The reader is left on that line either way.
   */
  private sibling(col: number): number | undefined {
    const i = this.nextContent(this.at);
    this.at = i;
    if (i >= this.lines.length) return undefined;
    const next = this.lines[i]!;
    if (next.indent < col || (next.indent === 0 && this.isSeparator(next))) return undefined;
    if (next.indent > col) unsupported();
    return i;
  }

  /** inline reads a value that sits on one line from `from`: a block scalar header, a flow collection or a scalar. */
  private inline(lineNo: number, from: number, parentIndent: number, path: string): Json {
    const line = this.lines[lineNo]!;
    const c = this.text[from]!;
    this.at = lineNo + 1;
    if (c === '|') return this.literal(lineNo, from, parentIndent);
    let value: Json;
    let end: number;
    if (c === '[' || c === '{') [value, end] = new FlowReader(this.text, line.end, this.scalars, this.ranges, lineNo).read(from, path);
    else if (c === '"' || c === "'") [value, end] = quoted(this.text, from, line.end);
    else {
      // `-5` and `-foo` are plain scalars; every other indicator needs the full parser.
      if (PLAIN_START.test(c) && !(c === '-' && from + 1 < line.end && this.text.charCodeAt(from + 1) !== 32)) unsupported();
      end = plainEnd(this.text, from, line.end);
      const source = this.text.slice(from, end);
      if (source.includes(': ') || source.endsWith(':') || source.includes('\t')) unsupported();
      value = this.scalars.resolve(source);
    }
    restIsComment(this.text, end, line.end);
    // A more indented line after a one-line value would continue it (a multi-line scalar): the full parser's job.
    const next = this.nextContent(lineNo + 1);
    if (next < this.lines.length && this.lines[next]!.indent > parentIndent) unsupported();
    this.ranges?.scalar(lineNo, from, end);
    return value;
  }

  /** literal reads a `|`, `|-` or `|+` block scalar; its lines are those indented more than the parent. */
  private literal(lineNo: number, from: number, parentIndent: number): Json {
    const line = this.lines[lineNo]!;
    let h = from + 1;
    const chomp = this.text[h] === '-' || this.text[h] === '+' ? this.text[h++] : '';
    restIsComment(this.text, h, line.end);
    const body: string[] = [];
    let contentIndent = -1;
    let lastLine = lineNo;
    let i = lineNo + 1;
    for (; i < this.lines.length; i++) {
      const l = this.lines[i]!;
      if (l.start + l.indent >= l.end) {
        // A line of spaces only: empty, unless it has more spaces than the indentation (content, or before the first
        // line an indentation hint): the full parser's job.
        if (l.indent > Math.max(contentIndent, 0)) unsupported();
        body.push('');
        continue;
      }
      if (contentIndent < 0) {
        if (l.indent <= parentIndent) break;
        contentIndent = l.indent;
      } else if (l.indent < contentIndent) break;
      body.push(this.text.slice(l.start + contentIndent, l.end));
      lastLine = i;
    }
    // The scalar's last line break must be in the text (a file ending inside it keeps the full parser's reading).
    if (i >= this.lines.length && !this.text.endsWith('\n')) unsupported();
    let last = body.length;
    while (last > 0 && body[last - 1] === '') last--;
    const kept = body.slice(0, last);
    this.at = i;
    this.ranges?.literal(lineNo, from, lastLine, i);
    if (kept.length === 0) return chomp === '+' ? body.map(() => '\n').join('') : '';
    const text = kept.join('\n');
    if (chomp === '-') return text;
    if (chomp === '+') return `${text}\n${body.slice(last).map(() => '\n').join('')}`;
    return `${text}\n`;
  }

  /**
   * keyEnd finds the colon that ends a mapping key starting at `from` (a plain or quoted key followed by `: ` or a
   * colon at the end of the line); undefined when the line is not a mapping entry.
   */
  private keyEnd(from: number, end: number): number | undefined {
    const c = this.text[from];
    if (c === '"' || c === "'") {
      let close: number;
      try {
        close = quoted(this.text, from, end)[1];
      } catch {
        return undefined;
      }
      return this.text[close] === ':' && (close + 1 >= end || this.text.charCodeAt(close + 1) === 32) ? close : undefined;
    }
    for (let i = from; i < end; i++) {
      const ch = this.text.charCodeAt(i);
      if (ch === 35 && i > from && this.text.charCodeAt(i - 1) === 32) return undefined;
      if (ch === 58 && (i + 1 >= end || this.text.charCodeAt(i + 1) === 32)) return i;
    }
    return undefined;
  }

  /** key reads the key between `from` and its colon, as the string JSON holds. */
  private key(from: number, colon: number): string {
    const c = this.text[from]!;
    if (c === '"' || c === "'") return quoted(this.text, from, colon)[0] as string;
    const source = this.text.slice(from, colon).trimEnd();
    if (source === '' || PLAIN_START.test(source) || source === '<<' || source.includes('\t') || source.includes(' #')) unsupported();
    return this.scalars.key(source);
  }
}
