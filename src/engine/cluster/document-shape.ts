// What a document must be to be read as Kubernetes objects: a List splits into its items, and every object names its
// apiVersion and kind.
import type { KubeObject } from '../api/types';

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
