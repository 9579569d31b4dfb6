// The loader of every input file: YAML documents with the source range of every field, sorted into
// manifest, cluster objects, config kinds, ClusterProfile and Behavior; bad input throws InputError (file, line, problem).
import { Composer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Alias, Document, Node as YamlNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { appendFieldPath } from '../api/fieldpath';
import { isObject } from '../api/types';
import type { KubeObject } from '../api/types';
import { article, checkKind, docError, isList, splitList, type Json } from './document-shape';
import { InputError, OWN_API_VERSION, defaultBehavior, defaultProfile } from './inputs';
import { type GoScalar, goYamlTags, resolvePlain, resolveTagged } from './go-yaml';
import { formatGoFloat, type GoValue, goMapKey, invalidMapKey } from './go-yaml-json';
import { type QuickOptions, readQuickly } from './quick-load';
import { validateClusterObjects } from './validate-cluster';
import type { Behavior, ClusterInput, FieldRange, Identity, Range, SimulationInputs, SourceDocument } from './inputs';
import { parseBehavior, parseClusterProfile, sortDocument } from './own-kinds';

export { parseBehavior, parseClusterProfile } from './own-kinds';

/** MAX_FILE_BYTES is the largest input file read (8 MiB): enough for a real cluster's `kubectl get -o yaml`. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** MAX_ALIAS_VALUES caps how many values the aliases of one document may expand to ("billion laughs" defence). */
export const MAX_ALIAS_VALUES = 10_000;

/** InputFile is one file as read: the path the user named and its text. */
export interface InputFile {
  file: string;
  text: string;
}

/** ParseOptions say when the source ranges are read (quick-load.ts QuickOptions). */
export type ParseOptions = QuickOptions;

/**
 * parseDocuments reads every YAML document of a file. Empty documents are skipped, a `kind: List`
 * (or `PodList`, ...) gives one document per item, and every field's key and value ranges are kept. With `lazyRanges`
 * (big cluster files), a file in the plain subset is read fast and the ranges only when first asked for; with
 * `eagerRanges`, fast with its ranges when the fast reader can record them.
 */
export function parseDocuments(text: string, file: string, options: ParseOptions = {}): SourceDocument[] {
  try {
    const body = checkText(text, file);
    const full = (): SourceDocument[] => {
      const docs = readFile(body, file);
      options.ranged?.(docs);
      return docs;
    };
    return (options.lazyRanges || options.eagerRanges ? readQuickly(body, file, full, options) : undefined) ?? full();
  } catch (err) {
    if (err instanceof InputError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new InputError(file, 1, /call stack/i.test(message) ? 'the YAML nests too deeply' : message);
  }
}

/** checkText rejects oversized, binary or mis-decoded text and drops a leading byte order mark. */
function checkText(text: string, file: string): string {
  const bytes = utf8Length(text);
  if (bytes > MAX_FILE_BYTES) throw new InputError(file, 1, `file is too large (${bytes} bytes; the limit is ${MAX_FILE_BYTES} bytes)`);
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const bad = /\u0000|\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(body);
  if (bad) {
    const { line, column } = lineColumn(body, bad.index);
    const problem = bad[0] === '\u0000' ? 'file is binary, not YAML text (it holds a NUL byte)' : 'file is not valid UTF-8 text';
    throw new InputError(file, line, problem, column);
  }
  return body;
}

/** utf8Length counts the bytes of text encoded as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** lineColumn counts the one-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** readFile parses the text one document at a time (so that each syntax tree can go once read) and converts each non-empty one. */
function readFile(text: string, file: string): SourceDocument[] {
  const lines = new LineCounter();
  const composer = new Composer({ version: '1.1', customTags: goYamlTags, uniqueKeys: false });
  const out: SourceDocument[] = [];
  let index = 0;
  for (const doc of composer.compose(new Parser(lines.addNewLine).parse(text))) {
    const reader = new DocumentReader(file, text, lines);
    const first = doc.errors[0];
    if (first) throw reader.error(first.pos[0], /call stack/i.test(first.message) ? 'the YAML nests too deeply' : first.message, true);
    const contents = doc.contents;
    if (contents !== null && !(isScalar(contents) && contents.value === null && !contents.source)) out.push(...reader.readDocument(doc, index));
    index++;
  }
  return out;
}

/** DocumentReader converts one YAML document to JSON and records the range of every field. */
class DocumentReader {
  readonly fields = new Map<string, FieldRange>();
  private readonly anchors = new Map<string, YamlNode>();
  private readonly values = new Map<YamlNode, Json>();
  private readonly busy = new Set<YamlNode>();
  private aliasBudget = MAX_ALIAS_VALUES;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly lines: LineCounter,
  ) {}

  /** readDocument converts the document and splits a List into its items. */
  readDocument(doc: Document.Parsed, index: number): SourceDocument[] {
    const node = doc.contents as YamlNode;
    const value = this.convert(node, '');
    const range = this.range(node);
    if (!isObject(value)) {
      throw this.error(node.range?.[0] ?? 0, `document ${index + 1} is ${article(value)}, not a Kubernetes object`);
    }
    const whole: SourceDocument = { file: this.file, index, object: value as KubeObject, range, fields: this.fields };
    if (isList(value)) return splitList(whole);
    checkKind(whole);
    return [whole];
  }

  /** error builds an InputError at a source offset. */
  error(offset: number, problem: string, withColumn = false): InputError {
    const { line, col } = this.lines.linePos(offset);
    return new InputError(this.file, Math.max(line, 1), problem, withColumn ? col : undefined);
  }

  /** convert turns a node into its JSON value, recording fields under `path` (null: do not record). */
  private convert(node: YamlNode | null | undefined, path: string | null): Json {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.expand(node);
    const anchor = (node as Scalar).anchor;
    if (anchor) {
      this.anchors.set(anchor, node);
      this.busy.add(node);
    }
    const value = this.convertNode(node, path);
    if (anchor) {
      this.values.set(node, value);
      this.busy.delete(node);
    }
    return value;
  }

  /** convertNode converts a scalar, mapping or sequence. */
  private convertNode(node: YamlNode, path: string | null): Json {
    const tag = node.tag ?? '';
    if (/:(set|omap|pairs)$/.test(tag)) throw this.error(start(node), `unsupported YAML type !!${tag.split(':').pop() ?? ''}`);
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) return this.mapping(node, path);
    if (isSeq(node)) return this.sequence(node, path);
    throw this.error(start(node), 'unsupported YAML node');
  }

  /**
   * scalar gives a scalar's JSON value. NaN and the infinities have no JSON form: encoding/json refuses them
   * ("json: unsupported value: NaN", with strconv's +Inf and -Inf), as kubectl's YAML-to-JSON conversion reports.
   */
  private scalar(node: Scalar): Json {
    const value: unknown = node.value;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return value;
      throw this.error(start(node), `json: unsupported value: ${formatGoFloat(value, 64)} (${node.source ?? ''} has no JSON form)`);
    }
    if (value instanceof Uint8Array) return new TextDecoder().decode(value);
    throw this.error(start(node), `unsupported YAML value ${JSON.stringify(node.source ?? '')}`);
  }

  /** mapping converts a map, rejecting duplicate keys and applying `<<` merge keys (explicit keys win). */
  private mapping(node: YAMLMap, path: string | null): Json {
    const out: { [key: string]: Json } = {};
    const merged: { [key: string]: Json }[] = [];
    for (const pair of node.items as Pair<YamlNode | null, YamlNode | null>[]) {
      if (isScalar(pair.key) && typeof pair.key.value === 'symbol') {
        merged.push(...this.mergeSources(pair.value));
        continue;
      }
      const key = this.key(pair);
      // Why: wording of sigs.k8s.io/yaml YAMLToJSONStrict (the apiserver's strict YAML decoding); kubectl's lenient
      // conversion would silently keep the last value, which hides the mistake.
      if (Object.hasOwn(out, key)) throw this.error(start(pair.key), `key ${JSON.stringify(key)} already set in map`);
      const childPath = path === null ? null : appendFieldPath(path, key);
      if (childPath !== null) this.record(childPath, pair.key, pair.value);
      setKey(out, key, this.convert(pair.value, childPath));
    }
    for (const source of merged) for (const [key, value] of Object.entries(source)) if (!Object.hasOwn(out, key)) setKey(out, key, value);
    return out;
  }

  /** mergeSources reads the value of a `<<` key: a mapping, an alias of one, or a list of those. */
  private mergeSources(value: YamlNode | null): { [key: string]: Json }[] {
    const list = isSeq(value) ? (value.items as YamlNode[]) : [value];
    return list.map((item) => {
      const merged = this.convert(item, null);
      if (!isObject(merged)) throw this.error(start(item), 'map merge requires map or sequence of maps as the value');
      return merged as { [key: string]: Json };
    });
  }

  /**
   * key gives a map key as the string JSON holds, as sigs.k8s.io/yaml writes go-yaml's keys out (goMapKey): `1e6`
   * is "1e+06", `yes` is "true"; a null or uint64 key is refused with its message, a sequence or mapping with
   * go-yaml's "invalid map key".
   */
  private key(pair: Pair<YamlNode | null, YamlNode | null>): string {
    const node = pair.key;
    const target = isAlias(node) ? this.anchors.get(node.source) : node;
    if (node === null) throw this.error(start(pair.value), (goMapKey({ tag: 'null', value: null }, this.goValue(pair.value)) as { error: string }).error);
    if (!isScalar(target)) throw this.error(start(node), invalidMapKey(this.goValue(node)));
    const key = goMapKey(goScalarOf(target), { tag: 'null', value: null });
    if (typeof key !== 'string') throw this.error(start(node), (goMapKey(goScalarOf(target), this.goValue(pair.value)) as { error: string }).error);
    if (target.anchor) {
      this.anchors.set(target.anchor, target);
      this.values.set(target, key);
    }
    return key;
  }

  /** goValue is a node as go-yaml decodes it, for the messages that print it with %#v. */
  private goValue(node: YamlNode | null | undefined, depth = 0): GoValue {
    const target = isAlias(node) ? this.anchors.get(node.source) : node;
    if (depth > 100 || target === null || target === undefined) return { tag: 'null', value: null };
    if (isScalar(target)) return goScalarOf(target);
    if (isSeq(target)) return (target.items as YamlNode[]).map((item) => this.goValue(item, depth + 1));
    if (isMap(target)) return { entries: (target.items as Pair<YamlNode, YamlNode>[]).map((p) => [this.goValue(p.key, depth + 1), this.goValue(p.value, depth + 1)] as [GoValue, GoValue]) };
    return { tag: 'null', value: null };
  }

  /** sequence converts a list, recording each item's range. */
  private sequence(node: YAMLSeq, path: string | null): Json {
    return (node.items as (YamlNode | null)[]).map((item, i) => {
      const childPath = path === null ? null : appendFieldPath(path, i);
      if (childPath !== null) this.record(childPath, null, item);
      return this.convert(item, childPath);
    });
  }

  /** expand resolves an alias to a copy of its anchor's value, charging the copy to the alias budget. */
  private expand(node: Alias): Json {
    const target = this.anchors.get(node.source);
    // Why: go-yaml v2's messages (gopkg.in/yaml.v2 parser/decoder), which kubectl prints for these documents.
    if (!target) throw this.error(start(node), `unknown anchor '${node.source}' referenced`);
    if (this.busy.has(target)) throw this.error(start(node), `anchor '${node.source}' value contains itself`);
    const value = this.values.get(target) ?? null;
    this.aliasBudget -= countValues(value);
    if (this.aliasBudget < 0) {
      throw this.error(start(node), `excessive aliasing: the aliases of this document expand to more than ${MAX_ALIAS_VALUES} values`);
    }
    return structuredClone(value);
  }

  /** record keeps the key and value ranges of one field; a missing value gets the empty range after its key. */
  private record(path: string, key: YamlNode | null, value: YamlNode | null): void {
    const after = this.position(key?.range?.[1] ?? 0);
    const valueRange = value?.range ? this.range(value) : { start: after, end: after };
    this.fields.set(path, key ? { key: this.range(key), value: valueRange } : { value: valueRange });
  }

  /** range converts a node's offsets to LSP positions, leaving out trailing blank space. */
  range(node: YamlNode): Range {
    const [from, to] = node.range ?? [0, 0];
    let end = to;
    while (end > from && /\s/.test(this.text[end - 1] ?? '')) end--;
    return { start: this.position(from), end: this.position(end) };
  }

  /** position converts an offset to a zero-based line and UTF-16 character, as LSP counts them. */
  private position(offset: number): { line: number; character: number } {
    const { line, col } = this.lines.linePos(offset);
    return { line: Math.max(line - 1, 0), character: Math.max(col - 1, 0) };
  }
}

