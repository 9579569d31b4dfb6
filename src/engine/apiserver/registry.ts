// The registry's work before validation on create: system fields (uid, creationTimestamp) and each kind's PrepareForCreate.
// See staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate) and pkg/registry/*/strategy.go.
import { dropTopologyOnV1 } from './endpoint-slice-topology';
import { podSpecsOf } from '../api/conversion';
import { prepareForCreate } from '../api/pod-create';
import type { KubeObject, Pod } from '../api/types';
import type { EngineContext } from '../context';
import { dropDisabledPodSpecFields } from './drop-disabled';

/** prepareObjectForCreate gives an object its name (when generated), uid and creation time, and runs its kind's PrepareForCreate. */
export function prepareObjectForCreate(ctx: EngineContext, obj: KubeObject, generatedName: string | undefined): KubeObject {
  return prepareWith(obj, generatedName, { uid: ctx.rng.uuid(), creationTimestamp: ctx.clock.timestamp() });
}

/** prepareWith is prepareObjectForCreate with the uid and creation time given. */
export function prepareWith(obj: KubeObject, generatedName: string | undefined, { uid, creationTimestamp }: { uid: string; creationTimestamp: string }): KubeObject {
  const named: KubeObject = { ...obj, metadata: { ...obj.metadata, ...(generatedName ? { name: generatedName } : {}) } };
  // Every strategy holding a pod spec drops the fields of disabled features first (DropDisabledPodFields,
  // DropDisabledTemplateFields in pkg/registry/*/strategy.go PrepareForCreate).
  for (const spec of podSpecsOf(named)) dropDisabledPodSpecFields(spec);
  if (named.kind === 'Pod') return prepareForCreate(named as Pod, { uid, creationTimestamp }).object as KubeObject;
  const { deletionTimestamp: _t, deletionGracePeriodSeconds: _g, ...meta } = named.metadata ?? {};
  const withMeta: KubeObject = { ...named, metadata: { ...meta, uid, creationTimestamp } };
  // A Namespace starts Active, with the kubernetes finalizer the namespace controller removes once it has emptied it.
  // See pkg/registry/core/namespace/strategy.go (PrepareForCreate), v1.36.3.
  if (named.kind === 'Namespace') {
    const spec = (named['spec'] ?? {}) as { finalizers?: string[] };
    const finalizers = spec.finalizers ?? [];
    return { ...withMeta, spec: { ...spec, finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'] }, status: { phase: 'Active' } };
  }
  // Workloads start at generation 1 with an empty status. See pkg/registry/apps/deployment/strategy.go and
  // pkg/registry/apps/statefulset/strategy.go (PrepareForCreate).
  if (named.kind === 'Deployment' || named.kind === 'ReplicaSet' || named.kind === 'StatefulSet') {
    const prepared = { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 }, status: {} };
    return named.kind === 'StatefulSet' ? dropStatefulSetDisabledFields(prepared, undefined) : prepared;
  }
  // A DaemonSet starts at generation 1 and templateGeneration 1, which apps/v1 carries as the annotation
  // deprecated.daemonset.template.generation; its status is empty, the four counts without omitempty written as 0.
  // See pkg/registry/apps/daemonset/strategy.go (PrepareForCreate), pkg/apis/apps/v1/conversion.go
  // (Convert_apps_DaemonSet_To_v1_DaemonSet) and k8s.io/api apps/v1 DaemonSetStatus, v1.36.3.
  if (named.kind === 'DaemonSet') {
    const annotations = { ...(withMeta.metadata?.annotations ?? {}) };
    const was = Number.parseInt(annotations[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
    annotations[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] = String(Number.isFinite(was) && was >= 1 ? was : 1);
    return {
      ...withMeta, metadata: { ...withMeta.metadata, annotations, generation: 1 },
      status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    };
  }
  if (named.kind === 'Job') return prepareJobForCreate(withMeta);
  // A ReplicationController starts at generation 1 with an empty status, which serializes as {replicas: 0} (replicas
  // is not omitempty). See pkg/registry/core/replicationcontroller/strategy.go (PrepareForCreate), v1.36.3.
  if (named.kind === 'ReplicationController') return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 }, status: { replicas: 0 } };
  // A PodDisruptionBudget starts at generation 1 and its status is cleared: the four counts without omitempty are
  // written as 0. See pkg/registry/policy/poddisruptionbudget/strategy.go (PrepareForCreate) and k8s.io/api policy/v1
  // PodDisruptionBudgetStatus, v1.36.3.
  if (named.kind === 'PodDisruptionBudget') {
    return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } };
  }
  // A Service's status starts empty (svcStrategy.PrepareForCreate); its loadBalancer is a struct, written `{}`.
  // See pkg/registry/core/service/strategy.go and k8s.io/api core/v1 ServiceStatus (v1.36.3).
  if (named.kind === 'Service') return { ...withMeta, status: { loadBalancer: {} } };
  if (named.kind === 'PersistentVolumeClaim') return prepareClaimDataSources(withMeta);
  // An EndpointSlice starts at generation 1; a v1 request's deprecatedTopology is dropped (endpoint-slice-topology.ts).
  // PreferSameTrafficDistribution is GA, so hints.forNodes stay. See pkg/registry/discovery/endpointslice/strategy.go
  // (PrepareForCreate), v1.36.3.
  if (named.kind === 'EndpointSlice') return dropTopologyOnV1({ ...withMeta, metadata: { ...withMeta.metadata, generation: 1 } });
  // A webhook configuration starts at generation 1 (pkg/registry/admissionregistration/*webhookconfiguration/strategy.go);
  // a VolumeAttachment's status is emptied, its `attached` written (no omitempty) (volumeattachment/strategy.go); a
  // CSIDriver drops preventPodSchedulingIfMissing, VolumeLimitScaling being off (csidriver/strategy.go), v1.36.3.
  if (named.kind === 'ValidatingWebhookConfiguration' || named.kind === 'MutatingWebhookConfiguration') return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 } };
  // A ValidatingAdmissionPolicy starts at generation 1 with its status cleared (a struct: written as {}), its binding at
  // generation 1. See pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/strategy.go (v1.36.3).
  if (named.kind === 'ValidatingAdmissionPolicy') return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 }, status: {} };
  if (named.kind === 'ValidatingAdmissionPolicyBinding') return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 } };
  if (named.kind === 'VolumeAttachment') return { ...withMeta, status: { attached: false } };
  if (named.kind === 'CSIDriver' && typeof named['spec'] === 'object' && named['spec'] !== null) {
    const { preventPodSchedulingIfMissing: _dropped, ...spec } = named['spec'] as Record<string, unknown>;
    return { ...withMeta, spec };
  }
  return withMeta;
}

