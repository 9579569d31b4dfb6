// Loading the cluster into the store: every object gets the system fields the API server would have given it,
// and every namespace its `default` ServiceAccount and kube-root-ca.crt ConfigMap, as their controllers would.
import { convertToV1, podSpecsOf } from '../api/conversion';
import type { KubeObject, ServiceAccount } from '../api/types';
import { deepClone, type ObjectRef, refOf } from '../api/types';
import { SourceIndex } from '../context';
import { VirtualClock } from '../runtime/clock';
import { Random } from '../runtime/random';
import { applyDefaults } from '../apiserver/defaulting';
import { allocateServiceCreate } from '../apiserver/service-alloc';
import { defaultService } from '../api/service-defaults';
import type { ClusterInput, SourceDocument } from './inputs';
import { Store, type StoreImage } from './store';

const WORKLOAD_KINDS = new Set(['Deployment', 'ReplicaSet', 'Job', 'StatefulSet', 'DaemonSet', 'ReplicationController']);

/**
 * withClusterIP gives a Service of the cluster file written without its cluster IP what the API server gave it when it
 * was created (SetDefaults_Service, then the allocators: pkg/registry/core/service/storage, v1.36.3), so kube-proxy has
 * an address to write rules for. A Service read back from a cluster keeps the address it has.
 */
function withClusterIP(obj: KubeObject, store: Store): KubeObject {
  const spec = obj['spec'] as { clusterIP?: unknown; type?: unknown } | undefined;
  if (obj.kind !== 'Service' || spec?.clusterIP !== undefined || spec?.type === 'ExternalName') return obj;
  const allocated = allocateServiceCreate(defaultService(obj).object, store.list('Service'));
  return 'object' in allocated ? allocated.object : obj;
}

/**
 * CONTROLLER_SERVICE_ACCOUNTS are the kube-system service accounts kube-controller-manager's controllers
 * act as (--use-service-account-credentials, as kubeadm runs it). See cmd/kube-controller-manager/app.
 */
export const CONTROLLER_SERVICE_ACCOUNTS = ['deployment-controller', 'replicaset-controller', 'endpointslice-controller', 'generic-garbage-collector', 'job-controller', 'ttl-after-finished-controller', 'node-controller', 'pod-garbage-collector', 'statefulset-controller', 'daemon-set-controller', 'cronjob-controller', 'replication-controller', 'horizontal-pod-autoscaler', 'pvc-protection-controller'];

/**
 * ACCOUNTS_SINCE_SEEDED are the controller service accounts whose uids come from a generator of their own (the
 * ReplicationController controller's): a seed then gives the same pod names, uids and node tie breaks with or without
 * them. Which account has which uid means nothing to any controller.
 */
const ACCOUNTS_SINCE_SEEDED: ReadonlySet<string> = new Set(['replication-controller', 'horizontal-pod-autoscaler', 'pvc-protection-controller']);

/** bootstrapCluster stores the cluster's objects and the service accounts every namespace has. */
export function bootstrapCluster(cluster: ClusterInput, store: Store, clock: VirtualClock, rng: Random, sources: SourceIndex): void {
  const created = clock.timestamp(-3600_000);
  for (const doc of cluster.objects) {
    // Workloads read back from storage are defaulted, as the API server's decoding does; the controllers compare
    // their templates as stored. See pkg/apis/apps/v1/defaults.go and pkg/apis/batch/v1/defaults.go. Every pod spec
    // reads back in its v1 form (serviceAccount, empty resources): pkg/apis/core/v1/conversion.go, v1.36.3.
    const read = WORKLOAD_KINDS.has(String(doc.object.kind)) ? applyDefaults(doc.object).object : doc.object;
    const obj = withSystemFields(podSpecsOf(read).length ? convertToV1(deepClone(read)) : withClusterIP(read, store), rng, created);
    store.put(obj);
    sources.add(refOf(obj), doc);
  }
  const accounts = (ns: string): string[] => (ns === 'kube-system' ? ['default', ...CONTROLLER_SERVICE_ACCOUNTS] : ['default']);
  // A generator of their own for the accounts added since, seeded from the run's without advancing it.
  const apart = new Random((rng.state[0] ?? 0) ^ 0x5eed);
  for (const ns of store.list('Namespace')) {
    const nsName = ns.metadata?.name ?? '';
    for (const name of accounts(nsName)) {
      if (store.get('ServiceAccount', nsName, name)) continue;
      const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: nsName } };
      store.put(withSystemFields(sa as unknown as KubeObject, ACCOUNTS_SINCE_SEEDED.has(name) ? apart : rng, created));
    }
  }
  publishRootCA(store, rng, created);
}

