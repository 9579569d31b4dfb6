// Differential runner: the same manifest, cluster and identity through the engine (`node dist/cli.js run ... --json`)
// and through the reference cluster (.cache/oracle/refcluster, the real Kubernetes 1.36 control plane, driven by the
// real kubectl), then what each said compared: for refused requests the Status (code, reason, message) and what
// kubectl printed; for accepted ones the stored objects after defaulting and admission, the node the scheduler chose
// or its FailedScheduling message, and what the controllers made (ReplicaSets, pods, their events; EndpointSlices;
// what the garbage collector, the pod garbage collector and the node lifecycle controller did).
// Usage: node scripts/oracle.mjs [--only SUBSTRING]   (build first: npm run build, npm run oracle:build)
// Writes .cache/oracle/report.json. Exits 0 whatever the differences; 1 only when the reference cluster cannot start.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.cache', 'oracle');
const BIN = join(OUT, 'refcluster');
const WORK = join(OUT, 'work'); // kubectl's working directory: the manifests at their own relative paths, our kinds removed
const CLI = join(ROOT, 'dist', 'cli.js');
const YAML = createRequire(join(ROOT, 'package.json'))('yaml');
const OWN_GROUP = 'podlifecycle.debug/';
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

// ---------------------------------------------------------------------------------------------------------------
// The cases. `cluster` lists --cluster files (none: the embedded cluster); `id` is the identity flags of both sides.
// The rejection cases are those of test/cli/rejections-*.test.ts, with their manifests, clusters and identities.
// ---------------------------------------------------------------------------------------------------------------
const A = 'test/fixtures/admission', AUTH = 'test/fixtures/auth', Q = 'test/fixtures/quota', W = 'test/fixtures/webhooks';
const WH = (s) => [`${W}/nodes.yaml`, `${W}/webhook-service.yaml`, `${W}/${s}.yaml`];
const CASES = [
  // rejections-admission
  { manifest: `${A}/pod-in-dev.yaml` },
  { manifest: `${A}/pod-in-dev.yaml`, cluster: [`${A}/nodes.yaml`, `${A}/terminating-namespace.yaml`] },
  { manifest: `${A}/missing-priority-class.yaml` },
  { manifest: `${A}/missing-runtime-class.yaml`, cluster: [`${A}/nodes.yaml`] },
  { manifest: `${A}/if-not-present.yaml`, cluster: [`${A}/nodes.yaml`, `${A}/always-pull-images.yaml`] },
  { manifest: `${A}/if-not-present.yaml`, cluster: [`${A}/nodes.yaml`] },
  // rejections-apps
  { manifest: 'test/fixtures/apps/selector-mismatch.yaml' },
  { manifest: 'test/fixtures/apps/invalid-label-value.yaml' },
  { manifest: 'test/fixtures/apps/uppercase-name.yaml' },
  // rejections-auth (examples/pod.yaml)
  { manifest: 'examples/pod.yaml', id: ['--token', 'nope'] },
  { manifest: 'examples/pod.yaml', id: ['--as', 'bob'] },
  { manifest: 'examples/pod.yaml', id: ['--anonymous'] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/cert-cluster.yaml`], id: ['--kubeconfig', `${AUTH}/jane-other-ca.kubeconfig`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/webhook-cluster.yaml`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/cert-cluster.yaml`], id: ['--kubeconfig', `${AUTH}/jane.kubeconfig`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/abac-cluster.yaml`], id: ['--token', 'abac-token'] },
  // rejections-decode
  { manifest: 'test/fixtures/decode/unknown-field.yaml' },
  // rejections-podsecurity
  { manifest: 'test/fixtures/podsecurity/pod-secure.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  { manifest: 'test/fixtures/podsecurity/pod-relaxed.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  { manifest: 'test/fixtures/podsecurity/deployment-secure.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  // rejections-quota
  { manifest: `${Q}/pod-over-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-over-limit.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/limit-range.yaml`] },
  { manifest: `${Q}/pod-invalid-over-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-no-resources.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/limit-range.yaml`] },
  { manifest: `${Q}/pod-within-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-no-resources.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  // rejections-validation
  ...['invalid-name', 'duplicate-container', 'requests-above-limits', 'missing-volume', 'several-causes']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  // rejections-webhooks
  ...['deny-validating', 'timeout-fail', 'vap-required-label', 'mutating-label', 'timeout-ignore']
    .map((s) => ({ manifest: `${W}/pod.yaml`, cluster: WH(s) })),
  // Accepted manifests on the embedded cluster: stored objects, scheduling, controllers.
  { manifest: 'examples/pod.yaml' },
  { manifest: 'examples/deployment.yaml' },
  { manifest: 'test/fixtures/explain/pod-64-cpu.yaml' },
  { manifest: 'test/fixtures/explain/pod-node-selector.yaml' },
  { manifest: 'test/fixtures/termination/unschedulable.yaml' },
  { manifest: 'test/fixtures/termination/with-service.yaml' },
  { manifest: 'test/fixtures/controllers/frontend-rs-3.yaml' },
  { manifest: 'test/fixtures/controllers/job-pi.yaml' },
  { manifest: 'test/fixtures/controllers/web-recreate.yaml' },
  // Parallel: the reference has no kubelets, so an OrderedReady set would stop at its first pod there.
  { manifest: 'test/fixtures/statefulset/parallel.yaml' },
  { manifest: 'test/fixtures/daemonset/agent.yaml' },
  ...['active-deadline', 'crash-loop', 'init-fails-always', 'job-succeeds', 'liveness-fails', 'never-pull', 'readiness-gate',
    'sidecar-plain', 'sidecar-startup', 'startup-fails', 'poststart-slow', 'exec-probe-timeout']
    .map((n) => ({ manifest: `test/fixtures/kubelet/${n}.yaml` })),
  // Controllers the reference shows without kubelets (each fixture says what it is for). EndpointSlices are compared
  // in every case with a Service (with-service.yaml above too); these add Services whose pods get no IP on either side.
  { manifest: 'test/fixtures/endpointslice/no-ready-pods.yaml' },
  { manifest: 'test/fixtures/gc/dangling-owners.yaml' },
  // Pod GC runs every 20 s and quarantines a missing node for 40 s first: the pod goes 40-60 s in; its last status is
  // seen through a watch, since the pod is force-deleted right after it is patched.
  { manifest: 'test/fixtures/controllers/pod-on-missing-node.yaml', watchPods: true, settle: { ms: 100_000, until: 'pods gone' } },
  // The Behavior's down node stops its heartbeats in the reference too: Unknown after the 50 s grace period (and up to
  // 10 s of heartbeat phase), then the pod's 10 s toleration.
  { manifest: 'test/fixtures/node-lifecycle/kubelet-down-short-toleration.yaml', settle: { ms: 120_000, until: 'down-node pods deleting' } },
];

// Generated cases: manifests written under .cache/oracle/gen (paths relative to the project, like the fixtures'),
// for what the fixtures do not try: more of validation, admission and the scheduler's filters and messages.
const pod = (name, spec, meta = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${meta}spec:\n${spec}`;
const app = (extra = '', container = '') => `  containers:\n  - name: app\n    image: nginx:1.27\n${container}${extra}`;
const cpu = (c, m = '64Mi') => `    resources:\n      requests: {cpu: "${c}", memory: ${m}}\n`;
const deploy = (name, replicas, podSpec) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n${podSpec.replace(/^/gm, '    ')}\n`;
const GENERATED = {
  // validation
  'negative-cpu': pod('web', app('', '    resources:\n      limits: {cpu: "-1"}\n')),
  'bad-pull-policy': pod('web', app('', '    imagePullPolicy: Sometimes\n')),
  'no-containers': pod('web', '  containers: []\n'),
  'bad-env-name': pod('web', app('', '    env:\n    - {name: "1BAD=", value: x}\n')),
  'long-port-name': pod('web', app('', '    ports:\n    - {name: a-very-long-port-name, containerPort: 80}\n')),
  'bad-label-key': pod('web', app(), '  labels: {"-bad/key": x}\n'),
  'two-probe-handlers': pod('web', app('', '    livenessProbe:\n      httpGet: {port: 80}\n      tcpSocket: {port: 80}\n')),
  'negative-grace': pod('web', `${app()}  terminationGracePeriodSeconds: -5\n`),
  'dup-port-names': pod('web', app('', '    ports:\n    - {name: http, containerPort: 80}\n    - {name: http, containerPort: 81}\n')),
  'deploy-restart-never': deploy('web', 1, `  restartPolicy: Never\n${app()}`),
  'deploy-zero-selector': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n${app().replace(/^/gm, '    ')}\n`,
  // admission
  'system-priority': pod('web', `${app()}  priorityClassName: system-cluster-critical\n`),
  'missing-sa': pod('web', `${app()}  serviceAccountName: robot\n`),
  // scheduler
  'fits-3-cpu': pod('web', app('', cpu('3'))),
  'too-much-cpu': pod('web', app('', cpu('5'))),
  'too-much-memory': pod('web', app('', cpu('100m', '9Gi'))),
  'absurd-memory': pod('web', app('', '    resources:\n      requests: {memory: 99999999999999999999999Ei}\n')),
  'gpu': pod('web', app('', '    resources:\n      limits: {nvidia.com/gpu: 1}\n')),
  'control-plane-only': pod('web', `${app()}  nodeSelector: {node-role.kubernetes.io/control-plane: ""}\n  tolerations:\n  - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}\n`),
  'control-plane-untolerated': pod('web', `${app()}  nodeSelector: {node-role.kubernetes.io/control-plane: ""}\n`),
  'affinity-worker-2': pod('web', `${app()}  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - {key: kubernetes.io/hostname, operator: In, values: [worker-2]}\n`),
  'missing-pvc': pod('web', `${app()}  volumes:\n  - name: data\n    persistentVolumeClaim: {claimName: data}\n`),
  'host-port-clash': `${pod('a', `${app('', '    ports:\n    - {containerPort: 80, hostPort: 8080}\n')}  nodeSelector: {kubernetes.io/hostname: worker-1}\n`)}---\n${pod('b', `${app('', '    ports:\n    - {containerPort: 80, hostPort: 8080}\n')}  nodeSelector: {kubernetes.io/hostname: worker-1}\n`)}`,
  'anti-affinity-3': deploy('web', 3, `  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - labelSelector: {matchLabels: {app: web}}\n        topologyKey: kubernetes.io/hostname\n${app()}`),
  'spread-4': deploy('web', 4, `  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n${app('', cpu('1'))}`),
  'fill-workers': deploy('web', 5, app('', cpu('1500m'))),
  // stored forms: quantities in several notations, the deprecated serviceAccount alias, Service defaults and allocation
  'quantity-notations': pod('web', `  containers:\n  - name: a\n    image: nginx:1.27\n    resources:\n      requests: {cpu: "0.100", memory: "2048Ki", ephemeral-storage: "1e3"}\n`
    + '  - name: b\n    image: nginx:1.27\n    resources:\n      requests: {cpu: ".5", memory: "1.5Gi"}\n      limits: {cpu: "1000m", memory: "1536Mi"}\n'
    + '  - name: c\n    image: nginx:1.27\n    resources:\n      requests: {cpu: "5e-1", memory: "0.5Gi"}\n'
    + '  - name: d\n    image: nginx:1.27\n    resources:\n      limits: {cpu: "1500u", memory: "+64Mi"}\n'
    + '    volumeMounts:\n    - {name: scratch, mountPath: /scratch}\n  volumes:\n  - name: scratch\n    emptyDir: {sizeLimit: "1024Mi"}\n'),
  'deploy-service-account': `${deploy('web', 1, `  serviceAccountName: default\n  initContainers:\n  - {name: init, image: busybox:1.36}\n${app()}`)}---\n`
    + `${deploy('alias', 1, `  serviceAccount: default\n${app()}`)}`,
  // a StatefulSet's rollingUpdate.maxUnavailable is dropped on create while its feature gate is off (1.36: Beta, off);
  // Parallel, as the reference's pods never become Ready
  'sts-max-unavailable': 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 2\n  podManagementPolicy: Parallel\n'
    + '  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {maxUnavailable: 2, partition: 1}\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n'
    + '    spec:\n      containers:\n      - {name: db, image: nginx:1.27}\n',
  // a DaemonSet that surges: stored with its strategy as given, one pod per node made at once
  'ds-surge': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}\n'
    + '  selector:\n    matchLabels: {app: agent}\n  template:\n    metadata:\n      labels: {app: agent}\n    spec:\n      containers:\n      - {name: agent, image: busybox:1.36, command: [sleep, infinity]}\n',
  'service-types': ['apiVersion: v1\nkind: Service\nmetadata: {name: node-port}\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports:\n  - {name: http, port: 80, targetPort: http}\n  - {name: dns, port: 53, protocol: UDP}\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: headless}\nspec:\n  clusterIP: None\n  selector: {app: web}\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: headless-selectorless}\nspec:\n  clusterIP: None\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: external}\nspec:\n  type: ExternalName\n  externalName: example.com\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: lb-local}\nspec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  selector: {app: web}\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: sticky}\nspec:\n  clusterIP: 10.96.5.5\n  sessionAffinity: ClientIP\n  ports:\n  - {port: 80, targetPort: 0}\n'].join('---\n'),
};
for (const name of Object.keys(GENERATED)) CASES.push({ manifest: `.cache/oracle/gen/${name}.yaml` });

