// The inputs of a simulation: manifest documents with their source ranges, the cluster, the profile and the behavior.
import type { KubeObject } from '../api/types';
import type { KubectlInvocation } from '../kubectl/generate/common';

/** Position is a zero-based line and character in a source file, as editors count them. */
export interface Position {
  line: number;
  character: number;
}

/** Range spans a key or value in a source file. */
export interface Range {
  start: Position;
  end: Position;
}

/** FieldRange is where a field sits in its document: the key, and the value it holds. */
export interface FieldRange {
  key?: Range;
  value: Range;
}

/** SourceDocument is one YAML document of an input file, parsed, with the range of every field. */
export interface SourceDocument {
  /** file is the path the document was read from, as the user named it. */
  file: string;
  /** index is the document's position in its file (0 for the first `---` section). */
  index: number;
  /** object is the document as a plain JSON value (an item of a `kind: List` is its own document). */
  object: KubeObject;
  /** range covers the whole document (or List item) in the file. */
  range: Range;
  /**
   * fields maps a field path relative to the object (`spec.containers[0].image`,
   * `metadata.labels["app.kubernetes.io/name"]`) to its range.
   */
  fields: Map<string, FieldRange>;
}

/** Duration of a Behavior: seconds, or `never`. */
export type SecondsOrNever = number | 'never';

/** ImageBehavior says how an image reference behaves when pulled. */
export interface ImageBehavior {
  /** size in bytes (parsed from a quantity such as 72Mi). */
  size?: number;
  pullSeconds?: number;
  exists?: boolean;
  pullSecret?: string;
}

/** ContainerBehavior says what a container's process does; the manifest cannot say it. */
export interface ContainerBehavior {
  startSeconds?: number;
  exitAfterSeconds?: number;
  exitCode?: number;
  readyAfterSeconds?: number;
  livenessFailsAfterSeconds?: number;
  /** probeResponseSeconds is how long the process takes to answer a probe; beyond the probe's timeoutSeconds it fails. */
  probeResponseSeconds?: number;
  postStartSeconds?: number;
  postStartFails?: boolean;
  preStopSeconds?: number;
  /** preStopFails makes the preStop hook (exec or httpGet) fail when it ends. */
  preStopFails?: boolean;
  sigtermSeconds?: SecondsOrNever;
  /** logs are the lines the container writes, each `at` seconds after it starts (what `kubectl logs` shows). */
  logs?: LogLine[];
}

/** LogLine is one line a container writes to its log, `at` seconds after it started. */
export interface LogLine {
  at: number;
  line: string;
}

/**
 * WebhookBehavior says what an admission webhook answers (by the webhook's name in its configuration):
 * allow or deny with a message and code, a JSONPatch for a mutating webhook, warnings; or that it is
 * slow (delaySeconds, against the webhook's timeoutSeconds) or unreachable (its failurePolicy decides).
 */
export interface WebhookBehavior {
  allowed?: boolean;
  code?: number;
  message?: string;
  patch?: unknown[];
  warnings?: string[];
  delaySeconds?: number;
  unreachable?: boolean;
}

/** MetricSample is one point of a pod's usage: from `at` seconds of virtual time on, `value` milli-units (cpu: millicores, memory: thousandths of a byte). */
export interface MetricSample {
  at: number;
  value: number;
}

/** ResourceSamples are a pod's or a container's CPU and memory usage over virtual time. */
export interface ResourceSamples {
  cpu?: MetricSample[];
  memory?: MetricSample[];
}

/**
 * PodMetrics is what the metrics APIs report of the pods a name pattern matches, over virtual time: the pod's CPU and
 * memory (metrics.k8s.io), each container's (`containers`, by container name), and custom per-pod metrics
 * (`pods`, by metric name, as custom.metrics.k8s.io serves them for a Pods metric: one or more series each).
 */
export interface PodMetrics extends ResourceSamples {
  containers?: Record<string, ResourceSamples>;
  pods?: Record<string, MetricSeries[]>;
}

