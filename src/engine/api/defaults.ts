// Scheme defaulting: the fields kube-apiserver fills in when it decodes a create request (core/v1 and apps/v1),
// in the order of pkg/apis/core/v1/zz_generated.defaults.go and pkg/apis/apps/v1/zz_generated.defaults.go.
import { deepClone, isObject, type Deployment, type Pod, type PodTemplateSpec, type ReplicaSet } from './types';
import { parseQuantity, type Quantity } from './quantity';

/** Defaulted is a defaulted copy of an object and the field paths (`spec.containers[0].imagePullPolicy`) defaulting set. */
export interface Defaulted<T> {
  object: T;
  changes: string[];
}

type Rec = Record<string, unknown>;

/** Recorder sets defaults on plain JSON objects and writes down the path of every field it sets. */
class Recorder {
  readonly changes: string[] = [];

  /** ifNil sets a field that is absent or null: a nil pointer in the Go type. */
  ifNil(o: Rec, key: string, value: unknown, path: string): void {
    if (o[key] === undefined || o[key] === null) this.set(o, key, value, path);
  }

  /** ifZero sets a field that holds its Go zero value: absent, null, "" or 0. */
  ifZero(o: Rec, key: string, value: unknown, path: string): void {
    const v = o[key];
    if (v === undefined || v === null || v === '' || v === 0) this.set(o, key, value, path);
  }

  set(o: Rec, key: string, value: unknown, path: string): void {
    o[key] = value;
    this.changes.push(`${path}.${key}`);
  }
}

function rec(value: unknown): Rec | undefined {
  return isObject(value) ? value : undefined;
}

function list(value: unknown): Rec[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** ensure returns o[key] as an object, creating an empty one (unrecorded) when it is missing. */
function ensure(o: Rec, key: string): Rec {
  const existing = rec(o[key]);
  if (existing) return existing;
  const created: Rec = {};
  o[key] = created;
  return created;
}

// Image references, as github.com/distribution/reference parses them (ParseNormalizedNamed).
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const REFERENCE = new RegExp(
  `^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::([\\w][\\w.-]{0,127}))?` +
    '(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$',
);

/**
 * imageTag returns the tag of an image reference as pkg/util/parsers.ParseImageName does: the written tag,
 * "latest" when neither a tag nor a digest is written, "" when only a digest is, and undefined when the
 * reference does not parse (uppercase repository, bad characters, empty).
 */
export function imageTag(image: string): string | undefined {
  const m = REFERENCE.exec(image);
  if (!m || m[1]!.length > 255 || /^[a-f0-9]{64}$/.test(image)) return undefined;
  if (m[2] !== undefined) return m[2];
  return m[3] !== undefined ? '' : 'latest';
}

/**
 * defaultImagePullPolicy is the pull policy SetDefaults_Container gives an image: Always for the "latest" tag
 * (written or implied), IfNotPresent otherwise, including a digest, a reference that does not parse and "".
 */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** quantityOf parses a resource value, or gives undefined for one that does not parse (validation reports it). */
function quantityOf(value: unknown): Quantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return parseQuantity(value);
  } catch {
    return undefined;
  }
}

/**
 * roundResourceList is SetDefaults_ResourceList: every value is rounded up to milli precision
 * (val.RoundUp(-3) in pkg/apis/core/v1/defaults.go), so 0.5m becomes 1m.
 */
function roundResourceList(r: Recorder, values: Rec | undefined, path: string): void {
  if (!values) return;
  for (const [name, value] of Object.entries(values)) {
    const q = quantityOf(value);
    if (!q) continue;
    const rounded = q.roundUp(-3);
    if (rounded.cmp(q) !== 0) r.set(values, name, rounded.toString(), path);
  }
}

function defaultHTTPGet(r: Recorder, handler: Rec | undefined, path: string): void {
  const httpGet = rec(handler?.['httpGet']);
  if (!httpGet) return;
  r.ifZero(httpGet, 'path', '/', `${path}.httpGet`);
  r.ifZero(httpGet, 'scheme', 'HTTP', `${path}.httpGet`);
}

function defaultProbe(r: Recorder, probe: Rec | undefined, path: string): void {
  if (!probe) return;
  r.ifZero(probe, 'timeoutSeconds', 1, path);
  r.ifZero(probe, 'periodSeconds', 10, path);
  r.ifZero(probe, 'successThreshold', 1, path);
  r.ifZero(probe, 'failureThreshold', 3, path);
  defaultHTTPGet(r, probe, path);
  const grpc = rec(probe['grpc']);
  if (grpc) r.ifNil(grpc, 'service', '', `${path}.grpc`);
}

