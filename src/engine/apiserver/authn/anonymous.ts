// --anonymous-auth: a request with no credentials at all is system:anonymous in system:unauthenticated.
import type { Authenticator } from './authenticator';

/**
 * anonymousAuthenticator accepts a request that carries no credentials, when anonymous auth is on.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go.
 */
export const anonymousAuthenticator: Authenticator = {
  name: 'anonymous',
  authenticate(request, profile) {
    const c = request.credentials;
    if (!profile.authentication.anonymous || c.token !== undefined || c.certificatePem !== undefined || c.serviceAccount !== undefined) return null;
    return { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } };
  },
};
