// The EndpointSlice controller: each Service with a selector has a slice listing the pods it selects, with their
// ready, serving and terminating conditions. See pkg/controller/endpointslice/reconciler.go and
// staging/src/k8s.io/endpointslice/utils.go (podToEndpoint, newEndpointSlice, getEndpointPorts, setEndpointSliceLabels).
import type { KubeObject, Node, Pod, Service } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { isPodReady, isPodTerminal } from './pods';
import { k8sEqual } from './replicaset';

/** ENDPOINTSLICE_CONTROLLER is the manager named in the slices' labels (endpointslice-controller.k8s.io). */
export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller.k8s.io';

/** Labels of a managed slice. See discovery/v1 (LabelServiceName, LabelManagedBy). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

/** selects tells whether a Service's selector picks a pod (every selector label matches; no selector picks none). */
export function selects(svc: Service, pod: Pod): boolean {
  const selector = svc.spec?.selector ?? {};
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => pod.metadata?.labels?.[k] === selector[k]);
}

/**
 * endpointConditions are a pod's conditions in a slice (podToEndpoint): serving is the pod's readiness, terminating
 * its deletionTimestamp, and ready is serving and not terminating — or always, with publishNotReadyAddresses.
 */
export function endpointConditions(pod: Pod, publishNotReadyAddresses = false): { ready: boolean; serving: boolean; terminating: boolean } {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  return { ready: publishNotReadyAddresses || (serving && !terminating), serving, terminating };
}

/** servicesSelecting names the Services of the pod's namespace that select it now or selected it before a change. */
export function servicesSelecting(ctx: EngineContext, pod: Pod, old?: Pod): string[] {
  return ctx.store.list<Service>('Service', pod.metadata?.namespace).filter((s) => selects(s, pod) || (old && selects(s, old))).map((s) => s.metadata?.name ?? '');
}

/**
 * shouldPodBeInEndpoints is ShouldPodBeInEndpoints(pod, true), as the slice reconciler calls it: not terminal and
 * with an IP; terminating pods stay, with terminating true.
 */
function shouldPodBeInEndpoints(pod: Pod): boolean {
  return !isPodTerminal(pod) && !!(pod.status?.podIP || pod.status?.podIPs?.length);
}

type EndpointPort = { name: string; port: number; protocol: string; appProtocol?: string };

/** endpointPorts is getEndpointPorts: each Service port's target, a named one looked up in the pod's containers (FindPort). */
function endpointPorts(svc: Service, pod: Pod | undefined): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const p of svc.spec?.ports ?? []) {
    const protocol = p.protocol ?? 'TCP';
    let port: number | undefined;
    const target = p.targetPort ?? p.port;
    if (typeof target === 'number') port = target;
    else if (/^\d+$/.test(String(target))) port = Number(target);
    else {
      for (const c of pod?.spec?.containers ?? []) {
        const found = (c.ports ?? []).find((cp) => cp.name === target && (cp.protocol ?? 'TCP') === protocol);
        if (found) { port = found.containerPort; break; }
      }
    }
    if (port === undefined) continue;
    out.push({ name: p.name ?? '', port, protocol, ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) });
  }
  return out;
}

/**
 * syncService reconciles a Service's slice: one slice `<service>-<5 random>` (generateName) with the endpoints of
 * the pods it selects, or a placeholder with none. The slice keeps its name across updates. Phase controllers.endpoints,
 * told on the pod's thread when a pod's change caused it.
 */
