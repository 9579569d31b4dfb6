// A StatefulSet's history: the ControllerRevision that records its pod template as a strategic merge patch, named
// after the FNV hash of that patch. See pkg/controller/statefulset/stateful_set_utils.go (getPatch, newRevision,
// nextRevision) and pkg/controller/history/controller_history.go (NewControllerRevision, HashControllerRevision,
// ControllerRevisionName) at kubernetes v1.36.3.
import { goMarshal, goStructJson } from '../api/go-json';
import { fnv32, safeEncodeString } from '../api/naming';
import { matchesLabelSelector } from '../api/labels';
import type { KubeObject, LabelSelector } from '../api/types';
import type { Store } from '../cluster/store';
import { controllerRef } from './owner';

/** CONTROLLER_REVISION_HASH_LABEL is history.ControllerRevisionHashLabel, the label holding a revision's hash. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** STATEFULSET_REVISION_LABEL is apps.StatefulSetRevisionLabel, the pod label naming its revision. */
export const STATEFULSET_REVISION_LABEL = 'controller-revision-hash';

/** ControllerRevision is an apps/v1 ControllerRevision as the store holds it. */
export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision?: number;
}

/**
 * statefulSetPatch is getPatch: the set encoded as apps/v1 JSON, reduced to {"spec":{"template":...}} with
 * "$patch":"replace" added to the template, then json.Marshal of that map — keys sorted at every level and HTML
 * characters escaped. The template is what the controller decoded from protobuf, so it is written as its Go struct
 * marshals (go-json.ts): empty lists dropped, `resources: {}` on every container, quantities canonical.
 */
export function statefulSetPatch(set: KubeObject): string {
  // A stored object is frozen and replaced on every write: its patch is made once, however often a sync or the
  // run's outcome asks for it.
  const kept = Object.isFrozen(set) ? patches.get(set) : undefined;
  if (kept !== undefined) return kept;
  const template = goStructJson('core/v1.PodTemplateSpec', (set['spec'] as { template?: unknown } | undefined)?.template) as Record<string, unknown>;
  const patch = goMarshal({ spec: { template: { ...template, $patch: 'replace' } } });
  if (Object.isFrozen(set)) patches.set(set, patch);
  return patch;
}

/** patches are the patches of stored (frozen) sets, by object. */
const patches = new WeakMap<object, string>();

/**
 * hashControllerRevision is HashControllerRevision: FNV-1 (hash/fnv New32, not New32a) over Data.Raw, then the
 * decimal text of the collision count when one is given, then rand.SafeEncodeString of the decimal sum.
 */
export function hashControllerRevision(raw: string, collisionCount?: number): string {
  const encoder = new TextEncoder();
  let hash = fnv32(encoder.encode(raw));
  if (collisionCount !== undefined) hash = fnv32(encoder.encode(String(collisionCount)), hash);
  return safeEncodeString(String(hash));
}

/** controllerRevisionName is ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 bytes. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/** revisionRaw is a stored revision's Data.Raw: its data as json.Marshal wrote it (sorted keys, HTML escaping). */
export function revisionRaw(revision: ControllerRevision): string {
  return goMarshal(revision.data ?? null);
}

/**
 * newRevision is newRevision / history.NewControllerRevision: labels are the template's plus the hash label, the
 * set is the controller owner, the set's annotations are copied, data is the patch, and the name carries the hash
 * of the patch and the collision count.
 */
export function newRevision(set: KubeObject, revision: number, collisionCount: number): { revision: ControllerRevision; raw: string } {
  const raw = statefulSetPatch(set);
  const hash = hashControllerRevision(raw, collisionCount);
  const templateLabels = (set['spec'] as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template?.metadata?.labels ?? {};
  const annotations = set.metadata?.annotations ?? {};
  return {
    raw,
    revision: {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name: controllerRevisionName(set.metadata?.name ?? '', hash), namespace: set.metadata?.namespace,
        labels: { ...templateLabels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
        // An empty annotation map is nil once stored (protobuf), so it is left out.
        ...(Object.keys(annotations).length ? { annotations: { ...annotations } } : {}),
        ownerReferences: [controllerRef(set)],
      },
      data: JSON.parse(raw) as unknown,
      revision,
    },
  };
}

/**
 * controlledRevisions are the ControllerRevisions a set (StatefulSet or DaemonSet) controls that its selector matches,
 * in key order: history.ListRevisions with the set's controller reference. From the store's controller index, so a
 * sync costs the set's revisions, not the namespace's.
 */
export function controlledRevisions(store: Store, set: KubeObject & { spec?: { selector?: LabelSelector } }): ControllerRevision[] {
  return store.byIndex<ControllerRevision>('controller', set.metadata?.uid ?? '', 'ControllerRevision')
    .filter((r) => matchesLabelSelector(set.spec?.selector, r.metadata?.labels));
}