// ---------------------------------------------------------------------------------------------------------------
// Small helpers.
// ---------------------------------------------------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const label = (c) => [c.manifest, ...(c.cluster ?? []).map((f) => `--cluster ${f}`), ...(c.id ?? [])].join(' ');

/** docsOf parses a YAML file's documents (a List gives its items). */
function docsOf(file) {
  return YAML.parseAllDocuments(readFileSync(join(ROOT, file), 'utf8')).map((d) => d.toJS()).filter((d) => d && typeof d === 'object')
    .flatMap((d) => (String(d.kind ?? '').endsWith('List') && Array.isArray(d.items) ? d.items : [d]));
}

/** stage writes the manifest without our own kinds under WORK at its own relative path, so kubectl names it the same. */
function stage(manifest) {
  const text = readFileSync(join(ROOT, manifest), 'utf8');
  const docs = YAML.parseAllDocuments(text);
  const keep = docs.filter((d) => !String(d.get('apiVersion') ?? '').startsWith(OWN_GROUP));
  mkdirSync(dirname(join(WORK, manifest)), { recursive: true });
  writeFileSync(join(WORK, manifest), keep.length === docs.length ? text : keep.map((d) => d.toString()).join('---\n'));
}

/** run spawns a command and gathers its output. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 180_000, ...opts });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** normalize removes what is random on either side: generated name suffixes, token volume names, times, uids. */
function normalize(v) {
  if (typeof v === 'string') {
    return v.replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-XXXXX')
      .replace(/\b([a-z0-9-]+-[a-f0-9]{8,10})-[a-z0-9]{5}\b/g, '$1-XXXXX')
      .replace(/\b(job-[a-z0-9-]+|pi|[a-z0-9-]+)-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '$1-XXXXX');
  }
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
  return v;
}

