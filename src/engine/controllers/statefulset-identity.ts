// A StatefulSet pod's identity: its ordinal name, its labels, hostname and subdomain, and the claims of its
// volumeClaimTemplates. See pkg/controller/statefulset/stateful_set_utils.go (getParentNameAndOrdinal, getPodName,
// getPersistentVolumeClaimName, getPersistentVolumeClaims, updateStorage, initIdentity, updateIdentity,
// newStatefulSetPod, identityMatches, storageMatches) at kubernetes v1.36.3.
import { deepClone, type KubeObject, type LabelSelector, type Pod } from '../api/types';
import { podFromTemplate } from './replicaset';
import { STATEFULSET_REVISION_LABEL } from './statefulset-revision';

/** STATEFULSET_POD_NAME_LABEL is apps.StatefulSetPodNameLabel. */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';

/** POD_INDEX_LABEL is apps.PodIndexLabel, the pod's ordinal as a label. */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

/** StatefulSetSpec is what the controller reads of a StatefulSet's spec. */
export interface StatefulSetSpec {
  replicas?: number;
  serviceName?: string;
  selector?: LabelSelector;
  podManagementPolicy?: string;
  minReadySeconds?: number;
  ordinals?: { start?: number };
  template?: { metadata?: Pod['metadata']; spec?: Pod['spec'] };
  volumeClaimTemplates?: ClaimTemplate[];
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  revisionHistoryLimit?: number;
}

/** ClaimTemplate is one of spec.volumeClaimTemplates: a PersistentVolumeClaim without a namespace. */
export interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  spec?: unknown;
  status?: unknown;
}

/** StatefulSet is a StatefulSet as the store holds it. */
export interface StatefulSet extends KubeObject {
  spec?: StatefulSetSpec;
  status?: Record<string, unknown>;
}

const STATEFUL_POD = /^(.*)-([0-9]+)$/;

/** parentAndOrdinal is getParentNameAndOrdinal: `<parent>-<ordinal>`, or ("", -1) for another name. */
export function parentAndOrdinal(name: string): { parent: string; ordinal: number } {
  const m = STATEFUL_POD.exec(name);
  if (!m) return { parent: '', ordinal: -1 };
  // strconv.ParseInt(s, 10, 32): an ordinal past int32 does not parse, and stays -1.
  const n = Number(m[2]);
  return { parent: m[1]!, ordinal: n <= 2147483647 ? n : -1 };
}

/** ordinalOf is getOrdinal. */
export function ordinalOf(pod: Pod): number {
  return parentAndOrdinal(pod.metadata?.name ?? '').ordinal;
}

/** startOrdinal is getStartOrdinal: spec.ordinals.start, else 0. */
export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals ? set.spec.ordinals.start ?? 0 : 0;
}

/** replicasOf is *spec.replicas (defaulted to 1). */
export function replicasOf(set: StatefulSet): number {
  return set.spec?.replicas ?? 1;
}

/** inOrdinalRange is podInOrdinalRange: start <= ordinal <= start + replicas - 1. */
export function inOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const o = ordinalOf(pod);
  return o >= startOrdinal(set) && o <= startOrdinal(set) + replicasOf(set) - 1;
}

/** isMemberOf: the pod's name is `<set>-<something numeric>`. */
export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
  return parentAndOrdinal(pod.metadata?.name ?? '').parent === set.metadata?.name;
}

/** statefulPodName is getPodName: `<set>-<ordinal>`. */
export function statefulPodName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata?.name ?? ''}-${ordinal}`;
}

/** claimName is getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export function claimName(set: StatefulSet, template: ClaimTemplate, ordinal: number): string {
  return `${template.metadata?.name ?? ''}-${set.metadata?.name ?? ''}-${ordinal}`;
}

/**
 * statefulClaims is getPersistentVolumeClaims: a claim per template, named for the ordinal, in the set's namespace,
 * labelled with the template's labels overwritten by the selector's matchLabels (or the matchLabels alone when the
 * template has none). Go returns a map keyed by template name, whose order is random; these come in template order.
 */
export function statefulClaims(set: StatefulSet, ordinal: number): { template: string; claim: KubeObject }[] {
  const matchLabels = set.spec?.selector?.matchLabels;
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => {
    const copy = deepClone(t);
    const labels = copy.metadata?.labels ? { ...copy.metadata.labels, ...(matchLabels ?? {}) } : matchLabels ? { ...matchLabels } : undefined;
    const metadata = { ...copy.metadata, name: claimName(set, t, ordinal), namespace: set.metadata?.namespace, ...(labels ? { labels } : {}) };
    const claim: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: metadata as KubeObject['metadata'], ...(copy.spec ? { spec: copy.spec } : {}), ...(copy.status ? { status: copy.status } : {}) };
    return { template: t.metadata?.name ?? '', claim };
  });
}

/**
 * newStatefulPod is newStatefulSetPod then setPodRevision: GetPodFromTemplate (labels, annotations, finalizers,
 * generateName `<set>-`, the controller reference), the ordinal name, initIdentity (the pod-name and pod-index labels,
 * hostname = the pod's name, subdomain = spec.serviceName) and updateStorage (a volume per claim template, ahead of
 * the template's own volumes, which one of the same name replaces), then the controller-revision-hash label.
 */
export function newStatefulPod(set: StatefulSet, ordinal: number, revision: string): Pod {
  const pod = podFromTemplate(set, set.spec?.template);
  const name = statefulPodName(set, ordinal);
  pod.metadata = {
    ...pod.metadata, name, namespace: set.metadata?.namespace,
    labels: { ...(pod.metadata?.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [STATEFULSET_REVISION_LABEL]: revision },
  };
  const spec = pod.spec as unknown as Record<string, unknown>;
  spec['hostname'] = name;
  // An empty serviceName leaves subdomain "", which the API's omitempty leaves out.
  if (set.spec?.serviceName) spec['subdomain'] = set.spec.serviceName;
  const claims = statefulClaims(set, ordinal);
  const claimed = new Set(claims.map((c) => c.template));
  const volumes: unknown[] = [
    ...claims.map((c) => ({ name: c.template, persistentVolumeClaim: { claimName: c.claim.metadata?.name ?? '' } })),
    ...((spec['volumes'] as { name?: string }[] | undefined) ?? []).filter((v) => !claimed.has(v.name ?? '')),
  ];
  if (volumes.length) spec['volumes'] = volumes;
  return pod;
}

/** identityMatches: the pod's name, namespace and pod-name label are those of its ordinal in this set. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  return ordinal >= 0 && parent === set.metadata?.name && pod.metadata?.name === statefulPodName(set, ordinal)
    && pod.metadata?.namespace === set.metadata?.namespace && pod.metadata?.labels?.[STATEFULSET_POD_NAME_LABEL] === pod.metadata?.name;
}

/** storageMatches: every claim template has a volume of its name naming the ordinal's claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map(((pod.spec as { volumes?: { name?: string; persistentVolumeClaim?: { claimName?: string } }[] } | undefined)?.volumes ?? []).map((v) => [v.name, v]));
  return (set.spec?.volumeClaimTemplates ?? []).every((t) => volumes.get(t.metadata?.name)?.persistentVolumeClaim?.claimName === claimName(set, t, ordinal));
}
