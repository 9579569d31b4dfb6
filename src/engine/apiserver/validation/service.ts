// Service validation on create: ValidateServiceCreate and validateService of pkg/apis/core/validation/validation.go,
// as pkg/registry/core/service/strategy.go (Validate) runs it after the registry's allocation (service-alloc.ts),
// k8s.io/kubernetes v1.36.3. Go walks the selector map in random order; this walks it as written.
import type { KubeObject } from '../../api/types';
import { isObject } from '../../api/types';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, key, notSupported, required } from './field-errors';
import { nameIsDNSLabel, validateLabels, validateObjectMeta } from './metadata';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum } from './names';
import {
  isHeadlessService, isValidCIDRForLegacyField, isValidIPForLegacyField, specOf, validateEndpointIP, validateServiceClusterIPsRelatedFields,
} from './service-ips';

type Rec = Record<string, unknown>;

// Supported values as sets.List sorts them (validation.go: supportedServiceType, supportedSessionAffinityType, ...).
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** TRAFFIC_DISTRIBUTIONS: PreferSameTrafficDistribution is GA in 1.36, so all three, in this order (not sorted). */
const TRAFFIC_DISTRIBUTIONS = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
/** MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS is core.MaxClientIPServiceAffinitySeconds (a day). */
const MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 86400;
const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const LB_SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

const set = (v: unknown): boolean => v !== undefined && v !== null;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * validateService is ValidateServiceCreate: the metadata with the Service name rule (NameIsDNSLabel, since
 * RelaxedServiceNameValidation is on by default in 1.36; kube_features.go), then validateService.
 */
export function validateService(service: KubeObject): FieldError[] {
  return [...validateObjectMeta(service, true, nameIsDNSLabel), ...validateServiceSpec(service)];
}