/** SERVER_FIELDS are the fields of metadata a server writes at random or by the clock. */
const SERVER_FIELDS = ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation', 'selfLink', 'deletionTimestamp'];

/** diffValues lists the paths where two values differ. */
function diffValues(a, b, path, out) {
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
function allocatedIP(ip) {
  const o = String(ip).split('.').map(Number);
  if (o.length !== 4 || o[0] !== 10 || o[1] < 96 || o[1] > 111) return false;
  const n = ((o[1] - 96) * 256 + o[2]) * 256 + o[3];
  return n >= 257 && n <= 16 * 65536 - 2;
}

/** comparable keeps what both sides define of a stored object: metadata without server fields, spec, and a Pod's qosClass. */
function comparable(o) {
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
  for (const k of ['data', 'rules', 'roleRef', 'subjects', 'webhooks']) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The engine side.
// ---------------------------------------------------------------------------------------------------------------
function runEngine(c) {
  const args = [CLI, 'run', c.manifest, ...(c.cluster ?? []).flatMap((f) => ['--cluster', f]), ...(c.id ?? []), '--json'];
  const r = run(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { error: `engine exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}` };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The reference side: one refcluster per distinct cluster-file list, reset between its cases.
// ---------------------------------------------------------------------------------------------------------------
class RefCluster {
  /** start launches refcluster and resolves once it prints `ready`. */
  static async start(clusterFiles, logFile) {
    const args = ['--embedded', join(ROOT, 'src/engine/cluster/default-cluster.yaml'), ...clusterFiles.flatMap((f) => ['--cluster', join(ROOT, f)])];
    const proc = spawn(BIN, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stdin.on('error', () => { /* it has exited: the next request says so */ });
    const log = [];
    proc.stderr.on('data', (d) => log.push(d));
    const lines = createInterface({ input: proc.stdout });
    const self = new RefCluster(proc, lines, log, logFile);
    const info = {};
    const started = Date.now();
    await new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error('refcluster did not get ready in 5 minutes')), 300_000);
      proc.on('exit', (code) => { clearTimeout(timer); rej(new Error(`refcluster exited ${code} before ready; see ${logFile}`)); });
      lines.on('line', (line) => {
        const [k, ...v] = line.split(' ');
        if (k === 'ready') { clearTimeout(timer); res(); } else if (k === 'reset') self.onReset?.(); else info[k] = v.join(' ');
      });
    }).catch((e) => { self.saveLog(); throw e; });
    self.info = info;
    self.startSeconds = (Date.now() - started) / 1000;
    self.prepareKubeconfigs();
    return self;
  }

  constructor(proc, lines, log, logFile) { Object.assign(this, { proc, lines, log, logFile }); }

  saveLog() { writeFileSync(this.logFile, Buffer.concat(this.log)); }

  /**
   * prepareKubeconfigs writes a kubeconfig without credentials (for --token), one for anonymous requests, and the
   * masters' one. Real kubectl prompts for a username when the kubeconfig's user has no credentials at all, so the
   * anonymous one names a user without a password: client-go sends a Basic header, which no authenticator of
   * kube-apiserver reads, and the request is anonymous.
   */
  prepareKubeconfigs() {
    const admin = YAML.parse(readFileSync(this.info.kubeconfig, 'utf8'));
    this.bare = join(this.info.dir, 'bare.kubeconfig');
    writeFileSync(this.bare, YAML.stringify({ ...admin, users: [{ name: 'user', user: {} }] }));
    this.anonymous = join(this.info.dir, 'anonymous.kubeconfig');
    writeFileSync(this.anonymous, YAML.stringify({ ...admin, users: [{ name: 'user', user: { username: 'anonymous' } }] }));
    this.masters = join(this.info.dir, 'refcluster.kubeconfig');
    const key = (n) => readFileSync(join(this.info.dir, n)).toString('base64');
    writeFileSync(this.masters, YAML.stringify({ ...admin, users: [{ name: 'user', user: { 'client-certificate-data': key('refcluster.crt'), 'client-key-data': key('refcluster.key') } }] }));
  }

  /** kubeconfigFor turns a fixture kubeconfig into one for this cluster: its user's credentials, our server and CA. */
  kubeconfigFor(file) {
    const src = YAML.parse(readFileSync(join(ROOT, file), 'utf8'));
    const ctx = (src.contexts ?? []).find((x) => x.name === src['current-context'])?.context ?? {};
    const user = { ...((src.users ?? []).find((u) => u.name === ctx.user)?.user ?? {}) };
    for (const [f, d] of [['client-certificate', 'client-certificate-data'], ['client-key', 'client-key-data']]) {
      if (user[f]) { user[d] = readFileSync(resolve(dirname(join(ROOT, file)), user[f])).toString('base64'); delete user[f]; }
    }
    const admin = YAML.parse(readFileSync(this.info.kubeconfig, 'utf8'));
    const out = join(this.info.dir, file.replace(/[^a-zA-Z0-9.]/g, '_'));
    writeFileSync(out, YAML.stringify({ ...admin, users: [{ name: 'user', user }] }));
    return out;
  }

  /** kubectlIdentity turns the engine's identity flags into kubectl's. */
  kubectlIdentity(id = []) {
    const out = [];
    let kubeconfig = this.info.kubeconfig;
    for (let i = 0; i < id.length; i++) {
      const [flag, value] = [id[i], id[i + 1]];
      if (flag === '--anonymous') kubeconfig = this.anonymous;
      else if (flag === '--token') { kubeconfig = this.bare; out.push('--token', value); i++; }
      else if (flag === '--kubeconfig') { kubeconfig = this.kubeconfigFor(value); i++; }
      else if (flag === '--as' || flag === '--as-group') { out.push(flag, value); i++; }
    }
    return ['--kubeconfig', kubeconfig, ...out];
  }

  kubectl(args, identity = ['--kubeconfig', this.masters]) {
    return run(KUBECTL, [...identity, ...args], { cwd: WORK });
  }

  /** send writes a line to refcluster's stdin (`kubelet-down NODE`). */
  send(line) {
    if (this.proc.exitCode === null) this.proc.stdin.write(`${line}\n`);
  }

  /** watchPods watches every pod until stop(), which returns the watch events seen ({type, object}). */
  watchPods() {
    const proc = spawn(KUBECTL, ['--kubeconfig', this.masters, 'get', 'pods', '-A', '--watch', '--output-watch-events', '-o', 'json'], { cwd: WORK, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks = [];
    proc.stdout.on('data', (d) => chunks.push(d));
    return { stop: () => { proc.kill(); return jsonStream(Buffer.concat(chunks).toString('utf8')); } };
  }

  async reset() {
    if (this.proc.exitCode !== null) throw new Error(`refcluster exited ${this.proc.exitCode}; see ${this.logFile}`);
    const done = new Promise((res) => { this.onReset = res; });
    this.proc.stdin.write('reset\n');
    await Promise.race([done, sleep(30_000)]);
  }

  async stop() {
    this.proc.stdin.end();
    await Promise.race([new Promise((r) => this.proc.on('exit', r)), sleep(20_000)]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
    this.saveLog();
  }
}

/** KLOG is a klog header; kubectl -v lines start with one. */
const KLOG = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]]+\] ?/;

/**
 * splitVerbose separates what kubectl printed from its -v=9 log, and finds the Status bodies the server answered.
 * A log entry is a klog header line, and its value's lines when it has one (`body=<` ... ` >`, or a `[{` ... `}]` dump).
 */
function splitVerbose(stderr) {
  const printed = [];
  const failures = []; // each failed response in order: method, url, code, and its Status body when it was JSON
  let until = null;
  for (const line of stderr.split('\n')) {
    if (until) {
      if (line.trim() === until) until = null;
      else if (line.startsWith('\t{"kind":"Status"') && failures.length) {
        try { failures.at(-1).status ??= JSON.parse(line.trim()); } catch { /* not whole */ }
      }
      continue;
    }
    if (KLOG.test(line)) {
      const resp = /\] (GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3}) /.exec(line);
      if (resp && Number(resp[3]) >= 400) failures.push({ method: resp[1], url: resp[2], code: Number(resp[3]) });
      if (/=<\s*$/.test(line)) until = '>';
      else if (/\[\{\s*$/.test(line)) until = '}]';
      continue;
    }
    printed.push(line);
  }
  return { printed: printed.join('\n').trim(), failures };
}

/** refApply runs `kubectl apply -f` as the case's identity; what it printed and the last failed Status. */
function refApply(ref, c) {
  const r = ref.kubectl(['apply', '-f', c.manifest, '-v=9'], ref.kubectlIdentity(c.id));
  const { printed, failures } = splitVerbose(r.stderr);
  const text = [r.stdout.trim(), printed].filter(Boolean).join('\n');
  // What kubectl printed, in the order it printed it: warnings and errors go to stderr, results to stdout.
  const kubectl = [printed.split('\n').filter((l) => l.startsWith('Warning:')).join('\n'), r.stdout.trim(),
    printed.split('\n').filter((l) => l && !l.startsWith('Warning:')).join('\n')].filter(Boolean).join('\n');
  // The last failed request's Status; a body kubectl asked for as protobuf (the OpenAPI v2 download) is read again
  // as JSON with `kubectl get --raw`, whose error line carries the reason and message.
  const last = failures.at(-1);
  let status = last?.status;
  if (last && !status && last.method === 'GET') {
    const raw = ref.kubectl(['get', '--raw', new URL(last.url).pathname], ref.kubectlIdentity(c.id));
    const m = /^Error from server \((\w+)\): (.*)$/m.exec(raw.stderr);
    // kubectl words a 401 its own way: then the Status of an earlier request that failed alike stands for it.
    status = m ? { code: last.code, reason: m[1], message: m[2] } : failures.filter((f) => f.status?.code === last.code).at(-1)?.status;
  }
  return { exit: r.status, kubectl, text, status };
}

/** refGet reads one object back as the API server stores it. */
function refGet(ref, kind, name, ns) {
  const r = ref.kubectl(['get', kind, name, ...(ns ? ['-n', ns] : []), '-o', 'json']);
  return r.status === 0 ? JSON.parse(r.stdout) : undefined;
}

/** refList lists a kind (all namespaces). */
function refList(ref, kind) {
  const r = ref.kubectl(['get', kind, '-A', '-o', 'json']);
  return r.status === 0 ? JSON.parse(r.stdout).items : [];
}

/** downNodes are the nodes whose kubelet the manifest's Behavior stops (`kubelet: down`), with when (seconds in). */
function downNodes(manifest) {
  const behavior = docsOf(manifest).find((d) => d.kind === 'Behavior' && String(d.apiVersion ?? '').startsWith(OWN_GROUP));
  return Object.entries(behavior?.nodes ?? {}).filter(([, b]) => b?.kubelet === 'down').map(([node, b]) => ({ node, after: Number(b.downAfterSeconds ?? 0) }));
}

/** SETTLED are the conditions a case's `settle.until` waits for on the reference, past the scheduler's moment. */
const SETTLED = {
  // The manifest's pods are gone (pod GC force-deletes them).
  'pods gone': (ref, c) => {
    const names = new Set(docsOf(c.manifest).filter((d) => d.kind === 'Pod').map((d) => d.metadata?.name));
    return !refList(ref, 'pods').some((p) => names.has(p.metadata.name));
  },
  // Every pod on a node whose kubelet is down has been deleted (taint eviction; nothing finishes the deletion).
  'down-node pods deleting': (ref, c) => {
    const nodes = new Set(downNodes(c.manifest).map((d) => d.node));
    const pods = refList(ref, 'pods').filter((p) => nodes.has(p.spec?.nodeName));
    return pods.length > 0 && pods.every((p) => p.metadata.deletionTimestamp);
  },
};

/** settle waits, for a case that says so, until its SETTLED condition holds or its time is up. */
async function settle(ref, c) {
  if (!c.settle) return;
  const end = Date.now() + c.settle.ms;
  while (Date.now() < end && !SETTLED[c.settle.until](ref, c)) await sleep(2000);
  await sleep(1500); // what follows the awaited step (the pod's deletion after its status patch, the eviction event)
}

/** jsonStream splits kubectl's watch output (JSON documents one after another) into values. */
function jsonStream(text) {
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
function podStatusOf(status) {
  const dt = (status?.conditions ?? []).find((x) => x.type === 'DisruptionTarget');
  return { phase: status?.phase, disruptionTarget: dt ? { status: dt.status, reason: dt.reason, message: dt.message } : undefined };
}

/** EVENT_SOURCES are the components whose events the controller comparisons of this file read, by component. */
const EVENT_SOURCES = {
  garbagecollector: ['garbage-collector-controller'],
  endpointslice: ['endpoint-slice-controller'],
  nodelifecycle: ['node-controller', 'taint-eviction-controller'],
};

// ---------------------------------------------------------------------------------------------------------------
// Comparing one case.
// ---------------------------------------------------------------------------------------------------------------
const CONTROLLER_SOURCES = new Set(['deployment-controller', 'replicaset-controller', 'job-controller', 'statefulset-controller', 'daemonset-controller', 'default-scheduler']);

async function compareCase(ref, c, engine, result) {
  const diffs = (component) => (result.components[component] ??= []);
  // Events older than the case are the cluster's own (the node controller's RegisteredNode at start, say).
  const since = Math.floor(Date.now() / 1000) * 1000;
  const watch = c.watchPods ? ref.watchPods() : undefined;
  // A Behavior's down kubelet: its node's heartbeats stop when the engine's would (downAfterSeconds after the apply).
  const downs = downNodes(c.manifest);
  for (const d of downs.filter((x) => x.after <= 0)) ref.send(`kubelet-down ${d.node}`);
  const timers = downs.filter((d) => d.after > 0).map((d) => setTimeout(() => ref.send(`kubelet-down ${d.node}`), d.after * 1000));
  const wanted = docsOf(c.manifest).filter((d) => !String(d.apiVersion ?? '').startsWith(OWN_GROUP));
  const workloads = wanted.some((d) => ['Deployment', 'ReplicaSet', 'Job', 'StatefulSet', 'DaemonSet'].includes(d.kind));
  let applied;
  try {
    applied = refApply(ref, c);
    // What the manifest made is read back from the reference after its controllers and scheduler had a moment.
    if (applied.exit === 0) {
      await waitScheduled(ref, workloads ? 12_000 : 6_000);
      await settle(ref, c);
    }
  } finally {
    timers.forEach(clearTimeout);
  }
  const seen = watch?.stop() ?? [];
  result.reference = { kubectl: applied.kubectl, status: applied.status && { code: applied.status.code, reason: applied.status.reason, message: applied.status.message } };
  const er = engine.rejection;
  const rejectedRef = applied.exit !== 0;
  // apiserver: refused or not, with what status and what kubectl printed.
  const api = diffs('apiserver');
  if (!!er !== rejectedRef) api.push({ field: 'outcome', engine: er ? `Rejected (${er.code} ${er.reason})` : engine.outcome, reference: rejectedRef ? `Rejected (${applied.status?.code} ${applied.status?.reason})` : 'accepted' });
  if (er && rejectedRef) {
    for (const k of ['code', 'reason', 'message']) if (er[k] !== applied.status?.[k]) api.push({ field: `rejection.${k}`, engine: er[k], reference: applied.status?.[k] });
  }
  if ((engine.kubectl ?? '').trim() !== applied.kubectl) api.push({ field: 'kubectl', engine: engine.kubectl, reference: applied.kubectl });
  if (rejectedRef) return;

  // The objects of the manifest as stored.
  const objects = engine.objects ?? [];
  for (const d of wanted) {
    const ns = d.metadata?.namespace ?? (isClusterScoped(d.kind) ? undefined : 'default');
    const mine = objects.find((o) => o.kind === d.kind && o.metadata?.name === d.metadata?.name && (o.metadata?.namespace ?? undefined) === ns);
    const theirs = refGet(ref, d.kind, d.metadata?.name, ns);
    // Gone on both sides, or gone on one and a Pod being deleted on the other (no kubelet in the reference finishes a
    // graceful delete; the engine's does): a controller deleted it, and that controller's comparison below says so.
    if ((!mine || !theirs) && fate(mine) !== 'kept' && fate(theirs) !== 'kept') continue;
    if (!mine || !theirs) { api.push({ field: `${d.kind}/${d.metadata?.name}`, engine: mine ? 'stored' : 'absent', reference: theirs ? 'stored' : 'absent' }); continue; }
    for (const x of diffValues(comparable(mine), comparable(theirs), `${d.kind}/${d.metadata.name}`, [])) api.push(x);
  }
  // scheduler: each pod's node, or the FailedScheduling message.
  // A pod being deleted in the reference that the engine no longer has was deleted on both sides (no kubelet there
  // finishes a graceful delete; the engine's does): the comparison of the controller that deleted it says so.
  const enginePodNames = new Set(objects.filter((o) => o.kind === 'Pod').map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`));
  const finished = (p) => p.metadata.deletionTimestamp && !enginePodNames.has(`${p.metadata.namespace}/${p.metadata.name}`);
  const refPods = refList(ref, 'pods').filter((p) => !['kube-system'].includes(p.metadata.namespace) && !finished(p));
  const enginePods = objects.filter((o) => o.kind === 'Pod');
  const events = engine.events ?? [];
  // Only events about objects that exist now: an earlier case's object of the same name is another uid.
  const live = new Set(['pods', 'replicasets', 'deployments', 'jobs', 'statefulsets', 'daemonsets'].flatMap((k) => refList(ref, k)).map((o) => o.metadata.uid));
  const refEvents = refList(ref, 'events').filter((e) => live.has(e.involvedObject?.uid));
  const sched = diffs('scheduler');
  const nodes = refList(ref, 'nodes');
  // Pods are grouped by their name up to the random suffix: a Deployment's replicas are compared as a group, each
  // node by its class (nodes alike but for their names are one class: the real scheduler breaks such ties at random).
  const group = (list, key) => list.reduce((m, x) => m.set(key(x), [...(m.get(key(x)) ?? []), x]), new Map());
  const podKey = (p) => normalize(`${p.metadata.namespace}/${p.metadata.name}`);
  const mineGroups = group(enginePods, podKey), theirGroups = group(refPods, podKey);
  const cls = (name) => (name ? nodeClass(nodes, name) : 'unscheduled');
  for (const key of [...new Set([...mineGroups.keys(), ...theirGroups.keys()])].sort()) {
    const mine = mineGroups.get(key) ?? [], theirs = theirGroups.get(key) ?? [];
    const mineNodes = mine.map((p) => cls(p.spec?.nodeName)).sort(), theirNodes = theirs.map((p) => cls(p.spec?.nodeName)).sort();
    if (JSON.stringify(mineNodes) !== JSON.stringify(theirNodes)) {
      sched.push({ field: `Pod/${key} spec.nodeName`, engine: mine.map((p) => p.spec?.nodeName ?? 'unscheduled').sort().join(', ') || 'absent', reference: theirs.map((p) => p.spec?.nodeName ?? 'unscheduled').sort().join(', ') || 'absent' });
    }
    const msg = (e) => e.message.replace(/^\(combined from similar events\): /, '');
    const mineMsg = [...new Set(events.filter((e) => e.reason === 'FailedScheduling' && normalize(e.object) === `Pod/${key}`).map(msg))].sort();
    const uids = new Set(theirs.map((p) => p.metadata.uid));
    const theirMsg = [...new Set(refEvents.filter((e) => e.reason === 'FailedScheduling' && uids.has(e.involvedObject.uid)).map(msg))].sort();
    if (JSON.stringify(mineMsg) !== JSON.stringify(theirMsg)) sched.push({ field: `Pod/${key} FailedScheduling`, engine: mineMsg.join('\n') || '(none)', reference: theirMsg.join('\n') || '(none)' });
  }
  if (!enginePods.length && !refPods.length) delete result.components.scheduler;
  // controllers: what the workload controllers made and the events they recorded (names up to their random suffix).
  if (workloads) {
    const ctl = diffs('controllers');
    const names = (list) => list.map((o) => normalize(`${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).sort();
    const made = (kind) => [names(objects.filter((o) => o.kind === kind)), names(refList(ref, kind.toLowerCase() + 's').filter((o) => o.metadata.namespace !== 'kube-system' && !(kind === 'Pod' && finished(o))).map((o) => ({ ...o, kind })))];
    for (const kind of ['ReplicaSet', 'Pod', 'ControllerRevision', 'PersistentVolumeClaim']) {
      const [mine, theirs] = made(kind);
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) ctl.push({ field: `${kind}s`, engine: mine, reference: theirs });
    }
    // An event repeated often enough is aggregated by client-go's correlator under this prefix.
    const fmt = (type, reason, obj, msg) => normalize(`${type} ${reason} ${obj}: ${msg.replace(/^\(combined from similar events\): /, '')}`);
    const mineEv = [...new Set(events.filter((e) => CONTROLLER_SOURCES.has(e.source) && e.source !== 'default-scheduler').map((e) => fmt(e.type, e.reason, e.object, e.message)))].sort();
    const theirEv = [...new Set(refEvents.filter((e) => CONTROLLER_SOURCES.has(e.source?.component ?? e.reportingComponent) && (e.source?.component ?? e.reportingComponent) !== 'default-scheduler')
      .map((e) => fmt(e.type, e.reason, `${e.involvedObject.kind}/${e.involvedObject.namespace}/${e.involvedObject.name}`, e.message)))].sort();
    const onlyMine = mineEv.filter((e) => !theirEv.includes(e)), onlyTheirs = theirEv.filter((e) => !mineEv.includes(e));
    if (onlyMine.length || onlyTheirs.length) ctl.push({ field: 'controller events', engine: onlyMine, reference: onlyTheirs });
  }
  const theirEvents = refList(ref, 'events').filter((e) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? 0) >= since);
  const sides = { ref, c, engine, objects, wanted, theirEvents, diffs };
  compareEndpointSlices(sides);
  compareGarbage(sides);
  if (c.watchPods) comparePodGC(sides, seen);
  if (downs.length) compareNodeLifecycle(sides, downs.map((d) => d.node));
}

