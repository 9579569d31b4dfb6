// The objects around a live pod that bear on its diagnosis, one line each: its owners (ReplicaSet, Deployment,
// StatefulSet, Job...), its PersistentVolumeClaims, the namespace's ResourceQuotas and LimitRanges, its PriorityClass,
// the PodDisruptionBudgets and Services that select it. Pure: it reads the objects it is given.
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { matchesLabelSelector, selectorFromSet, selectorMatches } from '../api/labels';
import type { KubeObject, Pod } from '../api/types';

/** RelatedObject is one object around the pod and what it says about it. */
export interface RelatedObject {
  /** object is `Kind/name` (namespaced objects are in the pod's namespace). */
  object: string;
  /** relation says how it concerns the pod: owner, claim, quota, limits, priority, budget, service. */
  relation: 'owner' | 'claim' | 'quota' | 'limits' | 'priority' | 'budget' | 'service';
  /** note says what it shows, in a line; `not found` when the pod names an object the cluster does not have. */
  note: string;
  /** problem marks a line that may explain the pod's trouble (a Pending claim, a quota used up, a missing object). */
  problem?: boolean;
}

type Loose = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const find = (objects: readonly KubeObject[], kind: string, name: string): Loose | undefined =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name) as Loose | undefined;

function ownerNote(o: Loose): string {
  const s = o.status ?? {};
  if (o.kind === 'Job') return `active ${num(s.active)}, succeeded ${num(s.succeeded)}, failed ${num(s.failed)}`;
  if (o.kind === 'DaemonSet') return `${num(s.numberReady)}/${num(s.desiredNumberScheduled)} ready`;
  const replicas = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
  return `${num(s.readyReplicas)}/${replicas} ready${typeof s.availableReplicas === 'number' ? `, ${s.availableReplicas} available` : ''}`;
}

/** owners walks the controller ownerReferences up from the pod (a pod's ReplicaSet, then its Deployment). */
function owners(pod: Pod, objects: readonly KubeObject[]): RelatedObject[] {
  const out: RelatedObject[] = [];
  let refs = pod.metadata?.ownerReferences ?? [];
  for (let depth = 0; depth < 4 && refs.length > 0; depth++) {
    const ref = refs.find((r) => r.controller) ?? refs[0]!;
    const owner = find(objects, ref.kind, ref.name);
    out.push(owner ? { object: `${ref.kind}/${ref.name}`, relation: 'owner', note: ownerNote(owner) } : { object: `${ref.kind}/${ref.name}`, relation: 'owner', note: 'not read' });
    refs = owner?.metadata?.ownerReferences ?? [];
  }
  return out;
}

function claims(pod: Pod, objects: readonly KubeObject[]): RelatedObject[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => {
    const name = v.persistentVolumeClaim?.claimName;
    if (!name) return [];
    const pvc = find(objects, 'PersistentVolumeClaim', name);
    if (!pvc) return [{ object: `PersistentVolumeClaim/${name}`, relation: 'claim' as const, note: 'not found', problem: true }];
    const phase = typeof pvc.status?.phase === 'string' ? pvc.status.phase : 'Pending';
    const volume = typeof pvc.spec?.volumeName === 'string' && pvc.spec.volumeName ? ` to ${pvc.spec.volumeName}` : '';
    return [{ object: `PersistentVolumeClaim/${name}`, relation: 'claim' as const, note: `${phase}${volume}`, ...(phase !== 'Bound' ? { problem: true } : {}) }];
  });
}

function quotas(objects: readonly KubeObject[]): RelatedObject[] {
  return (objects.filter((o) => o.kind === 'ResourceQuota') as Loose[]).map((q) => {
    const hard = (q.status?.hard ?? q.spec?.hard ?? {}) as Record<string, string>;
    const used = (q.status?.used ?? {}) as Record<string, string>;
    const full = Object.keys(hard).filter((r) => used[r] !== undefined && used[r] === hard[r]);
    const note = Object.keys(hard).sort().map((r) => `${r} ${used[r] ?? '?'}/${hard[r]}`).join(', ') || 'no hard limits';
    return { object: `ResourceQuota/${q.metadata?.name ?? ''}`, relation: 'quota' as const, note: full.length ? `${note} (${full.join(', ')} used up)` : note, ...(full.length ? { problem: true } : {}) };
  });
}

