// AlwaysAdmit and AlwaysDeny: the two deprecated plugins that admit, or refuse, everything.
import { StatusError } from '../request';
import type { AdmissionPlugin } from './plugin';

/** alwaysAdmit admits every request (plugin/pkg/admission/admit/admission.go). */
export const alwaysAdmit: AdmissionPlugin = {
  name: 'AlwaysAdmit',
  source: 'plugin/pkg/admission/admit/admission.go',
  handles: () => true,
  admit: () => ({ note: 'admits everything' }),
};

/**
 * alwaysDeny refuses every request with `admission control is denying all modifications`, as a
 * Forbidden error (plugin/pkg/admission/deny/admission.go: admission.NewForbidden).
 */
export const alwaysDeny: AdmissionPlugin = {
  name: 'AlwaysDeny',
  source: 'plugin/pkg/admission/deny/admission.go',
  handles: () => true,
  // Admit and Validate both refuse; the mutating pass comes first, so it refuses there.
  admit: (a) => {
    const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
    const message = `${qualified}${a.name ? ` "${a.name}"` : ''} is forbidden: admission control is denying all modifications`;
    return { error: new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: { ...(a.name ? { name: a.name } : {}), group: a.group, kind: a.resource }, code: 403 }) };
  },
};
