// --token-auth-file: static bearer tokens, each naming a user, uid and groups.
import type { Authenticator } from './authenticator';

/**
 * tokenFileAuthenticator looks a bearer token up in the profile's static tokens. An unknown token is no opinion
 * here; the bearer-token wrapper turns "nobody knew it" into the error `invalid bearer token` (401).
 * See staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go (AuthenticateToken).
 */
export const tokenFileAuthenticator: Authenticator = {
  name: 'token-file',
  flag: '--token-auth-file',
  authenticate(credentials, env) {
    const token = credentials.token;
    if (!token) return null;
    const entry = env.profile.authentication.tokens.find((t) => t.token === token);
    if (!entry) return null;
    return { user: { name: entry.user, ...(entry.uid ? { uid: entry.uid } : {}), groups: [...(entry.groups ?? [])] } };
  },
};
