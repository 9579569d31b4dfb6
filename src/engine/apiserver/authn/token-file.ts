// --token-auth-file: static bearer tokens, each naming a user, uid and groups.
import type { Authenticator } from './authenticator';

/**
 * tokenFileAuthenticator looks a bearer token up in the profile's static tokens; an unknown token
 * is no opinion here, and the request ends unauthenticated (401) when nothing else accepts it.
 * See staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go.
 */
export const tokenFileAuthenticator: Authenticator = {
  name: 'token-file',
  authenticate(request, profile) {
    const token = request.credentials.token;
    if (token === undefined) return null;
    const entry = profile.authentication.tokens.find((t) => t.token === token);
    if (!entry) return null;
    return { user: { name: entry.user, ...(entry.uid ? { uid: entry.uid } : {}), groups: [...(entry.groups ?? [])] } };
  },
};
