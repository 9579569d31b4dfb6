// ReplicationControllers (core v1): their scheme defaulting, and the ReplicaSet they read as for the ReplicaSet
// controller, which kube-controller-manager runs for them through a conversion layer.
// See pkg/apis/core/v1/defaults.go (SetDefaults_ReplicationController), zz_generated.defaults.go
// (SetObjectDefaults_ReplicationController) and conversion.go (Convert_v1_ReplicationController_To_apps_ReplicaSet),
// and pkg/controller/replication/conversion.go, kubernetes v1.36.3.
import type { ReplicationController } from 'kubernetes-types/core/v1';
import { defaultPodTemplate, type Defaulted } from './defaults';
import { deepClone, type KubeObject, type Mutable, type ReplicaSet } from './types';

export type { ReplicationController };

/**
 * defaultReplicationController applies SetObjectDefaults_ReplicationController: when the template has labels (even
 * none, but a map), an empty selector becomes them and so do empty object labels; replicas 1; then, only when there
 * is a template, its pod spec's defaults (a nil template stays nil, for validation to report).
 */
export function defaultReplicationController(rc: KubeObject): Defaulted<KubeObject> {
  const object = deepClone(rc) as Mutable<ReplicationController> & KubeObject;
  const changes: string[] = [];
  const spec: Mutable<NonNullable<ReplicationController['spec']>> = (object.spec ??= {}) as Mutable<NonNullable<ReplicationController['spec']>>;
  const labels = spec.template?.metadata?.labels;
  if (labels !== undefined && labels !== null) {
    if (Object.keys(spec.selector ?? {}).length === 0) {
      spec.selector = { ...labels };
      changes.push('spec.selector');
    }
    if (Object.keys(object.metadata?.labels ?? {}).length === 0) {
      object.metadata = { ...object.metadata, labels: { ...labels } };
      changes.push('metadata.labels');
    }
  }
  // obj.Spec.Replicas is defaulted declaratively (+default=1).
  if (spec.replicas === undefined || spec.replicas === null) {
    spec.replicas = 1;
    changes.push('spec.replicas');
  }
  if (spec.template !== undefined && spec.template !== null) {
    const template = defaultPodTemplate(spec.template);
    spec.template = template.object;
    changes.push(...template.changes);
  }
  return { object, changes };
}

/** VIEWS keeps the ReplicaSet each stored (frozen, never mutated) ReplicationController reads as. */
const VIEWS = new WeakMap<KubeObject, ReplicaSet>();

/**
 * replicaSetView is convertRCtoRS: the same metadata, replicas, minReadySeconds and template, the selector map as a
 * LabelSelector's matchLabels (a nil map stays a nil selector), and the status counts and conditions.
 */
export function replicaSetView(rc: KubeObject): ReplicaSet {
  const cached = VIEWS.get(rc);
  if (cached) return cached;
  const spec = (rc['spec'] ?? {}) as NonNullable<ReplicationController['spec']>;
  const view = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: rc.metadata,
    spec: {
      replicas: spec.replicas ?? 1,
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      ...(spec.selector ? { selector: { matchLabels: spec.selector } } : {}),
      template: spec.template ?? {},
    },
    status: rc['status'] ?? {},
  } as ReplicaSet;
  VIEWS.set(rc, view);
  return view;
}

/**
 * rcSelectsPod is the ReplicationController lister's GetPodControllers test: its selector map, as a set-based
 * selector, is not empty and matches every label. See staging/src/k8s.io/client-go/listers/core/v1/
 * replicationcontroller_expansion.go ("If an rc with a nil or empty selector creeps in, it should match nothing").
 */
export function rcSelectsPod(rc: KubeObject, podLabels: Readonly<Record<string, string>> | undefined): boolean {
  const selector = ((rc['spec'] ?? {}) as NonNullable<ReplicationController['spec']>).selector ?? {};
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => podLabels?.[k] === v);
}
