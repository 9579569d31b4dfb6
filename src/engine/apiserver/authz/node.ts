// The Node authorizer: it speaks only for kubelets (system:node:<name> in system:nodes), limiting each to the
// objects related to it; the rest of what a kubelet may do comes from the static node rules.
import type { ClusterRole, Pod, PolicyRule } from '../../api/types';
import { embeddedCluster } from '../../cluster/files';
import type { Store } from '../../cluster/store';
import type { AuthzAttributes, Authorizer, AuthzResult } from './authorizer';
import { noOpinion } from './authorizer';
import { ruleAllows } from './rbac-rules';

let nodeRules: PolicyRule[] | undefined;

/**
 * NODE_RULES is bootstrappolicy.NodeRules(), the static rules the authorizer applies to resources it does not
 * subdivide: the same rules as the bootstrap `system:node` ClusterRole, read from the embedded default cluster
 * (not from the store: a cluster file changing that role does not change the authorizer).
 */
function staticNodeRules(): PolicyRule[] {
  nodeRules ??= embeddedCluster().map((d) => d.object as unknown as ClusterRole).find((r) => r.kind === 'ClusterRole' && r.metadata?.name === 'system:node')?.rules ?? [];
  return nodeRules;
}

/**
 * nodeAuthorizer is the Node authorizer with AuthorizeNodeWithSelectors on (the 1.36 default), with its graph
 * replaced by the relations read from the store when asked: a pod is related to the node it is bound to; a
 * secret, configmap or persistent volume claim to a node running a pod that uses it (volumes, env, envFrom,
 * imagePullSecrets); a persistent volume through its bound claim; a service account through a pod running as it.
 * Not simulated: resource claims, volume attachments, CSI nodes and resource slices are decided by their verb
 * checks only, leases in kube-node-lease by name. The reasons are the authorizer's own.
 * See plugin/pkg/auth/authorizer/node/node_authorizer.go, graph_populator.go and pkg/auth/nodeidentifier.
 */
export const nodeAuthorizer: Authorizer = {
  name: 'Node',
  authorize(attrs, store) {
    if (!attrs.user.name.startsWith('system:node:') || !attrs.user.groups.includes('system:nodes')) return noOpinion();
    const nodeName = attrs.user.name.slice('system:node:'.length);
    if (!nodeName) return noOpinion(`unknown node for user ${JSON.stringify(attrs.user.name)}`);
    if (attrs.resourceRequest) {
      const decided = subdivided(nodeName, attrs, store);
      if (decided) return decided;
    }
    const rule = staticNodeRules().find((r) => ruleAllows(attrs, r));
    return rule ? { decision: 'Allow', reason: '', detail: { node: nodeName, rule } } : noOpinion('', { node: nodeName });
  },
};

