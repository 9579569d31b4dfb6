// kubectl apply and kubectl delete as a client: mapping the kind, the requests sent, and what kubectl prints.
import type { ApiOutcome, ApiServer } from '../apiserver/server';
import { mappingFor, requestPath } from '../apiserver/server';
import type { DeleteOptions } from '../apiserver/delete';
import type { ApiRequest, StatusError } from '../apiserver/request';
import { deepClone, type KubeObject } from '../api/types';
import type { SourceDocument } from '../cluster/inputs';
import type { Steps } from '../runtime/step';
import { addSourceToError, renderKubectlError } from './errors';

/** Credentials are what kubectl presents with each request. */
export type Credentials = ApiRequest['credentials'];

/** KubectlOutcome is one kubectl action's result: the line kubectl prints, and on failure the error. */
export interface KubectlOutcome {
  ok: boolean;
  /** printed is what kubectl writes (stdout on success, stderr on failure). */
  printed: string;
  object?: KubeObject;
  error?: StatusError;
  outcome?: ApiOutcome;
  /** clientError names a failure kubectl found before sending anything (it has no HTTP status). */
  clientError?: string;
}

/** LAST_APPLIED is the annotation client-side apply keeps the applied configuration in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** API_SERVER_URL is the address in the admin kubeconfig of the embedded cluster, as `kubectl -v=8` shows requests. */
export const API_SERVER_URL = 'https://192.168.49.2:6443';

/** KUBECTL_USER_AGENT is the User-Agent of kubectl 1.36. */
export const KUBECTL_USER_AGENT = 'kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0';

/**
 * apply runs `kubectl apply -f FILE` for one document: it maps the kind, GETs the object and,
 * as it is absent, POSTs it with the last-applied-configuration annotation.
 * See staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (applyOneObject) and apply/patcher.go.
 */
export function* apply(api: ApiServer, doc: SourceDocument, credentials: Credentials, defaultNamespace: string): Steps<KubectlOutcome> {
  const obj = doc.object;
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const name = obj.metadata?.name ?? '';
  const ref = `${kind}/${obj.metadata?.namespace ?? defaultNamespace}/${name}`;
  if (obj.metadata !== undefined && (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata))) {
    // kubectl reads metadata through the unstructured accessors, which refuse anything but a map.
    // See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go (NestedFieldNoCopy).
    const printed = `error: unable to decode "${doc.file}": .metadata accessor error: ${String(obj.metadata)} is of the type ${goTypeName(obj.metadata)}, expected map[string]interface{}`;
    yield { phase: 'kubectl.validate', object: ref, field: 'metadata', result: printed, detail: {}, outcome: 'rejected' };
    return { ok: false, printed, clientError: 'DecodeError' };
  }
  const mapping = mappingFor(apiVersion, kind);
  if (!mapping) {
    const printed = `error: resource mapping not found for name: "${name}" namespace: "${obj.metadata?.namespace ?? ''}" from "${doc.file}": no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first`;
    yield { phase: 'kubectl.validate', object: ref, field: 'kind', result: printed, detail: { apiVersion, kind }, outcome: 'rejected' };
    return { ok: false, printed, clientError: 'NoKindMatchError' };
  }
  const version = apiVersion.split('/').pop()!;
  const namespace = mapping.namespaced ? obj.metadata?.namespace ?? defaultNamespace : undefined;
  const body = withLastApplied(obj, namespace);
  const query = '?fieldManager=kubectl-client-side-apply&fieldValidation=Strict';
  const getPath = requestPath(mapping, version, namespace, name);
  const postPath = `${requestPath(mapping, version, namespace)}${query}`;
  const resourceWord = mapping.group ? `${kind.toLowerCase()}.${mapping.group}` : kind.toLowerCase();
  yield {
    phase: 'kubectl.validate', object: ref, field: 'kind',
    result: `${apiVersion} ${kind} maps to resource "${mapping.resource}"${mapping.group ? ` in group "${mapping.group}"` : ''}; kubectl sends GET ${getPath}, then POST ${postPath}`,
    detail: { requests: [`GET ${API_SERVER_URL}${getPath}`, `POST ${API_SERVER_URL}${postPath}`], userAgent: KUBECTL_USER_AGENT, contentType: 'application/json', body },
  };
  const base = { apiVersion, kind, group: mapping.group, resource: mapping.resource, ...(namespace ? { namespace } : {}), source: doc.file, credentials };
  const got = yield* api.serve({ ...base, verb: 'get', method: 'GET', path: getPath, name }, ref);
  if (got.ok) return { ok: true, printed: `${resourceWord}/${name} unchanged`, ...(got.object ? { object: got.object } : {}), outcome: got };
  if (got.error.reason === 'Unauthorized') {
    // kubectl's first requests (discovery) fail the same way, before any file is read: no source is named.
    return { ok: false, printed: renderKubectlError(got.error), error: got.error, outcome: got };
  }
  if (got.error.reason !== 'NotFound') {
    // See apply.go: a failed GET is reported as "error when retrieving current configuration of".
    const err = addSourceToError(`retrieving current configuration of:\nResource: "${mapping.group ? `${mapping.group}/` : '/'}${version}, Resource=${mapping.resource}", GroupVersionKind: "${mapping.group ? `${mapping.group}/` : '/'}${version}, Kind=${kind}"\nName: "${name}", Namespace: "${namespace ?? ''}"\nfrom server for`, doc.file, got.error);
    return { ok: false, printed: renderKubectlError(err), error: err, outcome: got };
  }
  const created = yield* api.serve({ ...base, verb: 'create', method: 'POST', path: postPath, ...(name ? { name } : {}), object: body }, ref);
  if (!created.ok) {
    const err = addSourceToError('creating', doc.file, created.error);
    return { ok: false, printed: renderKubectlError(err), error: err, outcome: created };
  }
  // kubectl prints each API warning as it arrives, before the result. See staging/src/k8s.io/client-go/rest/warnings.go.
  const warnings = (created.warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
  return { ok: true, printed: `${warnings}${resourceWord}/${name} created`, ...(created.object ? { object: created.object } : {}), outcome: created };
}

