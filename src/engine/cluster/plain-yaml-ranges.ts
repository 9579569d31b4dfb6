// The source ranges the plain-YAML reader (plain-yaml.ts) records when asked: every field's key and value range exactly
// as the full reader (loader.ts DocumentReader) takes them from the yaml library's nodes, so that a file in the plain
// subset needs no second parse for its ranges. A node's range runs from its first character to its node.range[1], less
// trailing white space. That end is where the node's text ends, but for a block collection: it ends with the range[2]
// of its last value, which takes in the comment lines the library's parser (parse/parser.js) gives that value, as
// `trailing` and `blockEnd` work out. Tabs outside literal scalars make the library's tokens differ from this reader's:
// the ranges of a text with one are given up (`sound`).
import { appendFieldPath } from '../api/fieldpath';
import type { FieldRange, Position, Range } from './inputs';

/** Line is one line of the text: where it starts, its indentation, and where it ends (before the break). */
export interface Line {
  start: number;
  indent: number;
  end: number;
}

/** Leaf is how the value last read ends: a one-line value (a scalar, a flow collection), a literal, nothing. */
type Leaf = 'flow' | 'literal' | 'empty';

/** PENDING holds a field's place in the map (the full reader records a field before its children) until it is read. */
const PENDING: FieldRange = Object.freeze({ value: Object.freeze({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) });

/** WHITE is the blank space the full reader drops from the end of a range. */
const WHITE = /\s/;

/** RangeKeeper records the fields of one document at a time, as the reader reads it. */
export class RangeKeeper {
  private fields = new Map<string, FieldRange>();
  // The node last read: its start, its range[1] (`end`) and its range[2] (`tail`), each with its line.
  private start = 0;
  private startLine = 0;
  private end = 0;
  private endLine = 0;
  private tail = 0;
  private tailLine = 0;
  /** leaf is how the value last read ends, undefined for a block collection; `after` is the line after it. */
  private leaf: Leaf | undefined;
  private after = 0;
  /**
   * The comment lines after a last entry that the parser keeps as an item of their own, which each block that ends
   * hands to its parent unless one is indented as far as its entries (parser.js pop): their deepest indentation, and
   * where the last one ends; -1 when there are none.
   */
  private trailIndent = -1;
  private trailEnd = 0;
  private trailLine = 0;
  /** literals are the offsets of the literal scalars' bodies, in pairs, where a tab is text. */
  private readonly literals: number[] = [];

  constructor(
    private readonly text: string,
    private readonly lines: readonly Line[],
  ) {}

  /** startDocument forgets the fields of the document before. */
  startDocument(): void {
    this.fields = new Map();
    this.trailIndent = -1;
  }

  /** document gives the document's range (its top mapping's, read last) and fields. */
  document(): { range: Range; fields: Map<string, FieldRange> } {
    return { range: this.range(this.start, this.startLine, this.end, this.endLine), fields: this.fields };
  }

  /** reserve gives the path of a key or index below `path` and keeps its place among the fields. */
  reserve(path: string, segment: string | number): string {
    const child = appendFieldPath(path, segment);
    this.fields.set(child, PENDING);
    return child;
  }

  /** field records a block mapping's field: its key on `line` and the value last read. */
  field(path: string, line: number, keyFrom: number, keyTo: number): void {
    this.fields.set(path, { key: this.range(keyFrom, line, keyTo, line), value: this.range(this.start, this.startLine, this.end, this.endLine) });
  }

  /** item records a block sequence's item: the value last read. */
  item(path: string): void {
    this.fields.set(path, { value: this.range(this.start, this.startLine, this.end, this.endLine) });
  }

  /** flowField records a field of a flow mapping, on one line. */
  flowField(path: string, line: number, keyFrom: number, keyTo: number, from: number, to: number): void {
    this.fields.set(path, { key: this.range(keyFrom, line, keyTo, line), value: this.range(from, line, to, line) });
  }

  /** flowItem records an item of a flow sequence, on one line. */
  flowItem(path: string, line: number, from: number, to: number): void {
    this.fields.set(path, { value: this.range(from, line, to, line) });
  }

  /** scalar notes a value that ends on its line (a comment after it counts in its range[2]). */
  scalar(line: number, from: number, to: number): void {
    this.node(line, from, to);
    this.leafEnd('flow', this.lines[line]!.end, line, line + 1);
  }

  /** literal notes a literal scalar from its `|` to its last line with text (the header's when none), body up to `after`. */
  literal(line: number, from: number, last: number, after: number): void {
    const to = this.lines[last]!.end;
    this.node(line, from, to);
    this.leafEnd('literal', to, last, after);
    if (after > line + 1) this.literals.push(this.lines[line + 1]!.start, this.lines[after - 1]!.end);
  }

  /** empty notes a missing value, an empty scalar at `at` (after the indicator and its spaces) on `line`. */
  empty(line: number, at: number): void {
    this.node(line, at, at);
    this.leafEnd('empty', this.lines[line]!.end, line, line + 1);
  }

  /**
   * entryEnd follows an entry of a block mapping (or sequence) at column `col` whose next content is line `next`
   * (this.lines.length at the end): the lines between take their places, and a block going on takes the trailing
   * comments in.
   */
  entryEnd(col: number, next: number, continues: boolean, mapping: boolean): void {
    // A mapping ends at a line at its own column only when that is a `---` after the top mapping.
    if (this.leaf !== undefined) this.trailing(col, next, mapping && !continues && col === 0 && next < this.lines.length);
    if (continues) this.trailIndent = -1;
  }

  /** blockEnd notes a block collection at column `col` whose first entry starts at `from` on `line`, read in full. */
  blockEnd(line: number, from: number, col: number): void {
    this.start = from;
    this.startLine = line;
    this.end = this.tail;
    this.endLine = this.tailLine;
    this.leaf = undefined;
    // The parser keeps the trailing comments in a block (not at the top) when one is indented as far as its entries.
    if (this.trailIndent >= col && col > 0) {
      this.tail = this.trailEnd;
      this.tailLine = this.trailLine;
      this.trailIndent = -1;
    }
  }

  /** sound tells whether the ranges are the full reader's: no tab outside a literal's body. */
  sound(): boolean {
    let k = 0;
    for (let tab = this.text.indexOf('\t'); tab >= 0; tab = this.text.indexOf('\t', tab + 1)) {
      while (k < this.literals.length && this.literals[k + 1]! < tab) k += 2;
      if (!(k < this.literals.length && this.literals[k]! <= tab)) return false;
    }
    return true;
  }

  /** node notes a value from `from` to `to` on one line. */
  private node(line: number, from: number, to: number): void {
    this.start = from;
    this.startLine = line;
    this.end = to;
    this.endLine = line;
  }

  /** leafEnd notes how the value last read ends: its range[2] for now, and the line after it. */
  private leafEnd(leaf: Leaf, tail: number, tailLine: number, after: number): void {
    this.leaf = leaf;
    this.tail = tail;
    this.tailLine = tailLine;
    this.after = after;
  }

  /**
   * trailing places the comment lines between the value last read and line `next`, all in the block at `col` holding
   * it (parser.js blockMap and blockSequence). After a missing value they all go with it, in its range[2]. After a
   * one-line value, those indented deeper than the block go in its range[2] (atIndentedComment), up to the first one
   * that is not; that one and the rest make an item of their own, as all of them do after a literal. At a line that
   * goes on at the mapping's column (`atColumn`), the parser cuts a missing value's lines after the one following the
   * last comment indented deeper than the mapping (blockMap, "For empty nodes").
   */
  private trailing(col: number, next: number, atColumn: boolean): void {
    let own = this.leaf === 'literal';
    let last = next;
    if (this.leaf === 'empty' && atColumn) {
      let deep = this.after - 1;
      for (let l = this.after; l < next; l++) if (this.lines[l]!.indent > col && !this.isEmpty(l)) deep = l;
      last = Math.min(next, deep + 2);
    }
    this.trailIndent = -1;
    for (let l = this.after; l < last; l++) {
      const line = this.lines[l]!;
      if (this.isEmpty(l)) continue;
      if (this.leaf === 'empty' || (!own && line.indent > col)) {
        this.tail = line.end;
        this.tailLine = l;
      } else {
        own = true;
        this.trailIndent = Math.max(this.trailIndent, line.indent);
        this.trailEnd = line.end;
        this.trailLine = l;
      }
    }
    this.leaf = undefined;
  }

  /** isEmpty tells a line of spaces only (the lines after a value are empty or comments; the reader's isBlank is either). */
  private isEmpty(l: number): boolean {
    const line = this.lines[l]!;
    return line.start + line.indent >= line.end;
  }

  /** range builds a fresh range from `from` to `to` less trailing blank space, each offset on the line given or near it. */
  private range(from: number, fromLine: number, to: number, toLine: number): Range {
    let end = to;
    for (; end > from; end--) {
      const c = this.text.charCodeAt(end - 1);
      if ((c > 32 && c < 127) || !WHITE.test(this.text[end - 1]!)) break;
    }
    return { start: this.position(from, fromLine), end: this.position(end, toLine) };
  }

  /** position converts an offset to a zero-based line and UTF-16 character; `hint` is its line but for trimmed ends. */
  private position(offset: number, hint: number): Position {
    let line = hint;
    const at = this.lines[line]!;
    if (offset < at.start || offset > at.end) {
      let lo = 0;
      let hi = this.lines.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.lines[mid]!.start <= offset) lo = mid;
        else hi = mid - 1;
      }
      line = lo;
    }
    return { line, character: offset - this.lines[line]!.start };
  }
}