function subdivided(nodeName: string, attrs: AuthzAttributes, store: Store): AuthzResult | undefined {
  const { apiGroup: group, resource, verb, subresource: sub } = attrs;
  if (group === '' && (resource === 'secrets' || resource === 'configmaps')) {
    if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return noOpinion('can only read resources of this type');
    if (sub) return noOpinion('cannot read subresource');
    if (!attrs.namespace) return noOpinion('can only read namespaced object of this type');
    return related(nodeName, attrs, store);
  }
  if (group === '' && resource === 'persistentvolumeclaims') {
    if (sub === 'status') return verb === 'update' || verb === 'patch' ? related(nodeName, attrs, store) : noOpinion('can only get/update/patch this type');
    return getOnly(nodeName, attrs, store);
  }
  if ((group === '' && resource === 'persistentvolumes') || (group === 'resource.k8s.io' && resource === 'resourceclaims') || (group === 'storage.k8s.io' && resource === 'volumeattachments')) {
    return getOnly(nodeName, attrs, store);
  }
  if (group === '' && resource === 'serviceaccounts') {
    if (verb !== 'create' || !attrs.name) return noOpinion('can only create tokens for individual service accounts');
    if (sub !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return related(nodeName, attrs, store);
  }
  if (group === 'coordination.k8s.io' && resource === 'leases') {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (attrs.namespace !== 'kube-node-lease') return noOpinion('can only access leases in the "kube-node-lease" system namespace');
    if (verb !== 'create' && attrs.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
    return { decision: 'Allow', reason: '' };
  }
  if (group === '' && resource === 'nodes') return authorizeNode(nodeName, attrs);
  if (group === '' && resource === 'pods') return authorizePod(nodeName, attrs, store);
  return undefined;
}

function getOnly(nodeName: string, attrs: AuthzAttributes, store: Store): AuthzResult {
  if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
  if (attrs.subresource) return noOpinion('cannot get subresource');
  return related(nodeName, attrs, store);
}

function authorizeNode(nodeName: string, attrs: AuthzAttributes): AuthzResult {
  if (!attrs.subresource) {
    if (['create', 'update', 'patch'].includes(attrs.verb)) return { decision: 'Allow', reason: '' };
    if (['get', 'list', 'watch'].includes(attrs.verb)) {
      if (attrs.name === nodeName) return { decision: 'Allow', reason: '' };
      return noOpinion(attrs.name ? `node '${nodeName}' cannot read '${attrs.name}', only its own Node object` : `node '${nodeName}' cannot read all nodes, only its own Node object`);
    }
  } else if (attrs.subresource === 'status' && (attrs.verb === 'update' || attrs.verb === 'patch')) {
    return { decision: 'Allow', reason: '' };
  }
  return noOpinion();
}

function authorizePod(nodeName: string, attrs: AuthzAttributes, store: Store): AuthzResult {
  const { verb, subresource: sub } = attrs;
  if (!sub) {
    if (verb === 'get') return getOnly(nodeName, attrs, store);
    if (verb === 'list' || verb === 'watch') return attrs.name ? related(nodeName, attrs, store) : noOpinion('can only list/watch pods with spec.nodeName field selector');
    if (verb === 'create' || verb === 'delete') return { decision: 'Allow', reason: '' };
  } else if (sub === 'status' && (verb === 'update' || verb === 'patch')) return { decision: 'Allow', reason: '' };
  else if (sub === 'eviction' && verb === 'create') return { decision: 'Allow', reason: '' };
  return noOpinion();
}

/** related is NodeAuthorizer.authorize: a name is needed, then a path from the object to the node. */
function related(nodeName: string, attrs: AuthzAttributes, store: Store): AuthzResult {
  if (!attrs.name) return noOpinion('No Object name found');
  const via = relationTo(nodeName, attrs, store);
  return via ? { decision: 'Allow', reason: '', detail: { node: nodeName, via } } : noOpinion(`no relationship found between node '${nodeName}' and this object`);
}

/** relationTo finds the pod (or claim) that links the object to the node, as the graph's edges would. */
function relationTo(nodeName: string, attrs: AuthzAttributes, store: Store): string | undefined {
  const pods = store.list<Pod>('Pod').filter((p) => p.spec?.nodeName === nodeName);
  const { resource, name, namespace } = attrs;
  if (resource === 'pods') return pods.some((p) => p.metadata?.namespace === namespace && p.metadata?.name === name) ? `Pod/${namespace}/${name}` : undefined;
  if (resource === 'persistentvolumes') {
    const claim = store.list<{ metadata?: { namespace?: string; name?: string }; spec?: { volumeName?: string } }>('PersistentVolumeClaim').find((c) => c.spec?.volumeName === name);
    if (!claim) return undefined;
    return relationTo(nodeName, { ...attrs, resource: 'persistentvolumeclaims', namespace: claim.metadata?.namespace ?? '', name: claim.metadata?.name ?? '' }, store);
  }
  const users = pods.filter((p) => p.metadata?.namespace === namespace && podUses(p, resource, name));
  return users[0] ? `Pod/${namespace}/${users[0].metadata?.name}` : undefined;
}

/** podUses tells whether a pod refers to a secret, configmap, claim or service account by name (graph_populator.go). */
function podUses(pod: Pod, resource: string, name: string): boolean {
  const spec = pod.spec;
  if (!spec) return false;
  if (resource === 'serviceaccounts') return (spec.serviceAccountName || 'default') === name;
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as typeof spec.containers)];
  const volumes = spec.volumes ?? [];
  if (resource === 'secrets') {
    return (spec.imagePullSecrets ?? []).some((s) => s.name === name) || volumes.some((v) => v.secret?.secretName === name || (v.projected?.sources ?? []).some((s) => s.secret?.name === name))
      || containers.some((c) => (c.envFrom ?? []).some((e) => e.secretRef?.name === name) || (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef?.name === name));
  }
  if (resource === 'configmaps') {
    return volumes.some((v) => v.configMap?.name === name || (v.projected?.sources ?? []).some((s) => s.configMap?.name === name))
      || containers.some((c) => (c.envFrom ?? []).some((e) => e.configMapRef?.name === name) || (c.env ?? []).some((e) => e.valueFrom?.configMapKeyRef?.name === name));
  }
  if (resource === 'persistentvolumeclaims') return volumes.some((v) => v.persistentVolumeClaim?.claimName === name || (v.ephemeral !== undefined && `${pod.metadata?.name}-${v.name}` === name));
  return false;
}
