// The union authenticator: x509, then tokens, then anonymous, the first to accept wins.
import type { ClusterProfile } from '../../cluster/inputs';
import type { Store } from '../../cluster/store';
import type { ApiRequest, UserInfo } from '../request';
import { anonymousAuthenticator } from './anonymous';
import { type Authenticator, withAuthenticatedGroup } from './authenticator';
import { serviceAccountAuthenticator } from './service-account';
import { tokenFileAuthenticator } from './token-file';
import { x509Authenticator } from './x509';

/** authenticators is the chain in kube-apiserver's order (pkg/kubeapiserver/authenticator/config.go); anonymous comes last. */
export function authenticators(store: Store): Authenticator[] {
  return [x509Authenticator, tokenFileAuthenticator, serviceAccountAuthenticator(store), anonymousAuthenticator];
}

/** AuthnStep is what one authenticator said, for the trace. */
export interface AuthnStep {
  authenticator: string;
  result: 'accepted' | 'no opinion' | 'error';
  user?: UserInfo;
  error?: string;
}

/** AuthnOutcome is the chain's verdict: the user, or none (401), with every authenticator's answer. */
export interface AuthnOutcome {
  user?: UserInfo;
  steps: AuthnStep[];
}

/**
 * authenticate runs the chain. Errors from one authenticator do not stop the others; when none
 * accepts, the request is unauthorized. See staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go.
 */
export function authenticate(request: ApiRequest, profile: ClusterProfile, store: Store): AuthnOutcome {
  const steps: AuthnStep[] = [];
  for (const a of authenticators(store)) {
    const r = a.authenticate(request, profile);
    if (r === null) {
      steps.push({ authenticator: a.name, result: 'no opinion' });
    } else if ('error' in r) {
      steps.push({ authenticator: a.name, result: 'error', error: r.error });
    } else {
      const user = withAuthenticatedGroup(r.user);
      steps.push({ authenticator: a.name, result: 'accepted', user });
      return { user, steps };
    }
  }
  return { steps };
}
