// DisableServiceLinks: new pods get no service environment variables (off by default).
import type { Pod } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/**
 * disableServiceLinks sets spec.enableServiceLinks to false on every pod created, whatever it said; updates are
 * let through unchanged. See plugin/pkg/admission/disableservicelinks/admission.go.
 */
export const disableServiceLinks: AdmissionPlugin = {
  name: 'DisableServiceLinks',
  source: 'plugin/pkg/admission/disableservicelinks/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'),
  admit(a) {
    const pod = a.object as Pod;
    const was = pod.spec?.enableServiceLinks ?? null;
    if (a.operation === 'UPDATE') return { note: 'updates are left as they are', detail: { enableServiceLinks: was } };
    a.object = { ...a.object, spec: { ...pod.spec, enableServiceLinks: false } };
    return { changes: was === false ? [] : ['spec.enableServiceLinks'], note: 'service links disabled', detail: { enableServiceLinks: was } };
  },
};
