// --anonymous-auth: a request no authenticator spoke for is system:anonymous in system:unauthenticated.
import type { UserInfo } from '../request';
import { SYSTEM_ANONYMOUS, SYSTEM_UNAUTHENTICATED } from './authenticator';

/**
 * anonymousUser is the user the anonymous authenticator gives. It runs only when the chain before it returned no
 * user and no error (union.NewFailOnError): a bad token or a bad certificate is never anonymous.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go and
 * pkg/kubeapiserver/authenticator/config.go (New).
 */
export function anonymousUser(): UserInfo {
  return { name: SYSTEM_ANONYMOUS, groups: [SYSTEM_UNAUTHENTICATED] };
}
