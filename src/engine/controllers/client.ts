// The controllers' API client: each request goes through the API server as the controller's service account
// (kube-controller-manager runs with --use-service-account-credentials), so it is authenticated, authorized and admitted.
import type { KubeObject } from '../api/types';
import type { DeleteOptions } from '../apiserver/delete';
import { type ApiOutcome, type ApiServer, mappingFor, requestPath } from '../apiserver/server';
import type { Steps } from '../runtime/step';

/**
 * KUBE_CONTROLLER_MANAGER is the manager of the controllers' writes: their User-Agent's program
 * (`kube-controller-manager/v1.36.3 (linux/amd64) kubernetes/...`), which kube-apiserver records when no fieldManager is
 * given. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (managerOrUserAgent), v0.36.3.
 */
const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/** ControllerClient sends one controller's requests. */
export class ControllerClient {
  constructor(private readonly api: ApiServer, readonly serviceAccount: string) {}

  private base(obj: KubeObject, name?: string) {
    const apiVersion = String(obj.apiVersion);
    const kind = String(obj.kind);
    const mapping = mappingFor(apiVersion, kind);
    if (!mapping) throw new Error(`no resource for ${apiVersion} ${kind}`);
    const version = apiVersion.split('/').pop() ?? 'v1';
    const namespace = mapping.namespaced ? obj.metadata?.namespace : undefined;
    return {
      mapping, version, namespace,
      req: {
        apiVersion, kind, group: mapping.group, resource: mapping.resource, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}),
        credentials: { serviceAccount: `kube-system/${this.serviceAccount}` },
        ...(this.api.recordsManagers ? { fieldManager: KUBE_CONTROLLER_MANAGER } : {}),
      },
    };
  }

  /** create POSTs a new object (named or by generateName). */
  *create(obj: KubeObject, ref?: string): Steps<ApiOutcome> {
    const b = this.base(obj, obj.metadata?.name);
    return yield* this.api.serve({ ...b.req, verb: 'create', method: 'POST', path: requestPath(b.mapping, b.version, b.namespace), object: obj }, ref);
  }

  /** update PUTs an object's new content. */
  *update(obj: KubeObject, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.api.serve({ ...b.req, verb: 'update', method: 'PUT', path: requestPath(b.mapping, b.version, b.namespace, name), object: obj }, ref);
  }

  /** patch PATCHes an object with a strategic merge patch. */
  *patch(obj: KubeObject, patch: Record<string, unknown>, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.api.serve({ ...b.req, verb: 'patch', method: 'PATCH', path: requestPath(b.mapping, b.version, b.namespace, name) }, ref, {}, { patch });
  }

  /** delete DELETEs an object with the given options. */
  *delete(obj: KubeObject, options: DeleteOptions = {}, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.api.serve({ ...b.req, verb: 'delete', method: 'DELETE', path: requestPath(b.mapping, b.version, b.namespace, name) }, ref, options);
  }
}