/** validateServiceSpec is validateService(service, nil), in its order. */
function validateServiceSpec(service: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(service);
  const annotations = service.metadata?.annotations ?? {};
  const hints = annotations[TOPOLOGY_AWARE_HINTS];
  const mode = annotations[TOPOLOGY_MODE];
  if (mode !== undefined && hints !== undefined && mode !== hints) {
    errs.push(invalidValue(key('metadata.annotations', TOPOLOGY_MODE), mode, `must match annotations[${TOPOLOGY_AWARE_HINTS}] when both are specified`));
  }
  const type = str(spec['type']);
  const ports = list(spec['ports']).map((p) => (isObject(p) ? p : {}));
  const headless = isHeadlessService(spec);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports'));
  errs.push(...validateTypeSpecifics(spec, type, headless));
  const names = new Set<string>();
  ports.forEach((port, i) => errs.push(...validateServicePort(port, ports.length > 1, names, index('spec.ports', i))));
  if (isObject(spec['selector'])) errs.push(...validateLabels(spec['selector'] as Record<string, string>, 'spec.selector'));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateServiceClusterIPsRelatedFields(spec));
  list(spec['externalIPs']).forEach((ip, i) => {
    const at = index('spec.externalIPs', i);
    const ipErrs = isValidIPForLegacyField(at, str(ip));
    errs.push(...(ipErrs.length ? ipErrs : validateEndpointIP(str(ip), at)));
  });
  if (type === '') errs.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(notSupported('spec.type', asJSON(type), SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if (num(port['nodePort']) !== 0) errs.push(forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  errs.push(...validateUniquePorts(ports));
  errs.push(...validateSourceRanges(spec, type, annotations));
  if (set(spec['allocateLoadBalancerNodePorts']) && type !== 'LoadBalancer') {
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  // The path has no "spec." in Go: field.NewPath("allocateLoadBalancerNodePorts").
  if (type === 'LoadBalancer' && !set(spec['allocateLoadBalancerNodePorts'])) errs.push(required('allocateLoadBalancerNodePorts'));
  // validateLoadBalancerClassField(nil, service).
  if (set(spec['loadBalancerClass'])) {
    const lbClass = str(spec['loadBalancerClass']);
    if (type === 'LoadBalancer') errs.push(...isQualifiedName(lbClass).map((msg) => invalidValue('spec.loadBalancerClass', lbClass, msg)));
    else errs.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  errs.push(...validateTrafficPolicies(spec, type));
  return errs;
}

/** validateTypeSpecifics is validateService's switch on the type: no headless NodePort or LoadBalancer, ExternalName's fields. */
function validateTypeSpecifics(spec: Rec, type: string, headless: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(invalidValue('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type !== 'ExternalName') return errs;
  if (list(spec['clusterIPs']).length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
  if (list(spec['ipFamilies']).length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
  if (set(spec['ipFamilyPolicy'])) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  // The value (a CNAME) may have a trailing dot to denote it as fully qualified.
  const cname = str(spec['externalName']).replace(/\.$/, '');
  if (cname.length > 0) errs.push(...isDNS1123Subdomain(cname).map((msg) => invalidValue('spec.externalName', cname, msg)));
  else errs.push(required('spec.externalName'));
  return errs;
}

/** validateServicePort is validateServicePort: the name (required when several), the port, protocol, targetPort, appProtocol. */
function validateServicePort(port: Rec, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port['name']);
  if (requireName && name === '') errs.push(required(child(path, 'name')));
  else if (name !== '') {
    errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(path, 'name'), name, msg)));
    if (names.has(name)) errs.push(duplicate(child(path, 'name'), name));
    else names.add(name);
  }
  for (const msg of isValidPortNum(num(port['port']))) errs.push(invalidValue(child(path, 'port'), num(port['port']), msg));
  const protocol = str(port['protocol']);
  if (protocol === '') errs.push(required(child(path, 'protocol')));
  else if (!PORT_PROTOCOLS.includes(protocol)) errs.push(notSupported(child(path, 'protocol'), asJSON(protocol), PORT_PROTOCOLS));
  // ValidatePortNumOrName: a number in 1-65535, or an IANA_SVC_NAME.
  const target = port['targetPort'];
  if (typeof target === 'string') errs.push(...isValidPortName(target).map((msg) => invalidValue(child(path, 'targetPort'), target, msg)));
  else errs.push(...isValidPortNum(num(target)).map((msg) => invalidValue(child(path, 'targetPort'), num(target), msg)));
  if (set(port['appProtocol'])) {
    const appProtocol = str(port['appProtocol']);
    errs.push(...isQualifiedName(appProtocol).map((msg) => invalidValue(child(path, 'appProtocol'), appProtocol, msg)));
  }
  return errs;
}

/** validateSessionAffinity: required and supported, ClientIP's config and timeout, no config with None. */
function validateSessionAffinity(spec: Rec): FieldError[] {
  const affinity = str(spec['sessionAffinity']);
  if (affinity === '') return [required('spec.sessionAffinity')];
  if (!SESSION_AFFINITIES.includes(affinity)) return [notSupported('spec.sessionAffinity', asJSON(affinity), SESSION_AFFINITIES)];
  const path = 'spec.sessionAffinityConfig';
  const config = spec['sessionAffinityConfig'];
  if (affinity === 'None') return set(config) ? [forbidden(path, 'must not be set when session affinity is None')] : [];
  // validateClientIPAffinityConfig and validateAffinityTimeout.
  const detail = 'when session affinity type is ClientIP';
  if (!isObject(config)) return [required(path, detail)];
  const clientIP = config['clientIP'];
  if (!isObject(clientIP)) return [required(child(path, 'clientIP'), detail)];
  const timeout = clientIP['timeoutSeconds'];
  if (!set(timeout)) return [required(child(path, 'clientIP', 'timeoutSeconds'), detail)];
  const seconds = num(timeout);
  return seconds <= 0 || seconds > MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS
    ? [invalidValue(child(path, 'clientIP', 'timeoutSeconds'), seconds, `must be greater than 0 and less than ${MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS}`)]
    : [];
}

/** validateUniquePorts: no node port twice for one protocol, no port twice for one protocol. */
function validateUniquePorts(ports: Rec[]): FieldError[] {
  const errs: FieldError[] = [];
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = num(port['nodePort']);
    if (nodePort === 0) return;
    const k = `${str(port['protocol'])}/${nodePort}`;
    if (nodePorts.has(k)) errs.push(duplicate(child(index('spec.ports', i), 'nodePort'), nodePort));
    nodePorts.add(k);
  });
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const k = `${str(port['protocol'])}/${num(port['port'])}`;
    // The key is a core.ServicePort holding only the protocol and port; it has no json tags, so Go's field names print.
    const shown = { Name: '', Protocol: str(port['protocol']), AppProtocol: null, Port: num(port['port']), TargetPort: 0, NodePort: 0 };
    if (seen.has(k)) errs.push(duplicate(index('spec.ports', i), asJSON(shown)));
    seen.add(k);
  });
  return errs;
}

