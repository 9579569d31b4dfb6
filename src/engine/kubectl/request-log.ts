// What kubectl -v=N writes to stderr about its requests, as client-go 1.36 logs them: the debugging round tripper's
// "Request" and "Response" lines (round_trippers.go; from -v=9 the curl command, the dial and the connection's
// timings), the REST client's "Request Body" and "Response Body" (request.go, logged at the line that called Do, cut
// at 1024 bytes at -v=8, 10240 at -v=9, whole from -v=10), and the few Infof lines of the command itself. See
// staging/src/k8s.io/client-go/transport/round_trippers.go (v0.36.3: DebugWrappers, levelsV6..V9, RoundTrip,
// maskValue, headersMap.String) and rest/request.go (v0.36.3: logBody, truncateBody).
import { createHash } from 'node:crypto';
import type { Millis, VirtualClock } from '../runtime/clock';
import { headersText, klogHeader, klogStructured, type KlogSite, type KlogValue } from './klog';
import type { ApiOutcome } from '../apiserver/server';
import type { Credentials } from '../apiserver/authn/authenticator';
import { API_SERVER_URL, type HttpRequest, recordRequest, redactSecretBody, statusLine } from './http';
import { goQuote } from '../apiserver/authz/forbidden';
import { BoundedCache } from '../runtime/bounded-cache';

/**
 * SITES are the source lines (v0.36.3 of client-go, v0.36.3 of cli-runtime and kubectl
 * v0.36.3) whose log calls the headers name. A body is logged by request.go with the call depth of the caller of
 * Do/DoRaw, so its line is the line of that `Do(` call.
 */
export const SITES = {
  /** staging/src/k8s.io/client-go/transport/round_trippers.go:527, logger.Info("Request", ...). */
  request: { file: 'round_trippers.go', line: 527 },
  /** staging/src/k8s.io/client-go/transport/round_trippers.go:562, logger.Info("HTTP Trace: Dial succeed", ...) (-v=9). */
  dial: { file: 'round_trippers.go', line: 562 },
  /** staging/src/k8s.io/client-go/transport/round_trippers.go:632, logger.Info("Response", ...). */
  response: { file: 'round_trippers.go', line: 632 },
  /** staging/src/k8s.io/client-go/tools/clientcmd/loader.go:407, klog.V(6).Infoln("Config loaded from file: ", filename). */
  configLoaded: { file: 'loader.go', line: 407 },
  /** staging/src/k8s.io/client-go/features/envvar.go:195, logger.V(1).Info("Feature gate default state", ...). */
  featureGate: { file: 'envvar.go', line: 195 },
  /** staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go:546, klog.V(4).Infof("Running apply post-processor function"). */
  applyPostProcessor: { file: 'apply.go', line: 546 },
  /** staging/src/k8s.io/client-go/openapi/client.go:46, the OpenAPI v3 index (Paths). */
  openapiRoot: { file: 'client.go', line: 46 },
  /** staging/src/k8s.io/client-go/openapi/groupversion.go:75, a group-version's OpenAPI v3 document by its hash. */
  openapiGroupVersion: { file: 'groupversion.go', line: 75 },
  /** staging/src/k8s.io/client-go/discovery/discovery_client.go:681, the OpenAPI v2 document (OpenAPISchema). */
  openapiV2: { file: 'discovery_client.go', line: 681 },
  /** staging/src/k8s.io/client-go/discovery/discovery_client.go:255, /api (downloadLegacy). */
  legacyDiscovery: { file: 'discovery_client.go', line: 255 },
  /** staging/src/k8s.io/client-go/discovery/discovery_client.go:318, /apis (downloadAPIs). */
  groupsDiscovery: { file: 'discovery_client.go', line: 318 },
  /** staging/src/k8s.io/client-go/discovery/cached/disk/cached_discovery.go:113, klog.V(10) in ServerGroups (a cached file read). */
  cachedGroups: { file: 'cached_discovery.go', line: 113 },
  /** staging/src/k8s.io/client-go/discovery/cached/disk/cached_discovery.go:77, klog.V(10) in ServerResourcesForGroupVersion. */
  cachedResources: { file: 'cached_discovery.go', line: 77 },
  /** staging/src/k8s.io/client-go/dynamic/simple.go:257, the dynamic client's List (the CRD finder). */
  dynamicList: { file: 'simple.go', line: 257 },
  /** staging/src/k8s.io/cli-runtime/pkg/resource/helper.go:105, Helper.Get. */
  helperGet: { file: 'helper.go', line: 105 },
  /** staging/src/k8s.io/cli-runtime/pkg/resource/helper.go:246, Helper.createResource. */
  helperCreate: { file: 'helper.go', line: 246 },
  /** staging/src/k8s.io/cli-runtime/pkg/resource/helper.go:269, Helper.Patch. */
  helperPatch: { file: 'helper.go', line: 269 },
} as const satisfies Record<string, KlogSite>;

