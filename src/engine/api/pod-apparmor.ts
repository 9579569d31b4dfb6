// A pod created with the deprecated AppArmor annotations gets the matching appArmorProfile fields, as the pod
// strategy's PrepareForCreate does for clients older than the fields.
import type { Pod } from './types';

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
type AppArmorProfile = { type: string; localhostProfile?: string };

function appArmorFieldForAnnotation(value: string): AppArmorProfile | undefined {
  if (value === 'unconfined') return { type: 'Unconfined' };
  if (value === 'runtime/default') return { type: 'RuntimeDefault' };
  if (value.startsWith('localhost/') && value.length > 'localhost/'.length) {
    return { type: 'Localhost', localhostProfile: value.slice('localhost/'.length) };
  }
  return undefined;
}

/**
 * applyAppArmorVersionSkew: a deprecated per-container annotation becomes the container's appArmorProfile (unless the
 * container has one, or it equals the pod's), with a deprecation warning. Skipped for Windows pods.
 * See pkg/registry/core/pod/strategy.go (applyAppArmorVersionSkew) and pkg/api/pod/warnings.go (v1.36.3).
 */
export function applyAppArmorVersionSkew(pod: Pod, changes: string[], warnings: string[]): void {
  if (pod.spec?.os?.name === 'windows') return;
  const annotations = pod.metadata?.annotations ?? {};
  const podProfile = pod.spec?.securityContext?.appArmorProfile;
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (pod.spec?.[kind] ?? []).forEach((c, i) => {
      const key = APPARMOR_ANNOTATION_PREFIX + c.name;
      const annotation = annotations[key];
      if (annotation === undefined || c.securityContext?.appArmorProfile) return;
      const field = appArmorFieldForAnnotation(annotation);
      let warn = field === undefined;
      const samePodProfile = field !== undefined && podProfile?.type === field.type &&
        (podProfile.localhostProfile ?? undefined) === field.localhostProfile;
      if (field && !samePodProfile) {
        c.securityContext = { ...c.securityContext, appArmorProfile: field };
        changes.push(`spec.${kind}[${i}].securityContext.appArmorProfile`);
        warn = true;
      }
      if (warn) warnings.push(`metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    });
  }
}
