// The fields encoding/json always writes for the kinds whose stored form the engine does not encode from their Go
// layout: a struct that is not a pointer (written `{}`, a metav1.Time `null`) and a field without omitempty (a zero
// string `""`, a zero number `0`, an empty list `null` once it has been through etcd's protobuf). See k8s.io/api
// core/v1 types.go (Event), discovery/v1 types.go (EndpointSlice, Endpoint) and apps/v1 types.go (ControllerRevision),
// v0.36.3.
import { isObject, type KubeObject } from './types';

type Rec = Record<string, unknown>;

/** written sets each field that is absent (or, for a list, empty) to what encoding/json writes for it. */
function written(o: Rec, fields: Readonly<Record<string, unknown>>): void {
  for (const [key, zero] of Object.entries(fields)) {
    const v = o[key];
    if (v === undefined || (zero === null && Array.isArray(v) && v.length === 0)) o[key] = zero;
  }
}

/**
 * encodeStoredFields writes, in place, the always-written fields of an Event (involvedObject and source `{}`, the
 * three times `null`, reportingComponent and reportingInstance `""`), an EndpointSlice (endpoints and ports, `null`
 * when empty; each endpoint's conditions `{}`) and a ControllerRevision (data `null`, revision `0`).
 */
export function encodeStoredFields(obj: KubeObject): void {
  const o = obj as unknown as Rec;
  switch (obj.kind) {
    case 'Event':
      written(o, { involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' });
      return;
    case 'EndpointSlice':
      written(o, { endpoints: null, ports: null });
      if (Array.isArray(o['endpoints'])) for (const endpoint of o['endpoints']) if (isObject(endpoint)) written(endpoint, { conditions: {} });
      return;
    case 'ControllerRevision':
      written(o, { data: null, revision: 0 });
      return;
    default:
  }
}
