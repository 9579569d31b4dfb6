// Where the cursor is in a YAML manifest, read from the indentation so that it works on half-typed text: the path of
// the mapping it is in, and the key or value under it.
import type { PathSegment } from '../engine/api/fieldpath';

/** CursorPlace is the cursor's place: the path of the enclosing mapping, and the key or value it touches. */
export interface CursorPlace {
  /** path leads from the document's root to the mapping that holds the cursor's key (or would hold a key typed there). */
  readonly path: PathSegment[];
  /** key is the key on the cursor's line, with its character span; onKey says the cursor is on it. */
  readonly key?: { readonly name: string; readonly start: number; readonly end: number };
  readonly onKey: boolean;
  /** value is the text after the key's colon when the cursor is there (onValue). */
  readonly value?: { readonly text: string; readonly start: number; readonly end: number };
  readonly onValue: boolean;
  /** word is what is typed between the start of the key (or value) and the cursor; wordStart where it begins. */
  readonly word: string;
  readonly wordStart: number;
  /** column is where a key typed at the cursor would start. */
  readonly column: number;
  /** inListItem says a `- ` opens the cursor's line right before the cursor's word. */
  readonly inListItem: boolean;
}

interface Frame {
  col: number;
  seg: PathSegment;
  item: boolean;
  next: number;
}

interface LineShape {
  dashes: number[];
  key?: { name: string; start: number; end: number; colon: number };
  rest: number;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]},&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?):(?=\s|$)/;

/** shapeOf reads a line's list dashes and key. */
function shapeOf(line: string): LineShape {
  const dashes: number[] = [];
  let i = line.length - line.trimStart().length;
  while (line[i] === '-' && (line[i + 1] === ' ' || line[i + 1] === undefined)) {
    dashes.push(i);
    i += 1;
    while (line[i] === ' ') i++;
  }
  const m = KEY.exec(line.slice(i));
  if (!m) return { dashes, rest: i };
  const raw = m[1] ?? '';
  const name = /^["']/.test(raw) ? raw.slice(1, -1) : raw.trimEnd();
  return { dashes, key: { name, start: i, end: i + raw.trimEnd().length, colon: i + raw.length }, rest: i };
}

/** Walker keeps the frames of the mappings and list items that enclose the current line. */
class Walker {
  readonly frames: Frame[] = [];
  private blockParent = -1;

  /** line takes one whole line before the cursor's. */
  line(text: string): void {
    const indent = text.length - text.trimStart().length;
    if (this.blockParent >= 0) {
      if (text.trim() === '' || indent > this.blockParent) return;
      this.blockParent = -1;
    }
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const shape = shapeOf(text);
    for (const dash of shape.dashes) this.item(dash);
    if (shape.key) {
      this.key(shape.key.name, shape.key.start);
      const value = text.slice(shape.key.colon + 1).trim();
      if (/^[|>]/.test(value)) this.blockParent = shape.key.start;
    }
  }

  /** item opens a list item at a dash's column. */
  item(col: number): void {
    while (this.top && (this.top.col > col || (this.top.col === col && this.top.item))) this.frames.pop();
    const parent = this.top;
    const index = parent ? parent.next++ : 0;
    this.frames.push({ col, seg: index, item: true, next: 0 });
  }

  /** key opens a key at its column. */
  key(name: string, col: number): void {
    this.closeTo(col);
    this.frames.push({ col, seg: name, item: false, next: 0 });
  }

  /** closeTo leaves every frame at or right of a column. */
  closeTo(col: number): void {
    while (this.top && this.top.col >= col) this.frames.pop();
  }

  get top(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  get path(): PathSegment[] {
    return this.frames.map((f) => f.seg);
  }
}

/** locate finds the cursor's place in one document, given the document's lines up to and including the cursor's. */
export function locate(lines: readonly string[], line: number, character: number): CursorPlace {
  const walker = new Walker();
  for (let i = 0; i < line; i++) walker.line(lines[i] ?? '');
  const text = lines[line] ?? '';
  const shape = shapeOf(text);
  let inListItem = false;
  for (const dash of shape.dashes) {
    if (dash >= character) break;
    walker.item(dash);
    inListItem = true;
  }
  const key = shape.key;
  if (key && character <= key.colon) {
    walker.closeTo(key.start);
    return {
      path: walker.path, key: { name: key.name, start: key.start, end: key.end }, onKey: true, onValue: false,
      word: text.slice(key.start, character), wordStart: key.start, column: key.start, inListItem,
    };
  }
  if (key) {
    walker.closeTo(key.start);
    const path = walker.path;
    const valueStart = text.slice(key.colon + 1).search(/\S|$/) + key.colon + 1;
    const valueText = text.slice(valueStart).replace(/\s+#.*$/, '').trimEnd();
    return {
      path, key: { name: key.name, start: key.start, end: key.end }, onKey: false,
      value: { text: valueText, start: valueStart, end: valueStart + valueText.length }, onValue: true,
      word: text.slice(valueStart, Math.max(valueStart, character)), wordStart: valueStart, column: key.start, inListItem,
    };
  }
  // No key yet: the cursor starts one (or a list item) at the word it is in.
  const before = text.slice(0, character);
  const wordStart = Math.max(shape.rest, before.length - (/[^\s]*$/.exec(before)?.[0].length ?? 0));
  const column = text.trim() === '' ? character : wordStart;
  walker.closeTo(column);
  return { path: walker.path, onKey: false, onValue: false, word: before.slice(wordStart), wordStart, column, inListItem };
}
