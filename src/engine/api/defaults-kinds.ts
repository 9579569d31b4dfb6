// Scheme defaulting of the kinds besides pods and workloads: what kube-apiserver fills in on decode of a Secret, a
// PersistentVolume or claim, Endpoints, an EndpointSlice, a Namespace, a LimitRange, a PriorityClass, a StorageClass, a
// CSIDriver, the RBAC bindings, the webhook configurations, ValidatingAdmissionPolicies and their bindings. See
// pkg/apis/core/v1/defaults.go and zz_generated.defaults.go, pkg/apis/scheduling/v1/defaults.go, pkg/apis/storage/v1/defaults.go,
// pkg/apis/discovery/v1/defaults.go, pkg/apis/rbac/v1/defaults.go and pkg/apis/admissionregistration/v1/defaults.go
// (k8s.io/kubernetes v1.36.3). Events and ControllerRevisions have no defaults.
import { ensure, list, rec, Recorder, type Defaulted, type Rec } from './defaulting-base';
import { roundResourceList } from './defaults';
import { deepClone, type KubeObject } from './types';

/** LABEL_METADATA_NAME is v1.LabelMetadataName, the label every Namespace carries with its own name. */
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

type Defaulter = (r: Recorder, o: Rec) => void;

/** KIND_DEFAULTERS are the SetObjectDefaults_<Kind> of the kinds this file defaults, by kind. */
const KIND_DEFAULTERS: ReadonlyMap<string, Defaulter> = new Map<string, Defaulter>([
  // SetDefaults_Secret: type Opaque.
  ['Secret', (r, o) => r.ifZero(o, 'type', 'Opaque', '')],
  // SetObjectDefaults_PersistentVolume: SetDefaults_PersistentVolume (status.phase Pending, reclaim policy Retain,
  // volumeMode Filesystem), the capacity rounded, a hostPath's type "" (SetDefaults_HostPathVolumeSource).
  ['PersistentVolume', (r, o) => {
    r.ifZero(ensure(o, 'status'), 'phase', 'Pending', 'status');
    const spec = ensure(o, 'spec');
    r.ifZero(spec, 'persistentVolumeReclaimPolicy', 'Retain', 'spec');
    r.ifNil(spec, 'volumeMode', 'Filesystem', 'spec');
    roundResourceList(r, rec(spec['capacity']), 'spec.capacity');
    const hostPath = rec(spec['hostPath']);
    if (hostPath) r.ifNil(hostPath, 'type', '', 'spec.hostPath');
  }],
  // SetObjectDefaults_PersistentVolumeClaim: status.phase Pending, volumeMode Filesystem, the resource lists rounded.
  ['PersistentVolumeClaim', (r, o) => {
    r.ifZero(ensure(o, 'status'), 'phase', 'Pending', 'status');
    const spec = ensure(o, 'spec');
    r.ifNil(spec, 'volumeMode', 'Filesystem', 'spec');
    const resources = rec(spec['resources']);
    roundResourceList(r, rec(resources?.['limits']), 'spec.resources.limits');
    roundResourceList(r, rec(resources?.['requests']), 'spec.resources.requests');
  }],
  // SetDefaults_Endpoints: each port's protocol TCP.
  ['Endpoints', (r, o) => {
    list(o['subsets']).forEach((subset, i) => list(subset['ports']).forEach((port, j) => r.ifZero(port, 'protocol', 'TCP', `subsets[${i}].ports[${j}]`)));
  }],
  // discovery/v1 SetObjectDefaults_EndpointSlice: SetDefaults_EndpointPort, each port's name "" and protocol TCP
  // when nil. See pkg/apis/discovery/v1/defaults.go (v1.36.3).
  ['EndpointSlice', (r, o) => {
    list(o['ports']).forEach((port, i) => {
      r.ifNil(port, 'name', '', `ports[${i}]`);
      r.ifNil(port, 'protocol', 'TCP', `ports[${i}]`);
    });
  }],
  // SetDefaults_Namespace: the label kubernetes.io/metadata.name with the name (a named one only);
  // SetDefaults_NamespaceStatus: phase Active.
  ['Namespace', (r, o) => {
    const meta = ensure(o, 'metadata');
    const name = meta['name'];
    if (typeof name === 'string' && name.length > 0) r.set(ensure(meta, 'labels'), LABEL_METADATA_NAME, name, 'metadata.labels');
    r.ifZero(ensure(o, 'status'), 'phase', 'Active', 'status');
  }],
  // SetDefaults_LimitRangeItem: a Container item's default limit from max, its default request from the default
  // limit, then from min; then every list rounded.
  ['LimitRange', (r, o) => {
    list(rec(o['spec'])?.['limits']).forEach((item, i) => {
      const path = `spec.limits[${i}]`;
      if (item['type'] === 'Container') {
        const defaults = ensure(item, 'default');
        const requests = ensure(item, 'defaultRequest');
        for (const [key, value] of Object.entries(rec(item['max']) ?? {})) if (!Object.hasOwn(defaults, key)) r.set(defaults, key, value, `${path}.default`);
        for (const [key, value] of Object.entries(defaults)) if (!Object.hasOwn(requests, key)) r.set(requests, key, value, `${path}.defaultRequest`);
        for (const [key, value] of Object.entries(rec(item['min']) ?? {})) if (!Object.hasOwn(requests, key)) r.set(requests, key, value, `${path}.defaultRequest`);
        // An empty list is left out on the wire (omitempty), as it was before.
        if (Object.keys(defaults).length === 0) delete item['default'];
        if (Object.keys(requests).length === 0) delete item['defaultRequest'];
      }
      for (const field of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) roundResourceList(r, rec(item[field]), `${path}.${field}`);
    });
  }],
  // scheduling/v1 SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority.
  ['PriorityClass', (r, o) => r.ifNil(o, 'preemptionPolicy', 'PreemptLowerPriority', '')],
  // storage/v1 SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate.
  ['StorageClass', (r, o) => {
    r.ifNil(o, 'reclaimPolicy', 'Delete', '');
    r.ifNil(o, 'volumeBindingMode', 'Immediate', '');
  }],
  // storage/v1 SetDefaults_CSIDriver: attachRequired true, podInfoOnMount false, storageCapacity false,
  // fsGroupPolicy ReadWriteOnceWithFSType, volumeLifecycleModes [Persistent], requiresRepublish false, seLinuxMount false
  // (SELinuxMountReadWriteOncePod is GA and locked on in 1.36; VolumeLimitScaling, alpha and off, sets nothing).
  ['CSIDriver', (r, o) => {
    const spec = ensure(o, 'spec');
    r.ifNil(spec, 'attachRequired', true, 'spec');
    r.ifNil(spec, 'podInfoOnMount', false, 'spec');
    r.ifNil(spec, 'storageCapacity', false, 'spec');
    r.ifNil(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType', 'spec');
    if (!Array.isArray(spec['volumeLifecycleModes']) || spec['volumeLifecycleModes'].length === 0) r.set(spec, 'volumeLifecycleModes', ['Persistent'], 'spec');
    r.ifNil(spec, 'requiresRepublish', false, 'spec');
    r.ifNil(spec, 'seLinuxMount', false, 'spec');
  }],
  ['RoleBinding', defaultBinding],
  ['ClusterRoleBinding', defaultBinding],
  ['ValidatingWebhookConfiguration', (r, o) => defaultWebhooks(r, o, false)],
  ['MutatingWebhookConfiguration', (r, o) => defaultWebhooks(r, o, true)],
  // SetObjectDefaults_ValidatingAdmissionPolicy: SetDefaults_ValidatingAdmissionPolicySpec (failurePolicy Fail; the spec
  // is a struct, so it is always there), then the matchConstraints' defaults; a binding's paramRef has none.
  ['ValidatingAdmissionPolicy', (r, o) => {
    const spec = ensure(o, 'spec');
    r.ifNil(spec, 'failurePolicy', 'Fail', 'spec');
    defaultMatchResources(r, rec(spec['matchConstraints']), 'spec.matchConstraints');
  }],
  // SetObjectDefaults_ValidatingAdmissionPolicyBinding: the matchResources' defaults only.
  ['ValidatingAdmissionPolicyBinding', (r, o) => defaultMatchResources(r, rec(rec(o['spec'])?.['matchResources']), 'spec.matchResources')],
]);

/**
 * defaultMatchResources is SetDefaults_MatchResources (matchPolicy Equivalent, empty namespace and object selectors)
 * and SetDefaults_Rule on each resource rule and exclude rule (scope `*`); a missing MatchResources stays missing.
 */
function defaultMatchResources(r: Recorder, mc: Rec | undefined, path: string): void {
  if (!mc) return;
  r.ifNil(mc, 'matchPolicy', 'Equivalent', path);
  r.ifNil(mc, 'namespaceSelector', {}, path);
  r.ifNil(mc, 'objectSelector', {}, path);
  for (const rules of ['resourceRules', 'excludeResourceRules']) {
    list(mc[rules]).forEach((rule, i) => r.ifNil(rule, 'scope', '*', `${path}.${rules}[${i}]`));
  }
}

/**
 * defaultWebhooks is SetObjectDefaults_{Validating,Mutating}WebhookConfiguration: per webhook SetDefaults_ValidatingWebhook
 * (SetDefaults_MutatingWebhook): failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors,
 * timeoutSeconds 10 (and reinvocationPolicy Never); a service's port 443 (SetDefaults_ServiceReference); each rule's
 * scope `*` (SetDefaults_Rule). See pkg/apis/admissionregistration/v1/zz_generated.defaults.go (v1.36.3).
 */
function defaultWebhooks(r: Recorder, o: Rec, mutating: boolean): void {
  list(o['webhooks']).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    r.ifNil(hook, 'failurePolicy', 'Fail', path);
    r.ifNil(hook, 'matchPolicy', 'Equivalent', path);
    r.ifNil(hook, 'namespaceSelector', {}, path);
    r.ifNil(hook, 'objectSelector', {}, path);
    r.ifNil(hook, 'timeoutSeconds', 10, path);
    if (mutating) r.ifNil(hook, 'reinvocationPolicy', 'Never', path);
    const service = rec(rec(hook['clientConfig'])?.['service']);
    if (service) r.ifNil(service, 'port', 443, `${path}.clientConfig.service`);
    list(hook['rules']).forEach((rule, j) => r.ifNil(rule, 'scope', '*', `${path}.rules[${j}]`));
  });
}

