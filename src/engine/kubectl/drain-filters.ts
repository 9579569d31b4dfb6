// `kubectl drain`'s choice of the pods to evict: the pods bound to the node (GET /api/v1/pods?fieldSelector=
// spec.nodeName=NODE), each through the filters in order — skip those deleted longer ago than
// --skip-wait-for-delete-timeout, DaemonSet pods (an error without --ignore-daemonsets, left alone with it), mirror pods
// (skipped), pods with an emptyDir (an error without --delete-emptydir-data), pods with no controller (an error
// without --force) — and the errors and warnings they give. See staging/src/k8s.io/kubectl/pkg/drain/filters.go and
// drain.go (GetPodsForDeletion, filterPods) at v0.36.3.
import { parseSelector, selectorMatches } from '../api/labels';
import type { KubeObject, Pod } from '../api/types';
import type { StatusError } from '../apiserver/request';
import type { Steps } from '../runtime/step';
import { controllerOf } from '../controllers/owner';
import { DAEMONSETS, get, type KubectlRun, list, PODS } from './node-client';
import type { DrainFlags } from './node-command';

/** The filters' messages, as filters.go has them. */
export const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
export const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
export const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
export const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
export const UNMANAGED_FATAL = 'Pods that declare no controller (use --force to override)';
export const UNMANAGED_WARNING = 'deleting Pods that declare no controller';

/** MIRROR_POD_ANNOTATION is v1.MirrorPodAnnotationKey: a static pod's copy in the API server, which drain leaves. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** PodDeleteStatus is a filter's verdict: delete or not, and why (Okay, Skip, Warning, Error) with a message. */
interface PodDeleteStatus {
  delete: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

/** PodDelete is a pod with the last filter's verdict on it. */
export interface PodDelete {
  pod: Pod;
  status: PodDeleteStatus;
}

const okay: PodDeleteStatus = { delete: true, reason: 'Okay' };
const skip: PodDeleteStatus = { delete: false, reason: 'Skip' };
const warning = (del: boolean, message: string): PodDeleteStatus => ({ delete: del, reason: 'Warning', message });
const error = (message: string): PodDeleteStatus => ({ delete: false, reason: 'Error', message });

const finished = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** shouldSkipPod: the pod was deleted longer ago than --skip-wait-for-delete-timeout (when that is above 0). */
export function shouldSkipPod(pod: Pod, skipSeconds: number, now: number): boolean {
  const deleted = pod.metadata?.deletionTimestamp;
  return skipSeconds > 0 && !!deleted && Math.trunc((now - Date.parse(deleted)) / 1000) > skipSeconds;
}

/** PodDeleteList is GetPodsForDeletion's answer: every pod of the node with its verdict. */
export class PodDeleteList {
  constructor(readonly items: PodDelete[]) {}

  /** pods are those marked for deletion. */
  pods(): Pod[] {
    return this.items.filter((i) => i.status.delete).map((i) => i.pod);
  }

  /**
   * warnings joins `<message>: ns/pod, ns/pod` for each warning message with "; " (Go ranges over a map here, so its
   * order varies; the messages come in the order their first pod was listed).
   */
  warnings(): string {
    return [...group(this.items, 'Warning')].map(([msg, pods]) => `${msg}: ${pods.join(', ')}`).join('; ');
  }

  /** errors are `cannot delete <message>: ns/pod, ...` for each error message (in the same order as warnings). */
  errors(): string[] {
    return [...group(this.items, 'Error')].map(([msg, pods]) => `cannot delete ${msg || 'unexpected error'}: ${pods.join(', ')}`);
  }
}

function group(items: readonly PodDelete[], reason: PodDeleteStatus['reason']): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const i of items) {
    if (i.status.reason !== reason) continue;
    const msg = i.status.message ?? '';
    by.set(msg, [...(by.get(msg) ?? []), `${i.pod.metadata?.namespace}/${i.pod.metadata?.name}`]);
  }
  return by;
}

/** daemonSetFilter: a running DaemonSet pod (apps/v1 controller) stays; its DaemonSet is read to know it still exists. */
function* daemonSetFilter(k: KubectlRun, flags: DrainFlags, pod: Pod, ref: string): Steps<PodDeleteStatus> {
  const owner = controllerOf(pod as KubeObject);
  if (!owner || owner.kind !== 'DaemonSet' || owner.apiVersion !== 'apps/v1') return okay;
  if (finished(pod)) return okay;
  const got = yield* get(k, DAEMONSETS, pod.metadata?.namespace, owner.name, ref);
  if ('error' in got) {
    // "remove orphaned pods with a warning if --force is used"
    if (got.error.reason === 'NotFound' && flags.force) return warning(true, got.error.message);
    return error(got.error.message);
  }
  return flags.ignoreDaemonSets ? warning(false, DAEMONSET_WARNING) : error(DAEMONSET_FATAL);
}

function localStorageFilter(flags: DrainFlags, pod: Pod): PodDeleteStatus {
  if (!(pod.spec?.volumes ?? []).some((v) => v.emptyDir)) return okay;
  if (finished(pod)) return okay;
  return flags.deleteEmptyDirData ? warning(true, LOCAL_STORAGE_WARNING) : error(LOCAL_STORAGE_FATAL);
}

function unreplicatedFilter(flags: DrainFlags, pod: Pod): PodDeleteStatus {
  if (finished(pod) || controllerOf(pod as KubeObject)) return okay;
  return flags.force ? warning(true, UNMANAGED_WARNING) : error(UNMANAGED_FATAL);
}

/** filterPod runs the filters in order; the first that does not delete ends it (its verdict stands). */
function* filterPod(k: KubectlRun, flags: DrainFlags, pod: Pod, ref: string): Steps<PodDeleteStatus> {
  const filters: (() => Steps<PodDeleteStatus> | PodDeleteStatus)[] = [
    () => (shouldSkipPod(pod, flags.skipWaitForDeleteTimeoutSeconds, k.ctx.clock.epoch.getTime() + k.ctx.clock.now) ? skip : okay),
    () => daemonSetFilter(k, flags, pod, ref),
    () => (Object.hasOwn(pod.metadata?.annotations ?? {}, MIRROR_POD_ANNOTATION) ? skip : okay),
    () => localStorageFilter(flags, pod),
    () => unreplicatedFilter(flags, pod),
  ];
  let status = okay;
  for (const filter of filters) {
    const r = filter();
    status = 'delete' in r ? r : yield* r;
    if (!status.delete) break;
  }
  return status;
}

/**
 * getPodsForDeletion lists the node's pods (those --pod-selector selects) and filters them; a refused LIST is its
 * error. The pods come in the LIST's order: by namespace, then name.
 */
export function* getPodsForDeletion(k: KubectlRun, nodeName: string, flags: DrainFlags): Steps<{ list: PodDeleteList } | { error: StatusError }> {
  const ref = `Node/${nodeName}`;
  const query = `${flags.podSelector ? `labelSelector=${encodeURIComponent(flags.podSelector)}&` : ''}fieldSelector=${encodeURIComponent(`spec.nodeName=${nodeName}`)}&limit=500`;
  const refused = yield* list(k, PODS, query, ref);
  if (refused) return { error: refused };
  const selector = parseSelector(flags.podSelector);
  const pods = k.ctx.store.byIndex<Pod>('node', nodeName, 'Pod').filter((p) => selectorMatches(selector, p.metadata?.labels ?? {}));
  const items: PodDelete[] = [];
  for (const pod of pods) items.push({ pod, status: yield* filterPod(k, flags, pod, ref) });
  return { list: new PodDeleteList(items) };
}

