// Scheme defaulting of the workload kinds (apps/v1 and batch/v1), in the order of pkg/apis/apps/v1 and
// pkg/apis/batch/v1 zz_generated.defaults.go: each kind's own defaults, then its pod template's.
import { deepClone, type Deployment, type ReplicaSet } from './types';
import { ensure, list, rec, Recorder, type Defaulted, type Rec } from './defaulting-base';
import { defaultPodSpec, roundResourceList } from './defaults';

function defaultTemplateOf(r: Recorder, owner: Rec): void {
  const spec = ensure(owner, 'spec');
  const template = ensure(spec, 'template');
  defaultPodSpec(r, ensure(template, 'spec'), 'spec.template.spec');
}

/** defaultDeployment applies SetDefaults_Deployment (pkg/apis/apps/v1/defaults.go), then the template's defaults. */
export function defaultDeployment(deployment: Deployment): Defaulted<Deployment> {
  const object = deepClone(deployment);
  const r = new Recorder();
  const spec = ensure(object as unknown as Rec, 'spec');
  r.ifNil(spec, 'replicas', 1, 'spec');
  const strategy = ensure(spec, 'strategy');
  r.ifZero(strategy, 'type', 'RollingUpdate', 'spec.strategy');
  if (strategy['type'] === 'RollingUpdate') {
    const rollingUpdate = ensure(strategy, 'rollingUpdate');
    r.ifNil(rollingUpdate, 'maxUnavailable', '25%', 'spec.strategy.rollingUpdate');
    r.ifNil(rollingUpdate, 'maxSurge', '25%', 'spec.strategy.rollingUpdate');
  }
  r.ifNil(spec, 'revisionHistoryLimit', 10, 'spec');
  r.ifNil(spec, 'progressDeadlineSeconds', 600, 'spec');
  defaultTemplateOf(r, object as unknown as Rec);
  return { object, changes: r.changes };
}

/** defaultReplicaSet applies SetDefaults_ReplicaSet (replicas 1), then the template's defaults. */
export function defaultReplicaSet(replicaSet: ReplicaSet): Defaulted<ReplicaSet> {
  const object = deepClone(replicaSet);
  const r = new Recorder();
  r.ifNil(ensure(object as unknown as Rec, 'spec'), 'replicas', 1, 'spec');
  defaultTemplateOf(r, object as unknown as Rec);
  return { object, changes: r.changes };
}

/**
 * defaultStatefulSet applies SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go, v1.36.3): podManagementPolicy
 * OrderedReady; updateStrategy RollingUpdate with rollingUpdate.partition 0 (no maxUnavailable: MaxUnavailableStatefulSet
 * is off by default in 1.36); persistentVolumeClaimRetentionPolicy Retain/Retain; replicas 1; revisionHistoryLimit 10.
 * Then SetObjectDefaults_StatefulSet's template defaults and, per volumeClaimTemplate, SetDefaults_PersistentVolumeClaim
 * (status.phase Pending), SetDefaults_PersistentVolumeClaimSpec (volumeMode Filesystem) and the resource rounding
 * (pkg/apis/apps/v1/zz_generated.defaults.go).
 */
export function defaultStatefulSet(set: KubeObjectLike): Defaulted<KubeObjectLike> {
  const object = deepClone(set);
  const r = new Recorder();
  const o = object as unknown as Rec;
  const spec = ensure(o, 'spec');
  r.ifZero(spec, 'podManagementPolicy', 'OrderedReady', 'spec');
  const strategy = ensure(spec, 'updateStrategy');
  if (!strategy['type']) {
    r.set(strategy, 'type', 'RollingUpdate', 'spec.updateStrategy');
    if (!rec(strategy['rollingUpdate'])) strategy['rollingUpdate'] = {};
  }
  const rollingUpdate = rec(strategy['rollingUpdate']);
  if (strategy['type'] === 'RollingUpdate' && rollingUpdate) r.ifNil(rollingUpdate, 'partition', 0, 'spec.updateStrategy.rollingUpdate');
  const policy = ensure(spec, 'persistentVolumeClaimRetentionPolicy');
  r.ifZero(policy, 'whenDeleted', 'Retain', 'spec.persistentVolumeClaimRetentionPolicy');
  r.ifZero(policy, 'whenScaled', 'Retain', 'spec.persistentVolumeClaimRetentionPolicy');
  r.ifNil(spec, 'replicas', 1, 'spec');
  r.ifNil(spec, 'revisionHistoryLimit', 10, 'spec');
  defaultTemplateOf(r, o);
  list(spec['volumeClaimTemplates']).forEach((claim, i) => {
    const path = `spec.volumeClaimTemplates[${i}]`;
    r.ifZero(ensure(claim, 'status'), 'phase', 'Pending', `${path}.status`);
    const claimSpec = ensure(claim, 'spec');
    r.ifNil(claimSpec, 'volumeMode', 'Filesystem', `${path}.spec`);
    const resources = rec(claimSpec['resources']);
    roundResourceList(r, rec(resources?.['limits']), `${path}.spec.resources.limits`);
    roundResourceList(r, rec(resources?.['requests']), `${path}.spec.resources.requests`);
  });
  return { object, changes: r.changes };
}

