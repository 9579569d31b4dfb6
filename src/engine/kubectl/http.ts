// kubectl's HTTP requests as client-go sends and logs them (-v=8), and the errors client-go hands back to kubectl.
import { StatusError } from '../apiserver/request';
import type { Credentials } from '../apiserver/authn/authenticator';
import type { KubeObject } from '../api/types';
import { redactSecret } from '../cluster/secret-values';

/** API_SERVER_URL is the address in the admin kubeconfig of the embedded cluster, as `kubectl -v=8` shows requests. */
export const API_SERVER_URL = 'https://192.168.49.2:6443';

/**
 * KUBECTL_USER_AGENT is kubectl's User-Agent (rest.DefaultKubernetesUserAgent): `kubectl/<version> (<os>/<arch>)
 * kubernetes/<commit>`; the commit of the v1.36.0 build is not known here, so the version stands in for it.
 */
export const KUBECTL_USER_AGENT = 'kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0';

/** ACCEPT names the Accept headers of kubectl's clients. See client-go discovery_client.go and rest/request.go. */
export const ACCEPT = {
  /** discovery: aggregated discovery v2, then v2beta1, then the legacy lists. */
  discovery: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
  /** the discovery client's default: its content type, then anything. */
  any: 'application/json, */*',
  json: 'application/json',
  /** OpenAPI v2 is fetched as protobuf. */
  openAPIV2: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
} as const;

/** HttpRequest is one request kubectl sends. */
export interface HttpRequest {
  verb: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** path is the URL path with its query. */
  path: string;
  accept: string;
  /** body is the JSON kubectl sends, if any. */
  body?: string;
  /** contentType is the body's type when not application/json (a strategic merge patch). */
  contentType?: string;
}

/** RequestRecord is a request as the trace shows it: method, URL, headers, body, and the -v=8 log lines. */
export interface RequestRecord {
  verb: string;
  url: string;
  headers: Record<string, string[]>;
  body?: string;
  log: string[];
}

/**
 * recordRequest renders a request as client-go logs it at -v=8: the request body, then the request with its
 * headers (sorted; a bearer token masked as round_trippers.go's maskValue does, impersonation headers one per value).
 * See staging/src/k8s.io/client-go/transport/round_trippers.go and rest/request.go.
 */
export function recordRequest(req: HttpRequest, credentials: Credentials): RequestRecord {
  const headers: Record<string, string[]> = { Accept: [req.accept], 'User-Agent': [KUBECTL_USER_AGENT] };
  if (req.body !== undefined) headers['Content-Type'] = [req.contentType ?? 'application/json'];
  if (credentials.token) headers['Authorization'] = ['Bearer <masked>'];
  const imp = credentials.impersonate;
  if (imp) {
    headers['Impersonate-User'] = [imp.user];
    if (imp.groups.length) headers['Impersonate-Group'] = [...imp.groups];
  }
  const url = `${API_SERVER_URL}${req.path}`;
  const lines = Object.keys(headers).sort().flatMap((k) => (headers[k] ?? []).map((v) => `\t${k}: ${v}`));
  // A Secret's values are shown by their sizes, in the request as everywhere (secret-values.ts).
  const body = req.body === undefined ? undefined : redactSecretBody(req.body);
  return {
    verb: req.verb, url, headers, ...(body !== undefined ? { body } : {}),
    log: [`"Request Body" body=${JSON.stringify(body ?? '')}`, `"Request" verb="${req.verb}" url="${url}" headers=<\n${lines.join('\n')}\n >`],
  };
}

/** STATUS_TEXT is Go's http.StatusText for the codes the simulation answers with. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 422: 'Unprocessable Entity', 500: 'Internal Server Error', 504: 'Gateway Timeout',
};

/** statusLine is the response status as Go prints it: `404 Not Found`. */
export function statusLine(code: number): string {
  return `${code} ${STATUS_TEXT[code] ?? ''}`.trim();
}

/** responseLog is the -v=8 line of a response (headers left out: audit ids and dates say nothing here). */
export function responseLog(code: number, body?: unknown): string[] {
  return [`"Response" status="${statusLine(code)}" milliseconds=0`, ...(body !== undefined ? [`"Response Body" body=${JSON.stringify(JSON.stringify(body))}`] : [])];
}

/**
 * rawError is the error client-go's Result.Raw() returns for a failed response: not the server's Status but
 * newUnstructuredResponseError, since the body is JSON and not text — 401 "the server has asked for the client to
 * provide credentials", 403 "unknown" (the server message, which JSON does not give), 404 "the server could not
 * find the requested resource". Discovery and OpenAPI downloads read responses this way.
 * See staging/src/k8s.io/client-go/rest/request.go and apimachinery/pkg/api/errors/errors.go (NewGenericServerResponse).
 */
export function rawError(server: StatusError): StatusError {
  const code = server.code;
  const generic: Record<number, [string, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', 'unknown'],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
  };
  const [reason, message] = generic[code] ?? ['InternalError', `an error on the server ("unknown") has prevented the request from succeeding`];
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason,
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'unknown', field: '' }] }, code,
  });
}

/** redactSecretBody replaces the values of a Secret sent or returned as a body (an object or its JSON) by their sizes. */
export function redactSecretBody<T>(body: T): T {
  if (typeof body === 'string') {
    // Only a body that names the kind, as it is or escaped, can be a Secret's: the others are not parsed.
    if (!body.includes('Secret') && !body.includes('\\u')) return body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return body;
    }
    return (isSecret(parsed) ? JSON.stringify(redactSecret(parsed, undefined).stored) : body) as T;
  }
  return (isSecret(body) ? redactSecret(body, undefined).stored : body) as T;
}

function isSecret(value: unknown): value is KubeObject {
  return typeof value === 'object' && value !== null && (value as KubeObject).kind === 'Secret';
}