/**
 * CLIENT_FEATURE_GATES are client-go's feature gates and their defaults in 1.36 (the latest spec of each). See
 * staging/src/k8s.io/client-go/features/known_features.go (defaultVersionedKubernetesFeatureGates) at v0.36.3.
 */
const CLIENT_FEATURE_GATES: readonly (readonly [string, boolean])[] = [
  ['AtomicFIFO', true], ['ClientsAllowCARotation', true], ['ClientsAllowCBOR', false], ['ClientsAllowTLSCacheGC', true],
  ['ClientsPreferCBOR', false], ['InOrderInformers', true], ['InOrderInformersBatchProcess', true], ['InformerResourceVersion', true],
  ['UnlockWhileProcessingFIFO', true], ['WatchListClient', true],
];

/**
 * MAX_VERBOSITY is the highest -v simulated: -v=9 logs curl commands and connection timings, -v=10 the bodies whole.
 * Nothing kubectl 1.36 does here logs above V(10). See staging/src/k8s.io/client-go/rest/request.go (truncateBody) at v0.36.3.
 */
export const MAX_VERBOSITY = 10;

/** Exchange is one request and its answer, as the log shows them. */
export interface Exchange {
  verb: string;
  url: string;
  /** requestHeaders are the headers sent, the bearer token already masked (maskValue). */
  requestHeaders: Readonly<Record<string, readonly string[]>>;
  /** body is the request body on the wire (GET: none). */
  body?: string;
  /** caller is the line that called Do or DoRaw: the body lines name it. */
  caller: KlogSite;
  sentAt: Millis;
  answeredAt: Millis;
  status: number;
  /** contentType and cacheControl are the answer's headers of those names. */
  contentType?: string;
  cacheControl?: string;
  warnings?: readonly string[];
  /** responseBody is the answer's body, when the simulation holds it (the OpenAPI v2 document it does not hold). */
  responseBody?: string;
  /**
   * answerHeaders are the answer's other headers (a document's Etag, Expires, Vary; X-From-Cache from the HTTP cache),
   * and auditId and date its own where it has them: an answer from the HTTP cache keeps those it was stored with.
   */
  answerHeaders?: Readonly<Record<string, readonly string[]>>;
  auditId?: string;
  date?: Millis;
  /** fromCache marks an answer the HTTP cache gave without a request: no connection, no server (-v=9 timings). */
  fromCache?: boolean;
}

/** AnswerCount counts the answers the logs of a run's kubectl processes have numbered (their audit ids). */
export interface AnswerCount {
  count: number;
}

/** RequestLog is one kubectl process's log at -v=N: it writes each line (stderr) as kubectl would. */
export class RequestLog {
  /** connected says whether the process has dialed the API server yet (-v=9 logs the dial and its timings once). */
  private connected = false;

  /** answers is shared by the run's kubectl processes, so that no two answers of a run have the same audit id. */
  constructor(readonly verbosity: number, private readonly clock: VirtualClock, private readonly write: (line: string) => void, private readonly answers: AnswerCount = { count: 0 }) {}

  /** infoln is klog.V(level).Infoln / Infof: the text as it is, when -v is at least `level`. */
  infoln(level: number, site: KlogSite, text: string): void {
    if (this.verbosity >= level) this.write(`${klogHeader('I', this.clock, this.clock.now, site)}${text}`);
  }

  /**
   * featureGates are client-go's lines for its feature gates, read once at the first client (-v=1): each gate's
   * default, no KUBE_FEATURE_* variable being set. Go walks the map in an order of its own each run; here by name.
   */
  featureGates(): void {
    if (this.verbosity < 1) return;
    for (const [feature, enabled] of CLIENT_FEATURE_GATES) {
      this.write(`${klogHeader('I', this.clock, this.clock.now, SITES.featureGate)}${klogStructured('Feature gate default state', [['feature', feature], ['enabled', enabled]])}`);
    }
  }