function limitRanges(objects: readonly KubeObject[]): RelatedObject[] {
  return (objects.filter((o) => o.kind === 'LimitRange') as Loose[]).map((l) => {
    const limits = (l.spec?.limits ?? []) as { type?: string; default?: Record<string, string>; max?: Record<string, string>; min?: Record<string, string> }[];
    const parts = limits.map((x) => [x.type ?? 'Container', x.default && `default ${JSON.stringify(x.default)}`, x.max && `max ${JSON.stringify(x.max)}`, x.min && `min ${JSON.stringify(x.min)}`].filter(Boolean).join(' '));
    return { object: `LimitRange/${l.metadata?.name ?? ''}`, relation: 'limits' as const, note: parts.join('; ') || 'no limits' };
  });
}

function priority(pod: Pod, objects: readonly KubeObject[]): RelatedObject[] {
  const name = pod.spec?.priorityClassName;
  if (!name) return [];
  const pc = find(objects, 'PriorityClass', name) as (Loose & { value?: number; preemptionPolicy?: string }) | undefined;
  if (!pc) return [{ object: `PriorityClass/${name}`, relation: 'priority', note: 'not read' }];
  return [{ object: `PriorityClass/${name}`, relation: 'priority', note: `value ${pc.value ?? 0}, preemptionPolicy ${pc.preemptionPolicy ?? 'PreemptLowerPriority'}` }];
}

function budgets(pod: Pod, objects: readonly KubeObject[]): RelatedObject[] {
  const labels = pod.metadata?.labels ?? {};
  return (objects.filter((o) => o.kind === 'PodDisruptionBudget') as Loose[])
    .filter((b) => matchesLabelSelector(b.spec?.selector as LabelSelector | undefined, labels))
    .map((b) => {
      const allowed = num(b.status?.disruptionsAllowed);
      const rule = b.spec?.minAvailable !== undefined ? `minAvailable ${String(b.spec.minAvailable)}` : `maxUnavailable ${String(b.spec?.maxUnavailable ?? '?')}`;
      return { object: `PodDisruptionBudget/${b.metadata?.name ?? ''}`, relation: 'budget' as const, note: `${rule}: ${allowed} disruption${allowed === 1 ? '' : 's'} allowed${allowed === 0 ? ' (evictions and drains of this pod are refused)' : ''}` };
    });
}

function services(pod: Pod, objects: readonly KubeObject[], ready: boolean): RelatedObject[] {
  const labels = pod.metadata?.labels ?? {};
  return (objects.filter((o) => o.kind === 'Service') as Loose[])
    .filter((s) => {
      const sel = s.spec?.selector as Record<string, string> | undefined;
      return sel !== undefined && Object.keys(sel).length > 0 && selectorMatches(selectorFromSet(sel), labels);
    })
    .map((s) => ({
      object: `Service/${s.metadata?.name ?? ''}`, relation: 'service' as const,
      note: ready ? 'selects the pod: it is among its ready endpoints' : 'selects the pod, but a pod that is not Ready is kept out of its ready endpoints',
      ...(ready ? {} : { problem: true }),
    }));
}

/** relatedObjects lists the objects around the pod that bear on its diagnosis, owners first. */
export function relatedObjects(pod: Pod, objects: readonly KubeObject[], ready: boolean): RelatedObject[] {
  const ns = pod.metadata?.namespace ?? 'default';
  const here = objects.filter((o) => o.kind === 'PriorityClass' || (o.metadata?.namespace ?? ns) === ns);
  return [...owners(pod, here), ...claims(pod, here), ...quotas(here), ...limitRanges(here), ...priority(pod, here), ...budgets(pod, here), ...services(pod, here, ready)];
}