function defaultFieldRef(r: Recorder, holder: Rec | undefined, path: string): void {
  const fieldRef = rec(holder?.['fieldRef']);
  if (fieldRef) r.ifZero(fieldRef, 'apiVersion', 'v1', `${path}.fieldRef`);
  // An env var's fileKeyRef is not optional unless it says so (`+default=false`, k8s.io/api core/v1 FileKeySelector;
  // pkg/apis/core/v1/zz_generated.defaults.go, v1.36.3).
  const fileKeyRef = rec(holder?.['fileKeyRef']);
  if (fileKeyRef) r.ifNil(fileKeyRef, 'optional', false, `${path}.fileKeyRef`);
}

/** defaultContainer applies SetDefaults_Container and the generated defaulting of a container's sub-objects. */
function defaultContainer(r: Recorder, c: Rec, path: string): void {
  if (c['imagePullPolicy'] === undefined || c['imagePullPolicy'] === null || c['imagePullPolicy'] === '') {
    r.set(c, 'imagePullPolicy', defaultImagePullPolicy(typeof c['image'] === 'string' ? c['image'] : ''), path);
  }
  r.ifZero(c, 'terminationMessagePath', '/dev/termination-log', path);
  r.ifZero(c, 'terminationMessagePolicy', 'File', path);
  list(c['ports']).forEach((port, j) => r.ifZero(port, 'protocol', 'TCP', `${path}.ports[${j}]`));
  list(c['env']).forEach((env, j) => defaultFieldRef(r, rec(env['valueFrom']), `${path}.env[${j}].valueFrom`));
  const resources = rec(c['resources']);
  roundResourceList(r, rec(resources?.['limits']), `${path}.resources.limits`);
  roundResourceList(r, rec(resources?.['requests']), `${path}.resources.requests`);
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    defaultProbe(r, rec(c[probe]), `${path}.${probe}`);
  }
  const lifecycle = rec(c['lifecycle']);
  defaultHTTPGet(r, rec(lifecycle?.['postStart']), `${path}.lifecycle.postStart`);
  defaultHTTPGet(r, rec(lifecycle?.['preStop']), `${path}.lifecycle.preStop`);
}

/** defaultVolume applies SetDefaults_Volume and the defaulting of each volume source kind. */
function defaultVolume(r: Recorder, v: Rec, path: string): void {
  // ptr.AllPtrFieldsNil(&obj.VolumeSource): a volume with no source is an emptyDir.
  if (!Object.keys(v).some((key) => key !== 'name' && v[key] !== undefined && v[key] !== null)) {
    r.set(v, 'emptyDir', {}, path);
  }
  const image = rec(v['image']);
  if (image) {
    const reference = typeof image['reference'] === 'string' ? image['reference'] : '';
    r.ifZero(image, 'pullPolicy', defaultImagePullPolicy(reference), `${path}.image`);
  }
  const hostPath = rec(v['hostPath']);
  if (hostPath) r.ifNil(hostPath, 'type', '', `${path}.hostPath`);
  const secret = rec(v['secret']);
  if (secret) r.ifNil(secret, 'defaultMode', 420, `${path}.secret`);
  const iscsi = rec(v['iscsi']);
  if (iscsi) r.ifZero(iscsi, 'iscsiInterface', 'default', `${path}.iscsi`);
  const rbd = rec(v['rbd']);
  if (rbd) {
    r.ifZero(rbd, 'pool', 'rbd', `${path}.rbd`);
    r.ifZero(rbd, 'user', 'admin', `${path}.rbd`);
    r.ifZero(rbd, 'keyring', '/etc/ceph/keyring', `${path}.rbd`);
  }
  const downwardAPI = rec(v['downwardAPI']);
  if (downwardAPI) {
    r.ifNil(downwardAPI, 'defaultMode', 420, `${path}.downwardAPI`);
    list(downwardAPI['items']).forEach((item, j) => defaultFieldRef(r, item, `${path}.downwardAPI.items[${j}]`));
  }
  const configMap = rec(v['configMap']);
  if (configMap) r.ifNil(configMap, 'defaultMode', 420, `${path}.configMap`);
  const azureDisk = rec(v['azureDisk']);
  if (azureDisk) {
    r.ifNil(azureDisk, 'cachingMode', 'ReadWrite', `${path}.azureDisk`);
    r.ifNil(azureDisk, 'kind', 'Shared', `${path}.azureDisk`);
    r.ifNil(azureDisk, 'fsType', 'ext4', `${path}.azureDisk`);
    r.ifNil(azureDisk, 'readOnly', false, `${path}.azureDisk`);
  }
  const projected = rec(v['projected']);
  if (projected) {
    r.ifNil(projected, 'defaultMode', 420, `${path}.projected`);
    list(projected['sources']).forEach((source, j) => {
      const sourcePath = `${path}.projected.sources[${j}]`;
      list(rec(source['downwardAPI'])?.['items']).forEach((item, k) =>
        defaultFieldRef(r, item, `${sourcePath}.downwardAPI.items[${k}]`));
      const token = rec(source['serviceAccountToken']);
      if (token) r.ifNil(token, 'expirationSeconds', 3600, `${sourcePath}.serviceAccountToken`);
    });
  }
  const scaleIO = rec(v['scaleIO']);
  if (scaleIO) {
    r.ifZero(scaleIO, 'storageMode', 'ThinProvisioned', `${path}.scaleIO`);
    r.ifZero(scaleIO, 'fsType', 'xfs', `${path}.scaleIO`);
  }
  const claimTemplate = rec(rec(v['ephemeral'])?.['volumeClaimTemplate']);
  if (claimTemplate) {
    const claimSpec = ensure(claimTemplate, 'spec');
    r.ifNil(claimSpec, 'volumeMode', 'Filesystem', `${path}.ephemeral.volumeClaimTemplate.spec`);
  }
}