/** validateSourceRanges checks loadBalancerSourceRanges (or, without it, its annotation): LoadBalancer only, CIDRs. */
function validateSourceRanges(spec: Rec, type: string, annotations: Readonly<Record<string, string>>): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = list(spec['loadBalancerSourceRanges']);
  if (ranges.length > 0) {
    // Go names this path with a capital L: specPath.Child("LoadBalancerSourceRanges").
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((value, i) => errs.push(...isValidCIDRForLegacyField(index(path, i), str(value).trim())));
    return errs;
  }
  const value = annotations[LB_SOURCE_RANGES_ANNOTATION];
  if (value === undefined) return errs;
  const path = key('metadata.annotations', LB_SOURCE_RANGES_ANNOTATION);
  if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  if (value.trim() !== '') for (const cidr of value.trim().split(',')) errs.push(...isValidCIDRForLegacyField(path, cidr.trim()));
  return errs;
}

/**
 * validateTrafficPolicies is validateServiceExternalTrafficPolicy (with pkg/api/service ExternallyAccessible and
 * NeedsHealthCheck), validateServiceInternalTrafficFieldsValue and validateServiceTrafficDistribution.
 */
function validateTrafficPolicies(spec: Rec, type: string): FieldError[] {
  const errs: FieldError[] = [];
  const external = str(spec['externalTrafficPolicy']);
  const accessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && list(spec['externalIPs']).length > 0);
  if (!accessible) {
    if (external !== '') errs.push(invalidValue('spec.externalTrafficPolicy', asJSON(external), 'may only be set for externally-accessible services'));
  } else if (external === '') errs.push(required('spec.externalTrafficPolicy'));
  else if (!TRAFFIC_POLICIES.includes(external)) errs.push(notSupported('spec.externalTrafficPolicy', asJSON(external), TRAFFIC_POLICIES));
  const healthCheckNodePort = num(spec['healthCheckNodePort']);
  if (!(type === 'LoadBalancer' && external === 'Local')) {
    if (healthCheckNodePort !== 0) {
      errs.push(invalidValue('spec.healthCheckNodePort', healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    }
  } else if (healthCheckNodePort === 0) errs.push(required('spec.healthCheckNodePort'));
  else errs.push(...isValidPortNum(healthCheckNodePort).map((msg) => invalidValue('spec.healthCheckNodePort', healthCheckNodePort, msg)));
  const internal = spec['internalTrafficPolicy'];
  if (!set(internal)) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(str(internal))) {
    errs.push(notSupported('spec.internalTrafficPolicy', asJSON(str(internal)), TRAFFIC_POLICIES));
  }
  const distribution = spec['trafficDistribution'];
  if (set(distribution) && !TRAFFIC_DISTRIBUTIONS.includes(str(distribution))) {
    errs.push(notSupported('spec.trafficDistribution', str(distribution), TRAFFIC_DISTRIBUTIONS));
  }
  return errs;
}
