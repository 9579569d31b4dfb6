// NodeRestriction: a kubelet (system:node:<name> in system:nodes) may only touch what belongs to its own node:
// mirror pods bound to itself, its Node object and labels, its lease, the pods it runs. Other users pass untouched.
import { goQuote } from '../../api/labels-validation';
import { isMirrorPod, podConfigMapNames, podSecretNames } from '../../api/pod-create';
import type { KubeObject, Node, PersistentVolumeClaim, Pod } from '../../api/types';
import type { EngineContext } from '../../context';
import { notFound, type UserInfo } from '../request';
import { newForbidden } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** NODE_LEASE_NAMESPACE is where node leases live (api.NamespaceNodeLease). */
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** nodeIdentity is the default NodeIdentifier: the node name of a system:node:<name> user in system:nodes. */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
  const prefix = 'system:node:';
  if (!user.name.startsWith(prefix) || !user.groups.includes('system:nodes')) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice(prefix.length) };
}

/** KUBELET_LABELS may be set by a kubelet on its Node (k8s.io/kubelet/pkg/apis/well_known_labels.go). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region', 'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'kubernetes.io/os',
  'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((d) => inNamespace(labelNamespace(key), d));
}

/** forbiddenLabels is getForbiddenLabels: node-restriction.kubernetes.io labels, and kubernetes.io/k8s.io ones a kubelet may not set. */
function forbiddenLabels(next: Record<string, string>, prev: Record<string, string>): string[] {
  const modified = new Set([...Object.keys(next), ...Object.keys(prev)].filter((k) => next[k] !== prev[k]));
  return [...modified].filter((label) => {
    const ns = labelNamespace(label);
    const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    return inNamespace(ns, 'node-restriction.kubernetes.io') || (kubernetes && !isKubeletLabel(label));
  }).sort();
}

/** canonical renders a value for apiequality.Semantic comparison: keys sorted, unset and zero values (empty strings, lists, maps) alike. */
function canonical(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length ? v.map(norm) : undefined;
    if (v && typeof v === 'object') {
      const entries = Object.entries(v).map(([k, x]) => [k, norm(x)] as const).filter(([, x]) => x !== undefined && x !== '' && x !== null);
      return entries.length ? Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1))) : undefined;
    }
    return v;
  };
  return JSON.stringify(norm(value) ?? null);
}

/** labelsEqual is labels.Equals: the same keys with the same values. */
function labelsEqual(x: Record<string, string>, y: Record<string, string>): boolean {
  return Object.keys(x).length === Object.keys(y).length && Object.entries(x).every(([k, v]) => y[k] === v);
}

