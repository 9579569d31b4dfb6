// The EndpointSlice controller: a Service's slice lists the pods it selects, with ready, serving and terminating.
// See pkg/controller/endpointslice/reconciler.go and staging/src/k8s.io/endpointslice/utils.go (podToEndpoint).
import type { KubeObject, Pod, Service } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';

/** ENDPOINTSLICE_CONTROLLER is the manager named in the slices' labels. */
export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller.k8s.io';

/** selects tells whether a Service's selector picks a pod (every selector label matches; no selector picks none). */
export function selects(svc: Service, pod: Pod): boolean {
  const selector = svc.spec?.selector ?? {};
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => pod.metadata?.labels?.[k] === selector[k]);
}

/** endpointConditions are a pod's conditions in a slice: ready only when Ready and not terminating. */
export function endpointConditions(pod: Pod): { ready: boolean; serving: boolean; terminating: boolean } {
  const podReady = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const terminating = !!pod.metadata?.deletionTimestamp;
  return { ready: podReady && !terminating, serving: podReady, terminating };
}

/** syncEndpoints updates the slices of the Services that select a pod (phase controllers.endpoints). */
export function* syncEndpoints(ctx: EngineContext, pod: Pod, ref: string, gone = false): Steps<void> {
  const ns = pod.metadata?.namespace ?? 'default';
  const services = ctx.store.list<Service>('Service', ns).filter((s) => selects(s, pod));
  const conditions = endpointConditions(pod);
  if (services.length === 0) {
    yield { phase: 'controllers.endpoints', object: ref, field: 'metadata.labels', result: 'no Service selects the pod: no endpoints to update', detail: { conditions } };
    return;
  }
  for (const svc of services) {
    const name = svc.metadata?.name ?? '';
    const slice = sliceFor(ctx, svc);
    const others = ((slice.endpoints ?? []) as { targetRef?: { uid?: string } }[]).filter((e) => e.targetRef?.uid !== pod.metadata?.uid);
    const endpoint = {
      addresses: [pod.status?.podIP ?? ''], conditions, nodeName: pod.spec?.nodeName,
      targetRef: { kind: 'Pod', name: pod.metadata?.name, namespace: ns, uid: pod.metadata?.uid },
    };
    const endpoints = gone || !pod.status?.podIP ? others : [...others, endpoint];
    ctx.store.put({ ...slice, endpoints } as KubeObject);
    yield {
      phase: 'controllers.endpoints', object: ref, field: 'metadata.labels', step: { kind: 'object', name: `Service/${name}` },
      result: gone ? `removed ${pod.metadata?.name} from EndpointSlice ${slice.metadata?.name}` : `EndpointSlice ${slice.metadata?.name} of Service ${name}: ${pod.status?.podIP ?? 'no IP yet'} ready=${conditions.ready} serving=${conditions.serving} terminating=${conditions.terminating}`,
      detail: { service: name, endpointSlice: slice.metadata?.name, conditions },
    };
  }
}

function sliceFor(ctx: EngineContext, svc: Service): KubeObject {
  const ns = svc.metadata?.namespace ?? 'default';
  const existing = ctx.store.list('EndpointSlice', ns).find((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === svc.metadata?.name);
  if (existing) return existing;
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4',
    metadata: {
      name: `${svc.metadata?.name}-${ctx.rng.string(5)}`, namespace: ns, generateName: `${svc.metadata?.name}-`,
      uid: ctx.rng.uuid(), creationTimestamp: ctx.clock.timestamp(),
      labels: { 'endpointslice.kubernetes.io/managed-by': ENDPOINTSLICE_CONTROLLER, 'kubernetes.io/service-name': svc.metadata?.name ?? '' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    ports: (svc.spec?.ports ?? []).map((p) => ({ name: p.name ?? '', port: typeof p.targetPort === 'number' ? p.targetPort : p.port, protocol: p.protocol ?? 'TCP' })),
    endpoints: [],
  };
}
