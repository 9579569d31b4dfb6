// --enable-bootstrap-token-auth (kubeadm turns it on): `<id>.<secret>` tokens kept in kube-system Secrets.
import type { KubeObject } from '../../api/types';
import type { Authenticator } from './authenticator';
import { decodeSecretValue } from '../../cluster/secret-values';

/** BOOTSTRAP_TOKEN is the token form of bootstraputil.ParseToken: a 6-character id and a 16-character secret. */
const BOOTSTRAP_TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/**
 * bootstrapTokenAuthenticator accepts a bootstrap token whose Secret `bootstrap-token-<id>` in kube-system has the
 * type bootstrap.kubernetes.io/token, the same token-id and token-secret, no past expiration and
 * usage-bootstrap-authentication "true": user `system:bootstrap:<id>`, groups system:bootstrappers and the
 * auth-extra-groups. Every failure is no opinion (it only logs), so a bad token ends as `invalid bearer token`.
 * See plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go and
 * staging/src/k8s.io/cluster-bootstrap/token/util (GetGroups, HasExpired).
 */
export const bootstrapTokenAuthenticator: Authenticator = {
  name: 'bootstrap-token',
  flag: '--enable-bootstrap-token-auth',
  authenticate(credentials, env) {
    const m = BOOTSTRAP_TOKEN.exec(credentials.token ?? '');
    if (!m) return null;
    const [, id, secretValue] = m as unknown as [string, string, string];
    const secret = env.store.get<Secret>('Secret', 'kube-system', `bootstrap-token-${id}`);
    if (!secret || secret.metadata?.deletionTimestamp || secret.type !== 'bootstrap.kubernetes.io/token') return null;
    // The values themselves are the store's alone: the stored Secret shows their sizes.
    const values = env.store.secretValues('kube-system', `bootstrap-token-${id}`) ?? {};
    const data = (key: string): string => (values[key] !== undefined ? decodeSecretValue(values[key]) : '');
    if (data('token-secret') !== secretValue || data('token-id') !== id) return null;
    const expiration = data('expiration');
    if (expiration && !(Date.parse(expiration) > env.now.getTime())) return null;
    if (data('usage-bootstrap-authentication') !== 'true') return null;
    // GetGroups: the default group and the validated extra groups, deduplicated and sorted.
    const extraText = data('auth-extra-groups');
    const extra = extraText ? extraText.split(',') : [];
    if (extra.some((g) => !/^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/.test(g))) return null;
    return { user: { name: `system:bootstrap:${id}`, groups: [...new Set(['system:bootstrappers', ...extra])].sort() } };
  },
};
