// What a request asks for besides its path: the impersonation headers, server-side printing (a Table), the DeleteOptions
// of a delete, and the discovery document a non-resource path names.
import type { IncomingMessage } from 'node:http';
import type { Credentials } from '../engine/apiserver/authn/authenticator';
import type { DeleteOptions } from '../engine/apiserver/delete';
import { badRequest } from '../engine/apiserver/request';
import type { IncludeObject } from '../engine/printers/registry';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../engine/api/discovery/resources';

/**
 * impersonationOf reads Impersonate-User and Impersonate-Group (kubectl --as, --as-group) into the engine's
 * credentials; the engine's impersonation filter authorizes them. A group without a user is asked with the user ""
 * (the filter's 400). See staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go.
 */
export function impersonationOf(req: IncomingMessage): Pick<Credentials, 'impersonate'> {
  const user = req.headersDistinct['impersonate-user']?.[0];
  const groups = req.headersDistinct['impersonate-group'] ?? [];
  if (user === undefined && groups.length === 0) return {};
  return { impersonate: { user: user ?? '', groups: [...groups] } };
}

/** wantsTable tells whether the client asks for server-side printing (`application/json;as=Table;v=v1;g=meta.k8s.io`). */
export function wantsTable(accept: string): boolean {
  return accept.split(',').some((type) => {
    const params = type.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io') && (params.includes('v=v1') || params.includes('v=v1beta1'));
  });
}

/** includeObjectOf reads ?includeObject= (None, Metadata, Object); Metadata when absent. */
export function includeObjectOf(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** discoveryOf is the discovery document of a path, if it names one. */
export function discoveryOf(path: string): object | undefined {
  if (path === '/api') return apiVersions();
  if (path === '/apis') return apiGroupList();
  const legacy = /^\/api\/([^/]+)\/?$/.exec(path);
  if (legacy) return apiResourceList('', legacy[1]!);
  const group = /^\/apis\/([^/]+)\/?$/.exec(path);
  if (group) return apiGroup(group[1]!);
  const named = /^\/apis\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (named) return apiResourceList(named[1]!, named[2]!);
  return undefined;
}

/** deleteOptionsOf reads DeleteOptions from the body and the query (the query's win, as the handler decodes them). */
export function deleteOptionsOf(body: Record<string, unknown>, q: URLSearchParams): DeleteOptions {
  const grace = q.get('gracePeriodSeconds') ?? (body['gracePeriodSeconds'] as number | undefined);
  const policy = q.get('propagationPolicy') ?? (body['propagationPolicy'] as string | undefined);
  const uid = (body['preconditions'] as { uid?: string } | undefined)?.uid;
  if (policy !== undefined && policy !== null && !['Background', 'Foreground', 'Orphan'].includes(String(policy))) {
    throw badRequest(`propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan"`);
  }
  return {
    ...(grace !== undefined && grace !== null ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(policy ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] & string } : {}),
    ...(uid ? { preconditionUid: uid } : {}),
  };
}