/**
 * fate is what became of an object: `kept`, or `deleted` (gone; a Pod being deleted counts as gone, since the
 * reference has no kubelet to finish a graceful delete and the engine's does), or `deleting` (held by a finalizer).
 */
function fate(o) {
  if (!o) return 'deleted';
  if (!o.metadata?.deletionTimestamp) return 'kept';
  return o.kind === 'Pod' ? 'deleted' : 'deleting';
}

/** eventsFrom lists the events of a component's sources on both sides as `type reason Kind/ns/name: message`. */
function eventsFrom(sources, engine, theirEvents) {
  const fmt = (type, reason, obj, msg) => normalize(`${type} ${reason} ${obj}: ${msg}`);
  const objectOf = (io) => [io.kind, io.namespace, io.name].filter(Boolean).join('/');
  const mine = [...new Set((engine.events ?? []).filter((e) => sources.includes(e.source)).map((e) => fmt(e.type, e.reason, e.object, e.message)))].sort();
  const theirs = [...new Set(theirEvents.filter((e) => sources.includes(e.source?.component ?? e.reportingComponent))
    .map((e) => fmt(e.type, e.reason, objectOf(e.involvedObject), e.message)))].sort();
  return { mine, theirs };
}

/** pushEvents adds a component's event difference, as sets (counts and times are not compared). */
function pushEvents(out, component, engine, theirEvents) {
  const { mine, theirs } = eventsFrom(EVENT_SOURCES[component], engine, theirEvents);
  const onlyMine = mine.filter((e) => !theirs.includes(e)), onlyTheirs = theirs.filter((e) => !mine.includes(e));
  if (onlyMine.length || onlyTheirs.length) out.push({ field: `${component} events`, engine: onlyMine, reference: onlyTheirs });
}

