// What a v1 write does to an EndpointSlice's deprecatedTopology (a field of the v1beta1 API, which the engine does not
// serve): dropped from every endpoint, except on an update that leaves the endpoints as they were; an endpoint without
// a nodeName whose kubernetes.io/hostname the stored slice had, and which is a valid node name, gets it as its nodeName
// first, so that a partial update keeps the node. See pkg/registry/discovery/endpointslice/strategy.go
// (dropTopologyOnV1, getDeprecatedTopologyNodeNames; PrepareForCreate and PrepareForUpdate), v1.36.3.
import { isObject, type KubeObject } from '../api/types';
import { jsonEqual } from '../api/json-equal';
import { isDNS1123Subdomain } from './validation/names';

/** LABEL_HOSTNAME is corev1.LabelHostname, the deprecatedTopology key that held an endpoint's node. */
const LABEL_HOSTNAME = 'kubernetes.io/hostname';

type Endpoint = Record<string, unknown>;

/** endpointsOf is a slice's endpoints, when it has a list of them. */
function endpointsOf(slice: KubeObject | undefined): unknown[] | undefined {
  const endpoints = slice?.['endpoints'];
  return Array.isArray(endpoints) ? endpoints : undefined;
}

/**
 * semantic is an endpoint as apiequality.Semantic.DeepEqual compares it: an empty list of addresses, an empty
 * deprecatedTopology and empty conditions (a struct, not a pointer) are the same as none.
 */
function semantic(endpoint: unknown): unknown {
  if (!isObject(endpoint)) return endpoint;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(endpoint)) {
    const empty = (k === 'addresses' && Array.isArray(v) && v.length === 0)
      || ((k === 'deprecatedTopology' || k === 'conditions') && isObject(v) && Object.keys(v).length === 0)
      || v === null;
    if (!empty) out[k] = v;
  }
  return out;
}

/** topologyNodeNames are the non-empty kubernetes.io/hostname values of a slice's deprecatedTopology. */
function topologyNodeNames(slice: KubeObject | undefined): Set<string> {
  const names = new Set<string>();
  for (const e of endpointsOf(slice) ?? []) {
    const topology = isObject(e) ? e['deprecatedTopology'] : undefined;
    const name = isObject(topology) ? topology[LABEL_HOSTNAME] : undefined;
    if (typeof name === 'string' && name.length > 0) names.add(name);
  }
  return names;
}

/** dropTopologyOnV1 is `next` as a v1 create (no `old`) or update stores it. */
export function dropTopologyOnV1(next: KubeObject, old?: KubeObject): KubeObject {
  const endpoints = endpointsOf(next);
  if (!endpoints) return next;
  if (old && jsonEqual((endpointsOf(old) ?? []).map(semantic), endpoints.map(semantic))) return next;
  const previous = topologyNodeNames(old);
  const dropped = endpoints.map((e) => {
    if (!isObject(e) || !('deprecatedTopology' in e)) return e;
    const { deprecatedTopology, ...kept } = e as Endpoint;
    const name = isObject(deprecatedTopology) ? deprecatedTopology[LABEL_HOSTNAME] : undefined;
    const carried = (kept['nodeName'] === undefined || kept['nodeName'] === null) && typeof name === 'string' && previous.has(name) && isDNS1123Subdomain(name).length === 0;
    return carried ? { ...kept, nodeName: name } : kept;
  });
  return { ...next, endpoints: dropped };
}
