// Service account tokens: the credentials the controllers present (kube-controller-manager --use-service-account-credentials).
import type { ServiceAccount } from '../../api/types';
import type { Authenticator } from './authenticator';

/**
 * serviceAccountAuthenticator accepts the token of an existing service account: user
 * `system:serviceaccount:<ns>:<name>`, its uid, groups system:serviceaccounts and system:serviceaccounts:<ns>.
 * The token itself is not simulated: the credentials name the account (`<ns>/<name>`) whose token was sent.
 * A token whose account is gone fails with the getter's NotFound error, as the validator returns it.
 * See pkg/serviceaccount/claims.go (Validate), pkg/serviceaccount/jwt.go and
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go (UserInfo, MakeGroupNames).
 */
export const serviceAccountAuthenticator: Authenticator = {
  name: 'service-account-token',
  flag: '--service-account-key-file',
  authenticate(credentials, env) {
    const ref = credentials.serviceAccount;
    if (ref === undefined) return null;
    const [namespace = '', name = ''] = ref.split('/');
    const sa = env.store.get<ServiceAccount>('ServiceAccount', namespace, name);
    if (!sa) return { error: `serviceaccounts "${name}" not found` };
    return {
      user: {
        name: `system:serviceaccount:${namespace}:${name}`, uid: sa.metadata?.uid ?? '',
        groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
      },
    };
  },
};
