// The YAML documents of an open file: split at `---`, each parsed by the engine's loader (with the range of every
// field) the first time something reads it, and kept by its text, so that a change re-parses only the documents it
// touched and a request about one line parses one section, not the file.
import { SCHEMA_KINDS } from '../engine/api/schema/schema.generated';
import { InputError, type SourceDocument } from '../engine/cluster/inputs';
import { parseDocuments } from '../engine/cluster/loader';

/** ManifestSection is one `---` section of a file: where it sits, its text, and what the loader made of it. */
export interface ManifestSection {
  /** index is the section's position in the file (0 for the first). */
  readonly index: number;
  /** startLine is the file line of the section's first line; endLine the line after its last. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** documents are the parsed objects (an item of a `kind: List` is its own), ranges in file lines. */
  readonly documents: readonly SourceDocument[];
  /** error is the loader's error on this section (a YAML syntax error, a document that is not an object), at its file line. */
  readonly error?: { line: number; character: number; message: string };
  /** kind is `apiVersion/kind` when the section declares a Kubernetes kind the schema knows. */
  readonly kubernetes: string | undefined;
  /** parsed tells whether the loader has read the section already (reading documents or error parses it). */
  readonly parsed: boolean;
}

/** DOCUMENT_MARKER finds the lines that start or end a YAML document. */
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:[ \t\r].*)?$/gm;

/** splitSections cuts a file into its `---` sections: each with its first line and text (the marker line left out). */
export function splitSections(text: string): { startLine: number; endLine: number; text: string }[] {
  const out: { startLine: number; endLine: number; text: string }[] = [];
  // Offsets, not lines: a 5 MB file is cut without making a string of each of its lines.
  let start = 0;
  let startLine = 0;
  let line = 0;
  let counted = 0;
  const lineAt = (offset: number): number => {
    for (let i = text.indexOf('\n', counted); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    counted = offset;
    return line;
  };
  const flush = (end: number, endLine: number): void => {
    // The text of a section ends before the newline that ends its last line (as lines.join('\n') would give it).
    const body = end > start ? text.slice(start, end - 1) : '';
    if (endLine > startLine || out.length === 0) out.push({ startLine, endLine, text: body });
  };
  for (const m of text.matchAll(DOCUMENT_MARKER)) {
    const at = m.index ?? 0;
    const markerLine = lineAt(at);
    flush(at, markerLine);
    const next = text.indexOf('\n', at);
    start = next === -1 ? text.length + 1 : next + 1;
    startLine = markerLine + 1;
  }
  const lastLine = lineAt(text.length) + 1;
  flush(text.length + 1, lastLine);
  return out.filter((s) => s.text.trim() !== '' || out.length === 1);
}

/** TOP_KEY reads a top-level `apiVersion:` or `kind:` line, to know a section's kind even when it does not parse. */
const TOP_KEY = /^(apiVersion|kind):[ \t]*["']?([^"'#\s]*)/gm;

/** kubernetesKind is `apiVersion/kind` when a section's top-level keys name a kind of the schema. */
export function kubernetesKind(text: string): string | undefined {
  let apiVersion = '';
  let kind = '';
  for (const m of text.matchAll(TOP_KEY)) {
    if (m[1] === 'apiVersion') apiVersion = m[2] ?? '';
    else kind = m[2] ?? '';
  }
  const key = `${apiVersion}/${kind}`;
  return SCHEMA_KINDS[key] ? key : undefined;
}

/**
 * Parsed is what the loader made of one section's text, its ranges at the file lines of `parsedAt`. A section in the
 * plain subset of YAML is read quickly, with its ranges when the quick reader can record them; else they are read
 * only when something first asks for them (a finding to place, a hover). `ranged` tells whether they have been read.
 */
interface Parsed {
  documents: SourceDocument[];
  error?: { line: number; character: number; message: string };
  parsedAt: number;
  ranged: boolean;
}

/** Entry is one section text the cache knows: its kind, and once read, its parse. */
interface Entry {
  readonly text: string;
  readonly file: string;
  readonly kubernetes: string | undefined;
  parsed?: Parsed;
}

/** Section is a ManifestSection that parses its entry the first time its documents or error are read. */
class Section implements ManifestSection {
  constructor(readonly index: number, readonly startLine: number, readonly endLine: number, private readonly entry: Entry) {}

  get text(): string {
    return this.entry.text;
  }

  get kubernetes(): string | undefined {
    return this.entry.kubernetes;
  }

  get parsed(): boolean {
    return this.entry.parsed !== undefined;
  }

  get documents(): readonly SourceDocument[] {
    return this.read().documents;
  }

  get error(): ManifestSection['error'] {
    return this.read().error;
  }

  /** read parses the section once, and moves its ranges to this section's lines when it last stood elsewhere. */
  private read(): Parsed {
    const parsed = (this.entry.parsed ??= parseSection(this.entry.text, this.entry.file));
    return shift(parsed, this.startLine);
  }
}

/** SectionCache parses sections once per text; sections unchanged by an edit are reused. */
export class SectionCache {
  private cache = new Map<string, Entry>();

  /** sections splits a file; `file` names it in the loader's messages. Nothing is parsed until it is read. */
  sections(text: string, file: string): ManifestSection[] {
    const next = new Map<string, Entry>();
    const out = splitSections(text).map((s, index) => {
      // A text seen twice in one file gets its own entry: the ranges of a parsed section are moved in place.
      const seen = next.has(s.text);
      const entry = (seen ? undefined : this.cache.get(s.text)) ?? { text: s.text, file, kubernetes: kubernetesKind(s.text) };
      if (!seen) next.set(s.text, entry);
      return new Section(index, s.startLine, s.endLine, entry);
    });
    this.cache = next;
    return out;
  }
}

/**
 * parseSection runs the loader on one section's text, lines counted from the section's start; ranges read later are
 * moved to where the section stands then.
 */
function parseSection(text: string, file: string): Parsed {
  const parsed: Parsed = { documents: [], parsedAt: 0, ranged: false };
  const ranged = (docs: readonly SourceDocument[]): void => {
    moveRanges(docs, parsed.parsedAt);
    parsed.ranged = true;
  };
  try {
    parsed.documents = parseDocuments(text, file, { lazyRanges: true, eagerRanges: true, ranged });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    parsed.error = { line: err.line - 1, character: (err.column ?? 1) - 1, message: err.problem };
  }
  return parsed;
}

/**
 * shift moves a parsed section to its place in the file. The cache keeps the lines of the place where it was last
 * used (`parsedAt`), and moves them when the section moved, so a reused section costs its field count, no parse; a
 * section whose ranges are still unread only notes its place.
 */
function shift(parsed: Parsed, at: number): Parsed {
  const by = at - parsed.parsedAt;
  if (by === 0) return parsed;
  if (parsed.ranged) moveRanges(parsed.documents, by);
  if (parsed.error) parsed.error = { ...parsed.error, line: parsed.error.line + by };
  parsed.parsedAt = at;
  return parsed;
}

/** moveRanges moves documents' ranges by some lines, in place. */
function moveRanges(docs: readonly SourceDocument[], by: number): void {
  if (by === 0) return;
  // A range is fresh from the loader but for an empty one, whose start is its end.
  const move = (r: SourceDocument['range']): void => {
    r.start.line += by;
    if (r.end !== r.start) r.end.line += by;
  };
  for (const doc of docs) {
    move(doc.range);
    for (const field of doc.fields.values()) {
      if (field.key) move(field.key);
      move(field.value);
    }
  }
}