/**
 * MetricSeries is one series of a custom or external metric: its labels (what a metric selector matches; none for a
 * metric given as plain samples) and its samples.
 */
export interface MetricSeries {
  labels: Record<string, string>;
  samples: MetricSample[];
}

/** ExternalSeries is one series of an external metric (a MetricSeries). */
export type ExternalSeries = MetricSeries;

/** Behavior is the `podlifecycle.debug/v1alpha1` Behavior document. */
export interface Behavior {
  images: Record<string, ImageBehavior>;
  /** containers by container name, or `POD/CONTAINER`. */
  containers: Record<string, ContainerBehavior>;
  /** nodes by name: `kubelet: down` stops the node's kubelet, from the start or after downAfterSeconds. */
  nodes: Record<string, { kubelet?: 'up' | 'down'; downAfterSeconds?: number }>;
  volumes: Record<string, { unmountSeconds?: SecondsOrNever }>;
  /** finalizers lists `Kind/namespace/name` objects whose finalizers are never removed. */
  finalizers: string[];
  /** webhooks are the answers of admission webhooks, by webhook name. */
  webhooks: Record<string, WebhookBehavior>;
  /** metrics are the pods' CPU and memory usage, by pod name or a pattern with `*` (metrics.k8s.io as metrics-server serves it). */
  metrics: Record<string, PodMetrics>;
  /**
   * customMetrics are the custom metrics API's values of described objects (an Object metric), by metric name and
   * then by `Kind/name` of the object: one or more series each.
   */
  customMetrics: Record<string, Record<string, MetricSeries[]>>;
  /** externalMetrics are the external metrics API's series, by metric name (an External metric). */
  externalMetrics: Record<string, ExternalSeries[]>;
  /**
   * metricsServer false says no metrics-server serves metrics.k8s.io (a cluster without it, as kubeadm leaves one): the
   * autoscaler's Resource and ContainerResource metrics then fail to list PodMetricses (NotFound). Default: served.
   */
  metricsServer?: boolean;
  /** informers delay what each component's informers hand its handlers: `kubelet: {delaySeconds: 0.5}` (none by default). */
  informers?: Partial<Record<InformerComponent, { delaySeconds?: number }>>;
}

/** INFORMER_COMPONENTS are the programs whose informers a Behavior may delay. */
export const INFORMER_COMPONENTS = ['kube-scheduler', 'kube-controller-manager', 'kubelet', 'kube-proxy'] as const;

/** InformerComponent is one program whose informers a Behavior may delay. */
export type InformerComponent = (typeof INFORMER_COMPONENTS)[number];

/** StaticToken is one line of the API server's --token-auth-file. */
export interface StaticToken {
  token: string;
  user: string;
  uid?: string;
  groups?: string[];
}

/**
 * AuthzWebhookRule is one answer of the authorization webhook (--authorization-mode Webhook): the first
 * rule whose given fields all match the request decides; a request no rule matches gets no opinion.
 */
export interface AuthzWebhookRule {
  user?: string;
  group?: string;
  verb?: string;
  resource?: string;
  namespace?: string;
  decision: 'allow' | 'deny' | 'noOpinion';
  reason?: string;
}

/** ClusterProfile is the `podlifecycle.debug/v1alpha1` ClusterProfile document: the control plane's flags and files. */
export interface ClusterProfile {
  authentication: { anonymous: boolean; tokens: StaticToken[]; clientCA?: string };
  authorization: { modes: string[]; abac: unknown[]; webhook: AuthzWebhookRule[] };
  admission: { enable: string[]; disable: string[] };
  /** controllerManager is kube-controller-manager's flags; unset, its defaults (CONTROLLER_MANAGER_DEFAULTS). */
  controllerManager?: ControllerManagerFlags;
  /** kubelet is every kubelet's KubeletConfiguration a profile may set; unset, its defaults (KUBELET_DEFAULTS). */
  kubelet?: KubeletFlags;
}

