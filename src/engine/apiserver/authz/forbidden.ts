// The 403 a refused request gets: the sentence naming the user and the request, then the authorizers' reason.
import { type Status, StatusError } from '../request';
import type { AuthzAttributes } from './authorizer';

/**
 * forbiddenMessage is the sentence of a 403 before its reason: `User "bob" cannot get resource "pods" in API group ""
 * in the namespace "default"`, `... at the cluster scope`, `User "bob" cannot get path "/api"`; a subresource is
 * written `pods/log`. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go.
 */
export function forbiddenMessage(attrs: AuthzAttributes): string {
  const user = attrs.user.name;
  if (!attrs.resourceRequest) return `User ${goQuote(user)} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const head = `User ${goQuote(user)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)}`;
  return attrs.namespace ? `${head} in the namespace ${goQuote(attrs.namespace)}` : `${head} at the cluster scope`;
}

/**
 * forbiddenStatus is the Status responsewriters.Forbidden sends: the sanitized sentence and `: <reason>` when there
 * is one, wrapped by apierrors.NewForbidden for the group and resource (no subresource) and the name:
 * `pods "web" is forbidden: ...`, `pods is forbidden: ...` without a name, `forbidden: ...` for a path.
 * Empty detail fields are left out, as their omitempty JSON tags do.
 * See staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewForbidden).
 */
export function forbiddenStatus(attrs: AuthzAttributes, reason: string): StatusError {
  const msg = `${sanitize(forbiddenMessage(attrs))}${reason ? `: ${reason}` : ''}`;
  const resource = attrs.resourceRequest ? attrs.resource : '';
  const group = attrs.resourceRequest ? attrs.apiGroup : '';
  const qualified = group ? `${resource}.${group}` : resource;
  const message = !resource && !group ? `forbidden: ${msg}` : attrs.name ? `${qualified} ${goQuote(attrs.name)} is forbidden: ${msg}` : `${qualified} is forbidden: ${msg}`;
  const details: NonNullable<Status['details']> = { ...(attrs.name ? { name: attrs.name } : {}), ...(group ? { group } : {}), ...(resource ? { kind: resource } : {}) };
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
}

/** sanitize is responsewriters' sanitizer: errors must not look like HTML. */
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** goQuote is Go's %q for the printable strings Kubernetes names are made of. */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
