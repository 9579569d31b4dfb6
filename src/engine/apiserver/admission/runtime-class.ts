// RuntimeClass: a pod's runtimeClassName must name a RuntimeClass; the class's overhead becomes the pod's, and its
// scheduling nodeSelector and tolerations are merged into the pod.
import type { RuntimeClass } from 'kubernetes-types/node/v1';
import { parseQuantity } from '../../api/quantity';
import type { Pod } from '../../api/types';
import type { EngineContext } from '../../context';
import { newForbidden, plainError } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { mergeTolerations } from './pod-toleration-restriction';

type ResourceList = Readonly<Record<string, string | number>>;

/**
 * sameResources is apiequality.Semantic.DeepEqual on two resource lists: the same names with equal quantities
 * (1000m equals 1), an unset list equal to an empty one.
 */
function sameResources(x: ResourceList | undefined, y: ResourceList | undefined): boolean {
  const a = x ?? {};
  const b = y ?? {};
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && parseQuantity(a[k]!).cmp(parseQuantity(b[k]!)) === 0);
}

/** prepare is prepareObjects: the pod's RuntimeClass, none when it names none, or the refusal for a missing one. */
function prepare(a: AdmissionAttributes, ctx: EngineContext): { runtimeClass: RuntimeClass | undefined } | { refusal: AdmissionResult } {
  const name = (a.object as Pod).spec?.runtimeClassName;
  // Why: only a nil runtimeClassName means none.
  if (name === undefined || name === null) return { runtimeClass: undefined };
  const runtimeClass = ctx.store.get<RuntimeClass>('RuntimeClass', undefined, name);
  if (runtimeClass) return { runtimeClass };
  // "" is not in the lister; the live Get that follows fails in client-go before it is sent (Request.Name: "resource
  // name may not be empty"), an error that is no API status: kube-apiserver answers 500 with its text.
  // See staging/src/k8s.io/client-go/rest/request.go (Name), v0.36.3.
  if (name === '') return { refusal: { error: plainError('resource name may not be empty'), detail: { runtimeClassName: name, found: false } } };
  // The lister is asked, then the API live; both are the store here.
  return { refusal: { error: newForbidden(a, `pod rejected: RuntimeClass "${name}" not found`), detail: { runtimeClassName: name, found: false } } };
}

/** setScheduling merges the class's nodeSelector (a pod value that differs is refused) and tolerations. */
function setScheduling(pod: Pod, rc: RuntimeClass, changes: string[]): string | undefined {
  const scheduling = rc.scheduling;
  if (!scheduling) return undefined;
  const spec = pod.spec!;
  const classSelector = scheduling.nodeSelector ?? {};
  if (!spec.nodeSelector) {
    if (scheduling.nodeSelector) {
      spec.nodeSelector = { ...classSelector };
      changes.push('spec.nodeSelector');
    }
  } else {
    // Go ranges over a map; the keys are taken in sorted order here so the first conflict reported is stable.
    for (const key of Object.keys(classSelector).sort()) {
      const podValue = spec.nodeSelector[key];
      if (podValue !== undefined && podValue !== classSelector[key]) {
        return `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${classSelector[key]}; pod.spec.nodeSelector[${key}] = ${podValue}`;
      }
      if (podValue === undefined) changes.push(`spec.nodeSelector[${key}]`);
      spec.nodeSelector[key] = classSelector[key]!;
    }
  }
  const before = spec.tolerations ?? [];
  const merged = mergeTolerations(before, scheduling.tolerations ?? []);
  if (JSON.stringify(merged) !== JSON.stringify(before)) {
    spec.tolerations = merged;
    changes.push('spec.tolerations');
  }
  return undefined;
}

/**
 * runtimeClass refuses a pod naming a RuntimeClass that does not exist (`pod rejected: RuntimeClass "x" not
 * found`), sets spec.overhead to the class's podFixed overhead (a different overhead already set is refused) and
 * merges the class's scheduling constraints on create; in the validating pass it refuses an overhead that is not
 * the class's. See plugin/pkg/admission/runtimeclass/admission.go.
 */
export const runtimeClass: AdmissionPlugin = {
  name: 'RuntimeClass',
  source: 'plugin/pkg/admission/runtimeclass/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && a.operation === 'CREATE',
  admit(a, ctx) {
    const prepared = prepare(a, ctx);
    if ('refusal' in prepared) return prepared.refusal;
    const rc = prepared.runtimeClass;
    if (!rc) return { note: 'no runtimeClassName', detail: { runtimeClassName: null } };
    const pod = structuredClone(a.object) as Pod;
    const spec = (pod.spec ??= { containers: [] });
    const detail = { runtimeClassName: spec.runtimeClassName, handler: rc.handler, overhead: rc.overhead?.podFixed ?? null, scheduling: rc.scheduling ?? null };
    const changes: string[] = [];
    if (rc.overhead) {
      const podFixed = rc.overhead.podFixed;
      if (Object.keys(spec.overhead ?? {}).length > 0 && !sameResources(podFixed, spec.overhead)) {
        return { error: newForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"), detail };
      }
      if (podFixed) {
        spec.overhead = { ...podFixed };
        changes.push('spec.overhead');
      } else {
        delete spec.overhead;
      }
    }
    const conflict = setScheduling(pod, rc, changes);
    if (conflict) return { error: newForbidden(a, conflict), detail };
    a.object = pod as typeof a.object;
    return { changes, note: `RuntimeClass "${spec.runtimeClassName}" (handler ${rc.handler})`, detail };
  },
  validate(a, ctx) {
    const prepared = prepare(a, ctx);
    if ('refusal' in prepared) return prepared.refusal;
    const rc = prepared.runtimeClass;
    const overhead = (a.object as Pod).spec?.overhead;
    const detail = { runtimeClassName: rc?.metadata?.name ?? null, overhead: overhead ?? null, classOverhead: rc?.overhead?.podFixed ?? null };
    // Why: a nil Overhead is none; an empty one ({}) is set (validateOverhead: pod.Spec.Overhead != nil).
    if (overhead === undefined || overhead === null) return { note: 'no overhead', detail };
    if (rc?.overhead) {
      if (!sameResources(rc.overhead.podFixed, overhead)) return { error: newForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"), detail };
      return { note: "the overhead is the RuntimeClass's", detail };
    }
    return { error: newForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'), detail };
  },
};
