// The aggregated discovery documents (KEP-3352, GA since 1.30) kube-apiserver answers at /api and /apis: one
// apidiscovery.k8s.io/v2 APIGroupDiscoveryList, every group with its versions and each version's resources, built from
// resources.ts's tables (so the legacy lists agree), and its ETag. serve answers them; kubectl's -v=8 log shows them.
// See staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/{handler.go,etag.go}, endpoints/installer.go
// (ConvertGroupVersionIntoToDiscovery) and staging/src/k8s.io/api/apidiscovery/v2/types.go (v0.36.3).
import { createHash } from 'node:crypto';
import { goJson } from '../go-json';
import { type APIResource, apiResourceList, namedGroups } from './resources';

/** AGGREGATED_V2 is the media type of the v2 document, as its Content-Type names it (generateMediaTypeWithGVK). */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** GroupVersionKind is metav1.GroupVersionKind: its three fields are always written, empty or not. */
interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** APISubresourceDiscovery is one subresource of a resource (apidiscovery/v2). */
interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: readonly string[];
}

/** APIResourceDiscovery is one resource of a version (apidiscovery/v2), its optional lists omitted when empty. */
interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Cluster' | 'Namespaced';
  singularResource: string;
  verbs: readonly string[];
  shortNames?: readonly string[];
  categories?: readonly string[];
  subresources?: APISubresourceDiscovery[];
}

/** APIGroupDiscovery is one group: its name (omitted for the legacy group "") and its versions, preferred first. */
interface APIGroupDiscovery {
  metadata: { name?: string };
  versions: { version: string; resources?: APIResourceDiscovery[]; freshness: 'Current' }[];
}

/**
 * resourcesOf is ConvertGroupVersionIntoToDiscovery: the resources of an APIResourceList in its order, each
 * `RESOURCE/SUB` entry then added to its parent's subresources; a kind's group and version are written as the
 * APIResource has them, empty unless they differ from the list's (`"responseKind":{"group":"","version":"","kind":"Pod"}`).
 */
function resourcesOf(list: readonly APIResource[]): APIResourceDiscovery[] {
  const kindOf = (r: APIResource): GroupVersionKind => ({ group: r.group ?? '', version: r.version ?? '', kind: r.kind });
  const out: APIResourceDiscovery[] = [];
  const parents = new Map<string, APIResourceDiscovery>();
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const entry: APIResourceDiscovery = {
      resource: r.name, responseKind: kindOf(r), scope: r.namespaced ? 'Namespaced' : 'Cluster', singularResource: r.singularName, verbs: r.verbs,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}), ...(r.categories?.length ? { categories: r.categories } : {}),
    };
    out.push(entry);
    parents.set(r.name, entry);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = parents.get(r.name.slice(0, slash));
    if (!parent) continue;
    (parent.subresources ??= []).push({ subresource: r.name.slice(slash + 1), responseKind: kindOf(r), verbs: r.verbs });
  }
  return out;
}

/** groupOf is one group's entry: each version's resources, the versions in the tables' (preference) order. */
function groupOf(name: string, versions: readonly string[]): APIGroupDiscovery {
  return {
    metadata: name ? { name } : {},
    versions: versions.map((version) => {
      const resources = resourcesOf(apiResourceList(name, version)?.resources ?? []);
      return { version, ...(resources.length ? { resources } : {}), freshness: 'Current' as const };
    }),
  };
}

/** AggregatedDocument is one path's document as sent, and its ETag. */
export interface AggregatedDocument {
  body: string;
  etag: string;
}

/**
 * documentOf is the APIGroupDiscoveryList of /api (the legacy group alone) or /apis (the named groups by priority).
 * Its ETag is calculateETag: the upper-case hex SHA-512 of the list marshalled without its kind and apiVersion.
 */
function documentOf(path: '/api' | '/apis'): AggregatedDocument {
  const items = path === '/api' ? [groupOf('', ['v1'])] : namedGroups().map(([name, versions]) => groupOf(name, versions));
  const etag = createHash('sha512').update(goJson({ metadata: {}, items })).digest('hex').toUpperCase();
  // The body is written by the API machinery's JSON encoder, with its line break (json.go doEncode, v0.36.3).
  return { body: `${goJson({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items })}\n`, etag };
}

/** documents are built once: the tables they come from do not change. */
const documents = new Map<string, AggregatedDocument>();

/** aggregatedDocument is the document of /api or /apis and its ETag, built at its first use. */
export function aggregatedDocument(path: '/api' | '/apis'): AggregatedDocument {
  let doc = documents.get(path);
  if (!doc) documents.set(path, (doc = documentOf(path)));
  return doc;
}