/**
 * defaultBinding is rbac/v1 SetDefaults_RoleBinding (SetDefaults_ClusterRoleBinding): roleRef.apiGroup
 * rbac.authorization.k8s.io; and SetDefaults_Subject per subject: a User or Group subject's apiGroup
 * rbac.authorization.k8s.io (a ServiceAccount's stays "").
 */
function defaultBinding(r: Recorder, o: Rec): void {
  // RoleRef is a struct, not a pointer, in rbac/v1: a binding without one still gets its apiGroup.
  r.ifZero(ensure(o, 'roleRef'), 'apiGroup', RBAC_GROUP, 'roleRef');
  list(o['subjects']).forEach((subject, i) => {
    if (subject['kind'] === 'User' || subject['kind'] === 'Group') r.ifZero(subject, 'apiGroup', RBAC_GROUP, `subjects[${i}]`);
  });
}

/** hasKindDefaults tells whether this file defaults a kind. */
export function hasKindDefaults(kind: string | undefined): boolean {
  return kind !== undefined && KIND_DEFAULTERS.has(kind);
}

/** defaultKind runs the defaulting of one of this file's kinds on a copy of the object; any other comes back as it is. */
export function defaultKind(obj: KubeObject): Defaulted<KubeObject> {
  const defaulter = KIND_DEFAULTERS.get(String(obj.kind));
  if (!defaulter) return { object: obj, changes: [] };
  const object = deepClone(obj);
  const r = new Recorder();
  defaulter(r, object as unknown as Rec);
  // A top-level field's path was written with an empty prefix.
  return { object, changes: r.changes.map((c) => (c.startsWith('.') ? c.slice(1) : c)) };
}