/** defaultPodSpec applies SetDefaults_PodSpec, then the generated defaulting of volumes and containers. */
function defaultPodSpec(r: Recorder, spec: Rec, path: string): void {
  r.ifZero(spec, 'dnsPolicy', 'ClusterFirst', path);
  r.ifZero(spec, 'restartPolicy', 'Always', path);
  r.ifNil(spec, 'securityContext', {}, path);
  r.ifNil(spec, 'terminationGracePeriodSeconds', 30, path);
  r.ifZero(spec, 'schedulerName', 'default-scheduler', path);
  list(spec['volumes']).forEach((v, i) => defaultVolume(r, v, `${path}.volumes[${i}]`));
  list(spec['initContainers']).forEach((c, i) => defaultContainer(r, c, `${path}.initContainers[${i}]`));
  list(spec['containers']).forEach((c, i) => defaultContainer(r, c, `${path}.containers[${i}]`));
  list(spec['ephemeralContainers']).forEach((c, i) => defaultContainer(r, c, `${path}.ephemeralContainers[${i}]`));
  roundResourceList(r, rec(spec['overhead']), `${path}.overhead`);
  const podResources = rec(spec['resources']);
  roundResourceList(r, rec(podResources?.['limits']), `${path}.resources.limits`);
  roundResourceList(r, rec(podResources?.['requests']), `${path}.resources.requests`);
}

/** copyLimitsToRequests is the part of SetDefaults_Pod that defaults each missing request to its limit. */
function copyLimitsToRequests(r: Recorder, c: Rec, path: string): void {
  const resources = rec(c['resources']);
  const limits = rec(resources?.['limits']);
  if (!resources || !limits) return;
  for (const [name, value] of Object.entries(limits)) {
    const requests = ensure(resources, 'requests');
    if (requests[name] === undefined) r.set(requests, name, value, `${path}.resources.requests`);
  }
}

/** defaultPod returns the Pod as SetObjectDefaults_Pod leaves it: SetDefaults_Pod, then SetDefaults_PodSpec and the rest. */
export function defaultPod(pod: Pod): Defaulted<Pod> {
  const object = deepClone(pod);
  const r = new Recorder();
  const spec = ensure(object as unknown as Rec, 'spec');
  // SetDefaults_Pod (pkg/apis/core/v1/defaults.go): requests from limits, pod-level resources,
  // enableServiceLinks, and host ports under host networking. Pods only, never templates.
  list(spec['containers']).forEach((c, i) => copyLimitsToRequests(r, c, `spec.containers[${i}]`));
  list(spec['initContainers']).forEach((c, i) => copyLimitsToRequests(r, c, `spec.initContainers[${i}]`));
  defaultPodLevelResources(r, spec);
  r.ifNil(spec, 'enableServiceLinks', true, 'spec');
  if (spec['hostNetwork'] === true) {
    for (const kind of ['containers', 'initContainers']) {
      list(spec[kind]).forEach((c, i) => list(c['ports']).forEach((port, j) => {
        if (typeof port['containerPort'] === 'number') r.ifZero(port, 'hostPort', port['containerPort'], `spec.${kind}[${i}].ports[${j}]`);
      }));
    }
  }
  defaultPodSpec(r, spec, 'spec');
  return { object, changes: r.changes };
}

