// Scheme defaulting: the fields kube-apiserver fills in when it decodes a create request (core/v1 and apps/v1),
// in the order of pkg/apis/core/v1/zz_generated.defaults.go. The workload kinds' are in defaults-workloads.ts.
import { deepClone, type Pod, type PodTemplateSpec } from './types';
import { ensure, list, rec, Recorder, type Defaulted, type Rec } from './defaulting-base';
import { quantityOf } from './quantity';
import { defaultPodLevelResources } from './defaults-pod-resources';

export type { Defaulted } from './defaulting-base';

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


/**
 * roundResourceList is SetDefaults_ResourceList: every value is rounded up to milli precision
 * (val.RoundUp(-3) in pkg/apis/core/v1/defaults.go), so 0.5m becomes 1m.
 */
export function roundResourceList(r: Recorder, values: Rec | undefined, path: string): void {
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
export function defaultPodSpec(r: Recorder, spec: Rec, path: string): void {
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
