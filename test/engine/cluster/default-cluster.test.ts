// Tests the embedded default cluster: every document is a well-formed API object, the nodes,
// RBAC and kubeadm objects the engine relies on are there as a kubeadm v1.36 cluster has them,
// and default-cluster.ts embeds exactly default-cluster.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_CLUSTER_FILE, DEFAULT_CLUSTER_YAML } from '../../../src/engine/cluster/default-cluster';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { parseDocuments } from '../../../src/engine/cluster/loader';
import type { ClusterRole, ClusterRoleBinding, KubeObject, Node, PolicyRule, RoleBinding } from '../../../src/engine/api/types';

const root = resolve(__dirname, '..', '..', '..', '..');

const documents = parseAllDocuments(DEFAULT_CLUSTER_YAML);
const objects = documents.map((d) => d.toJS() as KubeObject);

/** find returns the one object of a kind, namespace and name. */
function find<T = KubeObject>(kind: string, name: string, namespace?: string): T {
  const found = objects.filter((o) => o.kind === kind && o.metadata?.name === name && o.metadata?.namespace === namespace);
  assert.equal(found.length, 1, `${kind} ${namespace ? namespace + '/' : ''}${name}: want one, found ${found.length}`);
  return found[0] as unknown as T;
}

test('the YAML parses without errors or warnings', () => {
  assert.deepEqual(documents.flatMap((d) => d.errors.map((e) => e.message)), []);
  assert.deepEqual(documents.flatMap((d) => d.warnings.map((e) => e.message)), []);
  assert.equal(DEFAULT_CLUSTER_FILE, '<embedded default cluster>');
});

test('every document has apiVersion, kind and metadata.name', () => {
  assert.ok(objects.length > 100, `only ${objects.length} documents`);
  for (const [i, o] of objects.entries()) {
    assert.equal(typeof o.apiVersion, 'string', `document ${i} has no apiVersion`);
    assert.equal(typeof o.kind, 'string', `document ${i} has no kind`);
    assert.equal(typeof o.metadata?.name, 'string', `document ${i} (${o.kind}) has no metadata.name`);
  }
});

