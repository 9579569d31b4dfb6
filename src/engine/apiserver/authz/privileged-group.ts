// The superuser authorizer kube-apiserver puts before every mode: members of system:masters may do anything.
import type { Authorizer } from './authorizer';

/** SYSTEM_MASTERS is user.SystemPrivilegedGroup. */
export const SYSTEM_MASTERS = 'system:masters';

/**
 * privilegedGroupAuthorizer allows any request of a member of system:masters, with no reason, and has no opinion
 * otherwise. See pkg/kubeapiserver/authorizer/reload.go (newForConfig) and authorizerfactory/builtin.go.
 */
export const privilegedGroupAuthorizer: Authorizer = {
  name: 'SystemPrivilegedGroup',
  authorize(attrs) {
    return attrs.user.groups.includes(SYSTEM_MASTERS) ? { decision: 'Allow', reason: '', detail: { group: SYSTEM_MASTERS } } : { decision: 'NoOpinion', reason: '' };
  },
};
