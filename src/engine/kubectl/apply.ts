// kubectl apply and kubectl delete as a client: validation and discovery first, then the object's requests, each
// logged as `kubectl -v=8` logs it, and what kubectl prints.
import type { ApiServer, KindMapping } from '../apiserver/server';
import { mappingFor, requestPath } from '../apiserver/server';
import type { DeleteOptions } from '../apiserver/delete';
import type { ApiRequest } from '../apiserver/request';
import { canonicalJSON } from '../api/naming';
import { goMarshal } from '../api/go-json';
import { createThreeWayMergePatch, type JsonMap } from '../api/strategic-merge';
import type { KubeObject } from '../api/types';
import type { SourceDocument } from '../cluster/inputs';
import type { Steps } from '../runtime/step';
import { buildInfo, requireNamespace } from './builder';
import type { Credentials, KubectlOutcome } from './kubectl-outcome';
import { addSourceToError, renderKubectlError } from './errors';
import { ACCEPT, type HttpRequest, recordRequest } from './http';
import { LAST_APPLIED, withLastApplied } from './last-applied';
import type { Session } from './discovery';
import { logServed, SITES } from './request-log';

export { API_SERVER_URL, KUBECTL_USER_AGENT } from './http';
export { LAST_APPLIED, withLastApplied } from './last-applied';

export type { Credentials, KubectlOutcome } from './kubectl-outcome';

/**
 * NO_OBJECTS is the error `kubectl apply -f` returns when the files hold no object (an empty file, only comments, an
 * empty List); cmdutil.CheckErr prints it with "error: " and exits 1. See kubernetes/kubectl pkg/cmd/apply/apply.go
 * (ApplyOptions.Run: `if len(infos) == 0 && len(errs) == 0 { return fmt.Errorf("no objects passed to apply") }`) at
 * tag v0.36.0, and pkg/cmd/util/helpers.go (checkErr, DefaultErrorExitCode 1).
 */
export const NO_OBJECTS = 'no objects passed to apply';

/**
 * noObjects is the error of `kubectl apply -f` or `kubectl create -f` on files with no object. See
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create.go (RunCreate: "no objects passed to create"), v0.36.3.
 */
export function noObjects(verb: 'apply' | 'create'): string {
  return `no objects passed to ${verb}`;
}

/** applyNothing is `kubectl apply -f FILE` (or create -f) on a file with no object: it sends nothing and fails (phase kubectl.validate). */
export function* applyNothing(file: string | undefined, verb: 'apply' | 'create' = 'apply'): Steps<KubectlOutcome> {
  const printed = `error: ${noObjects(verb)}`;
  yield { phase: 'kubectl.validate', result: printed, detail: { ...(file !== undefined ? { file } : {}), objects: 0 }, outcome: 'rejected' };
  return { ok: false, printed, clientError: 'NoObjects' };
}

/**
 * apply runs `kubectl apply -f FILE` for one document, in kubectl's order: the resource builder validates it
 * (OpenAPI), decodes it and maps its kind (discovery); apply then GETs the object and, as it is absent, POSTs it
 * with the last-applied-configuration annotation. Documents fetched once are kept for the rest of the run.
 * See staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (Run, applyOneObject), staging/src/k8s.io/cli-runtime/
 * pkg/resource/visitor.go (StreamVisitor, ValidateSchema) and mapper.go (infoForData).
 */
export function* apply(api: ApiServer, session: Session, doc: SourceDocument, credentials: Credentials, defaultNamespace: string, enforceNamespace = false): Steps<KubectlOutcome> {
  const info = yield* buildInfo(api, session, doc, credentials, defaultNamespace);
  if (!info.ok) return info.out;
  // kubectl apply -n NS: the builder refuses a document of another namespace.
  const mismatch = enforceNamespace ? yield* requireNamespace(info, doc, defaultNamespace) : undefined;
  if (mismatch) return mismatch;
  return yield* applyMapped(api, session, doc, doc.object, info.mapping, info.version, credentials, info.ref, defaultNamespace, info.validatedBy);
}