  /** configLoaded is loader.go's line for the kubeconfig kubectl read. */
  configLoaded(file: string): void {
    // Infoln puts a space between its operands: "Config loaded from file: " and the file name.
    this.infoln(6, SITES.configLoaded, `Config loaded from file:  ${file}`);
  }

  /**
   * exchange logs one request and its answer by the level's set: -v=6 the response with verb, URL, status and time;
   * -v=7 the request with its headers and the response status; -v=8 the bodies and the response headers too; -v=9
   * (levelsV9, which replaces levelsV8 rather than adding to it) the request as a curl command, the dial of the
   * process's one connection, and the response with verb, URL, status, headers and the connection's timings.
   * See staging/src/k8s.io/client-go/transport/round_trippers.go (v0.36.3: RoundTrip, levelsV6..levelsV9).
   */
  exchange(x: Exchange): void {
    const v = this.verbosity;
    if (v < 6) return;
    const info = (at: Millis, site: KlogSite, message: string, kvs: (readonly [string, KlogValue])[]) =>
      this.write(`${klogHeader('I', this.clock, at, site)}${klogStructured(message, kvs)}`);
    if (v >= 8) info(x.sentAt, x.caller, 'Request Body', [['body', truncateBody(x.body ?? '', bodyLimit(v))]]);
    if (v >= 9) info(x.sentAt, SITES.request, 'Request', [['curlCommand', curlCommand(x.verb, x.url, x.requestHeaders)]]);
    else if (v >= 7) info(x.sentAt, SITES.request, 'Request', [['verb', x.verb], ['url', x.url], ['headers', headersText(x.requestHeaders)]]);
    const dialed = v >= 9 && !this.connected && !x.fromCache;
    if (dialed) {
      // The first request opens the process's connection to the API server (HTTP/2: later ones share it). The server
      // is named by its IP address, so there is no DNS lookup and no "HTTP Trace: DNS Lookup resolved" line.
      this.connected = true;
      info(x.sentAt, SITES.dial, 'HTTP Trace: Dial succeed', [['network', 'tcp'], ['address', new URL(API_SERVER_URL).host]]);
    }
    const ms = Math.max(0, Math.floor(x.answeredAt - x.sentAt));
    const status = statusLine(x.status);
    if (v === 6) info(x.answeredAt, SITES.response, 'Response', [['verb', x.verb], ['url', x.url], ['status', status], ['milliseconds', ms]]);
    else if (v === 7) info(x.answeredAt, SITES.response, 'Response', [['status', status], ['milliseconds', ms]]);
    else if (v === 8) info(x.answeredAt, SITES.response, 'Response', [['status', status], ['headers', headersText(this.responseHeaders(x))], ['milliseconds', ms]]);
    else {
      // A simulated connection takes no virtual time to dial, shake hands or be taken from the pool: those are 0; the
      // server's processing is the whole of the virtual time the answer took.
      // An answer from the HTTP cache took no connection: no trace callback ran, so its durations are zero, as if
      // dialed, and there is no server processing (logged only when not zero).
      const connection: [string, number][] = dialed || x.fromCache
        ? [['dnsLookupMilliseconds', 0], ['dialMilliseconds', 0], ['tlsHandshakeMilliseconds', 0]]
        : [['getConnectionMilliseconds', 0]];
      info(x.answeredAt, SITES.response, 'Response', [
        ['verb', x.verb], ['url', x.url], ['status', status], ['headers', headersText(this.responseHeaders(x))], ['milliseconds', ms],
        ...connection, ...(x.fromCache ? [] : [['serverProcessingMilliseconds', ms] as [string, number]]),
      ]);
    }
    if (v >= 8 && x.responseBody !== undefined) info(x.answeredAt, x.caller, 'Response Body', [['body', truncateBody(x.responseBody, bodyLimit(v))]]);
  }

  /**
   * responseHeaders are kube-apiserver's headers on an answer: its audit id, Cache-Control, Content-Type, the date (the
   * virtual clock's) and one Warning per warning. The priority-and-fairness uid headers are not simulated.
   */
  private responseHeaders(x: Exchange): Record<string, string[]> {
    const headers: Record<string, string[]> = {
      'Audit-Id': [x.auditId ?? this.nextAuditId()],
      'Cache-Control': [x.cacheControl ?? 'no-cache, private'],
      'Content-Type': [x.contentType ?? 'application/json'],
      Date: [httpDate(this.clock, x.date ?? x.answeredAt)],
    };
    for (const [k, v] of Object.entries(x.answerHeaders ?? {})) headers[k] = [...v];
    // The API server's warnings: `299 - "text"` each. See staging/src/k8s.io/apiserver/pkg/endpoints/filters/warning.go.
    if (x.warnings?.length) headers['Warning'] = x.warnings.map((w) => `299 - ${JSON.stringify(w)}`);
    return headers;
  }

