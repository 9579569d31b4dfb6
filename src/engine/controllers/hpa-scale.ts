// The scale subresource as the horizontal pod autoscaler reads it: the scaleTargetRef's apiVersion parsed, its group
// and kind mapped to a resource (the RESTMapper), then GET .../NAME/scale, whose autoscaling/v1 Scale carries
// spec.replicas, status.replicas and status.selector (the target's selector as a string). Each failure is the error
// the controller puts in its FailedGetScale event. See pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler,
// scaleForResourceMappings) at k8s.io/kubernetes v1.36.3; the Scale itself is api/scale.ts.
import { SelectorError } from '../api/labels';
import { SCALED_KINDS, scaleOf, type ScaleObject } from '../api/scale';
import type { KubeObject } from '../api/types';
import type { Store } from '../cluster/store';
import { RESOURCES } from '../cluster/store';

/** Scale is the autoscaling/v1 Scale the controller works from, with the kind and resource it came from. */
export interface Scale {
  kind: string;
  /** groupResource is `deployments.apps` (or `replicationcontrollers` for the core group). */
  groupResource: string;
  group: string;
  resource: string;
  name: string;
  specReplicas: number;
  statusReplicas: number;
  /** selector is status.selector: the target's selector as labels.Selector.String() writes it. */
  selector: string;
  /** object is the Scale as the API served it, the body of the controller's update. */
  object: ScaleObject;
}

/** ScaleTargetRef is an autoscaling/v2 CrossVersionObjectReference. */
export interface ScaleTargetRef { kind?: string; name?: string; apiVersion?: string }

/**
 * NO_SCALE_ROUTE is the Status message of the 404 that GET .../scale gets from a resource without the subresource:
 * the API server's serviceErrorHandler wraps go-restful's "404: Page Not Found" with
 * apierrors.NewGenericServerResponse, whose message for 404 is this. See
 * staging/src/k8s.io/apiserver/pkg/server/handler.go (serviceErrorHandler) and
 * staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewGenericServerResponse), v0.36.3.
 */
export const NO_SCALE_ROUTE = 'the server could not find the requested resource';

/**
 * parseGroupVersion is schema.ParseGroupVersion: "" and "/" are the empty GroupVersion, `v1` a version of the core
 * group, `apps/v1` a group and version; more slashes are an error. See
 * staging/src/k8s.io/apimachinery/pkg/runtime/schema/group_version.go (v0.36.3).
 */
export function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { error: `unexpected GroupVersion string: ${gv}` };
}

/**
 * getScale is reconcileAutoscaler's road to the target's Scale: ParseGroupVersion (the error as it is), RESTMappings
 * for the group and kind (meta.NoKindMatchError with no version searched: `no matches for kind "X" in group "g"`),
 * then the Scale GET (the store's NotFound, go-restful's 404 for a resource without the subresource, or the
 * registry's BadRequest for a selector it cannot convert).
 */
export function getScale(store: Store, namespace: string, ref: ScaleTargetRef): Scale | { error: string } {
  const gv = parseGroupVersion(ref.apiVersion ?? '');
  if ('error' in gv) return gv;
  const kind = ref.kind ?? '';
  const name = ref.name ?? '';
  const info = RESOURCES[kind];
  if (!info || info.group !== gv.group) return { error: `no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(gv.group)}` };
  const groupResource = info.group ? `${info.resource}.${info.group}` : info.resource;
  if (!SCALED_KINDS.has(kind)) return { error: NO_SCALE_ROUTE };
  const target = store.get<KubeObject>(kind, namespace, name);
  // The store's NotFound: apierrors.NewNotFound(qualifiedResource, name).
  if (!target) return { error: `${groupResource} ${JSON.stringify(name)} not found` };
  let scale;
  try {
    scale = scaleOf(target);
  } catch (err) {
    if (err instanceof SelectorError) return { error: err.message };
    throw err;
  }
  return {
    kind, groupResource, group: info.group, resource: info.resource, name, specReplicas: scale.spec.replicas ?? 0,
    statusReplicas: scale.status.replicas, selector: scale.status.selector ?? '', object: scale,
  };
}