/**
 * defaultDaemonSet applies SetDefaults_DaemonSet (pkg/apis/apps/v1/defaults.go, v1.36.3): updateStrategy RollingUpdate
 * with rollingUpdate.maxUnavailable 1 and maxSurge 0; revisionHistoryLimit 10. Then the template's defaults
 * (SetObjectDefaults_DaemonSet, pkg/apis/apps/v1/zz_generated.defaults.go).
 */
export function defaultDaemonSet(set: KubeObjectLike): Defaulted<KubeObjectLike> {
  const object = deepClone(set);
  const r = new Recorder();
  const spec = ensure(object as unknown as Rec, 'spec');
  const strategy = ensure(spec, 'updateStrategy');
  r.ifZero(strategy, 'type', 'RollingUpdate', 'spec.updateStrategy');
  if (strategy['type'] === 'RollingUpdate') {
    const rollingUpdate = ensure(strategy, 'rollingUpdate');
    r.ifNil(rollingUpdate, 'maxUnavailable', 1, 'spec.updateStrategy.rollingUpdate');
    r.ifNil(rollingUpdate, 'maxSurge', 0, 'spec.updateStrategy.rollingUpdate');
  }
  r.ifNil(spec, 'revisionHistoryLimit', 10, 'spec');
  defaultTemplateOf(r, object as unknown as Rec);
  return { object, changes: r.changes };
}

/**
 * defaultJob applies SetDefaults_Job (pkg/apis/batch/v1/defaults.go): completions and parallelism 1 when both are
 * unset, parallelism 1, backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), the template's labels as the Job's when
 * it has none, completionMode NonIndexed, suspend false, manualSelector false, podReplacementPolicy
 * TerminatingOrFailed (Failed with a podFailurePolicy); then the template's pod defaults.
 */
export function defaultJob(job: KubeObjectLike): Defaulted<KubeObjectLike> {
  const object = deepClone(job);
  const r = new Recorder();
  const o = object as unknown as Rec;
  const spec = ensure(o, 'spec');
  if ((spec['completions'] === undefined || spec['completions'] === null) && (spec['parallelism'] === undefined || spec['parallelism'] === null)) {
    r.ifNil(spec, 'completions', 1, 'spec');
  }
  r.ifNil(spec, 'parallelism', 1, 'spec');
  r.ifNil(spec, 'backoffLimit', spec['backoffLimitPerIndex'] !== undefined && spec['backoffLimitPerIndex'] !== null ? 2147483647 : 6, 'spec');
  const templateLabels = rec(rec(rec(spec['template'])?.['metadata'])?.['labels']);
  const meta = ensure(o, 'metadata');
  if (templateLabels && Object.keys(rec(meta['labels']) ?? {}).length === 0) r.ifNil(meta, 'labels', { ...templateLabels }, 'metadata');
  r.ifNil(spec, 'completionMode', 'NonIndexed', 'spec');
  r.ifNil(spec, 'suspend', false, 'spec');
  r.ifNil(spec, 'manualSelector', false, 'spec');
  r.ifNil(spec, 'podReplacementPolicy', spec['podFailurePolicy'] ? 'Failed' : 'TerminatingOrFailed', 'spec');
  defaultTemplateOf(r, o);
  return { object, changes: r.changes };
}

/**
 * defaultCronJob applies SetObjectDefaults_CronJob: SetDefaults_CronJob (concurrencyPolicy Allow, suspend false,
 * successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1; pkg/apis/batch/v1/defaults.go, v1.36.3), then the job
 * template's pod spec defaults (SetDefaults_Job is not run on the template: its Jobs get it when created).
 */
export function defaultCronJob(cronJob: KubeObjectLike): Defaulted<KubeObjectLike> {
  const object = deepClone(cronJob);
  const r = new Recorder();
  const spec = ensure(object as unknown as Rec, 'spec');
  r.ifZero(spec, 'concurrencyPolicy', 'Allow', 'spec');
  r.ifNil(spec, 'suspend', false, 'spec');
  r.ifNil(spec, 'successfulJobsHistoryLimit', 3, 'spec');
  r.ifNil(spec, 'failedJobsHistoryLimit', 1, 'spec');
  const template = ensure(ensure(ensure(spec, 'jobTemplate'), 'spec'), 'template');
  defaultPodSpec(r, ensure(template, 'spec'), 'spec.jobTemplate.spec.template.spec');
  return { object, changes: r.changes };
}

/** KubeObjectLike is any object with metadata, for kinds without a typed shape here. */
type KubeObjectLike = { apiVersion?: string; kind?: string; metadata?: unknown; [k: string]: unknown };