  /** nextAuditId is the next answer's audit id: a version 4 UUID, drawn from the run's count of answers so runs repeat. */
  nextAuditId(): string {
    return auditIdOf(`audit-${++this.answers.count}`);
  }
}

/** auditIdOf makes a version 4 UUID from a seed: kube-apiserver's audit ids are random, these repeat run after run. */
export function auditIdOf(seed: string): string {
  // The seeds of one run come again in the next (a file's checks, one run each): the ids are kept, a bounded few.
  return AUDIT_IDS.get(seed, auditIdFrom);
}

/** AUDIT_IDS are the ids made so far, by seed. */
const AUDIT_IDS = new BoundedCache<string, string>(4096);

function auditIdFrom(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** httpDate is a virtual time as an HTTP Date header: http.TimeFormat, "Mon, 02 Jan 2006 15:04:05 GMT", which toUTCString writes. */
export function httpDate(clock: VirtualClock, at: Millis): string {
  return new Date(clock.epoch.getTime() + at).toUTCString();
}

/**
 * bodyLimit is request.go's limit on a logged body at -v=N: 1024 bytes at 8, 10240 at 9, none from 10.
 * See staging/src/k8s.io/client-go/rest/request.go (truncateBody) at v0.36.3.
 */
export function bodyLimit(verbosity: number): number {
  return verbosity >= 10 ? Infinity : verbosity >= 9 ? 10240 : 1024;
}

/** truncateBody is request.go's: a body longer than the level's limit is cut and `[truncated N chars]` added. */
export function truncateBody(body: string, max = 1024): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= max) return body;
  return `${bytes.subarray(0, max).toString('utf8')} [truncated ${bytes.length - max} chars]`;
}

/**
 * curlCommand is round_trippers.go's toCurl: `curl -v -X<verb> ` then ` -H "<Key>: <value>"` per header value (an
 * Authorization value masked by maskValue, quoted as Go's %q), then the URL in single quotes and a line break, which
 * makes klog print it as a multi-line value. Go walks the headers map in an order of its own each run; here by name.
 * See staging/src/k8s.io/client-go/transport/round_trippers.go (toCurl, maskValue) at v0.36.3.
 */
export function curlCommand(verb: string, url: string, headers: Readonly<Record<string, readonly string[]>>): string {
  const flags = Object.keys(headers).sort().flatMap((k) => (headers[k] ?? []).map((v) => ` -H ${goQuote(`${k}: ${v}`)}`)).join('');
  return `curl -v -X${verb} ${flags} '${url}'\n`;
}

/**
 * logServed logs a request the API server served (kubectl's GET, POST, PATCH of an object), with the body on the wire
 * (`wireBody`: the encoder's, with its line break, where it differs from the trace's) and the server's answer: the
 * object it returned or its Status. A Secret's values are shown by their sizes, as everywhere.
 */
export function logServed(log: RequestLog | undefined, req: HttpRequest, credentials: Credentials, caller: KlogSite, sentAt: Millis, answeredAt: Millis, out: ApiOutcome, wireBody?: string): void {
  if (!log) return;
  const record = recordRequest(req, credentials);
  const body = wireBody ?? record.body;
  // kube-apiserver's JSON answers end with the encoder's line break (apimachinery json.go doEncode, v0.36.3).
  const responseBody = out.ok ? (out.object ? `${JSON.stringify(redactSecretBody(out.object))}\n` : undefined) : `${JSON.stringify(out.error.status)}\n`;
  log.exchange({
    verb: record.verb, url: record.url, requestHeaders: record.headers, caller, sentAt, answeredAt, status: out.ok ? out.code : out.error.code,
    ...(body !== undefined ? { body: wireBody !== undefined ? redactWire(wireBody) : body } : {}),
    ...(out.warnings?.length ? { warnings: out.warnings } : {}),
    ...(responseBody !== undefined ? { responseBody } : {}),
  });
}

/** redactWire is redactSecretBody for a body on the wire, keeping the encoder's final line break. */
function redactWire(body: string): string {
  const redacted = redactSecretBody(body);
  return redacted !== body && body.endsWith('\n') && !redacted.endsWith('\n') ? `${redacted}\n` : redacted;
}
