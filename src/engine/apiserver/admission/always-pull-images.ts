// AlwaysPullImages: every container of a new pod pulls its image, so only pods with the credentials can use it.
import type { Container, Pod } from '../../api/types';
import { notSupported } from '../../api/labels-validation';
import { newForbidden, plainError } from './errors';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';

/** containersWithPaths is pods.VisitContainersWithPath: init, regular, then ephemeral containers with their paths. */
function containersWithPaths(pod: Pod): Array<{ container: Container; path: string }> {
  const out: Array<{ container: Container; path: string }> = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (pod.spec?.[kind] ?? []).forEach((c, i) => out.push({ container: c as Container, path: `spec.${kind}[${i}]` }));
  }
  return out;
}

/** isUpdateWithNoNewImages tells an update whose pod names no image the old pod did not: the plugin lets it be. */
function isUpdateWithNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE' || !a.oldObject) return false;
  const old = new Set(containersWithPaths(a.oldObject as Pod).map((c) => c.container.image));
  return containersWithPaths(a.object as Pod).every((c) => old.has(c.container.image));
}

/**
 * alwaysPullImages sets imagePullPolicy Always on every container of a pod created (or updated with a new image),
 * and refuses in the validating pass a pod whose policy a later mutation changed back. The refusal is an aggregate
 * of `pods "web" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported
 * values: "Always"` errors, which the API server, finding no status in it, answers as a 500 with that text.
 * See plugin/pkg/admission/alwayspullimages/admission.go.
 */
export const alwaysPullImages: AdmissionPlugin = {
  name: 'AlwaysPullImages',
  source: 'plugin/pkg/admission/alwayspullimages/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !isUpdateWithNoNewImages(a),
  admit(a) {
    const pod = structuredClone(a.object) as Pod;
    const changes: string[] = [];
    const before: Record<string, string | null> = {};
    for (const { container, path } of containersWithPaths(pod)) {
      before[path] = container.imagePullPolicy ?? null;
      if (container.imagePullPolicy !== 'Always') changes.push(`${path}.imagePullPolicy`);
      container.imagePullPolicy = 'Always';
    }
    a.object = pod as typeof a.object;
    return { changes, note: 'imagePullPolicy Always on every container', detail: { imagePullPolicy: before } };
  },
  validate(a) {
    const wrong = containersWithPaths(a.object as Pod).filter((c) => c.container.imagePullPolicy !== 'Always');
    const detail = { notAlways: wrong.map((c) => `${c.path}.imagePullPolicy`) };
    if (wrong.length === 0) return { note: 'every container pulls Always', detail };
    const messages = [...new Set(wrong.map((c) => newForbidden(a, notSupported(`${c.path}.imagePullPolicy`, c.container.imagePullPolicy ?? '', ['Always'])).message))];
    return { error: plainError(messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`), detail };
  },
};