function* applyMapped(
  api: ApiServer, session: Session, doc: SourceDocument, obj: KubeObject, mapping: KindMapping, version: string, credentials: Credentials, ref: string,
  defaultNamespace: string, validatedBy: 'server' | 'client',
): Steps<KubectlOutcome> {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const name = obj.metadata?.name ?? '';
  const namespace = mapping.namespaced ? obj.metadata?.namespace ?? defaultNamespace : undefined;
  const body = withLastApplied(obj, namespace);
  // The helper always sends the directive (WithFieldValidation), whoever validated. See apply.go (applyOneObject).
  const query = '?fieldManager=kubectl-client-side-apply&fieldValidation=Strict';
  const getPath = requestPath(mapping, version, namespace, name);
  const postPath = `${requestPath(mapping, version, namespace)}${query}`;
  const resourceWord = mapping.group ? `${kind.toLowerCase()}.${mapping.group}` : kind.toLowerCase();
  yield {
    phase: 'kubectl.validate', object: ref, field: 'kind',
    result: `${apiVersion} ${kind} maps to resource "${mapping.resource}"${mapping.group ? ` in group "${mapping.group}"` : ''}; kubectl sends GET ${getPath}, then POST ${postPath} if it is absent or PATCH it if it exists`,
    detail: { mapping: { ...mapping }, validatedBy, request: requestDetail({ verb: 'GET', path: getPath, accept: ACCEPT.json }, credentials) },
  };
  const base = { apiVersion, kind, group: mapping.group, resource: mapping.resource, ...(namespace ? { namespace } : {}), source: doc.file, credentials };
  const clock = session.clock;
  let sentAt = clock.now;
  const got = yield* api.serve({ ...base, verb: 'get', method: 'GET', path: getPath, name }, ref);
  logServed(session.log, { verb: 'GET', path: getPath, accept: ACCEPT.json }, credentials, SITES.helperGet, sentAt, clock.now, got);
  if (got.ok) {
    if (got.object) return yield* applyPatch(api, session, doc, got.object, body, { base, getPath, query, mapping, version, namespace, resourceWord, ref, credentials });
    return { ok: true, printed: `${resourceWord}/${name} unchanged`, outcome: got };
  }
  if (got.error.reason !== 'NotFound') {
    // See apply.go: a failed GET is reported as "error when retrieving current configuration of:\n<info>\nfrom server for:".
    const gv = `${mapping.group}/${version}`;
    const err = addSourceToError(`retrieving current configuration of:\nResource: "${gv}, Resource=${mapping.resource}", GroupVersionKind: "${gv}, Kind=${kind}"\nName: "${name}", Namespace: "${namespace ?? ''}"\nfrom server for:`, doc.file, got.error);
    return { ok: false, printed: renderKubectlError(err), error: err, outcome: got, applyFailure: { warnings: '', error: err } };
  }
  const bodyText = JSON.stringify(body);
  yield {
    phase: 'kubectl.validate', object: ref, field: 'kind', result: `the object is not there (404): kubectl sends POST ${postPath}`,
    detail: { request: requestDetail({ verb: 'POST', path: postPath, accept: ACCEPT.json, body: bodyText }, credentials) },
  };
  sentAt = clock.now;
  const created = yield* api.serve({ ...base, verb: 'create', method: 'POST', path: postPath, ...(name ? { name } : {}), object: body }, ref);
  // On the wire the body is the unstructured object's JSON (a map: keys sorted), ended by the encoder's line break.
  logServed(session.log, { verb: 'POST', path: postPath, accept: ACCEPT.json, body: bodyText }, credentials, SITES.helperCreate, sentAt, clock.now, created, `${goMarshal(body)}\n`);
  // kubectl prints each API warning as it arrives, before the result or the error. See staging/src/k8s.io/client-go/rest/warnings.go.
  const warnings = (created.warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
  if (!created.ok) {
    const err = addSourceToError('creating', doc.file, created.error);
    return { ok: false, printed: `${warnings}${renderKubectlError(err)}`, error: err, outcome: created, applyFailure: { warnings, error: err } };
  }
  return { ok: true, printed: `${warnings}${resourceWord}/${name} created`, ...(created.object ? { object: created.object } : {}), outcome: created };
}

interface PatchTarget {
  base: Omit<ApiRequest, 'verb' | 'method' | 'path'>;
  getPath: string;
  query: string;
  mapping: KindMapping;
  version: string;
  namespace: string | undefined;
  resourceWord: string;
  ref: string;
  credentials: Credentials;
}

/**
 * applyPatch is apply's path for an object that exists: the three-way strategic merge patch of the last-applied
 * configuration (original), the new configuration with its new annotation (modified) and the live object (current).
 * An empty patch is not sent and kubectl prints `unchanged`; otherwise it PATCHes and prints `configured`. A live
 * object without the annotation gets kubectl's warning first. See staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go
 * (applyOneObject) and patcher.go (patchSimple).
 */
function* applyPatch(api: ApiServer, session: Session, doc: SourceDocument, live: KubeObject, modified: KubeObject, t: PatchTarget): Steps<KubectlOutcome> {
  const name = live.metadata?.name ?? '';
  const lastApplied = live.metadata?.annotations?.[LAST_APPLIED];
  let original: JsonMap | undefined;
  try {
    original = lastApplied ? JSON.parse(lastApplied) as JsonMap : undefined;
  } catch {
    original = undefined;
  }
  // staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (applyOneObject): warningNoLastAppliedConfigAnnotation to stderr
  // before the patch, with info.ObjectName() (the mapping's plural resource and the name, as cli-runtime's
  // resource/visitor.go writes it), the annotation's key and the command's base name.
  const warning = lastApplied === undefined
    ? `Warning: resource ${t.mapping.resource}/${name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`
    : '';
  const patch = createThreeWayMergePatch(original, modified as JsonMap, live as JsonMap);
  // json.Marshal of the patch map: keys sorted.
  const patchText = canonicalJSON(patch);
  if (patchText === '{}') {
    yield { phase: 'kubectl.validate', object: t.ref, field: 'metadata.annotations', result: `the three-way patch is empty: nothing is sent, the object is unchanged`, detail: { patch } };
    return { ok: true, printed: `${warning}${t.resourceWord}/${name} unchanged`, object: live };
  }
  const path = `${t.getPath}${t.query}`;
  yield {
    phase: 'kubectl.validate', object: t.ref, field: 'metadata.annotations',
    result: `the object exists (resourceVersion ${live.metadata?.resourceVersion}): kubectl sends PATCH ${path} (strategic merge patch)`,
    // apply.go patchSimple: types.StrategicMergePatchType for built-in kinds.
    detail: { patch, request: requestDetail({ verb: 'PATCH', path, accept: ACCEPT.json, body: patchText, contentType: 'application/strategic-merge-patch+json' }, t.credentials) },
  };
  const sentAt = session.clock.now;
  const patched = yield* api.serve({ ...t.base, verb: 'patch', method: 'PATCH', path, name }, t.ref, {}, { patch });
  logServed(session.log, { verb: 'PATCH', path, accept: ACCEPT.json, body: patchText, contentType: 'application/strategic-merge-patch+json' }, t.credentials, SITES.helperPatch, sentAt, session.clock.now, patched);
  const warnings = (patched.warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
  if (!patched.ok) {
    const gv = `${t.mapping.group}/${t.version}`;
    const info = `Resource: "${gv}, Resource=${t.mapping.resource}", GroupVersionKind: "${gv}, Kind=${String(live.kind)}"\nName: "${name}", Namespace: "${t.namespace ?? ''}"`;
    const err = addSourceToError(`applying patch:\n${patchText}\nto:\n${info}\nfor:`, doc.file, addSourceToError('patching', doc.file, patched.error));
    return { ok: false, printed: `${warning}${warnings}${renderKubectlError(err)}`, error: err, outcome: patched, applyFailure: { warnings: `${warning}${warnings}`, error: err } };
  }
  return { ok: true, printed: `${warning}${warnings}${t.resourceWord}/${name} configured`, ...(patched.object ? { object: patched.object } : {}), outcome: patched };
}

/** requestDetail is a request as the trace shows it, with its -v=8 log lines. */
export function requestDetail(req: HttpRequest, credentials: Credentials): Record<string, unknown> {
  const r = recordRequest(req, credentials);
  return { verb: r.verb, url: r.url, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}), log: r.log };
}