/** KubeletFlags are the KubeletConfiguration fields a profile may set: its client's rate limit. */
export interface KubeletFlags {
  /** kubeAPIQPS is kubeAPIQPS (--kube-api-qps): requests a second of the kubelet's client (0: client-go's 5 per API group). */
  kubeAPIQPS: number;
  /** kubeAPIBurst is kubeAPIBurst (--kube-api-burst): the requests it may send at once (0: the default, 100). */
  kubeAPIBurst: number;
}

/** KUBELET_DEFAULTS are KubeletConfiguration's defaults (pkg/kubelet/apis/config/v1beta1/defaults.go, v1.36.3). */
export const KUBELET_DEFAULTS: Readonly<KubeletFlags> = { kubeAPIQPS: 50, kubeAPIBurst: 100 };

/** ControllerManagerFlags are kube-controller-manager's flags a profile may set: its clients' rate limit. */
export interface ControllerManagerFlags {
  /** kubeAPIQPS is --kube-api-qps: requests a second of each controller's client (0: client-go's 5 per API group; below 0: no limit). */
  kubeAPIQPS: number;
  /** kubeAPIBurst is --kube-api-burst: the requests each client may send at once (0: client-go's 10 where the QPS is 0). */
  kubeAPIBurst: number;
}

/** CONTROLLER_MANAGER_DEFAULTS are kube-controller-manager's defaults (cmd/kube-controller-manager/app/options, v1.36.3). */
export const CONTROLLER_MANAGER_DEFAULTS: Readonly<ControllerManagerFlags> = { kubeAPIQPS: 20, kubeAPIBurst: 30 };

/** Identity is who sends the requests, as kubectl would present it. */
export type Identity =
  | { kind: 'default' }
  | { kind: 'token'; token: string }
  | { kind: 'certificate'; certificatePem: string }
  | { kind: 'anonymous' }
  | { kind: 'impersonate'; user: string; groups: string[] };

/** ClusterInput is every object and document that makes up the simulated cluster. */
export interface ClusterInput {
  /** objects are the API objects of the cluster (Nodes, Namespaces, RBAC, ...), each with its source. */
  objects: SourceDocument[];
  profile: ClusterProfile;
  /** config holds the real configuration kinds found (KubeSchedulerConfiguration, AdmissionConfiguration). */
  config: SourceDocument[];
}

/** SimulationInputs is everything a run needs, already parsed. */
export interface SimulationInputs {
  manifest: SourceDocument[];
  /** manifestFile names the manifest file, which may hold no document at all. */
  manifestFile?: string;
  cluster: ClusterInput;
  behavior: Behavior;
  identity: Identity;
  /** kubectl is the kubectl command line the run starts from, when not `kubectl apply -f MANIFEST`. */
  kubectl?: KubectlInvocation;
}

/** OWN_API_VERSION is the apiVersion of this project's own kinds. */
export const OWN_API_VERSION = 'podlifecycle.debug/v1alpha1';

/** defaultBehavior is what happens when no Behavior says otherwise. */
export function defaultBehavior(): Behavior {
  return { images: {}, containers: {}, nodes: {}, volumes: {}, finalizers: [], webhooks: {}, metrics: {}, customMetrics: {}, externalMetrics: {} };
}

/**
 * defaultProfile is a kubeadm control plane's flags: anonymous auth on (kube-apiserver's default
 * --anonymous-auth=true; RBAC then decides what system:anonymous may do), Node and RBAC authorization.
 */
export function defaultProfile(): ClusterProfile {
  return {
    authentication: { anonymous: true, tokens: [] },
    authorization: { modes: ['Node', 'RBAC'], abac: [], webhook: [] },
    admission: { enable: [], disable: [] },
  };
}

/** InputError is unusable input: it names the file, the line and the problem. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    /** line is one-based, as people count. */
    readonly line: number,
    readonly problem: string,
    readonly column?: number,
  ) {
    super(`${file}:${line}${column !== undefined ? `:${column}` : ''}: ${problem}`);
    this.name = 'InputError';
  }
}
