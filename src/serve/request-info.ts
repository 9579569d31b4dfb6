// What a request path names, as kube-apiserver's RequestInfoFactory reads it: the API group and version, the
// namespace, the resource, the object's name and a subresource. See
// staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (NewRequestInfo).

/** RequestInfo is what a resource path names (isResourceRequest), or the path alone for anything else. */
export type RequestInfo =
  | { resourceRequest: false; path: string }
  | {
    resourceRequest: true;
    path: string;
    group: string;
    version: string;
    /** resource is the plural name as written in the path (it may name no served resource). */
    resource: string;
    namespace?: string;
    name?: string;
    subresource?: string;
  };

/** unescapeSegment decodes a path segment's escapes as Go does: bytes, read as UTF-8 (a broken sequence is not an error). */
function unescapeSegment(segment: string): string {
  return segment.includes('%') ? Buffer.from(segment.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : segment;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * requestInfo reads a URL path: `/api/v1/namespaces/default/pods/web/log`, `/apis/apps/v1/deployments`. A namespace
 * itself (`/api/v1/namespaces/default`) is the namespaces resource; anything past a subresource is not a resource path.
 */
export function requestInfo(path: string): RequestInfo {
  const parts = path.split('/').filter((p) => p !== '').map(unescapeSegment);
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return { resourceRequest: false, path };
  let namespace: string | undefined;
  // `namespaces/NS/RESOURCE...` is a namespaced path, unless it stops at the namespace (or its subresource).
  // A namespace's own subresources (status, finalize) keep the path on the namespaces resource.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
    namespace = rest[1];
    rest = rest.slice(2);
  } else if (rest[0] === 'namespaces' && rest.length >= 2) {
    return { resourceRequest: true, path, group, version, resource: 'namespaces', name: rest[1]!, ...(rest[2] ? { subresource: rest[2] } : {}) };
  }
  if (rest.length === 0 || rest.length > 3) return { resourceRequest: false, path };
  return {
    resourceRequest: true, path, group, version, resource: rest[0]!,
    ...(namespace !== undefined ? { namespace } : {}), ...(rest[1] !== undefined ? { name: rest[1] } : {}), ...(rest[2] !== undefined ? { subresource: rest[2] } : {}),
  };
}
