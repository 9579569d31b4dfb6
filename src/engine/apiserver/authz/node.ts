// The Node authorizer: it speaks only for kubelets (system:node:<name> in system:nodes).
import type { Authorizer } from './authorizer';

/**
 * nodeAuthorizer has no opinion on anyone but a node. For a node it allows what the kubelet
 * needs; the graph of what a node may read is not simulated yet, so it allows a node to act on
 * pods bound to it and its own Node object, and has no opinion otherwise.
 * See plugin/pkg/auth/authorizer/node/node_authorizer.go.
 */
export const nodeAuthorizer: Authorizer = {
  name: 'Node',
  authorize(attrs, store) {
    const m = /^system:node:(.+)$/.exec(attrs.user.name);
    if (!m || !attrs.user.groups.includes('system:nodes')) return { decision: 'NoOpinion', reason: '' };
    const nodeName = m[1]!;
    if (attrs.resource === 'nodes' && (attrs.name === nodeName || attrs.verb === 'create')) {
      return { decision: 'Allow', reason: '', detail: { node: nodeName } };
    }
    if (attrs.resource === 'pods' && attrs.name) {
      const pod = store.get<{ spec?: { nodeName?: string } }>('Pod', attrs.namespace, attrs.name) as { spec?: { nodeName?: string } } | undefined;
      if (pod?.spec?.nodeName === nodeName) return { decision: 'Allow', reason: '', detail: { node: nodeName } };
    }
    return { decision: 'NoOpinion', reason: '' };
  },
};