export function* syncService(ctx: EngineContext, namespace: string, name: string, cause?: Pod): Steps<void> {
  const svc = ctx.store.get<Service>('Service', namespace, name);
  if (!svc || !svc.spec?.selector || Object.keys(svc.spec.selector).length === 0) return;
  const publish = svc.spec?.publishNotReadyAddresses ?? false;
  const pods = ctx.store.list<Pod>('Pod', namespace).filter((p) => selects(svc, p) && shouldPodBeInEndpoints(p));
  const endpoints = pods.map((pod) => {
    const node = pod.spec?.nodeName ? ctx.store.get<Node>('Node', undefined, pod.spec.nodeName) : undefined;
    const zone = node?.metadata?.labels?.['topology.kubernetes.io/zone'];
    return {
      addresses: [pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? ''],
      conditions: endpointConditions(pod, publish),
      // A pod that names this Service as its subdomain gets its hostname on the endpoint: the DNS name
      // <hostname>.<service>.<namespace>.svc. See k8s.io/endpointslice@v0.36.3 utils.go podToEndpoint, ShouldSetHostname.
      ...(pod.spec?.hostname && pod.spec.subdomain === name ? { hostname: pod.spec.hostname } : {}),
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: { kind: 'Pod', namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
      ...(zone ? { zone } : {}),
    };
  });
  const existing = ctx.store.list('EndpointSlice', namespace).find((s) => s.metadata?.labels?.[LABEL_SERVICE_NAME] === name && s.metadata?.labels?.[LABEL_MANAGED_BY] === ENDPOINTSLICE_CONTROLLER);
  const ports = pods.length ? endpointPorts(svc, pods[0]) : undefined;
  // setEndpointSliceLabels: the Service's labels, then the service-name and managed-by labels (headless marked).
  const labels: Record<string, string> = {
    ...(svc.metadata?.labels ?? {}), [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: ENDPOINTSLICE_CONTROLLER,
    ...(svc.spec?.clusterIP === 'None' ? { 'service.kubernetes.io/headless': '' } : {}),
  };
  // Endpoints and Ports have no omitempty (discovery/v1 EndpointSlice): an empty list is stored and read back as null,
  // as the placeholder slice a Service without endpoints gets (reconciler.go: ports []discovery.EndpointPort{}).
  const body = { addressType: 'IPv4', endpoints: endpoints.length ? endpoints : null, ports: ports?.length ? ports : null };
  if (existing && k8sEqual({ addressType: existing['addressType'], endpoints: existing['endpoints'] ?? null, ports: existing['ports'] ?? null }, body) && k8sEqual(existing.metadata?.labels, labels)) return;
  const sliceName = existing?.metadata?.name ?? `${name}-${ctx.rng.string(5)}`;
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: {
      name: sliceName, generateName: `${name}-`, namespace, labels,
      uid: existing?.metadata?.uid ?? ctx.rng.uuid(), creationTimestamp: existing?.metadata?.creationTimestamp ?? ctx.clock.timestamp(),
      generation: (existing?.metadata?.generation ?? 0) + 1,
      // metav1.NewControllerRef: controller and blockOwnerDeletion true.
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    ...body,
  };
  ctx.store.put(slice);
  const summary = endpoints.length
    ? endpoints.map((e) => `${e.addresses[0]} (${e.targetRef.name}) ready=${e.conditions.ready} serving=${e.conditions.serving} terminating=${e.conditions.terminating}`).join('; ')
    : 'no endpoints';
  const about = cause ? `Pod/${namespace}/${cause.metadata?.name}` : `Service/${namespace}/${name}`;
  yield {
    phase: 'controllers.endpoints', object: about, field: cause ? 'metadata.labels' : 'spec.selector', step: { kind: 'object', name: `Service/${name}` },
    result: `${existing ? 'updated' : 'created'} EndpointSlice ${sliceName} of Service ${name}: ${summary}`,
    detail: { service: name, endpointSlice: sliceName, endpoints, ports: ports ?? null },
  };
}

/** syncEndpoints records that no Service selects a pod whose address or readiness changed (phase controllers.endpoints). */
export function* syncEndpoints(_ctx: EngineContext, pod: Pod, ref: string, gone = false): Steps<void> {
  yield {
    phase: 'controllers.endpoints', object: ref, field: 'metadata.labels',
    result: `no Service selects the pod: no endpoints to ${gone ? 'remove' : 'update'}`, detail: { conditions: endpointConditions(pod) },
  };
}
