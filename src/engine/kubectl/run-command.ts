// A run's kubectl command as a client: kubectl.generate (the command line read, the object generated), then for each
// object what the command sends — kubectl run's discovery and POST, create deployment|job's typed POST, create -f's
// POST, apply -f's GET then POST or PATCH — with dry runs, and what kubectl prints. See staging/src/k8s.io/kubectl/pkg/
// cmd/run/run.go (createGeneratedObject), cmd/create/create_deployment.go and create_job.go (Run), create.go
// (RunCreate), v0.36.3.
import { mappingFor, requestPath } from '../apiserver/server';
import type { ApiRequest } from '../apiserver/request';
import { goMarshal } from '../api/go-json';
import { objectRef } from '../api/types';
import type { SourceDocument } from '../cluster/inputs';
import type { Rejection } from '../outcome';
import type { Millis, VirtualClock } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { apply, requestDetail } from './apply';
import { withLastApplied } from './last-applied';
import { buildInfo, requireNamespace } from './builder';
import { discover, type Session } from './discovery';
import { klogHeader } from './klog';
import { logServed, SITES } from './request-log';
import { addSourceToError, checkErr, renderKubectlError } from './errors';
import { ACCEPT, rawError } from './http';
import type { Credentials, KubectlOutcome } from './kubectl-outcome';
import { GENERATED_FILE, type KubectlCommand, type KubectlInvocation, type KubectlWarning } from './generate/common';
import { goJson, operationOf, printObject } from './generate/print';
import type { ApiServer } from '../apiserver/server';

/** fileOf is the file kubectl names an object's source by: none for what a kubectl command generated. */
export function fileOf(file: string | undefined): string {
  return file === undefined || file === GENERATED_FILE ? '' : file;
}

/** GENERATORS names what made each command's object, as the trace says it. */
const GENERATORS: Readonly<Record<string, string>> = {
  run: 'the run-pod/v1 generator (BasicPod)', 'create deployment': 'create deployment', 'create job': 'create job',
};

/** KubectlStart is what kubectl.generate ends with: the lines kubectl wrote, and its refusal when it refused. */
export interface KubectlStart {
  printed: string[];
  rejection?: Rejection;
}

/**
 * klogLine is a klog.Warning line as kubectl writes it to stderr: `W0101 00:00:00.000000       1 helpers.go:719] ...`
 * (the header's time is the virtual clock's, its thread id 1). See k8s.io/klog/v2 (formatHeader).
 */
export function klogLine(w: KubectlWarning, clock: VirtualClock, at: Millis, severity: 'W' | 'E' = 'W'): string {
  if (!w.klog) return w.message;
  return `${klogHeader(severity, clock, at, w.klog)}${w.message}`;
}

/**
 * kubectlGenerate records phase kubectl.generate: kubectl's refusal of its command line (the run's rejection), or
 * what the command produced — each generated object with the command line and flags that made it, or the files -f
 * names.
 */
export function* kubectlGenerate(inv: KubectlInvocation, manifest: SourceDocument[], clock: VirtualClock): Steps<KubectlStart> {
  if ('refused' in inv) {
    const r = inv.refused;
    const printed = [...r.warnings.map((w) => klogLine(w, clock, clock.now)), r.printed];
    yield {
      phase: 'kubectl.generate', result: r.printed.split('\n')[0]!, outcome: 'rejected',
      detail: { command: r.line, printed: r.printed, reason: r.reason },
    };
    // The rejection's message is the error itself; kubectl's lines (its `See ... for usage.` hint too) are in `kubectl`.
    return { printed, rejection: { phase: 'kubectl.generate', code: 0, reason: r.reason, message: r.printed.split('\n')[0]!.replace(/^error: /, '') } };
  }
  const c = inv.command;
  const printed = c.warnings.map((w) => klogLine(w, clock, clock.now));
  const common = { command: c.line, flags: c.flags, args: c.args, namespace: c.namespace, dryRun: c.dryRun, output: c.output || 'the name printer' };
  if (c.objects.length === 0) {
    yield {
      phase: 'kubectl.generate',
      result: `${c.line}: kubectl reads ${manifest.length} object(s) from ${c.files.join(', ')} and ${c.path === 'apply' ? 'applies' : 'creates'} each in namespace ${c.namespace} unless it names its own`,
      detail: { ...common, files: c.files },
    };
    return { printed };
  }
  for (const [i, obj] of c.objects.entries()) {
    const doc = manifest[i];
    const ref = objectRef(String(obj.kind), c.namespace, obj.metadata?.name ?? '');
    yield {
      phase: 'kubectl.generate', object: ref, field: 'metadata.name',
      result: `${c.line}: ${GENERATORS[c.path]} makes ${obj.kind} "${obj.metadata?.name}"${summary(obj)}`,
      detail: { ...common, generator: GENERATORS[c.path], object: obj, ...(doc ? { yaml: inv.generated } : {}) },
    };
  }
  return { printed };
}

