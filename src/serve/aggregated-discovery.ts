// Aggregated discovery (KEP-3352, GA since 1.30): /api and /apis answer one apidiscovery.k8s.io/v2
// APIGroupDiscoveryList (the engine's api/discovery/aggregated.ts builds it) when the Accept header asks for it; the
// legacy lists otherwise.
// See staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/{wrapper.go,negotiation.go,handler.go,etag.go},
// endpoints/installer.go (ConvertGroupVersionIntoToDiscovery), endpoints/handlers/negotiation/negotiate.go and
// staging/src/k8s.io/api/apidiscovery/v2/types.go (v0.36.3).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AGGREGATED_V2, aggregatedDocument } from '../engine/api/discovery/aggregated';
import { status } from './http';

/** SERIALIZERS are the media types kube-apiserver encodes (CBOR's gate is off in 1.36), in its order. */
const SERIALIZERS = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

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
  const doc = aggregatedDocument(path);
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