/**
 * BootstrapImage is a cluster as bootstrapCluster stored it, with the random source's place after it: runs that start
 * from it (SimulationOptions.bootstrapped) are the runs that would have stored it themselves, at a fraction of the
 * cost. The language server checks each workload of a file on the same cluster; it stores that cluster once.
 */
export interface BootstrapImage {
  readonly cluster: ClusterInput;
  readonly seed: number;
  readonly store: StoreImage;
  readonly rngState: readonly number[];
  readonly sources: readonly (readonly [ObjectRef, SourceDocument])[];
}

/** bootstrapImage stores a cluster once, as a run of that seed would, and keeps the result. */
export function bootstrapImage(cluster: ClusterInput, seed: number): BootstrapImage {
  const store = new Store();
  const rng = new Random(seed);
  const sources = new SourceIndex();
  bootstrapCluster(cluster, store, new VirtualClock(), rng, sources);
  return { cluster, seed, store: store.image(), rngState: rng.state, sources: sources.entries() };
}

/** startFrom puts an image's cluster into a new run's empty store, and its random source where the image left it. */
export function startFrom(image: BootstrapImage, store: Store, rng: Random, sources: SourceIndex): void {
  store.restore(image.store);
  rng.setState(image.rngState);
  for (const [ref, doc] of image.sources) sources.add(ref, doc);
}

/** ROOT_CA_CONFIGMAP is the ConfigMap the root-ca-cert-publisher keeps in every namespace, which token volumes project. */
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const ROOT_CA_DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
/** PLACEHOLDER_CA has the PEM shape of the cluster CA when the cluster file carries none; it is not a real certificate. */
const PLACEHOLDER_CA = '-----BEGIN CERTIFICATE-----\nPLACEHOLDER/NOT/A/REAL/CA/pod/lifecycle/debugger/simulated/cluster/only\n-----END CERTIFICATE-----\n';

/**
 * publishRootCA gives every namespace that lacks it the kube-root-ca.crt ConfigMap, with the CA of one the cluster has,
 * as the root-ca-cert-publisher controller keeps it. See pkg/controller/certificates/rootcacertpublisher/publisher.go.
 */
function publishRootCA(store: Store, rng: Random, created: string): void {
  const existing = store.list('ConfigMap').find((c) => c.metadata?.name === ROOT_CA_CONFIGMAP);
  const data = (existing?.['data'] as Record<string, string> | undefined) ?? { 'ca.crt': PLACEHOLDER_CA };
  for (const ns of store.list('Namespace')) {
    const nsName = ns.metadata?.name ?? '';
    if (store.get('ConfigMap', nsName, ROOT_CA_CONFIGMAP)) continue;
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, namespace: nsName, annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION } }, data: { ...data } };
    store.put(withSystemFields(cm, rng, created));
  }
}

function withSystemFields(obj: KubeObject, rng: Random, created: string): KubeObject {
  const meta = obj.metadata ?? {};
  return { ...obj, metadata: { ...meta, uid: meta.uid ?? rng.uuid(), creationTimestamp: meta.creationTimestamp ?? created } };
}