/** goScalarOf is go-yaml's reading of a scalar node: a plain one resolved, a tagged one checked, the others strings. */
function goScalarOf(node: Scalar): GoScalar {
  const tag = node.tag?.replace('tag:yaml.org,2002:', '');
  if (tag === 'int' || tag === 'float' || tag === 'bool' || tag === 'null' || tag === 'timestamp') {
    const r = resolveTagged(tag, String(node.source ?? ''));
    if (typeof r !== 'string') return r;
  }
  const value: unknown = node.value;
  if (!tag && node.type === 'PLAIN') return resolvePlain(String(node.source ?? ''));
  return { tag: 'str', value: value instanceof Uint8Array ? new TextDecoder().decode(value) : String(value ?? '') };
}

/** setKey stores a key without letting `__proto__` reach the prototype. */
function setKey(target: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** start is the offset where a node begins. */
function start(node: YamlNode | null | undefined): number {
  return node?.range?.[0] ?? 0;
}

/** countValues counts the values in a JSON value (itself included). */
function countValues(value: Json): number {
  if (Array.isArray(value)) return value.reduce<number>((n, item) => n + countValues(item), 1);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce<number>((n, item) => n + countValues(item), 1);
  return 1;
}

/** loadClusterFiles sorts the documents of the cluster files into API objects, config kinds, the profile and behaviors. */
export function loadClusterFiles(files: InputFile[]): { cluster: ClusterInput; behaviors: SourceDocument[] } {
  const cluster: ClusterInput = { objects: [], profile: defaultProfile(), config: [] };
  const behaviors: SourceDocument[] = [];
  for (const { file, text } of files) {
    for (const doc of parseDocuments(text, file, { lazyRanges: true })) {
      const sort = sortDocument(doc);
      if (sort === 'object') cluster.objects.push(doc);
      else if (sort === 'config') cluster.config.push(doc);
      else if (sort === 'behavior') behaviors.push(doc);
      else cluster.profile = parseClusterProfile(doc, cluster.profile);
    }
  }
  validateClusterObjects(cluster.objects);
  return { cluster, behaviors };
}

/**
 * loadInputs reads everything a run needs. Behavior documents may sit in cluster files, in the
 * manifest file and in the behavior file; they merge in that order, later wins.
 */
export function loadInputs(opts: { manifest: InputFile; clusters: InputFile[]; behavior?: InputFile; identity: Identity }): SimulationInputs {
  const { cluster, behaviors } = loadClusterFiles(opts.clusters);
  const manifest: SourceDocument[] = [];
  for (const doc of parseDocuments(opts.manifest.text, opts.manifest.file)) {
    const sort = sortDocument(doc);
    if (sort === 'behavior') behaviors.push(doc);
    else if (sort === 'profile') throw docError(doc, 'kind', 'a ClusterProfile describes the cluster: give it in a cluster file, not in the manifest');
    else manifest.push(doc);
  }
  if (opts.behavior) behaviors.push(...behaviorDocuments(opts.behavior));
  const behavior: Behavior = behaviors.length > 0 ? parseBehavior(behaviors) : defaultBehavior();
  return { manifest, manifestFile: opts.manifest.file, cluster, behavior, identity: opts.identity };
}

/** behaviorDocuments reads a behavior file, every document of which must be a Behavior. */
function behaviorDocuments(input: InputFile): SourceDocument[] {
  const docs = parseDocuments(input.text, input.file);
  for (const doc of docs) {
    if (sortDocument(doc) !== 'behavior') {
      throw docError(doc, 'kind', `expected a Behavior (apiVersion: ${OWN_API_VERSION}), got ${doc.object.kind ?? ''} (apiVersion: ${doc.object.apiVersion ?? ''})`);
    }
  }
  return docs;
}