/** admitPodCreate lets a node create only a mirror pod bound to itself, owned by its Node, referencing nothing else. */
function admitPodCreate(a: AdmissionAttributes, ctx: EngineContext, nodeName: string): AdmissionResult {
  const pod = a.object as Pod;
  const q = goQuote(nodeName);
  const refuse = (reason: string): AdmissionResult => ({ error: newForbidden(a, reason), detail: { node: nodeName, mirrorPod: isMirrorPod(pod) } });
  if (!isMirrorPod(pod)) return refuse(`pod does not have ${goQuote(MIRROR_POD_ANNOTATION)} annotation, node ${q} can only create mirror pods`);
  if ((pod.spec?.nodeName ?? '') !== nodeName) return refuse(`node ${q} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1) return refuse(`node ${q} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) {
    return refuse(`node ${q} can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true) return refuse(`node ${q} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) return refuse(`node ${q} must not set blockOwnerDeletion on an owner reference`);
  const node = ctx.store.get<Node>('Node', undefined, nodeName);
  // Why: the node lister's NotFound (Resource("node")) is returned as it is.
  if (!node) return { error: notFound('node', '', nodeName), detail: { node: nodeName, found: false } };
  if (owner.uid !== node.metadata?.uid) return refuse(`node ${nodeName} UID mismatch: expected ${owner.uid} got ${node.metadata?.uid ?? ''}`);
  if (pod.spec?.serviceAccountName) return refuse(`node ${q} can not create pods that reference a service account`);
  if (podSecretNames(pod).length > 0) return refuse(`node ${q} can not create pods that reference secrets`);
  if (podConfigMapNames(pod).length > 0) return refuse(`node ${q} can not create pods that reference configmaps`);
  const volumes = pod.spec?.volumes ?? [];
  if (volumes.some((v) => (v.projected?.sources ?? []).some((s) => s.clusterTrustBundle))) return refuse(`node ${q} can not create pods that reference clustertrustbundles`);
  if (volumes.some((v) => v.persistentVolumeClaim)) return refuse(`node ${q} can not create pods that reference persistentvolumeclaims`);
  return { note: `mirror pod bound to ${nodeName}`, detail: { node: nodeName, mirrorPod: true } };
}

/** admitPod is pods without subresource: a node creates mirror pods and deletes pods bound to itself. */
function admitPod(a: AdmissionAttributes, ctx: EngineContext, nodeName: string): AdmissionResult {
  if (a.operation === 'CREATE') return admitPodCreate(a, ctx, nodeName);
  if (a.operation === 'DELETE') {
    const existing = ctx.store.get<Pod>('Pod', a.namespace, a.name);
    if (!existing) return { error: notFound('pod', '', a.name) };
    if (existing.spec?.nodeName !== nodeName) return { error: newForbidden(a, `node ${goQuote(nodeName)} can only delete pods with spec.nodeName set to itself`) };
    return { note: `pod bound to ${nodeName}` };
  }
  return { error: newForbidden(a, `unexpected operation ${goQuote(a.operation)}, node ${goQuote(nodeName)} can only create and delete mirror pods`) };
}

/** admitPodStatus lets a node update the status of its own pods, without touching labels or resource claim statuses. */
function admitPodStatus(a: AdmissionAttributes, nodeName: string): AdmissionResult {
  if (a.operation !== 'UPDATE') return { error: newForbidden(a, `unexpected operation ${goQuote(a.operation)}`) };
  const old = a.oldObject as Pod | undefined;
  const pod = a.object as Pod;
  if (old?.spec?.nodeName !== nodeName) return { error: newForbidden(a, `node ${goQuote(nodeName)} can only update pod status for pods with spec.nodeName set to itself`) };
  if (!labelsEqual(old.metadata?.labels ?? {}, pod.metadata?.labels ?? {})) return { error: newForbidden(a, `node ${goQuote(nodeName)} cannot update labels through pod status`) };
  const claims = (p: Pod | undefined): string => canonical((p?.status?.resourceClaimStatuses ?? []).map((c) => ({ name: c.name, claim: c.resourceClaimName ?? null })));
  if (claims(old) !== claims(pod)) return { error: newForbidden(a, `node ${goQuote(nodeName)} cannot update resource claim statues`) };
  return { note: `status of a pod bound to ${nodeName}` };
}

/** admitPodEviction lets a node evict the pods bound to itself. */
function admitPodEviction(a: AdmissionAttributes, ctx: EngineContext, nodeName: string): AdmissionResult {
  if (a.operation !== 'CREATE') return { error: newForbidden(a, `unexpected operation ${a.operation}`) };
  const podName = a.name || (a.object.metadata?.name ?? '');
  if (!podName) return { error: newForbidden(a, 'could not determine pod from request data') };
  const existing = ctx.store.get<Pod>('Pod', a.namespace, podName);
  if (!existing) return { error: notFound('pod', '', podName) };
  if (existing.spec?.nodeName !== nodeName) return { error: newForbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`) };
  return { note: `eviction of a pod bound to ${nodeName}` };
}

/** admitNode lets a node create or update only its own Node, without forbidden labels, taints or a configSource. */
function admitNode(a: AdmissionAttributes, nodeName: string): AdmissionResult {
  const q = goQuote(nodeName);
  if (a.name !== nodeName) return { error: newForbidden(a, `node ${q} is not allowed to modify node ${goQuote(a.name)}`) };
  const node = a.object as Node;
  const configSource = (n: Node | undefined): unknown => (n?.spec as { configSource?: unknown } | undefined)?.configSource;
  if (a.operation === 'CREATE') {
    if (configSource(node)) return { error: newForbidden(a, `node ${q} is not allowed to create pods with a non-nil configSource`) };
    const labels = forbiddenLabels(node.metadata?.labels ?? {}, {});
    if (labels.length) return { error: newForbidden(a, `node ${q} is not allowed to set the following labels: ${labels.join(', ')}`), detail: { labels } };
  }
  if (a.operation === 'UPDATE') {
    const old = a.oldObject as Node | undefined;
    if (configSource(node) && canonical(configSource(node)) !== canonical(configSource(old))) {
      return { error: newForbidden(a, `node ${q} is not allowed to update configSource to a new non-nil configSource`) };
    }
    if (canonical(node.spec?.taints) !== canonical(old?.spec?.taints)) return { error: newForbidden(a, `node ${q} is not allowed to modify taints`) };
    const labels = forbiddenLabels(node.metadata?.labels ?? {}, old?.metadata?.labels ?? {});
    if (labels.length) return { error: newForbidden(a, `is not allowed to modify labels: ${labels.join(', ')}`), detail: { labels } };
  }
  return { note: `its own Node ${nodeName}` };
}

/** admitPVCStatus lets a node change only a claim's status capacity, conditions and allocated resources. */
function admitPVCStatus(a: AdmissionAttributes, nodeName: string): AdmissionResult {
  if (a.operation !== 'UPDATE') return { error: newForbidden(a, `unexpected operation ${goQuote(a.operation)}`) };
  const strip = (pvc: PersistentVolumeClaim | undefined): unknown => {
    const { resourceVersion: _rv, managedFields: _mf, ...metadata } = pvc?.metadata ?? {};
    const { capacity: _c, conditions: _co, allocatedResourceStatuses: _s, allocatedResources: _r, ...status } = pvc?.status ?? {};
    return { ...pvc, metadata, status };
  };
  const before = strip(a.oldObject as PersistentVolumeClaim | undefined);
  const after = strip(a.object as PersistentVolumeClaim);
  if (canonical(before) === canonical(after)) return { note: 'only the status changed' };
  // cmp.Diff's rendering is not reproduced: the two stripped objects are shown instead.
  return { error: newForbidden(a, `node ${goQuote(nodeName)} is not allowed to update fields other than status.quantity and status.conditions: ${canonical(before)} != ${canonical(after)}`) };
}

/** admitTokenRequest lets a node request service account tokens only bound to a pod scheduled on itself. */
function admitTokenRequest(a: AdmissionAttributes, ctx: EngineContext, nodeName: string): AdmissionResult {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return {};
  const ref = (a.object as KubeObject & { spec?: { boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } } }).spec?.boundObjectRef;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) return { error: newForbidden(a, 'node requested token not bound to a pod') };
  if (!ref.uid) return { error: newForbidden(a, 'node requested token with a pod binding without a uid') };
  const pod = ctx.store.get<Pod>('Pod', a.namespace, ref.name);
  if (!pod) return { error: notFound('pod', '', ref.name) };
  if (ref.uid !== pod.metadata?.uid) {
    return { error: newForbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`) };
  }
  if (pod.spec?.nodeName !== nodeName) return { error: newForbidden(a, 'node requested token bound to a pod scheduled on a different node') };
  return { note: `token bound to a pod on ${nodeName}` };
}