/**
 * defaultPodTemplate defaults a pod template as the workload kinds do (SetDefaults_PodSpec and the sub-objects,
 * but not SetDefaults_Pod: no requests from limits, no enableServiceLinks). path is where the template sits.
 */
export function defaultPodTemplate(template: PodTemplateSpec, path = 'spec.template'): Defaulted<PodTemplateSpec> {
  const object = deepClone(template);
  const r = new Recorder();
  defaultPodSpec(r, ensure(object as unknown as Rec, 'spec'), `${path}.spec`);
  return { object, changes: r.changes };
}

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

// Pod-level resources (PodLevelResources, beta and on since 1.34): defaultHugePagePodLimits,
// defaultPodRequests and defaultPodLimits in pkg/apis/core/v1/defaults.go, with the aggregation of
// k8s.io/component-helpers/resource (AggregateContainerRequests / AggregateContainerLimits).

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const isPodLevelResource = (name: string): boolean => name === 'cpu' || name === 'memory' || isHugePages(name);

type Amounts = Map<string, Quantity>;

function amountsOf(values: unknown): Amounts {
  const out: Amounts = new Map();
  for (const [name, value] of Object.entries(rec(values) ?? {})) {
    const q = quantityOf(value);
    if (q) out.set(name, q);
  }
  return out;
}

// addResourceList and maxResourceList of k8s.io/component-helpers/resource/helpers.go.
function addAmounts(into: Amounts, from: Amounts): void {
  for (const [name, q] of from) {
    const prev = into.get(name);
    into.set(name, prev ? prev.add(q) : q);
  }
}

function maxAmounts(into: Amounts, from: Amounts): void {
  for (const [name, q] of from) {
    const prev = into.get(name);
    if (!prev || q.cmp(prev) > 0) into.set(name, q);
  }
}

/** aggregateContainers is AggregateContainerRequests/Limits: regular and sidecar sums, maxed with each init container. */
function aggregateContainers(spec: Rec, key: 'requests' | 'limits'): Amounts {
  const total: Amounts = new Map();
  for (const c of list(spec['containers'])) addAmounts(total, amountsOf(rec(c['resources'])?.[key]));
  const sidecars: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const c of list(spec['initContainers'])) {
    const own = amountsOf(rec(c['resources'])?.[key]);
    let effective: Amounts;
    if (c['restartPolicy'] === 'Always') {
      addAmounts(total, own);
      addAmounts(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map();
      addAmounts(effective, own);
      addAmounts(effective, sidecars);
    }
    maxAmounts(initMax, effective);
  }
  maxAmounts(total, initMax);
  return total;
}

function defaultPodLevelResources(r: Recorder, spec: Rec): void {
  const resources = rec(spec['resources']);
  if (!resources) return;
  const limits = rec(resources['limits']) ?? {};
  const requests = rec(resources['requests']) ?? {};
  const hasLimits = Object.keys(limits).length > 0;
  const hasRequests = Object.keys(requests).length > 0;
  // defaultHugePagePodLimits
  if (hasLimits || hasRequests) {
    for (const [name, a] of aggregateContainers(spec, 'limits')) {
      if (!isHugePages(name) || name in requests || name in limits) continue;
      r.set(ensure(resources, 'limits'), name, a.toString(), 'spec.resources.limits');
    }
  }
  // defaultPodRequests: only when pod-level limits are set.
  const podLimits = rec(resources['limits']) ?? {};
  if (Object.keys(podLimits).length > 0) {
    for (const [name, a] of aggregateContainers(spec, 'requests')) {
      if (name in requests || !isPodLevelResource(name) || isHugePages(name)) continue;
      r.set(ensure(resources, 'requests'), name, a.toString(), 'spec.resources.requests');
    }
    for (const [name, value] of Object.entries(podLimits)) {
      const podRequests = rec(resources['requests']) ?? {};
      if (!(name in podRequests) && isPodLevelResource(name)) r.set(ensure(resources, 'requests'), name, value, 'spec.resources.requests');
    }
    return;
  }
  // defaultPodLimits: pod-level requests set, no pod-level limits; every container limits the resource.
  if (!Object.keys(requests).some(isPodLevelResource)) return;
  const all = [...list(spec['initContainers']), ...list(spec['containers'])];
  for (const [name, a] of aggregateContainers(spec, 'limits')) {
    if (!isPodLevelResource(name) || isHugePages(name)) continue;
    if (!all.every((c) => rec(rec(c['resources'])?.['limits'])?.[name] !== undefined)) continue;
    r.set(ensure(resources, 'limits'), name, a.toString(), 'spec.resources.limits');
  }
}
