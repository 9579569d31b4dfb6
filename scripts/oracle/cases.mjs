// The oracle's cases: the rejection fixtures of test/cli/rejections-*.test.ts, accepted fixtures, and generated
// manifests written under GEN (.cache/oracle/gen). Each case is `{ manifest, cluster?, id?, watchPods?, settle?,
// engineArgs?, podsRun?, pace?: true | 'unschedulable', thenApply?: { after, file }, drain?: { after, node, timeout } }`: podsRun puts it on a reference
// cluster started with --pods-run (its stand-in kubelet), thenApply and drain are a later apply or kubectl drain, that
// many seconds after the first apply, on both sides.
import { GEN } from './common.mjs';

// ---------------------------------------------------------------------------------------------------------------
// The cases. `cluster` lists --cluster files (none: the embedded cluster); `id` is the identity flags of both sides.
// The rejection cases are those of test/cli/rejections-*.test.ts, with their manifests, clusters and identities.
// ---------------------------------------------------------------------------------------------------------------
const A = 'test/fixtures/admission', AUTH = 'test/fixtures/auth', Q = 'test/fixtures/quota', W = 'test/fixtures/webhooks';
/** READY is the engine's Behavior for the cases with Ready pods: images already on the nodes, containers ready at once. */
const READY = ['--behavior', 'test/fixtures/rollout/instant-behavior.yaml'];
const WH = (s) => [`${W}/nodes.yaml`, `${W}/webhook-service.yaml`, `${W}/${s}.yaml`];
export const CASES = [
  // rejections-admission
  { manifest: `${A}/pod-in-dev.yaml` },
  { manifest: `${A}/pod-in-dev.yaml`, cluster: [`${A}/nodes.yaml`, `${A}/terminating-namespace.yaml`] },
  { manifest: `${A}/missing-priority-class.yaml` },
  { manifest: `${A}/missing-runtime-class.yaml`, cluster: [`${A}/nodes.yaml`] },
  { manifest: `${A}/if-not-present.yaml`, cluster: [`${A}/nodes.yaml`, `${A}/always-pull-images.yaml`] },
  { manifest: `${A}/if-not-present.yaml`, cluster: [`${A}/nodes.yaml`] },
  // rejections-apps
  { manifest: 'test/fixtures/apps/selector-mismatch.yaml' },
  { manifest: 'test/fixtures/apps/invalid-label-value.yaml' },
  { manifest: 'test/fixtures/apps/uppercase-name.yaml' },
  // rejections-auth (examples/pod.yaml)
  { manifest: 'examples/pod.yaml', id: ['--token', 'nope'] },
  { manifest: 'examples/pod.yaml', id: ['--as', 'bob'] },
  { manifest: 'examples/pod.yaml', id: ['--anonymous'] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/cert-cluster.yaml`], id: ['--kubeconfig', `${AUTH}/jane-other-ca.kubeconfig`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/webhook-cluster.yaml`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/cert-cluster.yaml`], id: ['--kubeconfig', `${AUTH}/jane.kubeconfig`] },
  { manifest: 'examples/pod.yaml', cluster: [`${AUTH}/abac-cluster.yaml`], id: ['--token', 'abac-token'] },
  // rejections-decode
  { manifest: 'test/fixtures/decode/unknown-field.yaml' },
  { manifest: 'test/fixtures/decode/webhook-unknown-field.yaml' },
  { manifest: 'test/fixtures/decode/policy-unknown-field.yaml' },
  // rejections-podsecurity
  { manifest: 'test/fixtures/podsecurity/pod-secure.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  { manifest: 'test/fixtures/podsecurity/pod-relaxed.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  { manifest: 'test/fixtures/podsecurity/deployment-secure.yaml', cluster: ['test/fixtures/podsecurity/cluster.yaml'] },
  // rejections-quota
  { manifest: `${Q}/pod-over-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-over-limit.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/limit-range.yaml`] },
  { manifest: `${Q}/pod-invalid-over-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-no-resources.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/limit-range.yaml`] },
  { manifest: `${Q}/pod-within-quota.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  { manifest: `${Q}/pod-no-resources.yaml`, cluster: [`${Q}/nodes.yaml`, `${Q}/quota-compute.yaml`] },
  // rejections-validation
  ...['invalid-name', 'duplicate-container', 'requests-above-limits', 'missing-volume', 'several-causes']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  // rejections-validation-kinds: Services, Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas, PriorityClasses
  ...['service-unnamed-ports', 'service-target-port-name', 'service-node-port-cluster-ip', 'service-port-range',
    'service-selector-label', 'service-duplicate-port', 'service-external-name', 'service-cluster-ip',
    'service-headless-node-port', 'service-bad-values', 'service-name-digit', 'namespace-finalizer', 'service-account-name',
    'limit-range-default-above-max', 'limit-range-min-above-request', 'limit-range-bad-type', 'resource-quota-negative',
    'resource-quota-unknown', 'resource-quota-fraction', 'resource-quota-scopes',
    'priority-class-system', 'priority-class-too-high', 'service-affinity-timeout', 'service-ip-family-policy',
    'service-external-ips', 'service-node-port-twice', 'limit-range-ratio', 'service-lb-fields', 'accepted-kinds']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  // rejections-validation-rbac (Roles, ClusterRoles, their bindings) and RuntimeClasses
  ...['rolebinding-no-roleref', 'rolebinding-roleref-no-name', 'rolebinding-bad-subject', 'clusterrole-rule-no-verbs',
    'role-non-resource-url', 'clusterrole-aggregation-empty', 'clusterrole-aggregation-bad-selector', 'clusterrolebinding-sa-no-namespace',
    'rolebinding-valid-pair', 'runtimeclass-no-handler', 'runtimeclass-bad-scheduling', 'runtimeclass-valid']
    // ValidateResourceList walks the overhead's limits map: the reference's errors come in random order (as configmap-bad-key's).
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, ...(n === 'runtimeclass-bad-scheduling' ? { mapOrder: true } : {}) })),
  // ... and bindings by a user who may not bind their roles, compared with his own permissions (ConfirmNoEscalation).
  ...['rbac-escalation-denied', 'rbac-escalation-held', 'rbac-escalation-role']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, cluster: ['test/fixtures/validation/rbac-escalation-cluster.yaml'], id: ['--as', 'bob'] })),
  // rejections-endpoints (Endpoints, EndpointSlices, core/v1 Events, ControllerRevisions)
  ...['net-endpoints-bad-address', 'net-endpoints-not-ip', 'net-endpoints-valid', 'net-endpointslice-no-address-type',
    'net-endpointslice-ipv4', 'net-endpointslice-ipv6', 'net-endpointslice-fqdn', 'net-endpointslice-bad-type',
    'net-endpointslice-valid', 'net-event-namespace', 'net-event-series', 'net-event-valid', 'net-controllerrevision-bad',
    'net-controllerrevision-data-list', 'net-controllerrevision-valid']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  // ... and on update: an EndpointSlice's addressType is immutable, its generation grows with its endpoints, their
  // deprecatedTopology is dropped. (A ControllerRevision's data cannot be
  // applied again: kubectl's strategic merge finds no fields in a RawExtension and fails before any request.)
  { manifest: 'test/fixtures/validation/net-endpointslice-valid.yaml', thenApply: { after: 1, file: 'test/fixtures/validation/net-endpointslice-ipv6-update.yaml' } },
  { manifest: 'test/fixtures/validation/net-endpointslice-valid.yaml', thenApply: { after: 1, file: 'test/fixtures/validation/net-endpointslice-new-address.yaml' } },
  { manifest: 'test/fixtures/validation/net-endpointslice-valid.yaml', thenApply: { after: 1, file: 'test/fixtures/validation/net-endpointslice-topology-update.yaml' } },
  // rejections-webhook-config (ValidatingWebhookConfigurations, MutatingWebhookConfigurations) and the CSI kinds
  // (CSIDrivers, CSINodes, VolumeAttachments, CSIStorageCapacities)
  ...['webhookcfg-validating-bad', 'webhookcfg-url', 'webhookcfg-url-parse', 'webhookcfg-mutating-bad', 'webhookcfg-match-conditions', 'webhookcfg-service',
    'webhookcfg-valid', 'csi-driver-bad', 'csi-driver-token-secrets', 'csi-driver-token-false', 'csi-node-bad', 'csi-volumeattachment-bad',
    'csi-volumeattachment-inline', 'csi-storagecapacity-bad', 'csi-valid']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  // ... and their update rules: the valid ones applied again with what an update may not change changed.
  ...['webhookcfg-valid', 'csi-valid']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, thenApply: { after: 1, file: `test/fixtures/validation/${n}-changed.yaml` } })),
  // rejections-admission-policy (ValidatingAdmissionPolicies and their bindings), then the valid pair applied again,
  // changed (both generations grow) and made invalid (the update is refused).
  ...['vap-policy-bad', 'vap-policy-cel', 'vap-policy-empty', 'vap-policy-no-rules', 'vap-binding-bad', 'vap-binding-paramref', 'vap-policy-expressions', 'vap-valid',
    'vap-static-suffix']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml` })),
  ...['vap-valid-changed', 'vap-valid-bad-update']
    .map((n) => ({ manifest: 'test/fixtures/validation/vap-valid.yaml', thenApply: { after: 1, file: `test/fixtures/validation/${n}.yaml` } })),
  // ... and written by a user who may not read their params (the strategies' paramKind and paramRef authorization).
  ...['vap-authz-policy', 'vap-authz-binding']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, cluster: ['test/fixtures/validation/vap-authz-cluster.yaml'], id: ['--as', 'bob'] })),
  // (The binding first: the reference deletes a case's objects after it, and the policy's case deletes the policy.)
  ...['vap-authz-update-binding', 'vap-authz-update-policy']
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, cluster: ['test/fixtures/validation/vap-authz-existing.yaml'], id: ['--as', 'bob'] })),
  // rejections-storage-config (PersistentVolumes, claims, StorageClasses, ConfigMaps, Secrets)
  ...['pv-no-capacity', 'pv-two-sources', 'pv-reclaim-keep', 'pv-local-no-affinity', 'pv-no-source', 'pvc-no-access-modes',
    'pvc-bad-request', 'configmap-bad-key', 'secret-tls-missing-cert', 'secret-dockerconfigjson-invalid', 'secret-basic-auth-empty',
    'secret-sa-token-no-annotation', 'storageclass-bad-policies', 'storageclass-bad-topology', 'pv-hostpath-root-recycle',
    'pv-csi-incomplete', 'pvc-data-source-mismatch', 'secret-dockercfg-array', 'secret-ssh-empty-key', 'storageclass-bad-provisioner']
    // ValidateConfigMap walks the data map: the reference's errors come in random order (mapOrder compares them sorted).
    .map((n) => ({ manifest: `test/fixtures/validation/${n}.yaml`, ...(n === 'configmap-bad-key' ? { mapOrder: true } : {}) })),
  // rejections-webhooks
  ...['deny-validating', 'timeout-fail', 'vap-required-label', 'mutating-label', 'timeout-ignore']
    .map((s) => ({ manifest: `${W}/pod.yaml`, cluster: WH(s) })),
  // Accepted manifests on the embedded cluster: stored objects, scheduling, controllers.
  { manifest: 'examples/pod.yaml' },
  { manifest: 'examples/deployment.yaml' },
  // The ReplicaSet controller's pace: its client's rate limiter (kube-controller-manager's --kube-api-qps 20, --kube-api-burst 30).
  { manifest: 'test/fixtures/apps/deployment-100.yaml', pace: true, settle: { ms: 20_000, until: 'replicas created' } },
  // ... and with a big cluster's limit (a ClusterProfile's controllerManager: --kube-api-qps 100, --kube-api-burst 200).
  { manifest: 'test/fixtures/apps/deployment-100.yaml', cluster: [`${W}/nodes.yaml`, 'test/fixtures/apps/controller-manager-fast.yaml'], pace: true, settle: { ms: 20_000, until: 'replicas created' } },
  // ... and behind a webhook that times out after 5 s: each slow-start batch waits for it once.
  { manifest: 'test/fixtures/apps/deployment-20.yaml', cluster: WH('timeout-ignore'), pace: true, settle: { ms: 45_000, until: 'replicas created' } },
  // kube-scheduler's pace on pods no node fits: each PodScheduled condition is a PATCH through its client's limiter
  // (clientConnection 50 and 100), and its scheduling loop waits with it.
  { manifest: 'test/fixtures/apps/deployment-400-unschedulable.yaml', cluster: [`${W}/nodes.yaml`, 'test/fixtures/apps/controller-manager-unlimited.yaml'], pace: 'unschedulable', settle: { ms: 30_000, until: 'replicas created' } },
  // A preemption's nomination holds the room it made: a pod of lower priority does not take it while the victim stops.
  { manifest: 'test/fixtures/preemption/victim.yaml', thenApply: { after: 5, file: 'test/fixtures/preemption/nominated.yaml' }, engineArgs: ['--for', '60s'] },
  // Defaulting of the kinds besides workloads (Secret type, claim and volume modes, reclaim and binding policies, ...).
  { manifest: 'test/fixtures/defaults/many-kinds.yaml', settle: { ms: 40_000, until: 'claims bound' } },
  // A claim's dataSource and dataSourceRef as the claim strategy's PrepareForCreate leaves them.
  { manifest: 'test/fixtures/defaults/pvc-data-sources.yaml' },
  { manifest: 'test/fixtures/explain/pod-64-cpu.yaml' },
  { manifest: 'test/fixtures/explain/pod-node-selector.yaml' },
  { manifest: 'test/fixtures/termination/unschedulable.yaml' },
  { manifest: 'test/fixtures/termination/with-service.yaml' },
  { manifest: 'test/fixtures/controllers/frontend-rs-3.yaml' },
  { manifest: 'test/fixtures/controllers/job-pi.yaml' },
  { manifest: 'test/fixtures/controllers/web-recreate.yaml' },
  // Parallel: the reference has no kubelets, so an OrderedReady set would stop at its first pod there.
  { manifest: 'test/fixtures/statefulset/parallel.yaml' },
  { manifest: 'test/fixtures/daemonset/agent.yaml' },
  ...['active-deadline', 'crash-loop', 'init-fails-always', 'job-succeeds', 'liveness-fails', 'never-pull', 'readiness-gate',
    'sidecar-plain', 'sidecar-startup', 'startup-fails', 'poststart-slow', 'exec-probe-timeout']
    .map((n) => ({ manifest: `test/fixtures/kubelet/${n}.yaml` })),
  // Controllers the reference shows without kubelets (each fixture says what it is for). EndpointSlices are compared
  // in every case with a Service (with-service.yaml above too); these add Services whose pods get no IP on either side.
  { manifest: 'test/fixtures/endpointslice/no-ready-pods.yaml' },
  { manifest: 'test/fixtures/gc/dangling-owners.yaml' },
  // Pod GC runs every 20 s and quarantines a missing node for 40 s first: the pod goes 40-60 s in; its last status is
  // seen through a watch, since the pod is force-deleted right after it is patched.
  { manifest: 'test/fixtures/controllers/pod-on-missing-node.yaml', watchPods: true, settle: { ms: 100_000, until: 'pods gone' } },
  // The Behavior's down node stops its heartbeats in the reference too: Unknown after the 50 s grace period (and up to
  // 10 s of heartbeat phase), then the pod's 10 s toleration.
  { manifest: 'test/fixtures/node-lifecycle/kubelet-down-short-toleration.yaml', settle: { ms: 120_000, until: 'down-node pods deleting' } },
  // A CronJob every minute: the reference's first Job comes at the next minute of its wall clock (within 60 s), the
  // engine's at the first minute of its virtual clock; the engine runs 90 s, past that minute and before the next.
  // The Job's pod runs until stopped (the default Behavior), so neither side sees it complete.
  { manifest: 'test/fixtures/cronjob/every-minute.yaml', engineArgs: ['--for', '90s'], settle: { ms: 80_000, until: 'cronjob jobs scheduled' } },
  // An autoscaler stored with the API server's defaults (minReplicas, metrics, behavior); compared before its first
  // sync (15 s), since the reference has no metrics API.
  { manifest: 'test/fixtures/hpa/defaults.yaml', engineArgs: ['--for', '10s'] },
  // Autoscalers refused by the behavior's validation (validateBehavior).
  { manifest: 'test/fixtures/hpa/behavior-invalid-windows.yaml', engineArgs: ['--for', '1s'] },
  { manifest: 'test/fixtures/hpa/behavior-invalid-policies.yaml', engineArgs: ['--for', '1s'] },
  // An autoscaling/v1 autoscaler: stored as v2 with v1's defaults; one with a v2-only field refused by strict decoding.
  { manifest: 'test/fixtures/hpa/web-v1.yaml', engineArgs: ['--for', '10s'] },
  { manifest: 'test/fixtures/hpa/invalid-v1.yaml', engineArgs: ['--for', '1s'] },
  // Controllers that act on Ready pods, on a reference whose stand-in kubelet runs them (refcluster --pods-run: Running
  // and Ready as soon as bound); the engine's images are on the nodes already (no pull), so its pods are Ready at once too.
  // A rolling update: the second apply 10 s after the first; the reference waits up to 60 s for the rollout's end.
  { manifest: 'test/fixtures/rollout/web.yaml', podsRun: true, engineArgs: READY, thenApply: { after: 10, file: 'test/fixtures/rollout/web-new-image.yaml' }, settle: { ms: 60_000, until: 'rollouts complete' } },
  // Budgets over Ready pods (and one over none), once the disruption controller observed them.
  { manifest: 'test/fixtures/disruption/ready-budgets.yaml', podsRun: true, engineArgs: [...READY, '--for', '20s'], settle: { ms: 40_000, until: 'budgets synced' } },
  // An eviction the budget refuses (429), then kubectl drain retrying every 5 s until its 12 s timeout.
  // The pods are kept on the drained node, as the real scheduler's ties between the two workers are random.
  { manifest: 'test/fixtures/drain/budget-one-node.yaml', podsRun: true, engineArgs: READY, drain: { after: 10, node: 'worker-1', timeout: '12s' } },
  // An autoscaler of Ready pods without metrics-server: the reference serves no metrics.k8s.io, the engine's Behavior says so.
  { manifest: 'test/fixtures/hpa/web.yaml', podsRun: true, engineArgs: ['--behavior', 'test/fixtures/hpa/no-metrics-server-behavior.yaml', '--for', '40s'], settle: { ms: 60_000, until: 'autoscalers synced' } },
];

// Generated cases: manifests written under .cache/oracle/gen (paths relative to the project, like the fixtures'),
// for what the fixtures do not try: more of validation, admission and the scheduler's filters and messages.
const pod = (name, spec, meta = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${meta}spec:\n${spec}`;
const app = (extra = '', container = '') => `  containers:\n  - name: app\n    image: nginx:1.27\n${container}${extra}`;
const cpu = (c, m = '64Mi') => `    resources:\n      requests: {cpu: "${c}", memory: ${m}}\n`;
const deploy = (name, replicas, podSpec) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n${podSpec.replace(/^/gm, '    ')}\n`;
export const GENERATED = {
  // validation
  'negative-cpu': pod('web', app('', '    resources:\n      limits: {cpu: "-1"}\n')),
  'bad-pull-policy': pod('web', app('', '    imagePullPolicy: Sometimes\n')),
  'no-containers': pod('web', '  containers: []\n'),
  'bad-env-name': pod('web', app('', '    env:\n    - {name: "1BAD=", value: x}\n')),
  'long-port-name': pod('web', app('', '    ports:\n    - {name: a-very-long-port-name, containerPort: 80}\n')),
  'bad-label-key': pod('web', app(), '  labels: {"-bad/key": x}\n'),
  'two-probe-handlers': pod('web', app('', '    livenessProbe:\n      httpGet: {port: 80}\n      tcpSocket: {port: 80}\n')),
  'negative-grace': pod('web', `${app()}  terminationGracePeriodSeconds: -5\n`),
  'dup-port-names': pod('web', app('', '    ports:\n    - {name: http, containerPort: 80}\n    - {name: http, containerPort: 81}\n')),
  'deploy-restart-never': deploy('web', 1, `  restartPolicy: Never\n${app()}`),
  'deploy-zero-selector': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n${app().replace(/^/gm, '    ')}\n`,
  // warnings (pkg/api/pod/warnings.go): a fractional byte quantity in a Pod, deprecated node labels in a template
  'fractional-memory': pod('web', app('', '    resources:\n      requests: {memory: 100m}\n      limits: {memory: 1.5}\n')),
  'deploy-deprecated-labels': deploy('web', 1, `  nodeSelector: {beta.kubernetes.io/os: linux}\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n`
    + `      - weight: 1\n        preference:\n          matchExpressions:\n          - {key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a, "b c"]}\n${app()}`),
  // admission
  'system-priority': pod('web', `${app()}  priorityClassName: system-cluster-critical\n`),
  'missing-sa': pod('web', `${app()}  serviceAccountName: robot\n`),
  // scheduler
  'fits-3-cpu': pod('web', app('', cpu('3'))),
  'too-much-cpu': pod('web', app('', cpu('5'))),
  'too-much-memory': pod('web', app('', cpu('100m', '9Gi'))),
  'absurd-memory': pod('web', app('', '    resources:\n      requests: {memory: 99999999999999999999999Ei}\n')),
  'gpu': pod('web', app('', '    resources:\n      limits: {nvidia.com/gpu: 1}\n')),
  'control-plane-only': pod('web', `${app()}  nodeSelector: {node-role.kubernetes.io/control-plane: ""}\n  tolerations:\n  - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}\n`),
  'control-plane-untolerated': pod('web', `${app()}  nodeSelector: {node-role.kubernetes.io/control-plane: ""}\n`),
  'affinity-worker-2': pod('web', `${app()}  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - {key: kubernetes.io/hostname, operator: In, values: [worker-2]}\n`),
  'missing-pvc': pod('web', `${app()}  volumes:\n  - name: data\n    persistentVolumeClaim: {claimName: data}\n`),
  'host-port-clash': `${pod('a', `${app('', '    ports:\n    - {containerPort: 80, hostPort: 8080}\n')}  nodeSelector: {kubernetes.io/hostname: worker-1}\n`)}---\n${pod('b', `${app('', '    ports:\n    - {containerPort: 80, hostPort: 8080}\n')}  nodeSelector: {kubernetes.io/hostname: worker-1}\n`)}`,
  'anti-affinity-3': deploy('web', 3, `  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - labelSelector: {matchLabels: {app: web}}\n        topologyKey: kubernetes.io/hostname\n${app()}`),
  'spread-4': deploy('web', 4, `  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n${app('', cpu('1'))}`),
  'fill-workers': deploy('web', 5, app('', cpu('1500m'))),
  // stored forms: quantities in several notations, the deprecated serviceAccount alias, Service defaults and allocation
  'quantity-notations': pod('web', `  containers:\n  - name: a\n    image: nginx:1.27\n    resources:\n      requests: {cpu: "0.100", memory: "2048Ki", ephemeral-storage: "1e3"}\n`
    + '  - name: b\n    image: nginx:1.27\n    resources:\n      requests: {cpu: ".5", memory: "1.5Gi"}\n      limits: {cpu: "1000m", memory: "1536Mi"}\n'
    + '  - name: c\n    image: nginx:1.27\n    resources:\n      requests: {cpu: "5e-1", memory: "0.5Gi"}\n'
    + '  - name: d\n    image: nginx:1.27\n    resources:\n      limits: {cpu: "1500u", memory: "+64Mi"}\n'
    + '    volumeMounts:\n    - {name: scratch, mountPath: /scratch}\n  volumes:\n  - name: scratch\n    emptyDir: {sizeLimit: "1024Mi"}\n'),
  'deploy-service-account': `${deploy('web', 1, `  serviceAccountName: default\n  initContainers:\n  - {name: init, image: busybox:1.36}\n${app()}`)}---\n`
    + `${deploy('alias', 1, `  serviceAccount: default\n${app()}`)}`,
  // a StatefulSet's rollingUpdate.maxUnavailable is dropped on create while its feature gate is off (1.36: Beta, off);
  // Parallel, as the reference's pods never become Ready
  'sts-max-unavailable': 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 2\n  podManagementPolicy: Parallel\n'
    + '  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {maxUnavailable: 2, partition: 1}\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n'
    + '    spec:\n      containers:\n      - {name: db, image: nginx:1.27}\n',
  // a DaemonSet that surges: stored with its strategy as given, one pod per node made at once
  'ds-surge': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}\n'
    + '  selector:\n    matchLabels: {app: agent}\n  template:\n    metadata:\n      labels: {app: agent}\n    spec:\n      containers:\n      - {name: agent, image: busybox:1.36, command: [sleep, infinity]}\n',
  'service-types': ['apiVersion: v1\nkind: Service\nmetadata: {name: node-port}\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports:\n  - {name: http, port: 80, targetPort: http}\n  - {name: dns, port: 53, protocol: UDP}\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: headless}\nspec:\n  clusterIP: None\n  selector: {app: web}\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: headless-selectorless}\nspec:\n  clusterIP: None\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: external}\nspec:\n  type: ExternalName\n  externalName: example.com\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: lb-local}\nspec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  selector: {app: web}\n  ports:\n  - port: 80\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: sticky}\nspec:\n  clusterIP: 10.96.5.5\n  sessionAffinity: ClientIP\n  ports:\n  - {port: 80, targetPort: 0}\n'].join('---\n'),
};
for (const name of Object.keys(GENERATED)) CASES.push({ manifest: `${GEN}/${name}.yaml` });
