// Field paths as the trace and diagnostics write them: `spec.containers[0].image`,
// `metadata.labels["app.kubernetes.io/name"]`; formatting, parsing, ancestors, and "did you mean" for field names.

/** PathSegment is one step of a field path: a map key (string) or a list index (number). */
export type PathSegment = string | number;

/** FieldPathError is a field path text that does not follow the syntax. */
export class FieldPathError extends Error {
  constructor(readonly path: string, readonly problem: string) {
    super(`invalid field path ${JSON.stringify(path)}: ${problem}`);
    this.name = 'FieldPathError';
  }
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PLAIN_KEY_START = /[A-Za-z_]/;
const PLAIN_KEY_CHAR = /[A-Za-z0-9_-]/;

/** isPlainKey tells whether a map key may be written bare (`spec`) rather than quoted (`["a.b/c"]`). */
export function isPlainKey(key: string): boolean {
  return PLAIN_KEY.test(key);
}

/** appendFieldPath adds one segment to an already formatted path. */
export function appendFieldPath(path: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  if (!isPlainKey(segment)) return `${path}[${JSON.stringify(segment)}]`;
  return path === '' ? segment : `${path}.${segment}`;
}

/** formatFieldPath writes segments as a path: keys joined by dots, indexes and unusual keys in brackets. */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let path = '';
  for (const segment of segments) path = appendFieldPath(path, segment);
  return path;
}

/** parseFieldPath reads a path written by formatFieldPath back into segments; it throws FieldPathError on bad syntax. */
export function parseFieldPath(text: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let at = 0;
  while (at < text.length) {
    const ch = text[at];
    if (ch === '[') {
      at = readBracket(text, at, segments);
    } else if (ch === '.' && segments.length > 0) {
      at = readPlainKey(text, at + 1, segments);
    } else if (segments.length === 0) {
      at = readPlainKey(text, at, segments);
    } else {
      throw new FieldPathError(text, `unexpected ${JSON.stringify(ch)} at ${at}`);
    }
  }
  return segments;
}

/** readPlainKey reads a bare key starting at `at` and returns the index after it. */
function readPlainKey(text: string, at: number, out: PathSegment[]): number {
  if (at >= text.length || !PLAIN_KEY_START.test(text[at] ?? '')) {
    throw new FieldPathError(text, `expected a key at ${at}`);
  }
  let end = at + 1;
  while (end < text.length && PLAIN_KEY_CHAR.test(text[end] ?? '')) end++;
  out.push(text.slice(at, end));
  return end;
}

/** readBracket reads `[N]` or `["key"]` starting at `at` and returns the index after the `]`. */
function readBracket(text: string, at: number, out: PathSegment[]): number {
  const start = at + 1;
  if (text[start] === '"') {
    const end = endOfJsonString(text, start);
    out.push(parseJsonString(text, start, end));
    if (text[end] !== ']') throw new FieldPathError(text, `expected "]" at ${end}`);
    return end + 1;
  }
  const close = text.indexOf(']', start);
  const digits = close < 0 ? '' : text.slice(start, close);
  if (!/^(0|[1-9][0-9]*)$/.test(digits)) throw new FieldPathError(text, `expected an index or a quoted key at ${start}`);
  out.push(Number(digits));
  return close + 1;
}

/** parseJsonString decodes the quoted key text[start, end), as JSON does. */
function parseJsonString(text: string, start: number, end: number): string {
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    throw new FieldPathError(text, `bad escape in quoted key at ${start}`);
  }
}

/** endOfJsonString finds the index just after the JSON string literal that opens at `start`. */
function endOfJsonString(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const ch = text[at];
    if (ch === '\\') at += 2;
    else if (ch === '"') return at + 1;
    else at++;
  }
  throw new FieldPathError(text, `unterminated quoted key at ${start}`);
}

/**
 * parentPaths lists the ancestors of a path, nearest first (`spec.containers[0].image` gives
 * `spec.containers[0]`, `spec.containers`, `spec`), to find the nearest one that has a source range.
 */
export function parentPaths(path: string): string[] {
  const segments = parseFieldPath(path);
  const parents: string[] = [];
  for (let n = segments.length - 1; n > 0; n--) parents.push(formatFieldPath(segments.slice(0, n)));
  return parents;
}

/** nearestName is the candidate closest to a misspelt field name, when close enough to be a likely typo ("did you mean"). */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = name.length <= 4 ? 1 : 2;
  for (const candidate of candidates) {
    const distance = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate);
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** editDistance is the Levenshtein distance between two strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
