// The controllers' API client: each request goes through the API server as the controller's service account
// (kube-controller-manager runs with --use-service-account-credentials), so it is authenticated, authorized and admitted.
import type { KubeObject } from '../api/types';
import type { DeleteOptions } from '../apiserver/delete';
import type { ApiRequest } from '../apiserver/request';
import type { UpdateOptions } from '../apiserver/update';
import { type ApiOutcome, type ApiServer, mappingFor, requestPath } from '../apiserver/server';
import type { PhaseName } from '../runtime/phases';
import type { Steps } from '../runtime/step';
import { type ClientThrottle, throttleOf } from './client-throttle';

/**
 * KUBE_CONTROLLER_MANAGER is the manager of the controllers' writes: their User-Agent's program
 * (`kube-controller-manager/v1.36.3 (linux/amd64) kubernetes/...`), which kube-apiserver records when no fieldManager is
 * given. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (managerOrUserAgent), v0.36.3.
 */
const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/**
 * ControllerClient sends one controller's requests, each after its client's rate limiter lets it (client-throttle.ts);
 * `phase` is the controller's, where a wait is recorded.
 */
export class ControllerClient {
  private readonly throttle: ClientThrottle;

  constructor(private readonly api: ApiServer, readonly serviceAccount: string, private readonly phase: PhaseName) {
    this.throttle = throttleOf(api);
  }

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

  /** send is every request of the controller's: it waits for its client's rate limiter, then the API server serves it. */
  private *send(req: ApiRequest, ref?: string, deleteOptions?: DeleteOptions, updateOptions?: UpdateOptions): Steps<ApiOutcome> {
    yield* this.throttle.wait(this.serviceAccount, this.phase, ref, req.method, req.path);
    return yield* this.api.serve(req, ref, deleteOptions, updateOptions);
  }

  /** create POSTs a new object (named or by generateName). */
  *create(obj: KubeObject, ref?: string): Steps<ApiOutcome> {
    const b = this.base(obj, obj.metadata?.name);
    return yield* this.send({ ...b.req, verb: 'create', method: 'POST', path: requestPath(b.mapping, b.version, b.namespace), object: obj }, ref);
  }

  /** update PUTs an object's new content. */
  *update(obj: KubeObject, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.send({ ...b.req, verb: 'update', method: 'PUT', path: requestPath(b.mapping, b.version, b.namespace, name), object: obj }, ref);
  }

  /** patch PATCHes an object with a strategic merge patch. */
  *patch(obj: KubeObject, patch: Record<string, unknown>, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.send({ ...b.req, verb: 'patch', method: 'PATCH', path: requestPath(b.mapping, b.version, b.namespace, name) }, ref, {}, { patch });
  }

  /**
   * writesStatus is the wait of a status write the controller makes with this client (PUT .../status), which the engine
   * stores without the API server's pipeline: it takes its token from the same bucket.
   */
  *writesStatus(obj: KubeObject, ref?: string): Steps<void> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    yield* this.throttle.wait(this.serviceAccount, this.phase, ref, 'PUT', `${requestPath(b.mapping, b.version, b.namespace, name)}/status`);
  }

  /** delete DELETEs an object with the given options. */
  *delete(obj: KubeObject, options: DeleteOptions = {}, ref?: string): Steps<ApiOutcome> {
    const name = obj.metadata?.name ?? '';
    const b = this.base(obj, name);
    return yield* this.send({ ...b.req, verb: 'delete', method: 'DELETE', path: requestPath(b.mapping, b.version, b.namespace, name) }, ref, options);
  }
}
