// The Deployment controller's arithmetic: fenceposts, annotations, the new ReplicaSet's size, status and conditions.
// See pkg/controller/deployment/util/deployment_util.go and pkg/controller/deployment/sync.go (calculateStatus).
import { POD_TEMPLATE_HASH_LABEL } from '../api/naming';
import type { Deployment, ReplicaSet } from '../api/types';
import { k8sEqual } from './replicaset';

/** Annotations the Deployment controller writes. See deployment_util.go. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

/** ANNOTATIONS_TO_SKIP are the Deployment annotations not copied to its ReplicaSets (annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration', REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, 'deprecated.deployment.rollback.to',
]);

/** Condition reasons and messages. See deployment_util.go (the *Reason constants) and sync.go / progress.go. */
export const NEW_RS_REASON = 'NewReplicaSetCreated';
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const RS_UPDATED_REASON = 'ReplicaSetUpdated';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const MIN_AVAILABLE_REASON = 'MinimumReplicasAvailable';
export const MIN_UNAVAILABLE_REASON = 'MinimumReplicasUnavailable';

/** DeploymentCondition is one entry of status.conditions. */
export interface DeploymentCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
}

/** replicasOf is spec.replicas (defaulted to 1). */
export const replicasOf = (o: { spec?: { replicas?: number } }): number => o.spec?.replicas ?? 1;