/** sameNameAs checks a node's lease or CSINode: the object (on create) or the request must carry the node's name. */
function sameNameAs(a: AdmissionAttributes, nodeName: string, what: string): AdmissionResult {
  const name = a.operation === 'CREATE' ? a.object.metadata?.name ?? '' : a.name;
  return name === nodeName ? { note: `${what} of ${nodeName}` } : { error: newForbidden(a, `can only access ${what} with the same name as the requesting node`) };
}

/** admitResourceSlice lets a node create and delete only the ResourceSlices of its own node. */
function admitResourceSlice(a: AdmissionAttributes, nodeName: string): AdmissionResult {
  const sliceNode = (o: KubeObject | undefined): string | undefined => (o as { spec?: { nodeName?: string } } | undefined)?.spec?.nodeName;
  if (a.operation === 'CREATE' && sliceNode(a.object) !== nodeName) return { error: newForbidden(a, 'can only create ResourceSlice with the same NodeName as the requesting node') };
  if (a.operation === 'DELETE' && sliceNode(a.oldObject) !== nodeName) return { error: newForbidden(a, 'can only delete ResourceSlice with the same NodeName as the requesting node') };
  return { note: `ResourceSlice of ${nodeName}` };
}

/** route sends a node's request to the check for its resource. */
function route(a: AdmissionAttributes, ctx: EngineContext, nodeName: string): AdmissionResult {
  const gr = `${a.resource}.${a.group}`;
  switch (gr) {
    case 'pods.':
      if (a.subresource === '') return admitPod(a, ctx, nodeName);
      if (a.subresource === 'status') return admitPodStatus(a, nodeName);
      if (a.subresource === 'eviction') return admitPodEviction(a, ctx, nodeName);
      return { error: newForbidden(a, `unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`) };
    case 'nodes.': return admitNode(a, nodeName);
    case 'persistentvolumeclaims.': return a.subresource === 'status' ? admitPVCStatus(a, nodeName) : { error: newForbidden(a, 'may only update PVC status') };
    case 'serviceaccounts.': return admitTokenRequest(a, ctx, nodeName);
    case 'leases.coordination.k8s.io':
      if (a.namespace !== NODE_LEASE_NAMESPACE) return { error: newForbidden(a, `can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`) };
      return sameNameAs(a, nodeName, 'node lease');
    case 'csinodes.storage.k8s.io': return sameNameAs(a, nodeName, 'CSINode');
    case 'resourceslices.resource.k8s.io': return admitResourceSlice(a, nodeName);
    // The CN check of kubelet CSRs needs the PKCS#10 request parsed; the simulation serves no CSRs.
    default: return { note: `${a.resource} are not restricted` };
  }
}

/**
 * nodeRestriction limits what a kubelet may do; for any other user it does nothing. Each refusal is Forbidden,
 * e.g. `pods "web" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "worker-1" can
 * only create mirror pods`. See plugin/pkg/admission/noderestriction/admission.go.
 */
export const nodeRestriction: AdmissionPlugin = {
  name: 'NodeRestriction',
  source: 'plugin/pkg/admission/noderestriction/admission.go',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  admit(a, ctx) {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return { note: `${a.user.name} is not a node`, detail: { user: a.user.name, node: null } };
    if (!nodeName) return { error: newForbidden(a, `could not determine node from user ${goQuote(a.user.name)}`), detail: { user: a.user.name } };
    const result = route(a, ctx, nodeName);
    return { ...result, detail: { user: a.user.name, node: nodeName, resource: a.subresource ? `${a.resource}/${a.subresource}` : a.resource, ...result.detail } };
  },
};
