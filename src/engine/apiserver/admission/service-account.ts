// ServiceAccount: a pod gets its service account (default) and the projected API token volume; the account must
// exist, and one that enforces mountable secrets limits the secrets the pod may name.
import { applyServiceAccount, enforcesMountableSecrets, isMirrorPod, limitSecretReferences, validateMirrorPod } from '../../api/pod-create';
import type { Container, Pod, ServiceAccount } from '../../api/types';
import type { StatusError } from '../request';
import { newForbidden } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';

/**
 * lookUp finds the pod's service account, or the Forbidden error the plugin gives (getServiceAccount ends in
 * apierrors.NewNotFound(Resource("serviceaccount"), name): `serviceaccount "x" not found`). The real plugin
 * retries a missing `default` ten times, live, for the controller to create it; the store is already final.
 */
function lookUp(a: AdmissionAttributes, accounts: readonly ServiceAccount[], name: string): ServiceAccount | StatusError {
  const sa = accounts.find((s) => s.metadata?.name === name);
  return sa ?? newForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
}

/**
 * ephemeralSecretReferences is limitEphemeralContainerSecretReferences: on an update of pods/ephemeralcontainers,
 * the secrets the ephemeral containers name must be among those the service account references.
 */
function ephemeralSecretReferences(sa: ServiceAccount, containers: readonly Container[]): string | undefined {
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
  const saName = sa.metadata?.name ?? '';
  for (const c of containers) {
    for (const env of c.env ?? []) {
      const ref = env.valueFrom?.secretKeyRef;
      if (ref && !mountable.has(ref.name)) {
        return `ephemeral container ${c.name} with envVar ${env.name} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
    for (const from of c.envFrom ?? []) {
      if (from.secretRef && !mountable.has(from.secretRef.name)) {
        return `ephemeral container ${c.name} with envFrom referencing secret.secretName="${from.secretRef.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
  }
  return undefined;
}

/**
 * serviceAccount mutates pods on create (Admit, which ends by running Validate) and checks them again in the
 * validating pass, after later plugins and webhooks had their say: a mirror pod may reference no service account,
 * secret or token projection; any other pod needs a service account that exists and, when it enforces mountable
 * secrets, references every secret the pod names. See plugin/pkg/admission/serviceaccount/admission.go.
 */
export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  source: 'plugin/pkg/admission/serviceaccount/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && (a.subresource === '' || a.subresource === 'ephemeralcontainers') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE'),
  admit(a, ctx) {
    if (a.operation !== 'CREATE') return { note: 'pods are mutated on create only' };
    const pod = a.object as Pod;
    const accounts = ctx.store.list<ServiceAccount>('ServiceAccount', a.namespace);
    const m = applyServiceAccount(pod, ctx.rng, accounts);
    const name = m.object.spec?.serviceAccountName || pod.spec?.serviceAccountName || 'default';
    const detail = { mirrorPod: isMirrorPod(pod), serviceAccount: isMirrorPod(pod) ? null : `${a.namespace}/${name}` };
    if (m.error) return { error: newForbidden(a, m.error), detail };
    a.object = m.object as typeof a.object;
    const sa = accounts.find((s) => s.metadata?.name === name);
    return {
      changes: m.changes, note: isMirrorPod(pod) ? 'mirror pod left as it is' : `service account "${name}"`,
      detail: {
        ...detail, automountServiceAccountToken: pod.spec?.automountServiceAccountToken ?? sa?.automountServiceAccountToken ?? null,
        enforceMountableSecrets: sa ? enforcesMountableSecrets(sa) : false,
      },
    };
  },
  validate(a, ctx): AdmissionResult {
    const pod = a.object as Pod;
    const accounts = ctx.store.list<ServiceAccount>('ServiceAccount', a.namespace);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') return validateEphemeral(a, pod, accounts);
    if (a.operation !== 'CREATE') return { note: 'pod specs are checked on create only' };
    if (isMirrorPod(pod)) {
      const error = validateMirrorPod(pod);
      return error ? { error: newForbidden(a, error), detail: { mirrorPod: true } } : { note: 'mirror pod references nothing', detail: { mirrorPod: true } };
    }
    const name = pod.spec?.serviceAccountName ?? '';
    if (!name) return { error: newForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`), detail: { serviceAccount: null } };
    const sa = lookUp(a, accounts, name);
    if (sa instanceof Error) return { error: sa, detail: { serviceAccount: `${a.namespace}/${name}`, found: false } };
    const enforce = enforcesMountableSecrets(sa);
    const detail = { serviceAccount: `${a.namespace}/${name}`, found: true, enforceMountableSecrets: enforce };
    const refused = enforce ? limitSecretReferences(sa, pod) : undefined;
    if (refused) return { error: newForbidden(a, refused), detail };
    return { note: `service account "${name}" exists`, detail };
  },
};

/** validateEphemeral checks an update of pods/ephemeralcontainers. */
function validateEphemeral(a: AdmissionAttributes, pod: Pod, accounts: readonly ServiceAccount[]): AdmissionResult {
  const name = pod.spec?.serviceAccountName ?? '';
  if (!name) return { error: newForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`) };
  const sa = lookUp(a, accounts, name);
  if (sa instanceof Error) return { error: sa };
  if (!enforcesMountableSecrets(sa)) return { note: `service account "${name}" does not enforce mountable secrets` };
  const refused = ephemeralSecretReferences(sa, (pod.spec?.ephemeralContainers ?? []) as Container[]);
  return refused ? { error: newForbidden(a, refused) } : { note: 'the ephemeral containers name only mountable secrets' };
}