/** summary names the generated fields a person looks for: the containers, their images, the labels, the replicas. */
function summary(obj: KubectlCommand['objects'][number]): string {
  const spec = obj['spec'] as { replicas?: number; containers?: { name: string; image: string }[]; restartPolicy?: string; template?: { spec?: { containers?: { name: string; image: string }[]; restartPolicy?: string } } } | undefined;
  const containers = spec?.containers ?? spec?.template?.spec?.containers ?? [];
  const parts = [containers.map((ct) => `container ${ct.name} (image ${ct.image})`).join(', ')];
  const labels = Object.entries(obj.metadata?.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  if (labels) parts.push(`labels ${labels}`);
  if (spec?.replicas !== undefined) parts.push(`replicas ${spec.replicas}`);
  const restart = spec?.restartPolicy ?? spec?.template?.spec?.restartPolicy;
  if (restart) parts.push(`restartPolicy ${restart}`);
  return parts[0] ? `: ${parts.join('; ')}` : '';
}

/**
 * sendDocument is what the run's kubectl does with one document: `kubectl apply -f MANIFEST` without a command line,
 * otherwise the command's own requests.
 */
export function* sendDocument(api: ApiServer, session: Session, inv: KubectlInvocation | undefined, doc: SourceDocument, index: number, credentials: Credentials): Steps<KubectlOutcome> {
  if (!inv || !('command' in inv)) return yield* apply(api, session, doc, credentials, 'default');
  const c = inv.command;
  if (c.path === 'apply') return yield* apply(api, session, doc, credentials, c.namespace, c.enforceNamespace);
  if (c.path === 'create') return yield* createFromFile(api, session, c, doc, index, credentials);
  return yield* createGenerated(api, session, c, index, credentials);
}

/** queryOf is the create request's query as url.Values.Encode writes it (keys sorted): dryRun, fieldManager, fieldValidation. */
function queryOf(c: KubectlCommand): string {
  const q = [...(c.dryRun === 'server' ? ['dryRun=All'] : []), `fieldManager=${encodeURIComponent(c.fieldManager)}`, ...(c.fieldValidation ? [`fieldValidation=${c.fieldValidation}`] : [])];
  return `?${q.join('&')}`;
}

/**
 * createGenerated sends what run or create deployment|job generated: run maps Pod through discovery first (even for a
 * client dry run); a client dry run then prints the object and sends nothing; otherwise kubectl POSTs it (run with its
 * REST client, as JSON; create deployment|job with the typed client, as protobuf) and prints what the server returned.
 */
function* createGenerated(api: ApiServer, session: Session, c: KubectlCommand, index: number, credentials: Credentials): Steps<KubectlOutcome> {
  const clock = session.clock;
  const obj = c.objects[index]!;
  const kind = String(obj.kind);
  const apiVersion = String(obj.apiVersion);
  const name = obj.metadata?.name ?? '';
  const ref = objectRef(kind, c.namespace, name);
  if (c.discovery) {
    const discovery = yield* discover(api, session, credentials, ref);
    if (!discovery.ok) {
      // The memory-cached discovery client logs the failure (utilruntime.HandleError, client-go discovery/cached/memory/
      // memcache.go:265 at v0.36.3); the RESTMapper's error is the discovery client's (Result.Raw()), through CheckErr.
      const raw = rawError(discovery.error);
      const logged = { klog: { file: 'memcache.go', line: 265 }, message: `"Unhandled Error" err=${JSON.stringify(`couldn't get current server API group list: ${raw.message}`)}` };
      return { ok: false, printed: `${klogLine(logged, clock, clock.now, 'E')}\n${checkErr(raw)}`, error: discovery.error, outcome: discovery };
    }
  }
  const mapping = mappingFor(apiVersion, kind)!;
  const version = apiVersion.split('/').pop()!;
  if (c.dryRun === 'client') {
    yield { phase: 'kubectl.validate', object: ref, field: 'kind', result: `${apiVersion} ${kind} maps to resource "${mapping.resource}"; --dry-run=client: kubectl sends nothing and prints the object`, detail: { mapping: { ...mapping } } };
    return { ok: true, printed: printObject(obj, c.output, operationOf('created', 'client'), index), object: obj, dryRun: true };
  }
  const path = `${requestPath(mapping, version, c.namespace)}${queryOf(c)}`;
  const protobuf = c.wire === 'protobuf';
  const body = `${goJson(obj)}\n`;
  const httpRequest = { verb: 'POST' as const, path, accept: protobuf ? 'application/vnd.kubernetes.protobuf,application/json' : ACCEPT.any, body, ...(protobuf ? { contentType: 'application/vnd.kubernetes.protobuf' } : {}) };
  const request = requestDetail(httpRequest, credentials);
  yield {
    phase: 'kubectl.validate', object: ref, field: 'kind',
    result: `${apiVersion} ${kind} maps to resource "${mapping.resource}"${mapping.group ? ` in group "${mapping.group}"` : ''}; kubectl sends POST ${path}`,
    detail: { mapping: { ...mapping }, request, ...(protobuf ? { encoding: 'the typed client sends protobuf; the body is shown as its JSON equivalent' } : {}) },
  };
  const req: ApiRequest = {
    verb: 'create', method: 'POST', path, apiVersion, kind, group: mapping.group, resource: mapping.resource, namespace: c.namespace, name,
    object: JSON.parse(JSON.stringify(obj)) as typeof obj, credentials, ...(c.dryRun === 'server' ? { dryRun: true } : {}),
  };
  const sentAt = clock.now;
  const created = yield* api.serve(req, ref);
  // run's Helper.Create; the typed client of create deployment|job logs no body here (-v=8 is refused for it).
  logServed(session.log, httpRequest, credentials, SITES.helperCreate, sentAt, clock.now, created);
  const warnings = (created.warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
  if (!created.ok) {
    // run hands the API error to CheckErr; create deployment|job wrap it: `failed to create deployment: <message>`.
    const printed = c.path === 'run' ? renderKubectlError(created.error) : `error: failed to create ${kind.toLowerCase()}: ${created.error.message}`;
    return { ok: false, printed: `${warnings}${printed}`, error: created.error, outcome: created };
  }
  const returned = created.object ?? obj;
  return { ok: true, printed: `${warnings}${printObject(returned, c.output, operationOf('created', c.dryRun), index)}`, object: returned, outcome: created, ...(c.dryRun === 'server' ? { dryRun: true } : {}) };
}

/**
 * createFromFile is `kubectl create -f` for one document: the builder reads it (validation, discovery), -n must agree
 * with the document's namespace, then kubectl POSTs it (no last-applied annotation, unless --save-config) and prints
 * `pod/web created`; an error names the file (`error when creating "pod.yaml": pods "web" already exists`).
 */
function* createFromFile(api: ApiServer, session: Session, c: KubectlCommand, doc: SourceDocument, index: number, credentials: Credentials): Steps<KubectlOutcome> {
  const info = yield* buildInfo(api, session, doc, credentials, c.namespace);
  if (!info.ok) return info.out;
  const obj = doc.object;
  const kind = String(obj.kind);
  const apiVersion = String(obj.apiVersion);
  const name = obj.metadata?.name ?? '';
  const own = obj.metadata?.namespace;
  const mismatch = c.enforceNamespace ? yield* requireNamespace(info, doc, c.namespace) : undefined;
  if (mismatch) return mismatch;
  const namespace = info.mapping.namespaced ? own ?? c.namespace : undefined;
  // The builder set the namespace; --save-config then annotates what is sent (util.CreateOrUpdateAnnotation).
  const placed = { ...obj, metadata: { ...obj.metadata, ...(namespace ? { namespace } : {}) } };
  const body = c.saveConfig ? withLastApplied(placed, namespace) : placed;
  if (c.dryRun === 'client') {
    yield { phase: 'kubectl.validate', object: info.ref, field: 'kind', result: `${apiVersion} ${kind} maps to resource "${info.mapping.resource}"; --dry-run=client: kubectl sends nothing and prints the object`, detail: { mapping: { ...info.mapping } } };
    return { ok: true, printed: printObject(body, c.output, operationOf('created', 'client'), index, true), object: body, dryRun: true };
  }
  const path = `${requestPath(info.mapping, info.version, namespace)}${queryOf(c)}`;
  const httpRequest = { verb: 'POST' as const, path, accept: ACCEPT.json, body: `${goMarshal(body)}\n` };
  yield {
    phase: 'kubectl.validate', object: info.ref, field: 'kind',
    result: `${apiVersion} ${kind} maps to resource "${info.mapping.resource}"${info.mapping.group ? ` in group "${info.mapping.group}"` : ''}; kubectl sends POST ${path}`,
    detail: { mapping: { ...info.mapping }, validatedBy: info.validatedBy, request: requestDetail(httpRequest, credentials) },
  };
  const sentAt = session.clock.now;
  const created = yield* api.serve({
    verb: 'create', method: 'POST', path, apiVersion, kind, group: info.mapping.group, resource: info.mapping.resource, ...(namespace ? { namespace } : {}),
    ...(name ? { name } : {}), object: body, source: doc.file, credentials, ...(c.dryRun === 'server' ? { dryRun: true } : {}),
  }, info.ref);
  logServed(session.log, httpRequest, credentials, SITES.helperCreate, sentAt, session.clock.now, created);
  const warnings = (created.warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
  if (!created.ok) {
    const err = addSourceToError('creating', doc.file, created.error);
    return { ok: false, printed: `${warnings}${renderKubectlError(err)}`, error: err, outcome: created };
  }
  const returned = created.object ?? body;
  return { ok: true, printed: `${warnings}${printObject(returned, c.output, operationOf('created', c.dryRun), index, true)}`, object: returned, outcome: created, ...(c.dryRun === 'server' ? { dryRun: true } : {}) };
}
