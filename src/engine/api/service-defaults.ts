// Scheme defaulting of a v1 Service: SetDefaults_Service in pkg/apis/core/v1/defaults.go (k8s.io/kubernetes v1.36.3).
// What the registry adds on create (cluster IPs, IP families, node ports) is apiserver/service-alloc.ts.
import { deepClone, isObject, type KubeObject } from './types';
import type { Defaulted } from './defaults';

type Rec = Record<string, unknown>;

/** DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS is v1.DefaultClientIPServiceAffinitySeconds (k8s.io/api core/v1, v0.36.3). */
export const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 10800;

const empty = (v: unknown): boolean => v === undefined || v === null || v === '';

/** externallyAccessible is service.ExternallyAccessible (pkg/api/v1/service/util.go, v1.36.3). */
export function externallyAccessible(spec: Rec): boolean {
  const type = spec['type'];
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && Array.isArray(spec['externalIPs']) && spec['externalIPs'].length > 0);
}

/**
 * defaultService applies SetDefaults_Service (pkg/apis/core/v1/defaults.go, v1.36.3): sessionAffinity None (which
 * drops sessionAffinityConfig) or, for ClientIP, a 10800 s timeout; type ClusterIP; each port's protocol TCP and
 * targetPort the port when it is 0 or ""; externalTrafficPolicy Cluster when the Service is reachable from outside;
 * internalTrafficPolicy Cluster for ClusterIP, NodePort and LoadBalancer; allocateLoadBalancerNodePorts true for a
 * LoadBalancer.
 */
export function defaultService(service: KubeObject): Defaulted<KubeObject> {
  const object = deepClone(service);
  const changes: string[] = [];
  const set = (o: Rec, key: string, value: unknown, path: string): void => {
    o[key] = value;
    changes.push(`${path}.${key}`);
  };
  const spec: Rec = isObject(object['spec']) ? object['spec'] : (object['spec'] = {});
  if (empty(spec['sessionAffinity'])) set(spec, 'sessionAffinity', 'None', 'spec');
  if (spec['sessionAffinity'] === 'None' && spec['sessionAffinityConfig'] !== undefined) delete spec['sessionAffinityConfig'];
  if (spec['sessionAffinity'] === 'ClientIP') {
    const config = isObject(spec['sessionAffinityConfig']) ? spec['sessionAffinityConfig'] : undefined;
    const clientIP = isObject(config?.['clientIP']) ? config['clientIP'] : undefined;
    if (clientIP?.['timeoutSeconds'] === undefined || clientIP['timeoutSeconds'] === null) {
      set(spec, 'sessionAffinityConfig', { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS } }, 'spec');
    }
  }
  if (empty(spec['type'])) set(spec, 'type', 'ClusterIP', 'spec');
  const ports = Array.isArray(spec['ports']) ? spec['ports'] : [];
  ports.forEach((port: unknown, i) => {
    if (!isObject(port)) return;
    if (empty(port['protocol'])) set(port, 'protocol', 'TCP', `spec.ports[${i}]`);
    // `sp.TargetPort == intstr.FromInt32(0) || sp.TargetPort == intstr.FromString("")`: unset, 0 or "".
    const target = port['targetPort'];
    if (target === undefined || target === null || target === 0 || target === '') set(port, 'targetPort', port['port'] ?? 0, `spec.ports[${i}]`);
  });
  if (externallyAccessible(spec) && empty(spec['externalTrafficPolicy'])) set(spec, 'externalTrafficPolicy', 'Cluster', 'spec');
  if ((spec['internalTrafficPolicy'] === undefined || spec['internalTrafficPolicy'] === null)
    && (spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer' || spec['type'] === 'ClusterIP')) {
    set(spec, 'internalTrafficPolicy', 'Cluster', 'spec');
  }
  if (spec['type'] === 'LoadBalancer' && (spec['allocateLoadBalancerNodePorts'] === undefined || spec['allocateLoadBalancerNodePorts'] === null)) {
    set(spec, 'allocateLoadBalancerNodePorts', true, 'spec');
  }
  if (spec['type'] === 'LoadBalancer') {
    const status = isObject(object['status']) ? object['status'] : undefined;
    const ingress = isObject(status?.['loadBalancer']) && Array.isArray(status['loadBalancer']['ingress']) ? status['loadBalancer']['ingress'] : [];
    ingress.forEach((ing: unknown, i) => {
      if (isObject(ing) && !empty(ing['ip']) && (ing['ipMode'] === undefined || ing['ipMode'] === null)) set(ing, 'ipMode', 'VIP', `status.loadBalancer.ingress[${i}]`);
    });
  }
  return { object, changes };
}
