// The API request as kube-apiserver sees it, the authenticated user, and the Status errors it answers with.
import type { KubeObject } from '../api/types';

/** UserInfo is the authenticated identity of a request (user.Info). */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Verb is a Kubernetes API verb, as authorization sees it. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** ApiRequest is one request to kube-apiserver: what kubectl sent and, once authenticated, who sent it. */
export interface ApiRequest {
  verb: Verb;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** path is the URL path with its query, as `kubectl -v=8` logs it. */
  path: string;
  apiVersion: string;
  kind: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: KubeObject;
  /** source is the file the object was read from, as kubectl names it in errors. */
  source?: string;
  /** dryRun is `?dryRun=All`: the request runs every stage but storage keeps nothing. */
  dryRun?: boolean;
  /**
   * fieldManager is the manager the write is recorded under in metadata.managedFields: the fieldManager parameter, or
   * the User-Agent's program (handlers/create.go managerOrUserAgent). Without one the write records nothing.
   */
  fieldManager?: string;
  user?: UserInfo;
  /** credentials the client presented; none for an anonymous request. */
  credentials: { token?: string; certificatePem?: string; serviceAccount?: string; impersonate?: { user: string; groups: string[] } };
}

/** StatusCause is one cause of an error (metav1.StatusCause); `field` is omitted when empty (omitempty), as a disruption budget's cause has none. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** Status is the metav1.Status body kube-apiserver sends with an error. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  /** metadata is the Status' ListMeta: empty but for the fresh continue token of a paged list's 410 (etcd3/errors.go). */
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  /** reason is omitted when empty (omitempty): the eviction subresource's 500 for a pod with two budgets has none. */
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** StatusError is an API error: an HTTP code, a reason and a message, as apimachinery's StatusError. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    // An API answer, not a failure of the engine: its stack would say nothing, and capturing one costs more than the
    // rest of a request's refusal (a GET's 404 comes on every apply).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(status.message);
    Error.stackTraceLimit = limit;
    this.name = 'StatusError';
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** qualifiedResource prints a resource with its group as errors name it: `pods`, `deployments.apps`. */
export function qualifiedResource(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

/**
 * forbidden builds the 403 error. See staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewForbidden):
 * `pods "web" is forbidden: <reason>`, or `pods is forbidden: ...` without a name.
 */
export function forbidden(resource: string, group: string, name: string | undefined, reason: string): StatusError {
  const qualified = qualifiedResource(resource, group);
  const message = name ? `${qualified} "${name}" is forbidden: ${reason}` : `${qualified} is forbidden: ${reason}`;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden',
    details: { ...(name ? { name } : {}), ...(group ? { group } : {}), kind: resource }, code: 403,
  });
}

/** unauthorized builds the 401 error a request without valid credentials gets. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go. */
export function unauthorized(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
}

/**
 * invalid builds the 422 error of failed validation. See staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go
 * (NewInvalid): each cause carries the error's body; the message joins `field: body` of every error
 * as an aggregate prints them (one alone, several as `[a, b]`), e.g.
 * `Pod "web" is invalid: spec.containers[0].image: Required value`.
 */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
  const list = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)))];
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const message = list.length === 0 ? `${qualifiedKind} "${name}" is invalid`
    : `${qualifiedKind} "${name}" is invalid: ${list.length === 1 ? list[0]! : `[${list.join(', ')}]`}`;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid',
    details: { name, ...(group ? { group } : {}), kind, causes }, code: 422,
  });
}

/**
 * badRequest builds the 400 error of a request the server cannot read: a Status with only the message, the reason
 * BadRequest and the code. See staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewBadRequest).
 */
export function badRequest(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

/** notFound builds the 404 error. See errors.go (NewNotFound): `namespaces "dev" not found`. */
export function notFound(resource: string, group: string, name: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${qualifiedResource(resource, group)} "${name}" not found`, reason: 'NotFound',
    details: { name, ...(group ? { group } : {}), kind: resource }, code: 404,
  });
}

/** alreadyExists builds the 409 error of a create whose name is taken. See errors.go (NewAlreadyExists). */
export function alreadyExists(resource: string, group: string, name: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${qualifiedResource(resource, group)} "${name}" already exists`, reason: 'AlreadyExists',
    details: { name, ...(group ? { group } : {}), kind: resource }, code: 409,
  });
}
