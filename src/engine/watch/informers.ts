// The informers of the cluster's programs as their binaries make them: the resource, the selectors and the request each
// sends to kube-apiserver, and which stored objects each one's watch selects (the watch cache filters by them).
import type { KubeObject, Pod } from '../api/types';
import type { InformerComponent } from '../cluster/inputs';
import { RESOURCES } from '../cluster/store';

/** Watcher is one program instance told of changes: a component, and the node of a kubelet or kube-proxy. */
export interface Watcher {
  component: InformerComponent;
  /** name is how the trace names it: `kube-scheduler`, `kubelet worker-1`. */
  name: string;
  node?: string;
}

/** Informer is one reflector of one watcher: the kind it watches and its selectors. */
export interface Informer {
  watcher: Watcher;
  kind: string;
  /** path is the resource's collection path: `/api/v1/pods`. */
  path: string;
  fieldSelector?: string;
  labelSelector?: string;
  /** selects tells whether the watch selects an object (its field and label selectors). */
  selects: (obj: KubeObject) => boolean;
  /** source names the Kubernetes code that makes this informer. */
  source: string;
}

/**
 * GROUP_VERSIONS is the version each informer of a group reads (the typed informers' clients).
 * See staging/src/k8s.io/client-go/informers/generic.go (v0.36.3); kube-controller-manager's HPA reads autoscaling/v2.
 */
const GROUP_VERSIONS: Readonly<Record<string, string>> = { autoscaling: 'v2' };

/** collectionPath is a kind's collection across namespaces: `/api/v1/pods`, `/apis/apps/v1/deployments`. */
export function collectionPath(kind: string): string {
  const r = RESOURCES[kind];
  if (!r) return `/api/v1/${kind.toLowerCase()}s`;
  return r.group === '' ? `/api/v1/${r.resource}` : `/apis/${r.group}/${GROUP_VERSIONS[r.group] ?? 'v1'}/${r.resource}`;
}

const all = () => true;
const named = (name: string) => (obj: KubeObject) => obj.metadata?.name === name;
const notHeadless = (obj: KubeObject) => (obj as { spec?: { clusterIP?: string } }).spec?.clusterIP !== 'None';
const label = (obj: KubeObject, key: string) => obj.metadata?.labels?.[key] !== undefined;
const notTerminal = (obj: KubeObject) => {
  const phase = (obj as Pod).status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
};

