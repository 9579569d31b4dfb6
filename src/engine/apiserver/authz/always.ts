// The AlwaysAllow and AlwaysDeny modes. See staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go.
import type { Authorizer } from './authorizer';

/** alwaysAllow allows every request. */
export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ({ decision: 'Allow', reason: '' }) };

/** alwaysDeny denies every request, with the reason builtin.go gives. */
export const alwaysDeny: Authorizer = { name: 'AlwaysDeny', authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }) };