test('no two objects share a kind, namespace and name', () => {
  const seen = new Set<string>();
  for (const o of objects) {
    const key = `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    assert.ok(!seen.has(key), `duplicate ${key}`);
    seen.add(key);
  }
});

test('there are no ServiceAccounts: the engine gives each namespace its default one', () => {
  assert.deepEqual(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata?.name), []);
});

const namespaceCases = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
for (const name of namespaceCases) {
  test(`namespace ${name} is Active, has the kubernetes finalizer, its metadata.name label and kube-root-ca.crt`, () => {
    const ns = find<KubeObject>('Namespace', name);
    assert.deepEqual(ns.metadata?.labels, { 'kubernetes.io/metadata.name': name });
    assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(ns.status, { phase: 'Active' });
    const cm = find<KubeObject>('ConfigMap', 'kube-root-ca.crt', name);
    assert.match(String((cm.data as Record<string, string>)['ca.crt']), /^-----BEGIN CERTIFICATE-----\n[\s\S]*PLACEHOLDER/);
  });
}

test('the namespaces are exactly the four kubeadm starts with', () => {
  assert.deepEqual(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata?.name), namespaceCases);
});

const nodeCases = [
  {
    name: 'control-plane', ip: '192.168.49.2', cidr: '10.244.0.0/24', cpu: '2',
    memory: { capacity: '4194304Ki', allocatable: '4091904Ki' },
    taints: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' }],
    roleLabels: { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' },
  },
  {
    name: 'worker-1', ip: '192.168.49.3', cidr: '10.244.1.0/24', cpu: '4',
    memory: { capacity: '8388608Ki', allocatable: '8286208Ki' }, taints: undefined, roleLabels: {},
  },
  {
    name: 'worker-2', ip: '192.168.49.4', cidr: '10.244.2.0/24', cpu: '4',
    memory: { capacity: '8388608Ki', allocatable: '8286208Ki' }, taints: undefined, roleLabels: {},
  },
];
for (const c of nodeCases) {
  test(`node ${c.name} has podCIDR ${c.cidr}, its taints, labels, resources and a Ready kubelet`, () => {
    const node = find<Node>('Node', c.name);
    assert.equal(node.spec?.podCIDR, c.cidr);
    assert.deepEqual(node.spec?.podCIDRs, [c.cidr]);
    assert.deepEqual(node.spec?.taints, c.taints);
    assert.deepEqual(node.metadata?.labels, {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': c.name,
      'kubernetes.io/os': 'linux',
      ...c.roleLabels,
    });
    const status = node.status!;
    assert.deepEqual(status.addresses, [{ address: c.ip, type: 'InternalIP' }, { address: c.name, type: 'Hostname' }]);
    const common = { 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', pods: '110', cpu: c.cpu };
    assert.deepEqual(status.capacity, { ...common, 'ephemeral-storage': '61255492Ki', memory: c.memory.capacity });
    assert.deepEqual(status.allocatable, { ...common, 'ephemeral-storage': '56453061334', memory: c.memory.allocatable });
    assert.deepEqual(
      status.conditions?.map((k) => [k.type, k.status, k.reason, k.message]),
      [
        ['NetworkUnavailable', 'False', 'FlannelIsUp', 'Flannel is running on this node'],
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ],
    );
    assert.equal(status.nodeInfo?.kubeletVersion, 'v1.36.0');
    assert.match(status.nodeInfo?.containerRuntimeVersion ?? '', /^containerd:\/\/2\./);
    assert.equal(status.daemonEndpoints?.kubeletEndpoint?.Port, 10250);
    const names = (status.images ?? []).flatMap((i) => i.names ?? []);
    for (const image of ['registry.k8s.io/pause:3.10.1', 'registry.k8s.io/kube-proxy:v1.36.0', 'ghcr.io/flannel-io/flannel:v0.28.4']) {
      assert.ok(names.includes(image), `${c.name} lacks ${image}`);
    }
  });
}

test('memory allocatable is capacity less the 100Mi eviction-hard threshold on every node', () => {
  const ki = (q: string) => Number(q.replace(/Ki$/, ''));
  for (const o of objects.filter((x) => x.kind === 'Node') as unknown as Node[]) {
    assert.equal(ki(o.status!.capacity!.memory) - ki(o.status!.allocatable!.memory), 100 * 1024, o.metadata?.name);
  }
});

test('the priority classes are the two the apiserver creates', () => {
  const got = objects.filter((o) => o.kind === 'PriorityClass').map((o) => [o.metadata?.name, o.value, o.globalDefault, o.description]);
  assert.deepEqual(got, [
    ['system-cluster-critical', 2000000000, false, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
    ['system-node-critical', 2000001000, false, 'Used for system critical pods that must not be moved from their current node.'],
  ]);
});

test('the kubernetes and kube-dns services have kubeadm\'s cluster IPs and ports', () => {
  const kubernetes = find<KubeObject>('Service', 'kubernetes', 'default').spec as Record<string, unknown>;
  assert.equal(kubernetes.clusterIP, '10.96.0.1');
  assert.deepEqual(kubernetes.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }]);
  const dns = find<KubeObject>('Service', 'kube-dns', 'kube-system').spec as Record<string, unknown>;
  assert.equal(dns.clusterIP, '10.96.0.10');
  assert.deepEqual((dns.ports as { name: string; port: number; protocol: string }[]).map((p) => [p.name, p.port, p.protocol]), [
    ['dns', 53, 'UDP'], ['dns-tcp', 53, 'TCP'], ['metrics', 9153, 'TCP'],
  ]);
  assert.equal(objects.filter((o) => o.kind === 'StorageClass').length, 0, 'kubeadm installs no StorageClass');
});

const ruleCases: { name: string; role: string; want: PolicyRule }[] = [
  { name: 'cluster-admin may do anything to any resource', role: 'cluster-admin', want: { apiGroups: ['*'], resources: ['*'], verbs: ['*'] } },
  { name: 'cluster-admin may do anything to any non-resource URL', role: 'cluster-admin', want: { nonResourceURLs: ['*'], verbs: ['*'] } },
  { name: 'system:basic-user may create self subject reviews', role: 'system:basic-user', want: { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] } },
  { name: 'view reads pods with the aggregated rule of system:aggregate-to-view', role: 'view', want: { apiGroups: [''], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], verbs: ['get', 'list', 'watch'] } },
  { name: 'edit writes pods with the aggregated rule of system:aggregate-to-edit', role: 'edit', want: { apiGroups: [''], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] } },
  { name: 'admin manages roles with the aggregated rule of system:aggregate-to-admin', role: 'admin', want: { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] } },
  { name: 'system:kube-scheduler may bind pods', role: 'system:kube-scheduler', want: { apiGroups: [''], resources: ['bindings', 'pods/binding'], verbs: ['create'] } },
  { name: 'system:node may report pod status', role: 'system:node', want: { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] } },
];
for (const c of ruleCases) {
  test(`${c.name}`, () => {
    const role = find<ClusterRole>('ClusterRole', c.role);
    assert.ok(role.rules?.some((r) => isDeepStrictEqual(r, c.want)), `${c.role} lacks ${JSON.stringify(c.want)}`);
  });
}

test('cluster-admin has exactly its two rules', () => {
  assert.deepEqual(find<ClusterRole>('ClusterRole', 'cluster-admin').rules, [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]);
});

test('admin, edit and view keep their aggregation rule and hold the union of the roles they select', () => {
  const roles = objects.filter((o) => o.kind === 'ClusterRole') as unknown as ClusterRole[];
  for (const name of ['view', 'edit', 'admin']) {
    const role = find<ClusterRole>('ClusterRole', name);
    const selectors = role.aggregationRule?.clusterRoleSelectors ?? [];
    assert.equal(selectors.length, 1, name);
    const selected = roles
      .filter((r) => r.metadata?.name !== name && Object.entries(selectors[0].matchLabels ?? {}).every(([k, v]) => r.metadata?.labels?.[k] === v))
      .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
    const want: PolicyRule[] = [];
    for (const r of selected) for (const rule of r.rules ?? []) if (!want.some((w) => isDeepStrictEqual(w, rule))) want.push(rule);
    assert.deepEqual(role.rules, want, name);
  }
});

const bindingCases: { name: string; kind: 'ClusterRoleBinding' | 'RoleBinding'; namespace?: string; role: string; subjects: unknown[] }[] = [
  { name: 'kubeadm:cluster-admins', kind: 'ClusterRoleBinding', role: 'cluster-admin', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'kubeadm:cluster-admins' }] },
  { name: 'cluster-admin', kind: 'ClusterRoleBinding', role: 'cluster-admin', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }] },
  { name: 'system:basic-user', kind: 'ClusterRoleBinding', role: 'system:basic-user', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }] },
  { name: 'system:discovery', kind: 'ClusterRoleBinding', role: 'system:discovery', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }] },
  {
    name: 'system:public-info-viewer', kind: 'ClusterRoleBinding', role: 'system:public-info-viewer', subjects: [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:unauthenticated' },
    ],
  },
  { name: 'system:kube-scheduler', kind: 'ClusterRoleBinding', role: 'system:kube-scheduler', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' }] },
  { name: 'kubeadm:get-nodes', kind: 'ClusterRoleBinding', role: 'kubeadm:get-nodes', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers:kubeadm:default-node-token' }] },
  { name: 'kubeadm:kubelet-bootstrap', kind: 'ClusterRoleBinding', role: 'system:node-bootstrapper', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers:kubeadm:default-node-token' }] },
  { name: 'system:controller:replicaset-controller', kind: 'ClusterRoleBinding', role: 'system:controller:replicaset-controller', subjects: [{ kind: 'ServiceAccount', name: 'replicaset-controller', namespace: 'kube-system' }] },
  { name: 'kubeadm:bootstrap-signer-clusterinfo', kind: 'RoleBinding', namespace: 'kube-public', role: 'kubeadm:bootstrap-signer-clusterinfo', subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:anonymous' }] },
];
for (const c of bindingCases) {
  test(`${c.kind} ${c.name} binds ${c.role} to ${(c.subjects as { name: string }[]).map((s) => s.name).join(', ')}`, () => {
    const binding = find<ClusterRoleBinding | RoleBinding>(c.kind, c.name, c.namespace);
    assert.equal(binding.roleRef.name, c.role);
    assert.equal(binding.roleRef.apiGroup, 'rbac.authorization.k8s.io');
    assert.deepEqual(binding.subjects, c.subjects);
  });
}

test('every binding refers to a role that exists', () => {
  for (const b of objects.filter((o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding') as unknown as RoleBinding[]) {
    const ns = b.roleRef.kind === 'Role' ? b.metadata?.namespace : undefined;
    find<KubeObject>(b.roleRef.kind, b.roleRef.name, ns);
  }
});

test('bootstrap RBAC objects carry the autoupdate annotation and the rbac-defaults label', () => {
  const rbac = objects.filter((o) => ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(o.kind!));
  const bootstrap = rbac.filter((o) => !/^(kubeadm:|kube-proxy$|system:coredns$)/.test(o.metadata!.name!));
  assert.ok(bootstrap.length > 100);
  for (const o of bootstrap) {
    assert.equal(o.metadata?.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', `${o.kind} ${o.metadata?.name}`);
    assert.equal(o.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', `${o.kind} ${o.metadata?.name}`);
  }
});

test('default-cluster.ts embeds default-cluster.yaml as it is now', () => {
  const yamlText = readFileSync(join(root, 'src/engine/cluster/default-cluster.yaml'), 'utf8');
  assert.ok(DEFAULT_CLUSTER_YAML === yamlText, 'default-cluster.ts is stale: run node scripts/embed-default-cluster.mjs');
  const check = spawnSync(process.execPath, [join(root, 'scripts/embed-default-cluster.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

test('the embedded cluster, read fast, is what the full reader reads: every object, range and field range', () => {
  const full = parseDocuments(DEFAULT_CLUSTER_YAML, DEFAULT_CLUSTER_FILE);
  const fast = embeddedCluster();
  assert.equal(fast.length, full.length);
  fast.forEach((doc, i) => {
    const want = full[i]!;
    const name = `${String(want.object.kind)} ${String(want.object.metadata?.name)}`;
    assert.deepEqual(doc.object, want.object, name);
    assert.deepEqual([doc.file, doc.index, doc.range], [want.file, want.index, want.range], name);
    assert.deepEqual([...doc.fields], [...want.fields], name);
  });
});
