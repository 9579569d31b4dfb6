// The selector the default spread constraints use: the union of what the pod's Services and controlling owner select.
// See pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector, GetPodServices).
import { labelSelectorAsSelector, selectorFromSet, selectorMatches, SelectorError, type Requirement, type Selector } from '../../../api/labels';
import type { OwnerReference, Pod, ReplicaSet, Service } from '../../../api/types';
import { KindMemo } from '../../../cluster/kind-memo';
import { Store } from '../../../cluster/store';
import type { Listers } from '../../framework/listers';

/** Owner kinds whose selector spreads the pods they own, by apiVersion and kind (rcKind, rsKind, ssKind). */
const RC_KIND = 'v1/ReplicationController';
const RS_KIND = 'apps/v1/ReplicaSet';
const SS_KIND = 'apps/v1/StatefulSet';

/** SelectorOwner is what DefaultSelector reads of a ReplicationController, ReplicaSet or StatefulSet. */
interface SelectorOwner {
  spec?: { selector?: unknown };
}

/** isEmptySelector is Selector.Empty(): no requirement; Nothing is not empty. */
export function isEmptySelector(s: Selector): boolean {
  return !s.nothing && s.requirements.length === 0;
}

/** getPodServices lists the Services of the pod's namespace whose selector matches its labels; a nil selector matches nothing. */
export function getPodServices(pod: Pod, listers: Listers): Service[] {
  const labels = pod.metadata?.labels;
  return listers.list<Service>('Service', pod.metadata?.namespace ?? '').filter((s) => {
    const selector = s.spec?.selector;
    return selector != null && selectorMatches(selectorFromSet(selector), labels);
  });
}

/** controllerOf is the owner reference with controller: true (metav1.GetControllerOfNoCopy). */
function controllerOf(pod: Pod): OwnerReference | undefined {
  return pod.metadata?.ownerReferences?.find((o) => o.controller === true);
}

/** requirementsOf parses a LabelSelector's requirements; a bad or nil selector adds none. */
function requirementsOf(selector: unknown): readonly Requirement[] {
  try {
    const s = labelSelectorAsSelector(selector as Parameters<typeof labelSelectorAsSelector>[0]);
    return s.nothing ? [] : s.requirements;
  } catch (err) {
    if (err instanceof SelectorError) return [];
    throw err;
  }
}

const byKey = (a: Requirement, b: Requirement): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * SELECTORS keeps the default selectors worked out from a store, while no Service, ReplicationController, ReplicaSet or
 * StatefulSet changes: the pods of one template, scheduled one after another, have the same. A kept selector is shared
 * by the cycles that read it, which never change it.
 */
const SELECTORS = new KindMemo<Selector>(['Service', 'ReplicationController', 'ReplicaSet', 'StatefulSet']);

/**
 * defaultSelector merges the selectors of the Services that select the pod and, when the pod's controller is a
 * ReplicationController, ReplicaSet or StatefulSet that exists, that controller's selector. It reads the pod's
 * namespace, labels and controller reference alone.
 */
export function defaultSelector(pod: Pod, listers: Listers): Selector {
  if (!(listers instanceof Store)) return makeDefaultSelector(pod, listers);
  const meta = pod.metadata;
  const owner = controllerOf(pod);
  const key = JSON.stringify([meta?.namespace ?? '', meta?.labels ?? null, owner ? [owner.apiVersion, owner.kind, owner.name] : null]);
  return SELECTORS.get(listers, key, () => makeDefaultSelector(pod, listers));
}

function makeDefaultSelector(pod: Pod, listers: Listers): Selector {
  const namespace = pod.metadata?.namespace ?? '';
  // Services, RCs, RSs and SSs that match the pod cannot have conflicting labels, so merging is safe.
  const labelSet: Record<string, string> = {};
  for (const service of getPodServices(pod, listers)) Object.assign(labelSet, service.spec?.selector ?? {});
  let selector = selectorFromSet(labelSet);
  const owner = controllerOf(pod);
  if (!owner) return selector;
  const kind = `${owner.apiVersion}/${owner.kind}`;
  if (kind === RC_KIND) {
    const rc = listers.get<SelectorOwner>('ReplicationController', namespace, owner.name);
    const rcSelector = rc?.spec?.selector;
    if (rc) selector = selectorFromSet({ ...labelSet, ...(isStringMap(rcSelector) ? rcSelector : {}) });
  } else if (kind === RS_KIND || kind === SS_KIND) {
    const ownerObj = listers.get<ReplicaSet | SelectorOwner>(owner.kind, namespace, owner.name);
    if (ownerObj) selector = { nothing: false, requirements: [...selector.requirements, ...requirementsOf(ownerObj.spec?.selector)].sort(byKey) };
  }
  return selector;
}

function isStringMap(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}
