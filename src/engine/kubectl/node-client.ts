// What kubectl's node commands share: the client they run as, the lines they print (each also a kubectl.drain step
// of the trace), and the reads they repeat — a GET of one object or a LIST, authorized as any request is but recorded
// only when refused, since kubectl polls them. The requests that change something (PATCH, POST .../eviction, DELETE)
// go through the API server's whole pipeline and its trace.
import type { KubeObject } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { Credentials } from '../apiserver/authn/authenticator';
import { notFound, type StatusError } from '../apiserver/request';
import type { EngineContext } from '../context';
import type { TraceEntry } from '../runtime/recorder';
import type { Steps } from '../runtime/step';
import { ACCEPT, type HttpRequest, recordRequest } from './http';

/** KubectlRun is one kubectl process: its client and where its output goes. */
export interface KubectlRun {
  api: ApiServer;
  /** ctx gives the clock, and the objects a GET or LIST the server allowed returns. */
  ctx: EngineContext;
  credentials: Credentials;
  /** print writes one line of kubectl's output, stdout and stderr in the order they were written. */
  print(line: string): void;
}

/** say prints a line and records it as a kubectl.drain step on `object` (the node, or the pod it is about). */
export function* say(k: KubectlRun, object: string, line: string, outcome?: TraceEntry['outcome'], detail: Record<string, unknown> = {}): Steps<void> {
  k.print(line);
  yield { phase: 'kubectl.drain', object, result: line, detail, ...(outcome ? { outcome } : {}) };
}

/** requestDetail is a request as the trace shows it, with its -v=8 log lines. */
export function requestDetail(req: HttpRequest, credentials: Credentials): Record<string, unknown> {
  const r = recordRequest(req, credentials);
  return { verb: r.verb, url: r.url, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}), log: r.log };
}

/** sent records, as a kubectl.drain step, the request kubectl is about to send. */
export function* sent(k: KubectlRun, object: string, req: HttpRequest, why: string): Steps<void> {
  yield { phase: 'kubectl.drain', object, result: `kubectl sends ${req.verb} ${req.path}: ${why}`, detail: { request: requestDetail({ ...req, accept: req.accept || ACCEPT.json }, k.credentials) } };
}

/** Resource names a resource kubectl reads here. */
interface Resource {
  kind: string;
  group: string;
  version: string;
  resource: string;
}

export const PODS: Resource = { kind: 'Pod', group: '', version: 'v1', resource: 'pods' };
export const NODES: Resource = { kind: 'Node', group: '', version: 'v1', resource: 'nodes' };
export const DAEMONSETS: Resource = { kind: 'DaemonSet', group: 'apps', version: 'v1', resource: 'daemonsets' };

function pathOf(r: Resource, namespace: string | undefined, name?: string): string {
  const root = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${root}${namespace ? `/namespaces/${namespace}` : ''}/${r.resource}${name ? `/${name}` : ''}`;
}

/** get is a GET of one object: the stored object, or the server's error (403, 404). */
export function* get<T = KubeObject>(k: KubectlRun, r: Resource, namespace: string | undefined, name: string, ref: string): Steps<{ object: T } | { error: StatusError }> {
  const checked = yield* k.api.check({ method: 'GET', path: pathOf(r, namespace, name), resource: { verb: 'get', group: r.group, version: r.version, resource: r.resource, ...(namespace ? { namespace } : {}), name }, credentials: k.credentials }, ref);
  if (!checked.ok) return { error: checked.error };
  const object = k.ctx.store.get<T>(r.kind, namespace, name);
  return object ? { object } : { error: notFound(r.resource, r.group, name) };
}

/** listPath is the LIST of every namespace's objects of a resource with a query, as the -v=8 log shows it. */
export function listPath(r: Resource, query: string): string {
  return `${pathOf(r, undefined)}?${query}`;
}

/** list authorizes a cluster-wide LIST; its items are the caller's to read from the store. */
export function* list(k: KubectlRun, r: Resource, query: string, ref: string): Steps<StatusError | undefined> {
  const checked = yield* k.api.check({ method: 'GET', path: listPath(r, query), resource: { verb: 'list', group: r.group, version: r.version, resource: r.resource }, credentials: k.credentials }, ref);
  return checked.ok ? undefined : checked.error;
}

/** discover is a GET of a group version's resource list (the discovery client): allowed, or the server's error. */
export function* discover(k: KubectlRun, path: string, ref: string): Steps<StatusError | undefined> {
  const checked = yield* k.api.check({ method: 'GET', path, credentials: k.credentials }, ref);
  return checked.ok ? undefined : checked.error;
}