/**
 * prepareClaimDataSources is the data source part of the claim strategy's PrepareForCreate: without a dataSourceRef, a
 * dataSource other than a PersistentVolumeClaim or a VolumeSnapshot is dropped (EnforceDataSourceBackwardsCompatibility);
 * then either one set alone is copied to the other (NormalizeDataSources, AnyVolumeDataSource on; not a dataSourceRef
 * naming a namespace). See pkg/registry/core/persistentvolumeclaim/strategy.go and pkg/api/persistentvolumeclaim/util.go.
 */
function prepareClaimDataSources(claim: KubeObject): KubeObject {
  type Ref = { apiGroup?: string | null; kind?: string; name?: string; namespace?: string | null };
  const given = claim['spec'];
  if (typeof given !== 'object' || given === null) return claim;
  const spec = { ...(given as Record<string, unknown>) } as { dataSource?: Ref | null; dataSourceRef?: Ref | null };
  const group = (r: Ref): string => r.apiGroup ?? '';
  const copy = (r: Ref): Ref => ({ apiGroup: typeof r.apiGroup === 'string' ? r.apiGroup : null, kind: r.kind ?? '', name: r.name ?? '' });
  const ds = spec.dataSource ?? undefined;
  if (ds && !spec.dataSourceRef) {
    const pvcOrSnapshot = (ds.kind === 'PersistentVolumeClaim' && group(ds) === '') || (ds.kind === 'VolumeSnapshot' && group(ds) === 'snapshot.storage.k8s.io');
    if (!pvcOrSnapshot) delete spec.dataSource;
    else spec.dataSourceRef = copy(ds);
  } else if (spec.dataSourceRef && !ds && !spec.dataSourceRef.namespace) {
    spec.dataSource = copy(spec.dataSourceRef);
  }
  // Both references' apiGroup is a pointer without omitempty: a nil one is written `null`.
  if (spec.dataSource) spec.dataSource = { apiGroup: null, ...spec.dataSource };
  if (spec.dataSourceRef) spec.dataSourceRef = { apiGroup: null, ...spec.dataSourceRef };
  return { ...claim, spec };
}

