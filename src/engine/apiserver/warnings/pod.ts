// The warnings kube-apiserver returns with a pod or pod template it accepts (kubectl prints each as `Warning: ...`):
// deprecated node labels and annotations, deprecated volume plugins, overlapping volume paths, duplicate host aliases,
// image pull secrets, env vars and ports, fractional byte quantities, a negative grace period, null label selectors
// and IPs in a legacy form. See pkg/api/pod/warnings.go (warningsForPodSpecAndMeta) and pkg/api/node/util.go, v1.36.3.
import { parseQuantity } from '../../api/quantity';
import { isObject } from '../../api/types';
import { isLabelValue } from '../../api/labels-validation';
import { ipWarnings } from './ip';
import { overlappingPathWarnings } from './virtual-paths';

type Rec = Record<string, unknown>;

/** DEPRECATED_NODE_LABELS is deprecatedNodeLabels (pkg/api/node/util.go). */
export const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

/** DEPRECATED_ANNOTATIONS are deprecatedAnnotations (warnings.go), with their messages. */
const DEPRECATED_ANNOTATIONS: readonly [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** DEPRECATED_VOLUMES are the removed in-tree volume plugins and their warnings, in the order warnings.go checks them. */
const DEPRECATED_VOLUMES: readonly [string, string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  // GitRepoVolumeDriver is off by default since 1.33.
  ['gitRepo', 'deprecated in v1.11, and disabled by default in v1.33+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['ephemeral', ''],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/';

const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isObject) : []);
const rec = (v: unknown): Rec | undefined => (isObject(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const sortedKeys = (v: unknown): string[] => (isObject(v) ? Object.keys(v).sort() : []);
const q = (s: string): string => JSON.stringify(s);

/** fractional tells a byte quantity with a fraction of a byte (MilliValue not a multiple of 1000). */
export function fractional(v: unknown): boolean {
  if (typeof v !== 'string' && typeof v !== 'number') return false;
  try {
    return parseQuantity(v).scaledValue(-3) % 1000n !== 0n;
  } catch {
    return false;
  }
}

/** nodeSelectorTermWarnings is GetWarningsForNodeSelectorTerm. */
function nodeSelectorTermWarnings(term: Rec | undefined, checkValues: boolean, path: string): string[] {
  const out: string[] = [];
  list(term?.['matchExpressions']).forEach((e, i) => {
    const key = str(e['key']);
    const msg = DEPRECATED_NODE_LABELS[key];
    if (msg) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
    if (checkValues) {
      (Array.isArray(e['values']) ? e['values'] : []).forEach((value, j) => {
        for (const m of isLabelValue(str(value))) out.push(`${path}.matchExpressions[${i}].values[${j}]: ${str(value)} is invalid, ${m}`);
      });
    }
  });
  return out;
}

/** containersWithPaths is VisitContainersWithPath: init containers, containers, then ephemeral containers. */
function containersWithPaths(spec: Rec, base: string): [Rec, string][] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((l) => list(spec[l]).map((c, i): [Rec, string] => [c, `${base}.${l}[${i}]`]));
}

/** portText is `%+v` of the internal ContainerPort: `{Name:http HostPort:0 ContainerPort:80 Protocol:TCP HostIP:1.2.3.4}`. */
const portText = (p: Rec): string => `{Name:${str(p['name'])} HostPort:${num(p['hostPort'])} ContainerPort:${num(p['containerPort'])} Protocol:${str(p['protocol'])} HostIP:${str(p['hostIP'])}}`;

/**
 * podSpecWarnings is warningsForPodSpecAndMeta for a pod spec and its metadata; `prefix` is the template's path
 * (`spec.template`) or null for a Pod. Go ranges over maps (nodeSelector, annotations) in random order; their
 * warnings come here in key order.
 */
export function podSpecWarnings(prefix: string | null, spec: Rec, meta: Rec): string[] {
  const p = (rest: string): string => (prefix ? `${prefix}.${rest}` : rest);
  const out: string[] = [];
  const annotations = rec(meta['annotations']) ?? {};
  for (const k of sortedKeys(spec['nodeSelector'])) {
    const msg = DEPRECATED_NODE_LABELS[k];
    if (msg) out.push(`${p('spec.nodeSelector')}[${k}]: ${msg}`);
  }
  const nodeAffinity = rec(rec(spec['affinity'])?.['nodeAffinity']);
  if (nodeAffinity) {
    const required = rec(nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution']);
    if (required) list(required['nodeSelectorTerms']).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, false, `${p('spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms')}[${i}]`)));
    list(nodeAffinity['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => out.push(...nodeSelectorTermWarnings(rec(t['preference']), true, `${p('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution')}[${i}].preference`)));
  }
  list(spec['topologySpreadConstraints']).forEach((t, i) => {
    const key = str(t['topologyKey']);
    if (DEPRECATED_NODE_LABELS[key]) out.push(`${p('spec.topologySpreadConstraints')}[${i}].topologyKey: ${key} is ${DEPRECATED_NODE_LABELS[key]}`);
    if (!isObject(t['labelSelector'])) out.push(`${p('spec.topologySpreadConstraints')}[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });
  for (const [key, message] of DEPRECATED_ANNOTATIONS) if (key in annotations) out.push(`${p('metadata.annotations')}[${key}]: ${message}`);
  list(spec['volumes']).forEach((v, i) => {
    for (const [plugin, message] of DEPRECATED_VOLUMES) {
      if (!isObject(v[plugin])) continue;
      if (plugin !== 'ephemeral') out.push(`${p('spec.volumes')}[${i}].${plugin === 'storageos' ? 'storageOS' : plugin}: ${message}`);
      else {
        // GetWarningsForPersistentVolumeClaimSpec (pkg/api/persistentvolumeclaim/util.go) of the claim template.
        const resources = rec(rec(rec(v[plugin]['volumeClaimTemplate'])?.['spec'])?.['resources']);
        for (const kind of ['requests', 'limits']) {
          const value = rec(resources?.[kind])?.['storage'];
          if (fractional(value)) out.push(`${p('spec.volumes')}[${i}].ephemeral.volumeClaimTemplate.spec.resources.${kind}[storage]: fractional byte value ${q(String(value))} is invalid, must be an integer`);
        }
      }
    }
  });
  out.push(...overlappingPathWarnings(spec['volumes']));
  duplicates(list(spec['hostAliases']), 'ip', (i, ip) => out.push(`${p('spec.hostAliases')}[${i}].ip: duplicate ip ${q(ip)}`));
  duplicates(list(spec['imagePullSecrets']), 'name', (i, name) => out.push(`${p('spec.imagePullSecrets')}[${i}].name: duplicate name ${q(name)}`));
  list(spec['imagePullSecrets']).forEach((s, i) => { if (str(s['name']) === '') out.push(`${p('spec.imagePullSecrets')}[${i}].name: invalid empty name ""`); });
  for (const r of ['memory', 'ephemeral-storage']) {
    const value = rec(spec['overhead'])?.[r];
    if (fractional(value)) out.push(`${p('spec.overhead')}[${r}]: fractional byte value ${q(String(value))} is invalid, must be an integer`);
  }
  const podSecurity = rec(spec['securityContext']);
  if (!isObject(podSecurity?.['seccompProfile']) && SECCOMP_POD in annotations) out.push(`${p('metadata.annotations')}[${SECCOMP_POD}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
  out.push(...containerWarnings(prefix, spec, annotations, podSecurity));
  out.push(...portWarnings(spec, p('spec')));
  const grace = spec['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0) out.push(`${p('spec.terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  const affinity = rec(spec['affinity']);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = rec(affinity?.[kind]);
    if (!a) continue;
    list(a['requiredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => { if (!isObject(t['labelSelector'])) out.push(`${p(`spec.affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution`)}[${i}].labelSelector: a null labelSelector results in matching no pod`); });
    list(a['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => { if (!isObject(rec(t['podAffinityTerm'])?.['labelSelector'])) out.push(`${p(`spec.affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution`)}[${i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`); });
  }
  const nameservers = rec(spec['dnsConfig'])?.['nameservers'];
  (Array.isArray(nameservers) ? nameservers : []).forEach((ns, i) => out.push(...ipWarnings(`${p('spec.dnsConfig.nameservers')}[${i}]`, str(ns))));
  list(spec['hostAliases']).forEach((h, i) => out.push(...ipWarnings(`${p('spec.hostAliases')}[${i}].ip`, str(h['ip']))));
  return out;
}

/** duplicates calls `found` for each item of a list of two or more whose `key` an earlier item had. */
function duplicates(items: Rec[], key: string, found: (i: number, value: string) => void): void {
  if (items.length < 2) return;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const v = str(item[key]);
    if (seen.has(v)) found(i, v);
    else seen.add(v);
  });
}

/**
 * sameProfile tells whether the pod's AppArmor profile is the one a deprecated annotation value names (`unconfined`,
 * `runtime/default`, `localhost/<profile>`). See pkg/api/pod/util.go (ApparmorFieldForAnnotation).
 */
function sameProfile(profile: Rec | undefined, annotation: string): boolean {
  if (!profile) return false;
  const type = str(profile['type']), local = profile['localhostProfile'];
  if (annotation === 'unconfined') return type === 'Unconfined' && local === undefined;
  if (annotation === 'runtime/default') return type === 'RuntimeDefault' && local === undefined;
  return annotation.startsWith('localhost/') && annotation.length > 'localhost/'.length && type === 'Localhost' && local === annotation.slice('localhost/'.length);
}

/** containerWarnings are the per-container warnings: seccomp and AppArmor annotations, fractional bytes, hidden env vars. */
function containerWarnings(prefix: string | null, spec: Rec, annotations: Rec, podSecurity: Rec | undefined): string[] {
  const out: string[] = [];
  const at = (rest: string): string => (prefix ? `${prefix}.${rest}` : rest);
  for (const [c, path] of containersWithPaths(spec, at('spec'))) {
    const name = str(c['name']);
    const security = rec(c['securityContext']);
    if (!isObject(security?.['seccompProfile']) && `${SECCOMP_CONTAINER}${name}` in annotations) {
      out.push(`${at('metadata.annotations')}[${SECCOMP_CONTAINER}${name}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    // Only templates warn of the AppArmor annotation here (a Pod's comes from applyAppArmorVersionSkew), and only an
    // annotation that does not say what the pod's profile says.
    const annotation = annotations[`${APPARMOR_CONTAINER}${name}`];
    if (prefix && !isObject(security?.['appArmorProfile']) && typeof annotation === 'string' && !sameProfile(rec(podSecurity?.['appArmorProfile']), annotation)) {
      out.push(`${at('metadata.annotations')}[${APPARMOR_CONTAINER}${name}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    const resources = rec(c['resources']);
    for (const [kind, r] of [['limits', 'memory'], ['requests', 'memory'], ['limits', 'ephemeral-storage'], ['requests', 'ephemeral-storage']] as const) {
      const value = rec(resources?.[kind])?.[r];
      if (fractional(value)) out.push(`${path}.resources.${kind}[${r}]: fractional byte value ${q(String(value))} is invalid, must be an integer`);
    }
    const env = list(c['env']);
    if (env.length < 2) continue;
    const seen = new Set<string>();
    env.forEach((e, i) => {
      const envName = str(e['name']);
      if (!seen.has(envName)) { seen.add(envName); return; }
      const ref = `$(${envName})`, value = str(e['value']);
      if (isObject(e['valueFrom']) || value === ref || !value.includes(ref)) out.push(`${path}.env[${i}]: hides previous definition of ${q(envName)}, which may be dropped when using apply`);
    });
  }
  return out;
}

/** portWarnings are the warnings of ports across all containers: hostIP without hostPort, duplicates and overlaps, names. */
function portWarnings(spec: Rec, base: string): string[] {
  const out: string[] = [];
  const byPort = new Map<string, { field: string; port: Rec }[]>();
  for (const [c, path] of containersWithPaths(spec, base)) {
    list(c['ports']).forEach((port, i) => {
      const field = `${path}.ports[${i}]`;
      const hostIP = str(port['hostIP']), hostPort = num(port['hostPort']);
      if (hostIP !== '' && hostPort === 0) out.push(`${field}: hostIP set without hostPort: ${portText(port)}`);
      const k = `${num(port['containerPort'])}/${str(port['protocol'])}`;
      const others = byPort.get(k) ?? [];
      for (const other of others) {
        const otherIP = str(other.port['hostIP']), otherPort = num(other.port['hostPort']);
        if (hostIP === otherIP && hostPort === otherPort) out.push(`${field}: duplicate port definition with ${other.field}`);
        else if (hostPort === 0 || otherPort === 0) out.push(`${field}: overlapping port definition with ${other.field}`);
        else if (hostPort === otherPort && (hostIP === '') !== (otherIP === '')) out.push(`${field}: dangerously ambiguous port definition with ${other.field}`);
      }
      byPort.set(k, [...others, { field, port }]);
    });
  }
  const names = new Map<string, string>();
  for (const [c, path] of containersWithPaths(spec, base)) {
    list(c['ports']).forEach((port, i) => {
      const name = str(port['name']);
      if (name === '') return;
      const other = names.get(name);
      if (other) out.push(`${path}.ports[${i}]: duplicate port name ${q(name)} with ${other}, services and probes that select ports by name will use ${other}`);
      else names.set(name, `${path}.ports[${i}]`);
    });
  }
  return out;
}