/**
 * scaledValue is intstr.GetScaledValueFromIntOrPercent: an int as is, a percentage of total rounded up or down.
 * See staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go.
 */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const pct = /^(\d+)%$/.exec(value);
  if (!pct) return Number(value) || 0;
  const exact = (Number(pct[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

const isRollingUpdate = (d: Deployment): boolean => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** resolveFenceposts is ResolveFenceposts: maxSurge rounded up, maxUnavailable down; both 0 makes maxUnavailable 1. */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const desired = replicasOf(d);
  const ru = d.spec?.strategy?.rollingUpdate;
  const surge = scaledValue(ru?.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(ru?.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** maxSurge is MaxSurge: 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

/** maxUnavailable is MaxUnavailable: 0 unless RollingUpdate with replicas; at most the replicas. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicasOf(d));
}

/** templateEqualIgnoreHash is EqualIgnoreHash: the templates compared without the pod-template-hash label. */
export function templateEqualIgnoreHash(a: unknown, b: unknown): boolean {
  // Shallow copies down to the labels, which lose the hash label (and go when that was their only one).
  const strip = (t: unknown): unknown => {
    const template = (t ?? {}) as { metadata?: { labels?: Record<string, string> } };
    const labels = template.metadata?.labels;
    if (!labels || typeof labels !== 'object' || !Object.hasOwn(labels, POD_TEMPLATE_HASH_LABEL)) return template;
    const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...rest } = labels;
    const { labels: _labels, ...metadata } = template.metadata!;
    return { ...template, metadata: Object.keys(rest).length ? { ...metadata, labels: rest } : metadata };
  };
  return k8sEqual(strip(a), strip(b));
}

/** byCreation is ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** revisionOf reads a ReplicaSet's revision annotation (0 when absent). */
export function revisionOf(rs: ReplicaSet): number {
  return Number(rs.metadata?.annotations?.[REVISION_ANNOTATION] ?? 0) || 0;
}

/** sumSpec is GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const sumSpec = (sets: readonly ReplicaSet[]): number => sets.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
/** sumStatus sums one status count of the ReplicaSets. */
export const sumStatus = (sets: readonly ReplicaSet[], field: 'replicas' | 'readyReplicas' | 'availableReplicas'): number =>
  sets.reduce((n, rs) => n + ((rs.status as Record<string, number> | undefined)?.[field] ?? 0), 0);
/** activeSets is FilterActiveReplicaSets: those with replicas. */
export const activeSets = (sets: readonly ReplicaSet[]): ReplicaSet[] => sets.filter((rs) => (rs.spec?.replicas ?? 0) > 0);

/** newRSNewReplicas is NewRSNewReplicas: the new ReplicaSet's size, within maxSurge for RollingUpdate. */
export function newRSNewReplicas(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const desired = replicasOf(d);
  if (!isRollingUpdate(d)) return desired;
  const current = sumSpec(all);
  const maxTotal = desired + maxSurge(d);
  const have = newRS.spec?.replicas ?? 0;
  if (current >= maxTotal) return have;
  return have + Math.min(maxTotal - current, desired - have);
}

/** replicaSetProportion is GetReplicaSetProportion with getReplicaSetFraction (the max-replicas annotation before the scale). */
export function replicaSetProportion(d: Deployment, rs: ReplicaSet, toAdd: number, added: number): number {
  const size = rs.spec?.replicas ?? 0;
  if (size === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (replicasOf(d) === 0) fraction = -size;
  else {
    let before = Number(rs.metadata?.annotations?.[MAX_REPLICAS_ANNOTATION] ?? 0) || 0;
    if (before === 0) before = ((d.status ?? {}) as DeploymentStatus).replicas ?? 0;
    // Go's math.Round rounds halves away from zero.
    fraction = before === 0 ? 0 : Math.sign(size * (replicasOf(d) + maxSurge(d)) / before) * Math.round(Math.abs(size * (replicasOf(d) + maxSurge(d)) / before)) - size;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** setReplicasAnnotations is SetReplicasAnnotations on a mutable annotations map; true when one changed. */
export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) { annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired); changed = true; }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) { annotations[MAX_REPLICAS_ANNOTATION] = String(max); changed = true; }
  return changed;
}

/**
 * setNewReplicaSetAnnotations is SetNewReplicaSetAnnotations: copy the Deployment's annotations (but the skipped
 * ones), raise the revision, keep the revision history, and, on a ReplicaSet about to be created, the replicas.
 */
export function setNewReplicaSetAnnotations(d: Deployment, annotations: Record<string, string>, newRevision: number, exists: boolean): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const old = annotations[REVISION_ANNOTATION];
  const oldRevision = old === undefined ? 0 : Number(old);
  if (old !== undefined && Number.isNaN(oldRevision)) return false;
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (old !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION];
      annotations[REVISION_HISTORY_ANNOTATION] = history ? `${history},${old}` : old;
    }
  }
  if (!exists && setReplicasAnnotations(annotations, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

/** newCondition is NewDeploymentCondition, both times now. */
export function newCondition(type: string, status: string, reason: string, message: string, now: string): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/**
 * setCondition is SetDeploymentCondition: nothing when status and reason are the same; otherwise the condition
 * replaces the old one at the end of the list, keeping lastTransitionTime when the status did not change.
 */
export function setCondition(conditions: DeploymentCondition[], c: DeploymentCondition): DeploymentCondition[] {
  const current = conditions.find((x) => x.type === c.type);
  if (current && current.status === c.status && current.reason === c.reason) return conditions;
  const next = current && current.status === c.status ? { ...c, lastTransitionTime: current.lastTransitionTime } : c;
  return [...conditions.filter((x) => x.type !== c.type), next];
}

/** DeploymentStatus is the status calculateStatus computes. */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  collisionCount?: number;
  conditions?: DeploymentCondition[];
}

/** calculateStatus is sync.go's calculateStatus: counts from the ReplicaSets' status, and the Available condition. */
export function calculateStatus(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet | undefined, now: string): DeploymentStatus {
  const available = sumStatus(all, 'availableReplicas');
  const unavailable = Math.max(0, sumSpec(all) - available);
  const old = (d.status ?? {}) as DeploymentStatus;
  const counts: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 1,
    replicas: sumStatus(all, 'replicas'),
    updatedReplicas: newRS ? sumStatus([newRS], 'replicas') : 0,
    readyReplicas: sumStatus(all, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    ...(old.collisionCount !== undefined ? { collisionCount: old.collisionCount } : {}),
  };
  let conditions = [...(old.conditions ?? [])];
  conditions = available >= replicasOf(d) - maxUnavailable(d)
    ? setCondition(conditions, newCondition('Available', 'True', MIN_AVAILABLE_REASON, 'Deployment has minimum availability.', now))
    : setCondition(conditions, newCondition('Available', 'False', MIN_UNAVAILABLE_REASON, 'Deployment does not have minimum availability.', now));
  const status: DeploymentStatus = {};
  // The counts are omitempty: zeros are not written.
  for (const [k, v] of Object.entries(counts)) if (v) (status as Record<string, unknown>)[k] = v;
  // GetTerminatingReplicaCountForReplicaSets: the sum, known only when every ReplicaSet reports it (a pointer).
  const terminating = all.map((rs) => (rs.status as { terminatingReplicas?: number } | undefined)?.terminatingReplicas);
  if (all.length > 0 && terminating.every((t) => t !== undefined)) status.terminatingReplicas = terminating.reduce((a, b) => a! + b!, 0);
  if (conditions.length) status.conditions = conditions;
  return status;
}

/** deploymentComplete is DeploymentComplete: every replica updated and available, and the generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return (s.updatedReplicas ?? 0) === want && (s.replicas ?? 0) === want && (s.availableReplicas ?? 0) === want && (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1);
}

/** deploymentProgressing is DeploymentProgressing: more updated, ready or available replicas, or fewer old ones. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = (d.status ?? {}) as DeploymentStatus;
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}
