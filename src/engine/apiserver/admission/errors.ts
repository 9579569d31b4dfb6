// The admission errors every plugin shares: Forbidden named as admission names objects, internal and plain errors.
// See staging/src/k8s.io/apiserver/pkg/admission/errors.go.
import { forbidden, StatusError } from '../request';
import type { AdmissionAttributes } from './plugin';

/**
 * resourceNameOf is the name admission errors give an object, as extractResourceName does: the request's name,
 * else the object's name, else its generateName (names are generated after mutating admission), else "Unknown".
 * On a create the request's name is the object's own. See staging/src/k8s.io/apiserver/pkg/admission/errors.go.
 */
export function resourceNameOf(a: AdmissionAttributes): string {
  const meta = a.object.metadata;
  if (a.operation !== 'CREATE' && a.name) return a.name;
  return meta?.name || meta?.generateName || 'Unknown';
}

/** newForbidden is admission.NewForbidden: `pods "web" is forbidden: <reason>`, named as resourceNameOf says. */
export function newForbidden(a: AdmissionAttributes, reason: string): StatusError {
  return forbidden(a.resource, a.group, resourceNameOf(a), reason);
}

/** internalError is apierrors.NewInternalError: 500 InternalError, `Internal error occurred: <reason>`. */
export function internalError(reason: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${reason}`,
    reason: 'InternalError', details: { causes: [{ reason: '', message: reason, field: '' }] }, code: 500,
  });
}

/**
 * plainError is what kube-apiserver answers when a plugin returns an error that is no API status (fmt.Errorf, an
 * aggregate): 500 with the reason Unknown (empty) and the error's text; kubectl prints `Error from server: <text>`.
 * See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/status.go (ErrorToAPIStatus).
 */
export function plainError(message: string): StatusError {
  // The reason is empty, and Status omits an empty reason (omitempty).
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

