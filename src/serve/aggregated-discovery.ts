// Aggregated discovery (KEP-3352, GA since 1.30): /api and /apis answer one apidiscovery.k8s.io/v2
// APIGroupDiscoveryList, every group with its versions and each version's resources, when the Accept header asks for
// it; the legacy lists otherwise. Built from discovery.ts's tables, so both forms agree.
// See staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/{wrapper.go,negotiation.go,handler.go,etag.go},
// endpoints/installer.go (ConvertGroupVersionIntoToDiscovery), endpoints/handlers/negotiation/negotiate.go and
// staging/src/k8s.io/api/apidiscovery/v2/types.go (v0.36.3).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type APIResource, apiResourceList, namedGroups } from './discovery';
import { goJson, status } from './http';

/** AGGREGATED_V2 is the media type of the v2 document, as its Content-Type names it (generateMediaTypeWithGVK). */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** SERIALIZERS are the media types kube-apiserver encodes (CBOR's gate is off in 1.36), in its order. */
const SERIALIZERS = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

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
interface AggregatedDocument {
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
  return { body: goJson({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items }), etag };
}

/** documents are built once: the tables they come from do not change while serving. */
const documents = new Map<string, AggregatedDocument>();

/** Clause is one media range of an Accept header (goautoneg.Accept), its q left out. */
interface Clause {
  type: string;
  subType: string;
  params: Record<string, string>;
}

/**
 * parseAccept is goautoneg.ParseAccept's reading of the media ranges (it then sorts them by q and wildness, which
 * decides nothing here: each handler below takes the header if any clause suits it, and answers JSON either way).
 */
function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [range = '', ...rest] = part.split(';');
    const sp = range.split('/');
    const type = sp[0]!.trim();
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1]!.trim();
    else continue;
    const clause: Clause = { type, subType, params: {} };
    for (const param of rest) {
      const eq = param.indexOf('=');
      const token = param.slice(0, eq).trim();
      if (eq >= 0 && token !== 'q') clause.params[token] = param.slice(eq + 1).trim();
    }
    clauses.push(clause);
  }
  return clauses;
}

/** Negotiated is which answer a discovery request gets. */
export type Negotiated = 'aggregated' | 'legacy' | 'notAcceptable';

/**
 * negotiateDiscovery is WrappedHandler.ServeHTTP's choice, then the legacy handler's. The aggregated handler's
 * restrictions (DiscoveryEndpointRestrictions) accept only a clause of a served media type converting to
 * `g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`, so such a clause anywhere in the header gets the aggregated
 * document; otherwise the legacy handler's (DefaultEndpointRestrictions) accept a clause without conversion. v2beta1 is
 * no longer served (AggregatedDiscoveryRemoveBetaType is locked on since 1.35): a clause asking for it converts to
 * nothing either can write, so a header with no other clause gets 406. No header is the legacy JSON.
 */
export function negotiateDiscovery(accept: string | undefined): Negotiated {
  if (!accept) return 'legacy';
  const clauses = parseAccept(accept);
  const acceptable = (allows: (convert: Record<string, string> | undefined) => boolean): boolean => clauses.some((c) => SERIALIZERS.some((s) => {
    const [type, subType] = s.split('/');
    if (!(c.type === '*' && c.subType === '*') && !(c.type === type && (c.subType === subType || c.subType === '*'))) return false;
    if ((c.params['stream'] ?? '') !== '' && c.params['stream'] !== 'watch') return false;
    if ((c.params['sv'] ?? '') !== '') return false;
    const converts = 'as' in c.params || 'g' in c.params || 'v' in c.params;
    return allows(converts ? c.params : undefined);
  }));
  if (acceptable((convert) => convert?.['g'] === 'apidiscovery.k8s.io' && convert['v'] === 'v2' && convert['as'] === 'APIGroupDiscoveryList')) return 'aggregated';
  return acceptable((convert) => convert === undefined) ? 'legacy' : 'notAcceptable';
}

/**
 * sendAggregatedDiscovery answers GET /api or /apis when the Accept header asks for the aggregated document (or
 * names nothing servable: 406), and tells whether it answered. The document comes with its ETag, `Vary: Accept` and
 * `Cache-Control: public`; a request whose If-None-Match is that ETag gets 304 and no body (ServeHTTPWithETag).
 */
export function sendAggregatedDiscovery(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (path !== '/api' && path !== '/apis') return false;
  const negotiated = negotiateDiscovery(req.headers.accept);
  if (negotiated === 'legacy') return false;
  if (negotiated === 'notAcceptable') {
    // WriteRawJSON writes the 406 indented, as json.MarshalIndent(status, "", "  ") does.
    const body = JSON.stringify(status(406, 'NotAcceptable', `only the following media types are accepted: ${SERIALIZERS.join(', ')}`), null, 2);
    res.writeHead(406, { 'Cache-Control': 'no-cache, private', 'Content-Type': 'application/json' });
    res.end(body);
    return true;
  }
  let doc = documents.get(path);
  if (!doc) documents.set(path, (doc = documentOf(path)));
  const etag = JSON.stringify(doc.etag);
  const headers = { 'Cache-Control': 'public', ETag: etag, Vary: 'Accept' };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(200, { ...headers, 'Content-Type': AGGREGATED_V2 });
  res.end(doc.body);
  return true;
}
