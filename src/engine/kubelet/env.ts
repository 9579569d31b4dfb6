// A container's environment, as the kubelet builds it before CreateContainer: envFrom, env with its ConfigMap, Secret,
// field and resource references. A missing object or key makes the container wait in CreateContainerConfigError.
// See pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables, podFieldSelectorRuntimeValue) and
// pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: generateContainerConfig, ErrCreateContainerConfig).
import type { ConfigMap, ResourceFieldSelector, Secret } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../api/quantity';
import type { Container, EnvVar, Node, Pod, Service } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';
import { KindMemo } from '../cluster/kind-memo';

/** CREATE_CONTAINER_CONFIG_ERROR is the waiting reason of a container whose config cannot be built (ErrCreateContainerConfig). */
export const CREATE_CONTAINER_CONFIG_ERROR = 'CreateContainerConfigError';

/** EnvValue is one resolved variable, as the runtime gets it. */
export interface EnvValue {
  name: string;
  value: string;
}

/** EnvVerdict is the environment of a container, or why the kubelet could not build it. */
export type EnvVerdict =
  | { ok: true; env: EnvValue[] }
  | { ok: false; reason: typeof CREATE_CONTAINER_CONFIG_ERROR; message: string; field: string };

/**
 * notFound is the kubelet's ConfigMap and Secret managers' NotFound error: their caches name the resource in the
 * singular (corev1.Resource("configmap"), corev1.Resource("secret")). See pkg/kubelet/util/manager/watch_based_manager.go.
 */
export const notFound = (resource: 'configmap' | 'secret', name: string): string => `${resource} "${name}" not found`;

/** missingKey is the error of a key the referenced object lacks (makeEnvironmentVariables). */
export const missingKey = (key: string, kind: 'ConfigMap' | 'Secret', namespace: string, name: string): string =>
  `couldn't find key ${key} in ${kind} ${namespace}/${name}`;

/** EnvContext is what the references read besides the pod: the store, the pod's and node's addresses. */
export interface EnvContext {
  ctx: EngineContext;
  podIP?: string;
  hostIP?: string;
}

/** configMapData reads a ConfigMap's data (binaryData does not feed env). */
function configMapData(cm: ConfigMap): Record<string, string> {
  return { ...(cm.data ?? {}) };
}

/**
 * secretData is what a container's environment shows for each key of a Secret: where the value comes from, in
 * `kubectl describe pod`'s words (staging/src/k8s.io/kubectl/pkg/describe/describe.go, describeContainerEnvVars), never
 * the value, which stays in the store (secret-values.ts).
 */
export function secretData(secret: Secret): Record<string, string> {
  const name = secret.metadata?.name ?? '';
  const out: Record<string, string> = {};
  for (const k of Object.keys(secret.data ?? {})) out[k] = `<set to the key '${k}' in secret '${name}'>`;
  return out;
}

/** expand is expansion.Expand: `$(NAME)` becomes a variable defined before it, `$$` a literal `$`; anything else stays. */
export function expand(input: string, defined: ReadonlyMap<string, string>): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      out += defined.has(name) ? defined.get(name)! : `$(${name})`;
      i = close;
    } else out += ch;
  }
  return out;
}

/** podFieldValue is podFieldSelectorRuntimeValue: the downward API fields a variable may read. */
export function podFieldValue(fieldPath: string, pod: Pod, podIP: string, hostIP: string): string | undefined {
  const label = /^metadata\.labels\['(.+)'\]$/.exec(fieldPath);
  if (label) return pod.metadata?.labels?.[label[1]!] ?? '';
  const annotation = /^metadata\.annotations\['(.+)'\]$/.exec(fieldPath);
  if (annotation) return pod.metadata?.annotations?.[annotation[1]!] ?? '';
  switch (fieldPath) {
    case 'metadata.name': return pod.metadata?.name ?? '';
    case 'metadata.namespace': return pod.metadata?.namespace ?? '';
    case 'metadata.uid': return pod.metadata?.uid ?? '';
    case 'spec.nodeName': return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName': return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP': case 'status.hostIPs': return hostIP;
    case 'status.podIP': case 'status.podIPs': return podIP;
    default: return undefined;
  }
}

/**
 * resourceFieldValue is ExtractContainerResourceValue on the container the kubelet defaulted for the downward API
 * (defaultPodLimitsForDownwardAPI): unset limits read as the node's allocatable. CPU is rounded up to whole divisors
 * of millicores, memory and ephemeral storage to whole divisors of bytes. See pkg/api/v1/resource/helpers.go.
 */
