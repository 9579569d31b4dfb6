// Service account tokens: the credentials the controllers present (kube-controller-manager --use-service-account-credentials).
import type { ServiceAccount } from '../../api/types';
import type { Store } from '../../cluster/store';
import type { Authenticator } from './authenticator';

/**
 * serviceAccountAuthenticator accepts a service account token of an existing service account:
 * user `system:serviceaccount:<ns>:<name>`, groups system:serviceaccounts and system:serviceaccounts:<ns>.
 * See pkg/serviceaccount/claims.go and staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go.
 */
export function serviceAccountAuthenticator(store: Store): Authenticator {
  return {
    name: 'service-account-token',
    authenticate(request) {
      const ref = request.credentials.serviceAccount;
      if (ref === undefined) return null;
      const [namespace, name] = ref.split('/') as [string, string];
      const sa = store.get<ServiceAccount>('ServiceAccount', namespace, name);
      if (!sa) return { error: `service account ${namespace}/${name} not found` };
      return { user: { name: `system:serviceaccount:${namespace}:${name}`, uid: sa.metadata?.uid ?? '', groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] } };
    },
  };
}
