// The resource builder's work on one document of a -f file, before apply or create acts: validation against the
// server's OpenAPI, decoding, and the kind mapped to a resource through discovery. See staging/src/k8s.io/cli-runtime/
// pkg/resource/visitor.go (StreamVisitor, ValidateSchema), mapper.go (infoForData) and builder.go (v0.36.3).
import { type ApiServer, type KindMapping, mappingFor } from '../apiserver/server';
import type { SourceDocument } from '../cluster/inputs';
import type { Steps } from '../runtime/step';
import type { Credentials, KubectlOutcome } from './kubectl-outcome';
import { discover, type Gvk, type Session, verifyFieldValidation } from './discovery';
import { rawError } from './http';
import { goTypeName } from './last-applied';

/** STOP_VALIDATE is cli-runtime's stopValidateMessage, the end of every validation error. */
const STOP_VALIDATE = 'if you choose to ignore these errors, turn validation off with --validate=false';

/** ResourceInfo is a document the builder read: its kind's mapping and version, who validated it, and its trace reference. */
export type ResourceInfo =
  | { ok: true; mapping: KindMapping; version: string; validatedBy: 'server' | 'client'; ref: string }
  | { ok: false; out: KubectlOutcome };

/**
 * buildInfo reads one document as the builder does, in kubectl's order: validate it (OpenAPI), decode it, map its
 * kind (discovery). Documents fetched once are kept for the rest of the process; after an error in a file, kubectl reads
 * no later document of it.
 */
export function* buildInfo(api: ApiServer, session: Session, doc: SourceDocument, credentials: Credentials, defaultNamespace: string): Steps<ResourceInfo> {
  const obj = doc.object;
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const name = obj.metadata?.name ?? '';
  const ref = `${kind}/${obj.metadata?.namespace ?? defaultNamespace}/${name}`;
  // The stream visitor returned at an earlier document's error: kubectl never reads this one.
  if (session.stoppedFiles.has(doc.file)) return { ok: false, out: { ok: false, printed: '', clientError: 'NotVisited' } };
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  const validation = yield* verifyFieldValidation(api, session, { group, version, kind } satisfies Gvk, credentials, ref);
  if (!validation.ok) {
    session.stoppedFiles.add(doc.file);
    const printed = `error: error validating ${JSON.stringify(doc.file)}: error validating data: ${validation.message}; ${STOP_VALIDATE}`;
    yield { phase: 'kubectl.validate', object: ref, field: 'apiVersion', result: printed, detail: { status: validation.failed.error.status }, outcome: 'rejected' };
    return { ok: false, out: { ok: false, printed, error: validation.failed.error, outcome: validation.failed } };
  }
  if (obj.metadata !== undefined && (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata))) {
    // kubectl reads metadata through the unstructured accessors, which refuse anything but a map.
    // See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go (NestedFieldNoCopy).
    const printed = `error: unable to decode "${doc.file}": .metadata accessor error: ${String(obj.metadata)} is of the type ${goTypeName(obj.metadata)}, expected map[string]interface{}`;
    yield { phase: 'kubectl.validate', object: ref, field: 'metadata', result: printed, detail: {}, outcome: 'rejected' };
    return { ok: false, out: { ok: false, printed, clientError: 'DecodeError' } };
  }
  const discovery = yield* discover(api, session, credentials, ref);
  if (!discovery.ok) {
    // infoForData wraps the RESTMapper's error; it is not a Status to CheckErr (%w), so it prints with "error: ".
    const printed = `error: unable to recognize ${JSON.stringify(doc.file)}: ${rawError(discovery.error).message}`;
    yield { phase: 'kubectl.validate', object: ref, field: 'kind', result: printed, detail: { status: discovery.error.status }, outcome: 'rejected' };
    return { ok: false, out: { ok: false, printed, error: discovery.error, outcome: discovery } };
  }
  const mapping = mappingFor(apiVersion, kind);
  if (!mapping) {
    // meta.NoKindMatchError with the one version searched. See staging/src/k8s.io/apimachinery/pkg/api/meta/errors.go.
    const printed = `error: resource mapping not found for name: "${name}" namespace: "${obj.metadata?.namespace ?? ''}" from "${doc.file}": no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first`;
    yield { phase: 'kubectl.validate', object: ref, field: 'kind', result: printed, detail: { apiVersion, kind }, outcome: 'rejected' };
    return { ok: false, out: { ok: false, printed, clientError: 'NoKindMatchError' } };
  }
  return { ok: true, mapping, version, validatedBy: validation.by, ref };
}

/**
 * requireNamespace is the builder's RequireNamespace visitor when -n is given: a namespaced document that names another
 * namespace is refused. See staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go (v0.36.3).
 */
export function* requireNamespace(info: ResourceInfo & { ok: true }, doc: SourceDocument, namespace: string): Steps<KubectlOutcome | undefined> {
  const own = doc.object.metadata?.namespace;
  if (!info.mapping.namespaced || !own || own === namespace) return undefined;
  const printed = `error: the namespace from the provided object "${own}" does not match the namespace "${namespace}". You must pass '--namespace=${own}' to perform this operation.`;
  yield { phase: 'kubectl.validate', object: info.ref, field: 'metadata.namespace', result: printed, detail: { namespace: own, flag: namespace }, outcome: 'rejected' };
  return { ok: false, printed, clientError: 'NamespaceMismatch' };
}
