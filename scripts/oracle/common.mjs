// What the oracle's parts share: where things are, running commands, reading manifests, and the normalisation and
// comparison of what the engine and the reference cluster stored.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** OUT is where a run writes (report, logs, generated manifests, kubectl's directory): $ORACLE_OUT, or .cache/oracle. */
export const OUT = process.env.ORACLE_OUT ? resolve(process.env.ORACLE_OUT) : join(ROOT, '.cache', 'oracle');
/** BIN is the reference cluster npm run oracle:build makes: $ORACLE_BIN, or .cache/oracle/refcluster. */
export const BIN = process.env.ORACLE_BIN ? resolve(process.env.ORACLE_BIN) : join(ROOT, '.cache', 'oracle', 'refcluster');
export const WORK = join(OUT, 'work'); // kubectl's working directory: the manifests at their own relative paths, our kinds removed
/** GEN is the generated manifests' directory, relative to the project as the fixtures' paths are. */
export const GEN = relative(ROOT, join(OUT, 'gen'));
export const CLI = join(ROOT, 'dist', 'cli.js');
export const YAML = createRequire(join(ROOT, 'package.json'))('yaml');
export const OWN_GROUP = 'podlifecycle.debug/';
export const KUBECTL = process.env.KUBECTL ?? 'kubectl';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const label = (c) => [c.manifest, ...(c.cluster ?? []).map((f) => `--cluster ${f}`), ...(c.id ?? []),
  ...(c.thenApply ? [`--then-apply ${c.thenApply.after}s,${c.thenApply.file}`] : []), ...(c.drain ? [`--then-drain ${c.drain.after}s,${c.drain.node}`] : []),
  ...(c.podsRun ? ['(pods run)'] : [])].join(' ');

/** docsOf parses a YAML file's documents (a List gives its items). */
export function docsOf(file) {
  return YAML.parseAllDocuments(readFileSync(join(ROOT, file), 'utf8')).map((d) => d.toJS()).filter((d) => d && typeof d === 'object')
    .flatMap((d) => (String(d.kind ?? '').endsWith('List') && Array.isArray(d.items) ? d.items : [d]));
}

/** stage writes the manifest without our own kinds under WORK at its own relative path, so kubectl names it the same. */
export function stage(manifest) {
  const text = readFileSync(join(ROOT, manifest), 'utf8');
  const docs = YAML.parseAllDocuments(text);
  const keep = docs.filter((d) => !String(d.get('apiVersion') ?? '').startsWith(OWN_GROUP));
  mkdirSync(dirname(join(WORK, manifest)), { recursive: true });
  writeFileSync(join(WORK, manifest), keep.length === docs.length ? text : keep.map((d) => d.toString()).join('---\n'));
}

/** run spawns a command and gathers its output. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 180_000, ...opts });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/**
 * SCHEDULED holds the names of the CronJobs of the case being compared: their Jobs are named `<cronjob>-<minutes since
 * the epoch of the scheduled time>` (cronjob/utils.go getJobName), by the engine's virtual clock on one side and the
 * wall clock on the other, so normalize writes that number as `scheduled`.
 */
export const SCHEDULED = { names: [] };

/** normalize removes what is random on either side: generated name suffixes, token volume names, times, uids. */
export function normalize(v) {
  if (typeof v === 'string') {
    const scheduled = SCHEDULED.names.length ? new RegExp(`\\b(${SCHEDULED.names.join('|')})-\\d{8,}\\b`, 'g') : undefined;
    return (scheduled ? v.replace(scheduled, '$1-scheduled') : v).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-XXXXX')
      .replace(/\b([a-z0-9-]+-[a-f0-9]{8,10})-[a-z0-9]{5}\b/g, '$1-XXXXX')
      .replace(/\b(job-[a-z0-9-]+|pi|[a-z0-9-]+)-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '$1-XXXXX');
  }
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
  return v;
}

/** SERVER_FIELDS are the fields of metadata a server writes at random or by the clock. */
export const SERVER_FIELDS = ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation', 'selfLink', 'deletionTimestamp'];

/** diffValues lists the paths where two values differ. */
export function diffValues(a, b, path, out) {
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  const obj = (x) => x && typeof x === 'object' && !Array.isArray(x);
  if (obj(a) && obj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) diffValues(a[k], b[k], `${path}.${k}`, out);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffValues(x, b[i], `${path}[${i}]`, out));
    return out;
  }
  out.push({ field: path.replace(/^\./, ''), engine: a, reference: b });
  return out;
}

/** allocatedIP tells an address of the dynamic part of 10.96.0.0/12: 10.96.1.1 (the first 256 are for static use) to 10.111.255.254. */
export function allocatedIP(ip) {
  const o = String(ip).split('.').map(Number);
  if (o.length !== 4 || o[0] !== 10 || o[1] < 96 || o[1] > 111) return false;
  const n = ((o[1] - 96) * 256 + o[2]) * 256 + o[3];
  return n >= 257 && n <= 16 * 65536 - 2;
}