/**
 * deleteRequest runs `kubectl delete KIND NAME [--grace-period N] [--force]`; kubectl prints
 * `pod "web" deleted from default namespace`. See staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go.
 */
export function* deleteRequest(api: ApiServer, obj: KubeObject, credentials: Credentials, options: DeleteOptions & { force?: boolean }): Steps<KubectlOutcome> {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const name = obj.metadata?.name ?? '';
  const namespace = obj.metadata?.namespace;
  const mapping = mappingFor(apiVersion, kind)!;
  const version = apiVersion.split('/').pop()!;
  const ref = `${kind}/${namespace ? `${namespace}/` : ''}${name}`;
  // --force with --grace-period=0 sends a grace period of 0; --grace-period=0 alone means 1 s. See delete_flags.go / delete.go.
  let grace = options.gracePeriodSeconds;
  if (grace === 0 && !options.force) grace = 1;
  if (options.force && (grace === undefined || grace < 0)) grace = 0;
  const resourceWord = mapping.group ? `${kind.toLowerCase()}.${mapping.group}` : kind.toLowerCase();
  const outcome = yield* api.serve(
    { verb: 'delete', method: 'DELETE', path: requestPath(mapping, version, namespace, name), apiVersion, kind, group: mapping.group, resource: mapping.resource, ...(namespace ? { namespace } : {}), name, credentials },
    ref, { ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}), propagationPolicy: options.propagationPolicy ?? 'Background' },
  );
  if (!outcome.ok) return { ok: false, printed: renderKubectlError(outcome.error), error: outcome.error, outcome };
  const warning = options.force ? 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n' : '';
  // See delete.go (PrintObj): `pod "web" deleted from default namespace`; a grace period of 0 prints "force deleted".
  const operation = `${grace === 0 ? 'force deleted' : 'deleted'}${namespace ? ` from ${namespace} namespace` : ''}`;
  return { ok: true, printed: `${warning}${resourceWord} "${name}" ${operation}`, ...(outcome.object ? { object: outcome.object } : {}), outcome };
}

/**
 * withLastApplied adds the last-applied-configuration annotation: the applied object as JSON with
 * sorted keys (json.Marshal of an unstructured map) and a trailing newline, the annotation itself left out.
 * See staging/src/k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration).
 */
export function withLastApplied(obj: KubeObject, namespace: string | undefined): KubeObject {
  const applied = deepClone(obj);
  applied.metadata = { ...applied.metadata, ...(namespace ? { namespace } : {}) };
  const annotations = { ...(applied.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  applied.metadata.annotations = annotations;
  const out = deepClone(applied);
  out.metadata = { ...out.metadata, annotations: { ...annotations, [LAST_APPLIED]: `${sortedJson(applied)}\n` } };
  return out;
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${goJsonString(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return typeof value === 'string' ? goJsonString(value) : JSON.stringify(value);
}

/** goTypeName is the Go type a JSON value decodes to in an unstructured object. */
function goTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return '<nil>';
}

/** goJsonString quotes a string as Go's encoding/json does: HTML characters and line separators escaped. */
function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