/** SCHEDULER_KINDS are kube-scheduler's informers beside its pods: nodes, and the kinds its default plugins' events name. */
const SCHEDULER_KINDS = ['Node', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass', 'CSINode', 'CSIDriver', 'CSIStorageCapacity'];

/**
 * CONTROLLER_MANAGER_SKIPS are the kinds kube-controller-manager does not watch: the garbage collector watches every
 * other resource (its metadata informers), and ignores events (pkg/controller/garbagecollector/garbagecollector.go
 * DefaultIgnoredResources, v1.36.3).
 */
const CONTROLLER_MANAGER_SKIPS = new Set(['Event']);

/** informersOf makes every watcher's informers for a cluster of these nodes, in the order the programs start them. */
export function informersOf(nodes: readonly string[]): Informer[] {
  const out: Informer[] = [];
  const add = (watcher: Watcher, kind: string, selects: (o: KubeObject) => boolean, source: string, selectors: { fieldSelector?: string; labelSelector?: string } = {}) => {
    out.push({ watcher, kind, path: collectionPath(kind), ...selectors, selects, source });
  };
  // See pkg/scheduler/scheduler.go NewInformerFactory and newPodInformer: the scheduler's pods leave out terminal ones;
  // pkg/scheduler/eventhandlers.go addAllEventHandlers adds nodes and the kinds its plugins register (v1.36.3).
  const scheduler: Watcher = { component: 'kube-scheduler', name: 'kube-scheduler' };
  add(scheduler, 'Pod', notTerminal, 'pkg/scheduler/scheduler.go newPodInformer (v1.36.3)', { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' });
  for (const kind of SCHEDULER_KINDS) add(scheduler, kind, all, 'pkg/scheduler/eventhandlers.go addAllEventHandlers (v1.36.3)');
  // kube-controller-manager's shared informers: one per resource, unfiltered (cmd/kube-controller-manager/app/controllermanager.go).
  const kcm: Watcher = { component: 'kube-controller-manager', name: 'kube-controller-manager' };
  for (const kind of Object.keys(RESOURCES)) {
    if (!CONTROLLER_MANAGER_SKIPS.has(kind)) add(kcm, kind, all, 'cmd/kube-controller-manager/app/controllermanager.go CreateControllerContext (v1.36.3)');
  }
  for (const node of nodes) {
    // See pkg/kubelet/kubelet.go NewMainKubelet (its node by metadata.name, services but headless ones) and
    // pkg/kubelet/config/apiserver.go NewSourceApiserver (its pods by spec.nodeName), v1.36.3.
    const kubelet: Watcher = { component: 'kubelet', name: `kubelet ${node}`, node };
    add(kubelet, 'Node', named(node), 'pkg/kubelet/kubelet.go NewMainKubelet (v1.36.3)', { fieldSelector: `metadata.name=${node}` });
    add(kubelet, 'Service', notHeadless, 'pkg/kubelet/kubelet.go NewMainKubelet (v1.36.3)', { fieldSelector: 'spec.clusterIP!=None' });
    add(kubelet, 'Pod', (o) => (o as Pod).spec?.nodeName === node, 'pkg/kubelet/config/apiserver.go NewSourceApiserver (v1.36.3)', { fieldSelector: `spec.nodeName=${node}` });
  }
  for (const node of nodes) {
    // See cmd/kube-proxy/app/server.go Run (services without a service-proxy-name label and not headless, endpoint
    // slices without the headless label) and pkg/proxy/node.go (its node by metadata.name), v1.36.3.
    const proxy: Watcher = { component: 'kube-proxy', name: `kube-proxy ${node}`, node };
    add(proxy, 'Service', (o) => notHeadless(o) && !label(o, 'service.kubernetes.io/service-proxy-name'), 'cmd/kube-proxy/app/server.go Run (v1.36.3)', {
      fieldSelector: 'spec.clusterIP!=None', labelSelector: '!service.kubernetes.io/service-proxy-name',
    });
    add(proxy, 'EndpointSlice', (o) => !label(o, 'service.kubernetes.io/headless'), 'cmd/kube-proxy/app/server.go Run (v1.36.3)', { labelSelector: '!service.kubernetes.io/headless' });
    add(proxy, 'Node', named(node), 'pkg/proxy/node.go NewNodeManager (v1.36.3)', { fieldSelector: `metadata.name=${node}` });
  }
  return out;
}

/**
 * queryEscape escapes as Go's url.QueryEscape: every byte but letters, digits and `-_.~` as %XX, a space as `+`.
 * See net/url/url.go shouldEscape (encodeQueryComponent).
 */
export function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

/**
 * watchListUrl is the first request of an informer's reflector in 1.36: a watch that streams the initial state
 * (WatchListClient is on by default since client-go 1.35, WatchList on kube-apiserver since 1.34). The parameters are
 * sorted by name, as url.Values.Encode writes them. See staging/src/k8s.io/client-go/tools/cache/reflector.go
 * watchList (v0.36.3) and staging/src/k8s.io/client-go/features/known_features.go.
 */
export function watchListUrl(informer: Informer, timeoutSeconds: number): string {
  return urlOf(informer, { allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: 'true', timeoutSeconds: String(timeoutSeconds), watch: 'true' });
}

/** watchUrl is a reflector's later watch from a resourceVersion (reflector.go watch, v0.36.3). */
export function watchUrl(informer: Informer, resourceVersion: string, timeoutSeconds: number): string {
  return urlOf(informer, { allowWatchBookmarks: 'true', resourceVersion, timeoutSeconds: String(timeoutSeconds), watch: 'true' });
}

function urlOf(informer: Informer, params: Record<string, string>): string {
  const all: Record<string, string> = { ...params };
  if (informer.fieldSelector) all['fieldSelector'] = informer.fieldSelector;
  if (informer.labelSelector) all['labelSelector'] = informer.labelSelector;
  const query = Object.keys(all).sort().map((k) => `${k}=${queryEscape(all[k]!)}`).join('&');
  return `${informer.path}?${query}`;
}

/**
 * watchTimeoutSeconds draws a watch's timeoutSeconds as the reflector does: minWatchTimeout (5 min) plus a random part
 * of it, truncated: [300, 600). See reflector.go (defaultMinWatchTimeout, watch and watchList), v0.36.3.
 */
export function watchTimeoutSeconds(random: () => number): number {
  return Math.trunc(300 + random() * 300);
}
