// What a document must be to be read as Kubernetes objects: a List splits into its items, and every object names its
// apiVersion and kind.
import { isObject, type KubeObject } from '../api/types';
import { InputError, type FieldRange, type SourceDocument } from './inputs';
import { describeValue } from './own-kinds';

/** Json is a document's value as YAML gives it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * isList tells a list: an object with top-level `items` (a `kind: List`, or a `PodList` as the API returns it).
 * Why: unstructuredJSONScheme.decode (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go)
 * decodes any object with `items` as a list; `kind: List` without items is an empty list here.
 */
export function isList(value: Record<string, unknown>): boolean {
  return 'items' in value || value['kind'] === 'List';
}

/** KindProblem is one thing wrong with an object's apiVersion or kind, at a field (null: the object itself). */
export interface KindProblem {
  path: string | null;
  text: string;
}

/**
 * kindProblems requires a string apiVersion and kind, with kubectl's wording.
 * Why: staging/src/k8s.io/kubectl/pkg/util/openapi/validation/validation.go getObjectKind, wrapped as
 * "error validating data: ..." by cli-runtime's resource.ValidateSchema.
 */
export function kindProblems(object: KubeObject): KindProblem[] {
  const problems: KindProblem[] = [];
  const { apiVersion, kind } = object as Record<string, unknown>;
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') problems.push({ path: null, text: 'apiVersion not set' });
  else if (typeof apiVersion !== 'string') problems.push({ path: 'apiVersion', text: "apiVersion isn't string type" });
  else if (apiVersion.split('/').length > 2) problems.push({ path: 'apiVersion', text: `unexpected GroupVersion string: ${apiVersion}` });
  if (kind === undefined || kind === null || kind === '') problems.push({ path: null, text: 'kind not set' });
  else if (typeof kind !== 'string') problems.push({ path: 'kind', text: "kind isn't string type" });
  return problems;
}

/**
 * listItemKind gives an item with neither kind nor apiVersion (a PodList from the API) the list's apiVersion and its
 * kind less "List". Why: unstructuredJSONScheme.decodeToList (same file as isList).
 */
export function listItemKind(item: KubeObject, list: KubeObject): void {
  const listKind = list.kind ?? '';
  if (!item.kind && !item.apiVersion && listKind !== 'List') {
    item.kind = listKind.replace(/List$/, '');
    item.apiVersion = list.apiVersion ?? '';
  }
}

/** article names a non-object document value for messages: "a sequence", "a string". */
export function article(value: Json): string {
  if (Array.isArray(value)) return 'a sequence';
  if (value === null) return 'null';
  return typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : 'a string';
}

/**
 * splitList makes each item of a List its own document, with fields relative to the item.
 * An item with neither kind nor apiVersion takes the list's (listItemKind).
 */
export function splitList(list: SourceDocument): SourceDocument[] {
  checkKind(list);
  const items = list.object['items'];
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw docError(list, 'items', `items: expected a sequence, got ${describeValue(items)}`);
  const buckets = items.map(() => new Map<string, FieldRange>());
  for (const [path, range] of list.fields) {
    const match = /^items\[(\d+)\](.*)$/.exec(path);
    const rest = match?.[2];
    if (!match || !rest) continue;
    buckets[Number(match[1])]?.set(rest.startsWith('.') ? rest.slice(1) : rest, range);
  }
  const listKind = list.object.kind ?? '';
  return items.map((item: unknown, i) => {
    const range = list.fields.get(`items[${i}]`)?.value ?? list.range;
    if (!isObject(item)) {
      throw new InputError(list.file, range.start.line + 1, `item ${i} of the ${listKind} is ${article(item as Json)}, not a Kubernetes object`);
    }
    const object = item as KubeObject;
    listItemKind(object, list.object);
    const doc: SourceDocument = { file: list.file, index: list.index, object, range, fields: buckets[i] ?? new Map() };
    checkKind(doc);
    return doc;
  });
}

/** checkKind throws the first of kindProblems at its field; several print as [a, b], as kubectl prints them. */
export function checkKind(doc: SourceDocument): void {
  const problems = kindProblems(doc.object);
  const first = problems[0];
  if (!first) return;
  const text = problems.length === 1 ? first.text : `[${problems.map((p) => p.text).join(', ')}]`;
  throw docError(doc, first.path, `error validating data: ${text}`);
}

/** docError is an InputError at a field's value (or at the document's start when the field is absent). */
export function docError(doc: SourceDocument, path: string | null, problem: string): InputError {
  const range = (path !== null && doc.fields.get(path)?.value) || doc.range;
  return new InputError(doc.file, range.start.line + 1, problem);
}
