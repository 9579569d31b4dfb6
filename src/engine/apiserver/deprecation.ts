// The warning kube-apiserver sends with every request to a deprecated API, once authentication and authorization have
// let it through: `v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice`. See
// staging/src/k8s.io/apiserver/pkg/endpoints/installer.go (registerResourceHandlers: AddWarningsHandler) and
// deprecation/deprecation.go (WarningMessage), v0.36.3, and k8s.io/api core/v1 lifecycle.go (v0.36.3).
import type { ApiRequest } from './request';

interface Deprecation {
  /** deprecated is APILifecycleDeprecated: the major and minor release. */
  deprecated: [number, number];
  /** replacement is APILifecycleReplacement's group/version and kind. */
  replacement?: string;
}

/**
 * DEPRECATED is what the kinds the engine serves say of themselves through APILifecycleDeprecated, by group/version and
 * kind; all are deprecated as of 1.36. (ComponentStatus, deprecated in 1.19, is not served by the engine.)
 */
const DEPRECATED: ReadonlyMap<string, Deprecation> = new Map([
  ['v1/Endpoints', { deprecated: [1, 33], replacement: 'discovery.k8s.io/v1 EndpointSlice' }],
]);

/** deprecationWarnings is the endpoint-level warning of a request's resource: WarningMessage of its kind at its version. */
export function deprecationWarnings(req: Pick<ApiRequest, 'apiVersion' | 'kind'>): string[] {
  const found = DEPRECATED.get(`${req.apiVersion}/${req.kind}`);
  if (!found) return [];
  const [major, minor] = found.deprecated;
  return [`${req.apiVersion} ${req.kind} is deprecated in v${major}.${minor}+${found.replacement ? `; use ${found.replacement}` : ''}`];
}