/**
 * compareEndpointSlices compares the slices the endpointslice controller keeps for each selecting Service of the
 * manifest: how many, their names up to the random suffix, generateName, labels, addressType and ownerReferences. The
 * endpoints and ports are compared only when no pod the Service selects has an IP in the engine either: the reference
 * has no kubelet, its pods never get an IP, and the 1.36 controller leaves a pod without one out of the slice
 * (ShouldPodBeInEndpoints, k8s.io/endpointslice/util/controller_utils.go), so its slice is then a placeholder (no
 * endpoints, no ports; reconciler.go) while the engine's lists the running pods.
 */
function compareEndpointSlices({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const services = wanted.filter((d) => d.kind === 'Service' && Object.keys(d.spec?.selector ?? {}).length > 0);
  if (!services.length) return;
  const out = diffs('endpointslice');
  for (const svc of services) {
    const ns = svc.metadata?.namespace ?? 'default', name = svc.metadata?.name;
    const managed = (s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name && s.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'] === 'endpointslice-controller.k8s.io';
    const mine = objects.filter((o) => o.kind === 'EndpointSlice' && o.metadata?.namespace === ns && managed(o));
    const theirs = refList(ref, 'endpointslices').filter((o) => o.metadata.namespace === ns && managed(o));
    const withIP = objects.some((p) => p.kind === 'Pod' && p.metadata?.namespace === ns && (p.status?.podIP || p.status?.podIPs?.length)
      && Object.entries(svc.spec.selector).every(([k, v]) => p.metadata?.labels?.[k] === v));
    const shape = (o) => {
      const { name: n, generateName, labels, ownerReferences } = o.metadata ?? {};
      const slice = { name: normalize(n), generateName, labels, ownerReferences: (ownerReferences ?? []).map(({ uid, ...r }) => r), addressType: o.addressType };
      // A key absent and a key null read apart: kubectl prints what the server stores.
      const field = (k) => (k in o ? o[k] : '(absent)');
      return withIP ? slice : { ...slice, endpoints: field('endpoints'), ports: field('ports') };
    };
    const a = mine.map(shape).sort((x, y) => x.name.localeCompare(y.name)), b = theirs.map(shape).sort((x, y) => x.name.localeCompare(y.name));
    if (a.length !== b.length) { out.push({ field: `EndpointSlices of Service/${name}`, engine: a, reference: b }); continue; }
    a.forEach((x, i) => diffValues(x, b[i], `EndpointSlice/${x.name}`, out));
  }
  pushEvents(out, 'endpointslice', engine, theirEvents);
}

/**
 * compareGarbage compares, for each object of the manifest with ownerReferences, what the garbage collector did
 * with it: kept (and its ownerReferences then, which it may have stripped of dangling owners) or deleted. The
 * manifest cannot know a live owner's uid (the server draws it), so its references are dangling on both sides.
 */
function compareGarbage({ ref, engine, objects, wanted, theirEvents, diffs }) {
  const owned = wanted.filter((d) => d.metadata?.ownerReferences?.length);
  if (!owned.length) return;
  const out = diffs('garbagecollector');
  for (const d of owned) {
    const ns = d.metadata?.namespace ?? (isClusterScoped(d.kind) ? undefined : 'default');
    const mine = objects.find((o) => o.kind === d.kind && o.metadata?.name === d.metadata?.name && (o.metadata?.namespace ?? undefined) === ns);
    const theirs = refGet(ref, d.kind, d.metadata?.name, ns);
    const key = `${d.kind}/${d.metadata.name}`;
    if (fate(mine) !== fate(theirs)) { out.push({ field: key, engine: fate(mine), reference: fate(theirs) }); continue; }
    const refs = (o) => (o?.metadata?.ownerReferences ?? []).map(({ uid, ...r }) => r);
    if (fate(mine) === 'kept') diffValues(refs(mine), refs(theirs), `${key} metadata.ownerReferences`, out);
  }
  pushEvents(out, 'garbagecollector', engine, theirEvents);
}

/**
 * comparePodGC compares, for each pod of the manifest bound to a node the cluster does not have, whether pod GC
 * deleted it and the status it wrote first (phase Failed and DisruptionTarget DeletionByPodGC, gc_controller.go
 * markFailedAndDeletePodWithCondition): the engine's from its status patch in the trace, the reference's as the watch
 * saw the pod last. Pod GC records no events.
 */
function comparePodGC({ ref, engine, objects, wanted, diffs }, seen) {
  const nodes = new Set(refList(ref, 'nodes').map((n) => n.metadata.name));
  const orphans = wanted.filter((d) => d.kind === 'Pod' && d.spec?.nodeName && !nodes.has(d.spec.nodeName));
  if (!orphans.length) return;
  const out = diffs('podgc');
  for (const d of orphans) {
    const name = d.metadata.name, ns = d.metadata?.namespace ?? 'default', key = `Pod/${ns}/${name}`;
    const mine = objects.find((o) => o.kind === 'Pod' && o.metadata?.name === name && o.metadata?.namespace === ns);
    const theirs = refGet(ref, 'pods', name, ns);
    if (fate(mine) !== fate(theirs)) out.push({ field: `${key} outcome`, engine: fate(mine), reference: fate(theirs) });
    const patch = (engine.trace ?? []).filter((t) => t.phase === 'controllers.podgc' && t.object === key && t.detail?.patch).at(-1);
    const mineStatus = patch ? podStatusOf(JSON.parse(patch.detail.patch).status) : undefined;
    const last = seen.filter((e) => e.object?.metadata?.name === name && e.object?.metadata?.namespace === ns).at(-1);
    const theirStatus = last ? podStatusOf(last.object.status) : undefined;
    diffValues(mineStatus, theirStatus, `${key} last status`, out);
  }
}

/**
 * compareNodeLifecycle compares what became of the nodes whose kubelet is down (the reference stops their
 * heartbeats): their conditions and taints (timeAdded as there or not), and for their pods the deletion and the
 * DisruptionTarget condition the taint eviction controller wrote; with the node and taint eviction controllers' events.
 */
function compareNodeLifecycle({ ref, engine, objects, theirEvents, diffs }, down) {
  const out = diffs('nodelifecycle');
  const theirNodes = refList(ref, 'nodes');
  const nodeView = (n) => n && {
    conditions: (n.status?.conditions ?? []).map((x) => ({ type: x.type, status: x.status, reason: x.reason, message: x.message })).sort((a, b) => a.type.localeCompare(b.type)),
    taints: (n.spec?.taints ?? []).map((t) => ({ ...t, ...(t.timeAdded ? { timeAdded: '(set)' } : {}) })).sort((a, b) => `${a.key}${a.effect}`.localeCompare(`${b.key}${b.effect}`)),
  };
  const podView = (p) => ({ deleted: !!p.metadata?.deletionTimestamp, ...podStatusOf(p.status) });
  for (const node of down) {
    diffValues(nodeView(objects.find((o) => o.kind === 'Node' && o.metadata?.name === node)), nodeView(theirNodes.find((n) => n.metadata.name === node)), `Node/${node}`, out);
    const on = (list) => Object.fromEntries(list.filter((p) => p.spec?.nodeName === node).map((p) => [normalize(`${p.metadata.namespace}/${p.metadata.name}`), podView(p)]));
    diffValues(on(objects.filter((o) => o.kind === 'Pod')), on(refList(ref, 'pods')), `pods on ${node}`, out);
  }
  pushEvents(out, 'nodelifecycle', engine, theirEvents);
}

/** nodeClass names a node by what the scheduler sees of it but its name: nodes of one class score alike. */
function nodeClass(nodes, name) {
  const n = nodes.find((x) => x.metadata.name === name);
  if (!n) return name;
  const sig = JSON.stringify({ labels: { ...n.metadata.labels, 'kubernetes.io/hostname': '' }, taints: n.spec.taints ?? [], alloc: n.status.allocatable });
  const first = nodes.find((x) => JSON.stringify({ labels: { ...x.metadata.labels, 'kubernetes.io/hostname': '' }, taints: x.spec.taints ?? [], alloc: x.status.allocatable }) === sig);
  return first.metadata.name;
}

function isClusterScoped(kind) {
  return ['Namespace', 'Node', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'RuntimeClass', 'StorageClass', 'PersistentVolume',
    'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].includes(kind);
}

/** waitScheduled waits until no pod is without a PodScheduled condition (or the time is up). */
async function waitScheduled(ref, ms) {
  const end = Date.now() + ms;
  await sleep(1500);
  while (Date.now() < end) {
    const pods = refList(ref, 'pods').filter((p) => p.metadata.namespace !== 'kube-system');
    if (pods.every((p) => (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled'))) { await sleep(1000); return; }
    await sleep(700);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------------------------
async function main() {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (!existsSync(BIN)) { console.error(`${BIN} is missing: run npm run oracle:build`); process.exit(1); }
  if (!existsSync(CLI)) { console.error(`${CLI} is missing: run npm run build`); process.exit(1); }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  mkdirSync(join(OUT, 'gen'), { recursive: true });
  for (const [name, text] of Object.entries(GENERATED)) writeFileSync(join(OUT, 'gen', `${name}.yaml`), text);
  const cases = CASES.filter((c) => !only || label(c).includes(only));
  const t0 = Date.now();
  const results = [];
  // Group by cluster files: one reference cluster each.
  const groups = new Map();
  for (const c of cases) {
    const key = JSON.stringify(c.cluster ?? []);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  const clusters = [];
  let n = 0;
  for (const [key, group] of groups) {
    const files = JSON.parse(key);
    const logFile = join(OUT, `refcluster-${n++}.log`);
    process.stderr.write(`reference cluster ${files.length ? files.join(' ') : '(embedded)'} ... `);
    let ref;
    try {
      ref = await RefCluster.start(files, logFile);
    } catch (err) {
      // Reported, and the run goes on with the other clusters; the exit status says it failed.
      console.error(`\n${err.message}`);
      process.exitCode = 1;
      clusters.push({ cluster: files, error: err.message, log: logFile });
      for (const c of group) results.push({ case: label(c), components: {}, error: `reference cluster did not start: ${err.message}` });
      continue;
    }
    process.stderr.write(`ready in ${ref.startSeconds.toFixed(1)}s\n`);
    clusters.push({ cluster: files, startSeconds: ref.startSeconds, log: logFile });
    for (const c of group) {
      stage(c.manifest);
      process.stderr.write(`  ${label(c)}\n`);
      const result = { case: label(c), components: {} };
      const engine = runEngine(c);
      result.engine = { outcome: engine.outcome, kubectl: engine.kubectl, rejection: engine.rejection, error: engine.error };
      if (engine.error) result.components.apiserver = [{ field: 'engine', engine: engine.error, reference: '' }];
      else {
        try { await compareCase(ref, c, engine, result); } catch (err) { (result.components.apiserver ??= []).push({ field: 'runner', engine: '', reference: String(err.stack ?? err) }); }
      }
      results.push(result);
      run(KUBECTL, ['--kubeconfig', ref.masters, 'delete', '-f', c.manifest, '--ignore-not-found', '--wait=false', '--grace-period=0', '--force'], { cwd: WORK });
      try {
        await ref.reset();
      } catch (err) {
        console.error(err.message);
        result.error = err.message;
        process.exitCode = 1;
        break;
      }
    }
    await ref.stop();
  }
  report(results, clusters, (Date.now() - t0) / 1000);
}

/** report prints the table and every difference, and writes report.json. */
function report(results, clusters, seconds) {
  const table = {};
  for (const r of results) {
    for (const [component, diffs] of Object.entries(r.components)) {
      const row = (table[component] ??= { cases: 0, agree: 0, differ: 0 });
      row.cases++;
      diffs.length ? row.differ++ : row.agree++;
    }
  }
  // Strings print as JSON too, so that "1" and 1 read apart; multi-line text is shown as it is.
  const show = (v) => (v === undefined ? '(absent)' : typeof v === 'string' && v.includes('\n') ? `\n      ${v.replace(/\n/g, '\n      ')}` : JSON.stringify(v));
  console.log('\ncomponent        | cases | agree | differ');
  console.log('-----------------|-------|-------|-------');
  for (const [k, v] of Object.entries(table)) console.log(`${k.padEnd(16)} | ${String(v.cases).padStart(5)} | ${String(v.agree).padStart(5)} | ${String(v.differ).padStart(6)}`);
  console.log('\nDifferences (case | component | field):');
  for (const r of results) {
    for (const [component, diffs] of Object.entries(r.components)) {
      for (const d of diffs) {
        console.log(`\n* ${r.case} | ${component} | ${d.field}\n    engine:    ${show(d.engine)}\n    reference: ${show(d.reference)}`);
      }
    }
  }
  for (const r of results.filter((x) => x.error)) console.log(`\n! ${r.case}: ${r.error}`);
  console.log(`\n${results.length} cases on ${clusters.length} reference clusters in ${seconds.toFixed(0)}s; full report: .cache/oracle/report.json`);
  writeFileSync(join(OUT, 'report.json'), JSON.stringify({ seconds, table, clusters, results }, null, 2));
}

main().catch((err) => { console.error(err); process.exit(1); });
