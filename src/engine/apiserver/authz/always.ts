// The AlwaysAllow and AlwaysDeny modes. See staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go.
import type { Authorizer } from './authorizer';

/** alwaysAllow allows every request. */
export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ({ decision: 'Allow', reason: '' }) };

/**
 * alwaysDeny has no opinion, with the reason "Everything is forbidden.": a later mode may still allow, and when none
 * does the request is forbidden with that reason among the others.
 */
export const alwaysDeny: Authorizer = { name: 'AlwaysDeny', authorize: () => ({ decision: 'NoOpinion', reason: 'Everything is forbidden.' }) };