/** comparable keeps what both sides define of a stored object: metadata without server fields, spec, and a Pod's qosClass. */
export function comparable(o) {
  const metadata = { ...(o.metadata ?? {}) };
  for (const f of SERVER_FIELDS) delete metadata[f];
  if (metadata.ownerReferences) metadata.ownerReferences = metadata.ownerReferences.map(({ uid, ...r }) => r);
  const spec = o.spec ? { ...o.spec } : undefined;
  if (o.kind === 'Pod' && spec) delete spec.nodeName; // the scheduler's choice: compared on its own
  // kube-apiserver draws a Service's cluster IP and node ports at random from the upper part of their ranges; the
  // engine takes the lowest free one there (a deliberate departure, docs/fidelity.md): compared as "allocated".
  if (o.kind === 'Service' && spec) {
    const ip = (x) => (allocatedIP(x) ? '(allocated from 10.96.1.1-10.111.255.254)' : x);
    if (spec.clusterIP) spec.clusterIP = ip(spec.clusterIP);
    if (Array.isArray(spec.clusterIPs)) spec.clusterIPs = spec.clusterIPs.map(ip);
    const port = (n) => (n >= 30086 && n <= 32767 ? '(allocated from 30086-32767)' : n);
    if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p) => (p.nodePort ? { ...p, nodePort: port(p.nodePort) } : p));
    if (spec.healthCheckNodePort) spec.healthCheckNodePort = port(spec.healthCheckNodePort);
  }
  // A volume's claimRef names the claim's uid and resourceVersion, which each server draws and counts its own way.
  if (o.kind === 'PersistentVolume' && spec?.claimRef) {
    const { uid: _u, resourceVersion: _r, ...claimRef } = spec.claimRef;
    spec.claimRef = claimRef;
  }
  if (o.kind === 'Job' && spec?.selector?.matchLabels) spec.selector = '(controller-uid selector)';
  if (o.kind === 'Job' && spec?.template?.metadata?.labels) {
    const { 'controller-uid': _a, 'batch.kubernetes.io/controller-uid': _b, ...labels } = spec.template.metadata.labels;
    spec.template = { ...spec.template, metadata: { ...spec.template.metadata, labels } };
  }
  if (o.kind === 'Job') {
    const { 'controller-uid': _a, 'batch.kubernetes.io/controller-uid': _b, ...labels } = metadata.labels ?? {};
    metadata.labels = labels;
  }
  const out = { kind: o.kind, apiVersion: o.apiVersion, metadata: normalize(metadata) };
  if (spec !== undefined) out.spec = normalize(spec);
  if (o.kind === 'Pod') out.qosClass = o.status?.qosClass;
  // Every other top-level field but status (a Secret's type, a StorageClass's policies, a PriorityClass's value, ...).
  for (const [k, v] of Object.entries(o)) if (!['kind', 'apiVersion', 'metadata', 'spec', 'status'].includes(k)) out[k] = v;
  if (o.kind === 'Secret') secretSizes(out);
  return out;
}

/**
 * secretSizes compares a Secret by the size of each value: the engine never shows a value (each is a note of its size,
 * `<redacted: 6 bytes>`), the reference returns it base64-encoded; so is the last-applied configuration's.
 */
function secretSizes(out) {
  const size = (v, encoded) => (typeof v !== 'string' ? v : /^<redacted: \d+ bytes?>$/.test(v) ? `(${/\d+/.exec(v)[0]} bytes)` : `(${encoded ? Buffer.from(v, 'base64').length : Buffer.byteLength(v)} bytes)`);
  const sizes = (m, encoded) => (m && typeof m === 'object' ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, size(v, encoded)])) : m);
  if (out.data) out.data = sizes(out.data, true);
  const annotations = out.metadata?.annotations;
  const applied = annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  if (typeof applied !== 'string') return;
  try {
    const a = JSON.parse(applied);
    if (a.data) a.data = sizes(a.data, true);
    if (a.stringData) a.stringData = sizes(a.stringData, false);
    out.metadata = { ...out.metadata, annotations: { ...annotations, 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(a) } };
  } catch { /* compared as it is */ }
}


/** jsonStream splits kubectl's watch output (JSON documents one after another) into values. */
export function jsonStream(text) {
  const out = [];
  let depth = 0, start = -1, inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') { if (depth++ === 0) start = i; }
    else if (ch === '}' && --depth === 0) { try { out.push(JSON.parse(text.slice(start, i + 1))); } catch { /* cut short */ } }
  }
  return out;
}

/**
 * podStatusOf keeps what a status patch by a controller says: the phase and its DisruptionTarget condition (type,
 * status, reason, message; times and observedGeneration are the clock's and the server's).
 */
export function podStatusOf(status) {
  const dt = (status?.conditions ?? []).find((x) => x.type === 'DisruptionTarget');
  return { phase: status?.phase, disruptionTarget: dt ? { status: dt.status, reason: dt.reason, message: dt.message } : undefined };
}

/**
 * fate is what became of an object: `kept`, or `deleted` (gone; a Pod being deleted counts as gone, since the
 * reference has no kubelet to finish a graceful delete and the engine's does), or `deleting` (held by a finalizer).
 */
export function fate(o) {
  if (!o) return 'deleted';
  if (!o.metadata?.deletionTimestamp) return 'kept';
  return o.kind === 'Pod' ? 'deleted' : 'deleting';
}

/** nodeClass names a node by what the scheduler sees of it but its name: nodes of one class score alike. */
export function nodeClass(nodes, name) {
  const n = nodes.find((x) => x.metadata.name === name);
  if (!n) return name;
  const sig = JSON.stringify({ labels: { ...n.metadata.labels, 'kubernetes.io/hostname': '' }, taints: n.spec.taints ?? [], alloc: n.status.allocatable });
  const first = nodes.find((x) => JSON.stringify({ labels: { ...x.metadata.labels, 'kubernetes.io/hostname': '' }, taints: x.spec.taints ?? [], alloc: x.status.allocatable }) === sig);
  return first.metadata.name;
}

export function isClusterScoped(kind) {
  return ['Namespace', 'Node', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'RuntimeClass', 'StorageClass', 'PersistentVolume',
    'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
    'CSIDriver', 'CSINode', 'VolumeAttachment'].includes(kind);
}