/**
 * dropStatefulSetDisabledFields: with the MaxUnavailableStatefulSet gate off (the default in 1.36: Beta, off), a
 * StatefulSet keeps no spec.updateStrategy.rollingUpdate.maxUnavailable unless the stored one already has it
 * (maxUnavailableInUse). See pkg/registry/apps/statefulset/strategy.go (PrepareForCreate, PrepareForUpdate,
 * dropStatefulSetDisabledFields) and pkg/features/kube_features.go at v1.36.3.
 */
export function dropStatefulSetDisabledFields(set: KubeObject, old: KubeObject | undefined): KubeObject {
  type Strategy = { rollingUpdate?: Record<string, unknown> };
  const strategyOf = (o: KubeObject | undefined): Strategy | undefined => (o?.['spec'] as { updateStrategy?: Strategy } | undefined)?.updateStrategy;
  const rollingUpdate = strategyOf(set)?.rollingUpdate;
  if (!rollingUpdate || !('maxUnavailable' in rollingUpdate) || strategyOf(old)?.rollingUpdate?.['maxUnavailable'] !== undefined) return set;
  const { maxUnavailable: _dropped, ...kept } = rollingUpdate;
  const spec = set['spec'] as Record<string, unknown>;
  return { ...set, spec: { ...spec, updateStrategy: { ...(spec['updateStrategy'] as Strategy), rollingUpdate: kept } } };
}

/** DAEMONSET_TEMPLATE_GENERATION_ANNOTATION is appsv1.DeprecatedTemplateGeneration, spec.templateGeneration in apps/v1. */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** Job labels (pkg/apis/batch/types.go): the legacy and the prefixed job name and controller uid. */
export const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'] as const;
export const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'] as const;

/**
 * prepareJobForCreate is the Job strategy's PrepareForCreate: generation 1, an empty status, and, unless
 * manualSelector, generateSelector: the template gets the job-name and controller-uid labels (both spellings, a
 * user's own value kept) and the selector matches batch.kubernetes.io/controller-uid. See pkg/registry/batch/job/strategy.go.
 */
function prepareJobForCreate(job: KubeObject): KubeObject {
  const out = JSON.parse(JSON.stringify(job)) as KubeObject & { spec?: { manualSelector?: boolean; selector?: { matchLabels?: Record<string, string> }; template?: { metadata?: { labels?: Record<string, string> } } } };
  out.metadata = { ...out.metadata, generation: 1 };
  out['status'] = {};
  const spec = out.spec ?? (out.spec = {});
  if (spec.manualSelector) return out;
  const template = spec.template ?? (spec.template = {});
  const labels = { ...(template.metadata?.labels ?? {}) };
  for (const l of JOB_NAME_LABELS) labels[l] ??= out.metadata?.name ?? '';
  for (const l of CONTROLLER_UID_LABELS) labels[l] ??= out.metadata?.uid ?? '';
  template.metadata = { ...template.metadata, labels };
  const selector = spec.selector ?? {};
  const matchLabels = { ...(selector.matchLabels ?? {}) };
  matchLabels['batch.kubernetes.io/controller-uid'] ??= out.metadata?.uid ?? '';
  spec.selector = { ...selector, matchLabels };
  // SetDefaults_Job runs again whenever the Job is read back from storage: a Job without labels then shows its
  // template's, the generated ones included (pkg/apis/batch/v1/defaults.go).
  if (Object.keys(out.metadata?.labels ?? {}).length === 0) out.metadata = { ...out.metadata, labels: { ...labels } };
  return out;
}