/**
 * deleteRequest runs `kubectl delete -f FILE [--grace-period N] [--force]` for one object: kubectl's Complete turns
 * --grace-period=0 without --force into 1 and --force without a grace period into 0; Validate prints the warning
 * of an immediate deletion; only a grace period of 0 or more is sent (metav1.NewDeleteOptions); PrintObj writes
 * `pod "web" deleted from default namespace`, or `force deleted` for a grace period of 0. Discovery comes from
 * kubectl's disk cache, filled by the apply. See staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go.
 */
export function* deleteRequest(api: ApiServer, obj: KubeObject, credentials: Credentials, options: DeleteOptions & { force?: boolean }, source = ''): Steps<KubectlOutcome> {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const name = obj.metadata?.name ?? '';
  const namespace = obj.metadata?.namespace;
  const mapping = mappingFor(apiVersion, kind)!;
  const version = apiVersion.split('/').pop()!;
  const ref = `${kind}/${namespace ? `${namespace}/` : ''}${name}`;
  const grace = kubectlGracePeriod(options.gracePeriodSeconds, options.force === true);
  if (options.force && grace > 0) {
    // delete.go Validate refuses the pair before any request is sent.
    const printed = `error: ${FORCE_WITH_GRACE_ERROR}`;
    yield { phase: 'kubectl.validate', object: ref, result: printed, detail: { gracePeriod: grace, force: true }, outcome: 'rejected' };
    return { ok: false, printed, clientError: 'InvalidFlags' };
  }
  const sent = grace >= 0 ? grace : undefined;
  const resourceWord = mapping.group ? `${kind.toLowerCase()}.${mapping.group}` : kind.toLowerCase();
  const path = requestPath(mapping, version, namespace, name);
  const propagationPolicy = options.propagationPolicy ?? 'Background';
  // delete.go Validate: "case o.GracePeriod == 0 && o.ForceDeletion", printed by the warning printer before any request.
  const warning = grace === 0 && options.force ? `Warning: ${IMMEDIATE_DELETION_WARNING}\n` : '';
  const deleteBody = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...(sent !== undefined ? { gracePeriodSeconds: sent } : {}), propagationPolicy });
  yield {
    phase: 'kubectl.validate', object: ref,
    result: `kubectl sends DELETE ${path} with ${sent === undefined ? 'no grace period (the server decides)' : `gracePeriodSeconds ${sent}`}`,
    detail: { gracePeriod: grace, requested: options.gracePeriodSeconds ?? null, force: options.force === true, request: requestDetail({ verb: 'DELETE', path, accept: ACCEPT.json, body: deleteBody }, credentials) },
  };
  const outcome = yield* api.serve(
    { verb: 'delete', method: 'DELETE', path, apiVersion, kind, group: mapping.group, resource: mapping.resource, ...(namespace ? { namespace } : {}), name, credentials },
    ref, { ...(sent !== undefined ? { gracePeriodSeconds: sent } : {}), propagationPolicy },
  );
  if (!outcome.ok) {
    // delete.go deleteResource: cmdutil.AddSourceToErr("deleting", info.Source, err) for `kubectl delete -f FILE`.
    const err = addSourceToError('deleting', source, outcome.error);
    return { ok: false, printed: `${warning}${renderKubectlError(err)}`, error: err, outcome };
  }
  // delete.go PrintObj: "force deleted" when the grace period is 0, then " from NS namespace" for a namespaced object.
  const operation = `${grace === 0 ? 'force deleted' : 'deleted'}${namespace ? ` from ${namespace} namespace` : ''}`;
  return { ok: true, printed: `${warning}${resourceWord} "${name}" ${operation}`, ...(outcome.object ? { object: outcome.object } : {}), outcome };
}

/** IMMEDIATE_DELETION_WARNING is what kubectl delete warns with a grace period of 0 and --force. See delete.go (Validate). */
export const IMMEDIATE_DELETION_WARNING = 'Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';

/** NOW_WITH_GRACE_ERROR is kubectl delete's refusal of --now with an explicit --grace-period. See delete.go (Complete). */
export const NOW_WITH_GRACE_ERROR = '--now and --grace-period cannot be specified together';

/** FORCE_WITH_GRACE_ERROR is kubectl delete's refusal of --force with a positive --grace-period. See delete.go (Validate). */
export const FORCE_WITH_GRACE_ERROR = '--force and --grace-period greater than 0 cannot be specified together';

/**
 * kubectlGracePeriod is kubectl delete's grace period after Complete: -1 (not sent) by default, --grace-period=0
 * without --force becomes 1 ("prevent accidental data loss"), and --force with no grace period becomes 0.
 */
export function kubectlGracePeriod(flag: number | undefined, force: boolean): number {
  let grace = flag ?? -1;
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  return grace;
}
