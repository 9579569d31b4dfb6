// autoscaling/v1 HorizontalPodAutoscalers served over the stored autoscaling/v2 ones: the converter of the v1 path.
// The conversions themselves are the engine's (../engine/api/hpa-v1.ts). See pkg/apis/autoscaling/v1/conversion.go
// and staging/src/k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go) at kubernetes v1.36.3.
import { hpaFromV1, hpaToV1 } from '../engine/api/hpa-v1';
import { isObject, type KubeObject } from '../engine/api/types';
import { badRequest } from '../engine/apiserver/request';

/** VersionConverter serves a resource in a version other than the stored one, converting both ways. */
export interface VersionConverter {
  /** stored is the apiVersion the engine keeps the objects in. */
  stored: string;
  /** served is the apiVersion of the request path. */
  served: string;
  toServed(o: KubeObject): KubeObject;
  fromServed(o: KubeObject): KubeObject;
}

const HPA_V1: VersionConverter = { stored: 'autoscaling/v2', served: 'autoscaling/v1', toServed: hpaToV1, fromServed: hpaFromV1 };

/** versionConverter is the converter of a resource served in a version the engine does not store it in, if any. */
export function versionConverter(group: string, version: string, resource: string): VersionConverter | undefined {
  return group === 'autoscaling' && version === 'v1' && resource === 'horizontalpodautoscalers' ? HPA_V1 : undefined;
}

/**
 * bodyFromServed is a create or update body at a converted version's path, as the stored version: a body of another
 * version is refused as create.go and update.go refuse it (v0.36.3 staging/src/k8s.io/apiserver/pkg/endpoints/handlers).
 */
export function bodyFromServed(conv: VersionConverter, body: KubeObject): KubeObject {
  const version = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  if (version !== '' && version !== conv.served) throw badRequest(`the API version in the data (${version}) does not match the expected API version (${conv.served})`);
  return conv.fromServed({ ...body, apiVersion: conv.served });
}

/** servedTable is a Table of stored objects at a converted version: a row's full object (includeObject=Object) converted. */
export function servedTable<T extends { rows: { object: unknown }[] | null }>(table: T, conv: VersionConverter | undefined): T {
  if (!conv || !table.rows) return table;
  return { ...table, rows: table.rows.map((row) => (isObject(row.object) && row.object.kind !== 'PartialObjectMetadata' ? { ...row, object: conv.toServed(row.object as KubeObject) } : row)) };
}