export function resourceFieldValue(ref: ResourceFieldSelector, container: Container, allocatable: Readonly<Record<string, string>>): string | undefined {
  const [kind, name] = ref.resource.split('.') as [string, string | undefined];
  if ((kind !== 'limits' && kind !== 'requests') || !name) return undefined;
  const list = (kind === 'limits' ? container.resources?.limits : container.resources?.requests) ?? {};
  const raw = list[name] ?? (kind === 'limits' ? allocatable[name] : undefined) ?? '0';
  const divisor = ref.divisor === undefined || parseQuantity(ref.divisor).milliValue() === 0 ? parseQuantity(1) : parseQuantity(ref.divisor);
  const q = parseQuantity(raw);
  if (name === 'cpu') return String(Math.ceil(q.milliValue() / divisor.milliValue()));
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) return String(Math.ceil(q.value() / divisor.value()));
  return undefined;
}

/** envName is makeEnvVariableName: upper case, dashes to underscores. */
const envName = (s: string): string => s.toUpperCase().replaceAll('-', '_');

/** serviceEnv is FromServices for one Service: _SERVICE_HOST, _SERVICE_PORT (and one per named port), and the Docker link variables. */
export function serviceEnv(svc: Service): [string, string][] {
  const ip = svc.spec?.clusterIP ?? '';
  const ports = svc.spec?.ports ?? [];
  const prefix = envName(svc.metadata?.name ?? '');
  if (ip === '' || ip === 'None' || ports.length === 0) return [];
  const out: [string, string][] = [[`${prefix}_SERVICE_HOST`, ip], [`${prefix}_SERVICE_PORT`, String(ports[0]!.port)]];
  for (const p of ports) if (p.name) out.push([`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port)]);
  const host = ip.includes(':') ? `[${ip}]` : ip;
  for (const [i, p] of ports.entries()) {
    const protocol = (p.protocol ?? 'TCP').toLowerCase();
    const url = `${protocol}://${host}:${p.port}`;
    if (i === 0) out.push([`${prefix}_PORT`, url]);
    const portPrefix = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
    out.push([portPrefix, url], [`${portPrefix}_PROTO`, protocol], [`${portPrefix}_PORT`, String(p.port)], [`${portPrefix}_ADDR`, ip]);
  }
  return out;
}

/**
 * serviceEnvMap is getServiceEnvVarMap: the `kubernetes` Service of the default namespace always, and with
 * enableServiceLinks (the default) every Service of the pod's namespace that has a cluster IP. See
 * pkg/kubelet/kubelet_pods.go and pkg/kubelet/envvars/envvars.go.
 */
export function serviceEnvMap(services: readonly Service[], namespace: string, enableServiceLinks: boolean): Map<string, string> {
  const chosen = new Map<string, Service>();
  for (const svc of services) {
    const name = svc.metadata?.name ?? '';
    if (svc.metadata?.namespace === 'default' && name === 'kubernetes') {
      if (!chosen.has(name)) chosen.set(name, svc);
    } else if (svc.metadata?.namespace === namespace && enableServiceLinks) chosen.set(name, svc);
  }
  const env = [...chosen.values()].flatMap(serviceEnv).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(env);
}

/** SERVICE_ENV keeps the service variables by namespace while no Service changes: every container start reads them. */
const SERVICE_ENV = new KindMemo<ReadonlyMap<string, string>>(['Service']);

/**
 * resolveEnv is makeEnvironmentVariables for one container: envFrom first (a later source wins a name), then env in
 * order with $(VAR) expansion (over those and the service variables), then the service variables not set otherwise.
 * A missing ConfigMap or Secret, or a missing key, fails unless the reference is optional.
 */
export function resolveEnv(ec: EnvContext, pod: Pod, container: Container, fieldPrefix: string): EnvVerdict {
  const ns = pod.metadata?.namespace ?? 'default';
  const store = ec.ctx.store;
  const configMaps = new Map<string, ConfigMap>();
  const secrets = new Map<string, Secret>();
  const getConfigMap = (name: string) => configMaps.get(name) ?? store.get<ConfigMap>('ConfigMap', ns, name);
  const getSecret = (name: string) => secrets.get(name) ?? store.get<Secret>('Secret', ns, name);
  const fail = (message: string, field: string): EnvVerdict => ({ ok: false, reason: CREATE_CONTAINER_CONFIG_ERROR, message, field });
  const env = new Map<string, string>();
  const links = pod.spec?.enableServiceLinks !== false;
  const services = SERVICE_ENV.get(store, `${ns}\u0000${links}`, () => serviceEnvMap(store.list<Service>('Service'), ns, links));
  for (const [i, from] of (container.envFrom ?? []).entries()) {
    const field = `${fieldPrefix}.envFrom[${i}]`;
    if (from.configMapRef) {
      const name = from.configMapRef.name ?? '';
      const cm = getConfigMap(name);
      if (!cm) {
        if (from.configMapRef.optional) continue;
        return fail(notFound('configmap', name), `${field}.configMapRef`);
      }
      configMaps.set(name, cm);
      for (const [k, v] of Object.entries(configMapData(cm))) env.set(`${from.prefix ?? ''}${k}`, v);
    } else if (from.secretRef) {
      const name = from.secretRef.name ?? '';
      const secret = getSecret(name);
      if (!secret) {
        if (from.secretRef.optional) continue;
        return fail(notFound('secret', name), `${field}.secretRef`);
      }
      secrets.set(name, secret);
      for (const [k, v] of Object.entries(secretData(secret))) env.set(`${from.prefix ?? ''}${k}`, v);
    }
  }
  for (const [i, v] of (container.env ?? []).entries()) {
    const value = envValue(ec, pod, container, v, getConfigMap, getSecret, configMaps, secrets, new Map([...services, ...env]));
    if (value === undefined) continue;
    if (typeof value !== 'string') return fail(value.error, `${fieldPrefix}.env[${i}].valueFrom`);
    env.set(v.name, value);
  }
  for (const [name, value] of services) if (!env.has(name)) env.set(name, value);
  return { ok: true, env: [...env].map(([name, value]) => ({ name, value })) };
}

/** envValue resolves one env entry: its value, a string; undefined to skip it (optional and missing); or the error. */
function envValue(
  ec: EnvContext, pod: Pod, container: Container, v: EnvVar,
  getConfigMap: (name: string) => ConfigMap | undefined, getSecret: (name: string) => Secret | undefined,
  configMaps: Map<string, ConfigMap>, secrets: Map<string, Secret>, defined: ReadonlyMap<string, string>,
): string | undefined | { error: string } {
  const ns = pod.metadata?.namespace ?? 'default';
  const from = v.valueFrom;
  if (!from) return expand(v.value ?? '', defined);
  if (from.fieldRef) return podFieldValue(from.fieldRef.fieldPath, pod, ec.podIP ?? '', ec.hostIP ?? '') ?? '';
  if (from.resourceFieldRef) {
    const node = ec.ctx.store.get<Node>('Node', undefined, pod.spec?.nodeName ?? '');
    const value = resourceFieldValue(from.resourceFieldRef, container, node?.status?.allocatable ?? {});
    return value ?? { error: `unsupported container resource : ${from.resourceFieldRef.resource}` };
  }
  if (from.configMapKeyRef) {
    const { name = '', key, optional } = from.configMapKeyRef;
    const cm = getConfigMap(name);
    if (!cm) return optional ? undefined : { error: notFound('configmap', name) };
    configMaps.set(name, cm);
    const data = configMapData(cm);
    if (!(key in data)) return optional ? undefined : { error: missingKey(key, 'ConfigMap', ns, name) };
    return data[key]!;
  }
  if (from.secretKeyRef) {
    const { name = '', key, optional } = from.secretKeyRef;
    const secret = getSecret(name);
    if (!secret) return optional ? undefined : { error: notFound('secret', name) };
    secrets.set(name, secret);
    const data = secretData(secret);
    if (!(key in data)) return optional ? undefined : { error: missingKey(key, 'Secret', ns, name) };
    return data[key]!;
  }
  return '';
}

/**
 * checkContainerConfig runs before CreateContainer: it builds the environment and, when that fails, leaves the
 * container Waiting in CreateContainerConfigError with the error as its message and records the Warning Failed
 * event `Error: <message>` (recordContainerEvent with FailedToCreateContainer). Returns false when it failed.
 */
export function* checkContainerConfig(
  ctx: EngineContext, state: PodRuntimeState, c: ContainerRuntimeState, spec: Container, field: string,
  emit: (type: 'Normal' | 'Warning', reason: string, message: string, fieldPath: string) => void,
): Steps<boolean> {
  const verdict = resolveEnv({ ctx, podIP: state.ip, hostIP: state.pod.status?.hostIP }, state.pod, spec, field);
  const phase = c.init ? 'kubelet.initContainers' : 'kubelet.containers';
  if (verdict.ok) {
    if ((spec.env ?? []).length > 0 || (spec.envFrom ?? []).length > 0) {
      yield { phase, object: state.ref, field: `${field}.env`, step: { kind: 'container', name: c.name }, result: `environment of ${c.name}: ${verdict.env.length} variable(s)`, detail: { env: verdict.env } };
    }
    return true;
  }
  c.state = 'waiting';
  c.reason = verdict.reason;
  c.message = verdict.message;
  emit('Warning', 'Failed', `Error: ${verdict.message}`, containerRef(c));
  yield {
    phase, object: state.ref, field: verdict.field, step: { kind: 'container', name: c.name },
    result: `${verdict.reason}: ${verdict.message}`, detail: { reason: verdict.reason, message: verdict.message }, outcome: 'failed',
  };
  return false;
}
