// The `tables` family: server-side printing. test/fixtures/printers/objects.yaml (one or more objects of each kind the
// printers cover, some pod statuses patched in) is applied to the reference cluster; then for each resource its list is
// asked for as a Table (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), as kubectl get asks, with each
// includeObject, and compared with the engine's tableFor (src/engine/printers/registry.ts) of the same stored objects:
// the column definitions exactly, the metadata, and each row (cells, conditions, object). Cells that depend on the
// time (AGE, LAST SEEN, DURATION, RESTARTS' "(90s ago)", ...) are compared with the engine's at each second from
// just before the request to just after it. Then the text `kubectl get` and `kubectl get -o wide` print (the real
// kubectl on PATH) is compared with the Debug Console's text table of the same objects.
// Usage: as a family of scripts/oracle.mjs (`npm run oracle -- --only tables`).
import { join } from 'node:path';
import { KUBECTL, ROOT, run, sleep } from './common.mjs';
import { apiClient } from './api-client.mjs';

/** FIXTURE is the manifest of the family's objects. */
const FIXTURE = 'test/fixtures/printers/objects.yaml';

/** RESOURCES are the lists compared: `[resource, kind, group/version ('' for core), namespaced]`. */
const RESOURCES = [
  ['pods', 'Pod', 'v1', true], ['nodes', 'Node', 'v1', false], ['namespaces', 'Namespace', 'v1', false],
  ['events', 'Event', 'v1', true], ['services', 'Service', 'v1', true], ['endpoints', 'Endpoints', 'v1', true],
  ['endpointslices', 'EndpointSlice', 'discovery.k8s.io/v1', true], ['configmaps', 'ConfigMap', 'v1', true],
  ['secrets', 'Secret', 'v1', true], ['serviceaccounts', 'ServiceAccount', 'v1', true],
  ['persistentvolumes', 'PersistentVolume', 'v1', false], ['persistentvolumeclaims', 'PersistentVolumeClaim', 'v1', true],
  ['storageclasses', 'StorageClass', 'storage.k8s.io/v1', false], ['priorityclasses', 'PriorityClass', 'scheduling.k8s.io/v1', false],
  ['resourcequotas', 'ResourceQuota', 'v1', true], ['limitranges', 'LimitRange', 'v1', true],
  ['leases', 'Lease', 'coordination.k8s.io/v1', true], ['deployments', 'Deployment', 'apps/v1', true],
  ['replicasets', 'ReplicaSet', 'apps/v1', true], ['replicationcontrollers', 'ReplicationController', 'v1', true],
  ['statefulsets', 'StatefulSet', 'apps/v1', true], ['daemonsets', 'DaemonSet', 'apps/v1', true],
  ['controllerrevisions', 'ControllerRevision', 'apps/v1', true], ['jobs', 'Job', 'batch/v1', true],
  ['cronjobs', 'CronJob', 'batch/v1', true], ['horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'autoscaling/v2', true],
  ['horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'autoscaling/v1', true],
  ['poddisruptionbudgets', 'PodDisruptionBudget', 'policy/v1', true], ['roles', 'Role', 'rbac.authorization.k8s.io/v1', true],
  ['clusterroles', 'ClusterRole', 'rbac.authorization.k8s.io/v1', false], ['rolebindings', 'RoleBinding', 'rbac.authorization.k8s.io/v1', true],
  ['clusterrolebindings', 'ClusterRoleBinding', 'rbac.authorization.k8s.io/v1', false],
  ['mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', 'admissionregistration.k8s.io/v1', false],
  ['validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', 'admissionregistration.k8s.io/v1', false],
  ['validatingadmissionpolicies', 'ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/v1', false],
  ['validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', 'admissionregistration.k8s.io/v1', false],
  ['runtimeclasses', 'RuntimeClass', 'node.k8s.io/v1', false], ['csidrivers', 'CSIDriver', 'storage.k8s.io/v1', false],
  ['csinodes', 'CSINode', 'storage.k8s.io/v1', false], ['volumeattachments', 'VolumeAttachment', 'storage.k8s.io/v1', false],
  ['csistoragecapacities', 'CSIStorageCapacity', 'storage.k8s.io/v1', true],
];

/** TABLES_CASES are the family's cases, one per list: `tables <resource>.<group/version>`. */
export const TABLES_CASES = [
  ...RESOURCES.map(([resource, kind, gv, namespaced]) => ({ resource, kind, gv, namespaced, label: `tables ${resource} ${gv}` })),
  // Empty lists: a printer's rows are [] (make(..., 0)), the default table's null (a nil slice); kubectl prints no table.
  ...[['pods', 'Pod'], ['limitranges', 'LimitRange']].map(([resource, kind]) => ({ resource, kind, gv: 'v1', namespaced: true, namespace: 'tables', label: `tables ${resource} v1 (empty)` })),
];

/**
 * STORAGE names the version whose objects the engine prints when the list is asked for in another: the server prints
 * the internal object, which an autoscaling/v1 HPA does not round-trip to (its other metrics ride in annotations and
 * come back after the CPU one), so tableFor takes HPAs as stored, in autoscaling/v2; the Object rows then differ by
 * version and are left out.
 */
const STORAGE = { 'horizontalpodautoscalers autoscaling/v1': 'autoscaling/v2' };

const TABLE_ACCEPT = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const listPath = (c, gv = c.gv) => `${gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`}${c.namespaced ? `/namespaces/${c.namespace ?? 'default'}` : ''}/${c.resource}`;
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** patchStatuses gives the fixture's pods the statuses a kubelet would have written (the reference has no kubelets). */
function patchStatuses(kubeconfig) {
  const now = Date.now();
  const term = (exitCode, reason) => ({ terminated: { exitCode, ...(reason ? { reason } : {}), startedAt: iso(now - 200_000), finishedAt: iso(now - 90_000) } });
  const statuses = {
    crashy: {
      phase: 'Running', podIP: '10.244.2.7', podIPs: [{ ip: '10.244.2.7' }],
      containerStatuses: [{ name: 'app', image: 'busybox:1.36', imageID: '', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } }, lastState: term(1, 'Error') }],
    },
    done: {
      phase: 'Succeeded',
      containerStatuses: [
        { name: 'app', image: 'busybox:1.36', imageID: '', ready: false, restartCount: 0, state: term(0, 'Completed') },
        { name: 'two', image: 'busybox:1.36', imageID: '', ready: false, restartCount: 1, state: term(2), lastState: term(1) },
      ],
    },
    gated: {
      phase: 'Pending',
      conditions: [{ type: 'example.com/ready', status: 'True' }, { type: 'example.com/warm', status: 'False' }, { type: 'PodScheduled', status: 'True' }],
      initContainerStatuses: [{ name: 'setup', image: 'busybox:1.36', imageID: '', ready: false, restartCount: 0, state: { running: { startedAt: iso(now - 10_000) } } }],
    },
  };
  // No controller of the reference writes these: a LoadBalancer's ingress (no cloud provider), a quota's usage (its
  // controller is off).
  const others = [
    ['service', 'balancer', { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }, { ip: '203.0.113.9' }, { ip: '203.0.113.9' }] } }],
    ['resourcequota', 'compute', { hard: { 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '8', 'limits.memory': '16Gi', pods: '20', configmaps: '10' }, used: { 'requests.cpu': '1500m', 'limits.memory': '1073741824', pods: '3' } }],
  ];
  for (const [kind, name, status] of [...Object.entries(statuses).map(([pod, status]) => ['pod', pod, status]), ...others]) {
    const r = run(KUBECTL, ['--kubeconfig', kubeconfig, 'patch', kind, name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    if (r.status !== 0) throw new Error(`patch ${kind} ${name} status: ${r.stderr}`);
  }
  // A cordoned node reads Ready,SchedulingDisabled; a kubernetes.io/role label is a role (undone after the family).
  run(KUBECTL, ['--kubeconfig', kubeconfig, 'cordon', 'worker-2']);
  run(KUBECTL, ['--kubeconfig', kubeconfig, 'label', 'node', 'worker-1', 'kubernetes.io/role=edge', 'node-role.kubernetes.io/ingress=']);
}

/** unpatchNodes undoes patchStatuses' changes to the nodes. */
function unpatchNodes(kubeconfig) {
  run(KUBECTL, ['--kubeconfig', kubeconfig, 'uncordon', 'worker-2']);
  run(KUBECTL, ['--kubeconfig', kubeconfig, 'label', 'node', 'worker-1', 'kubernetes.io/role-', 'node-role.kubernetes.io/ingress-']);
}

/** sameJSON tells whether two values serialize alike. */
const sameJSON = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * compareTables compares the reference's Table with the engine's, computed at each instant of `instants`: column
 * definitions and metadata exactly; rows one by one (their number, then each cell against the engine's at any of
 * the instants, the conditions and the object).
 */
function compareTables(out, what, ref, engineAt, { skipObject = false } = {}) {
  const first = engineAt[0];
  if (!sameJSON(ref.columnDefinitions, first.columnDefinitions)) {
    const n = Math.max(ref.columnDefinitions?.length ?? 0, first.columnDefinitions?.length ?? 0);
    for (let i = 0; i < n; i++) {
      if (!sameJSON(ref.columnDefinitions?.[i], first.columnDefinitions?.[i])) out.push({ field: `${what} columnDefinitions[${i}]`, engine: first.columnDefinitions?.[i], reference: ref.columnDefinitions?.[i] });
    }
  }
  for (const k of ['kind', 'apiVersion', 'metadata']) if (!sameJSON(ref[k], first[k])) out.push({ field: `${what} ${k}`, engine: first[k], reference: ref[k] });
  if ((ref.rows ?? null) === null || (first.rows ?? null) === null) {
    if (!sameJSON(ref.rows, first.rows)) out.push({ field: `${what} rows`, engine: first.rows, reference: ref.rows });
    return;
  }
  if (ref.rows.length !== first.rows.length) { out.push({ field: `${what} rows.length`, engine: first.rows.length, reference: ref.rows.length }); return; }
  ref.rows.forEach((row, i) => {
    const name = row.object?.metadata?.name ?? i;
    const columns = ref.columnDefinitions ?? first.columnDefinitions ?? [];
    const n = Math.max(row.cells.length, first.rows[i].cells.length);
    for (let j = 0; j < n; j++) {
      if (!engineAt.some((t) => sameJSON(t.rows[i].cells[j], row.cells[j]))) {
        out.push({ field: `${what} ${name} ${columns[j]?.name ?? j}`, engine: first.rows[i].cells[j], reference: row.cells[j] });
      }
    }
    for (const k of Object.keys({ ...row, ...first.rows[i] }).filter((x) => x !== 'cells' && !(skipObject && x === 'object'))) {
      if (!sameJSON(canonical(row[k]), canonical(first.rows[i][k]))) out.push({ field: `${what} ${name} row.${k}`, engine: first.rows[i][k], reference: row[k] });
    }
  });
}

/** canonical sorts object keys, so that two objects compare by content whatever order their keys came in. */
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/**
 * instants are the tenths of a second from `t0` - 1 s to `t1` + 1 s: a time-relative cell must match the engine's at one
 * of them (an event's eventTime has microseconds, so whole seconds would not do).
 */
const instants = (t0, t1) => { const out = []; for (let t = Math.floor(t0 / 100) * 100 - 1000; t <= t1 + 1000; t += 100) out.push(t); return out; };

/** runTablesFamily applies the fixture, then compares each case's list (see the file's comment). */
export async function runTablesFamily(ref, engine, cases) {
  const kubeconfig = ref.info.kubeconfig;
  const r = run(KUBECTL, ['--kubeconfig', kubeconfig, 'apply', '-f', join(ROOT, FIXTURE)]);
  if (r.status !== 0) throw new Error(`kubectl apply -f ${FIXTURE}: ${r.stderr}`);
  patchStatuses(kubeconfig);
  // The controllers' first reactions (ReplicaSets, pods, revisions, PV binding, quota status) before the lists are read.
  await sleep(6_000);
  const api = apiClient(kubeconfig);
  const results = [];
  try {
    for (const c of cases) {
      process.stderr.write(`  ${c.label}\n`);
      const diffs = [];
      const printed = {};
      for (const includeObject of ['Object', 'Metadata', 'None']) {
        // The list as Table and the same list as objects, again until both were read at one resourceVersion.
        for (let attempt = 0; ; attempt++) {
          const t0 = Date.now();
          const table = await api.send('GET', `${listPath(c)}${includeObject === 'Metadata' ? '' : `?includeObject=${includeObject}`}`, undefined, TABLE_ACCEPT);
          const t1 = Date.now();
          const storage = STORAGE[`${c.resource} ${c.gv}`];
          const list = await api.send('GET', listPath(c, storage));
          if (table.code !== 200 || list.code !== 200) { diffs.push({ field: `${includeObject} request`, engine: '', reference: JSON.stringify(table.body).slice(0, 400) }); break; }
          if (table.body.metadata?.resourceVersion !== list.body.metadata?.resourceVersion && attempt < 4) { await sleep(500); continue; }
          // The List's items lack kind and apiVersion; kubectl get -o json (and a Table's Object rows) carry them.
          const items = list.body.items.map((o) => ({ apiVersion: storage ?? c.gv, kind: c.kind, ...o }));
          const options = { includeObject, resourceVersion: table.body.metadata?.resourceVersion };
          const engineAt = instants(t0, t1).map((t) => engine.tableFor(c.resource, items, t, options));
          compareTables(diffs, includeObject, table.body, engineAt, { skipObject: storage !== undefined && includeObject === 'Object' });
          if (includeObject === 'Metadata') printed.table = table.body;
          break;
        }
      }
      // What kubectl prints, and -o wide, beside the Debug Console's text table of the same objects, line by line.
      for (const wide of c.namespace ? [] : [false, true]) {
        for (let attempt = 0; ; attempt++) {
          const storage = STORAGE[`${c.resource} ${c.gv}`];
          const before = await api.send('GET', listPath(c, storage));
          const t0 = Date.now();
          const [group, version] = c.gv.includes('/') ? c.gv.split('/') : ['', c.gv];
          const resource = group ? `${c.resource}.${version}.${group}` : c.resource;
          const text = run(KUBECTL, ['--kubeconfig', kubeconfig, 'get', resource, ...(c.namespaced ? ['-n', 'default'] : []), ...(wide ? ['-o', 'wide'] : [])]);
          const t1 = Date.now();
          const after = await api.send('GET', listPath(c, storage));
          if (before.body.metadata?.resourceVersion !== after.body.metadata?.resourceVersion && attempt < 4) { await sleep(500); continue; }
          const items = after.body.items.map((o) => ({ apiVersion: storage ?? c.gv, kind: c.kind, ...o }));
          const theirs = text.stdout.replace(/\n$/, '');
          const mine = instants(t0, t1).map((t) => engine.consoleTable(c.kind, items, t, wide).split('\n'));
          const lines = theirs.split('\n');
          const differ = lines.map((line, i) => (mine.some((m) => m[i] === line) ? undefined : `- ${mine[0][i] ?? '(none)'}\n+ ${line}`)).filter(Boolean);
          if (mine[0].length !== lines.length) differ.push(`lines: engine ${mine[0].length}, kubectl ${lines.length}`);
          if (differ.length) diffs.push({ field: `kubectl get${wide ? ' -o wide' : ''}`, engine: mine[0].join('\n'), reference: theirs || text.stderr.trim(), lines: differ });
          printed[wide ? 'wide' : 'text'] = theirs;
          break;
        }
      }
      results.push({ case: c.label, family: 'tables', components: { tables: diffs }, printed });
    }
  } finally {
    api.close();
    unpatchNodes(kubeconfig);
    run(KUBECTL, ['--kubeconfig', kubeconfig, 'delete', '-f', join(ROOT, FIXTURE), '--ignore-not-found', '--wait=false']);
  }
  return results;
}
