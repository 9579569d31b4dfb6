// Representative rows of each printer (every cell, wide ones too), with the values kube-apiserver 1.36.3 printed for the same
// objects (test/fixtures/printers/objects.yaml, `npm run oracle -- --only tables`). See pkg/printers/internalversion/printers.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { tableFor } from '../../../src/engine/printers/registry';
import type { TableRow } from '../../../src/engine/printers/types';

const created = '2026-01-01T00:00:00Z';
const now = Date.parse('2026-01-01T01:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** make builds an object of a kind with a name, created an hour before `now`, and the given fields. */
const make = (kind: string, name: string, fields: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ kind, metadata: { name, namespace: 'default', creationTimestamp: created, ...metadata }, ...fields });
const containers = [{ name: 'app', image: 'nginx:1.27' }, { name: 'log', image: 'busybox:1.36' }];
const template = (spec: Record<string, unknown> = {}) => ({ spec: { containers, ...spec } });
const term = (exitCode: number, reason?: string) => ({ terminated: { exitCode, ...(reason ? { reason } : {}), finishedAt: ago(90) } });

const cases: { name: string; kind: string; obj: KubeObject; want: TableRow['cells']; conditions?: TableRow['conditions'] }[] = [
  {
    name: 'a crash-looping pod shows the waiting reason and its restarts with how long ago the last one ended',
    kind: 'Pod',
    obj: make('Pod', 'crashy', { spec: { nodeName: 'worker-2', containers: [containers[0]] }, status: { phase: 'Running', podIPs: [{ ip: '10.244.2.7' }], containerStatuses: [{ name: 'app', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: term(1, 'Error') }] } }),
    want: ['crashy', '0/1', 'CrashLoopBackOff', '3 (90s ago)', '60m', '10.244.2.7', 'worker-2', '<none>', '<none>'],
  },
  {
    name: 'a succeeded pod whose other container failed shows that failure, and carries the Completed row condition',
    kind: 'Pod',
    obj: make('Pod', 'done', { spec: { nodeName: 'worker-2', containers }, status: { phase: 'Succeeded', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: term(0, 'Completed') }, { name: 'log', ready: false, restartCount: 1, state: term(2), lastState: term(1) }] } }),
    want: ['done', '0/2', 'ExitCode:2', '1 (90s ago)', '60m', '<none>', 'worker-2', '<none>', '<none>'],
    conditions: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
  },
  {
    name: 'a pod in its init containers counts the readiness gates whose condition is True',
    kind: 'Pod',
    obj: make('Pod', 'gated', {
      spec: { nodeName: 'worker-1', initContainers: [{ name: 'setup', image: 'busybox:1.36' }], containers, readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'example.com/warm' }] },
      status: { phase: 'Pending', conditions: [{ type: 'example.com/ready', status: 'True' }, { type: 'example.com/warm', status: 'False' }], initContainerStatuses: [{ name: 'setup', ready: false, restartCount: 0, state: { running: {} } }] },
    }),
    want: ['gated', '0/2', 'Init:0/1', '0', '60m', '<none>', 'worker-1', '<none>', '1/2'],
  },
  {
    name: 'a cordoned node with role labels shows both roles and its architecture beside the kernel',
    kind: 'Node',
    obj: make('Node', 'worker-1', {
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '192.168.49.3' }], nodeInfo: { kubeletVersion: 'v1.36.0', osImage: 'Ubuntu 24.04.3 LTS', kernelVersion: '6.8.0-90-generic', architecture: 'amd64', containerRuntimeVersion: 'containerd://2.2.1' } },
    }, { namespace: undefined, labels: { 'kubernetes.io/role': 'edge', 'node-role.kubernetes.io/ingress': '' } }),
    want: ['worker-1', 'Ready,SchedulingDisabled', 'edge,ingress', '60m', 'v1.36.0', '192.168.49.3', '<none>', 'Ubuntu 24.04.3 LTS', '6.8.0-90-generic (amd64)', 'containerd://2.2.1'],
  },
  {
    name: 'an event prints its trimmed message, its source and its count, the name last',
    kind: 'Event',
    obj: make('Event', 'web.manual', { involvedObject: { kind: 'Pod', name: 'gated', fieldPath: 'spec.containers{app}' }, reason: 'Pulled', message: '  Container image pulled  \n', type: 'Normal', source: { component: 'kubelet', host: 'worker-1' }, count: 4, firstTimestamp: ago(600), lastTimestamp: ago(300) }),
    want: ['5m', 'Normal', 'Pulled', 'pod/gated', 'spec.containers{app}', 'kubelet, worker-1', 'Container image pulled', '10m', 4, 'web.manual'],
  },
  {
    name: 'an event of the events API reads its eventTime, and the reporting controller and instance for its source',
    kind: 'Event',
    obj: make('Event', 'db-0.x', { involvedObject: { kind: 'Pod', name: 'db-0' }, reason: 'Scheduled', message: 'Successfully assigned default/db-0 to worker-2', type: 'Normal', source: {}, eventTime: '2026-01-01T00:59:52.123456Z', firstTimestamp: null, lastTimestamp: null, reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-vm' }),
    want: ['7s', 'Normal', 'Scheduled', 'pod/db-0', '', 'default-scheduler, default-scheduler-vm', 'Successfully assigned default/db-0 to worker-2', '7s', 1, 'db-0.x'],
  },
  {
    name: 'a LoadBalancer service lists its ingress IPs and hostnames sorted, then its external IPs',
    kind: 'Service',
    obj: make('Service', 'balancer', { spec: { type: 'LoadBalancer', clusterIPs: ['10.102.165.144'], externalIPs: ['192.0.2.20'], selector: { app: 'web' }, ports: [{ port: 80, nodePort: 30269, protocol: 'TCP' }] }, status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }, { ip: '203.0.113.9' }, { ip: '203.0.113.9' }] } } }),
    want: ['balancer', 'LoadBalancer', '10.102.165.144', '203.0.113.9,lb.example.com,192.0.2.20', '80:30269/TCP', '60m', 'app=web'],
  },
  {
    name: 'an ExternalName service shows its name as the external IP and no ports',
    kind: 'Service',
    obj: make('Service', 'outside', { spec: { type: 'ExternalName', externalName: 'example.com' } }),
    want: ['outside', 'ExternalName', '<none>', 'example.com', '<none>', '60m', '<none>'],
  },
  {
    name: 'endpoints list three host:port pairs, then how many more',
    kind: 'Endpoints',
    obj: make('Endpoints', 'manual', { subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 8080 }, { name: 'b', port: 9090 }] }, { addresses: [{ ip: 'fd00::1' }] }] }),
    want: ['manual', '10.0.0.1:8080,10.0.0.2:8080,10.0.0.1:9090 + 2 more...', '60m'],
  },
  {
    name: 'an endpoint slice shows a port by number or name, three at most; <unset> when empty',
    kind: 'EndpointSlice',
    obj: make('EndpointSlice', 'manual-abcde', { addressType: 'IPv4', ports: [{ name: 'a', port: 8080 }, { name: 'b' }, { port: 7070 }, { name: 'd', port: 6060 }], endpoints: [1, 2, 3, 4].map((i) => ({ addresses: [`10.0.0.${i}`] })) }),
    want: ['manual-abcde', 'IPv4', '8080,b,7070 + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '60m'],
  },
  {
    name: 'a config map counts its data and binary data as an integer cell',
    kind: 'ConfigMap',
    obj: make('ConfigMap', 'settings', { data: { a: '1', b: '2' }, binaryData: { c: 'AAEC' } }),
    want: ['settings', 3, '60m'],
  },
  {
    name: 'a bound volume shows its claim, the class of its beta annotation and its block mode',
    kind: 'PersistentVolume',
    obj: make('PersistentVolume', 'data-pv', { spec: { capacity: { storage: '1536Mi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: 'fast', volumeMode: 'Block', claimRef: { namespace: 'default', name: 'data' } }, status: { phase: 'Bound' } }, { namespace: undefined, annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } }),
    want: ['data-pv', '1536Mi', 'RWO,RWX', 'Retain', 'Bound', 'default/data', 'slow', '<unset>', '', '60m', 'Block'],
  },
  {
    name: 'a pending claim shows no capacity nor access modes until it is bound',
    kind: 'PersistentVolumeClaim',
    obj: make('PersistentVolumeClaim', 'pending', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }),
    want: ['pending', 'Pending', '', '', '', '', '<unset>', '60m', 'Filesystem'],
  },
  {
    name: 'the default storage class says so after its name, with the defaults of unset fields',
    kind: 'StorageClass',
    obj: make('StorageClass', 'standard', { provisioner: 'example.com/standard' }, { namespace: undefined, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }),
    want: ['standard (default)', 'example.com/standard', 'Delete', 'Immediate', false, '60m'],
  },
  {
    name: 'a priority class shows its value and global default as typed cells',
    kind: 'PriorityClass',
    obj: make('PriorityClass', 'high', { value: 1000, preemptionPolicy: 'Never' }, { namespace: undefined }),
    want: ['high', 1000, false, '60m', 'Never'],
  },
  {
    name: 'a quota shows each hard resource in name order with its usage, limits apart',
    kind: 'ResourceQuota',
    obj: make('ResourceQuota', 'compute', { status: { hard: { 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '8', 'limits.memory': '16Gi', pods: '20', configmaps: '10' }, used: { 'requests.cpu': '1500m', 'limits.memory': '1073741824', pods: '3' } } }),
    want: ['compute', 'configmaps: 0/10, pods: 3/20, requests.cpu: 1500m/4, requests.memory: 0/8Gi', 'limits.cpu: 0/8, limits.memory: 1073741824/16Gi', '60m'],
  },
  { name: 'a lease shows its holder', kind: 'Lease', obj: make('Lease', 'leader', { spec: { holderIdentity: 'worker-1_abc' } }), want: ['leader', 'worker-1_abc', '60m'] },
  {
    name: 'a deployment prints its selector as a selector string, requirements in key order',
    kind: 'Deployment',
    obj: make('Deployment', 'web', { spec: { replicas: 2, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }, { key: 'canary', operator: 'DoesNotExist' }] }, template: template() }, status: { readyReplicas: 1, updatedReplicas: 2 } }),
    want: ['web', '1/2', 2, 0, '60m', 'app,log', 'nginx:1.27,busybox:1.36', 'app=web,!canary,tier in (back,front)'],
  },
  {
    name: 'a replication controller prints its selector as a label set',
    kind: 'ReplicationController',
    obj: make('ReplicationController', 'legacy', { spec: { replicas: 2, selector: { tier: 'old', app: 'legacy' }, template: template() }, status: { replicas: 2 } }),
    want: ['legacy', 2, 2, 0, '60m', 'app,log', 'nginx:1.27,busybox:1.36', 'app=legacy,tier=old'],
  },
  {
    name: 'a daemon set prints its counts and its template\'s node selector',
    kind: 'DaemonSet',
    obj: make('DaemonSet', 'agent', { spec: { selector: { matchLabels: { app: 'agent' } }, template: template({ nodeSelector: { role: 'agent', 'kubernetes.io/os': 'linux' } }) }, status: { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1 } }),
    want: ['agent', 2, 2, 1, 0, 0, 'kubernetes.io/os=linux,role=agent', '60m', 'app,log', 'nginx:1.27,busybox:1.36', 'app=agent'],
  },
  {
    name: 'a controller revision names its controller by kind and group',
    kind: 'ControllerRevision',
    obj: make('ControllerRevision', 'db-86d58c858', { revision: 1 }, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }] }),
    want: ['db-86d58c858', 'statefulset.apps/db', 1, '60m'],
  },
  {
    name: 'a suspended job without completions counts against one, of its parallelism',
    kind: 'Job',
    obj: make('Job', 'wide', { spec: { parallelism: 3, template: template() }, status: { conditions: [{ type: 'Suspended', status: 'True' }] } }),
    want: ['wide', 'Suspended', '0/1 of 3', '', '60m', 'app,log', 'nginx:1.27,busybox:1.36', '<none>'],
  },
  {
    name: 'a job that met its success criteria says so, and how long it ran from start to completion',
    kind: 'Job',
    obj: make('Job', 'pi', { spec: { completions: 3, template: template(), selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } } }, status: { succeeded: 2, startTime: ago(600), completionTime: ago(450), conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }] } }),
    want: ['pi', 'SuccessCriteriaMet', '2/3', '2m30s', '60m', 'app,log', 'nginx:1.27,busybox:1.36', 'batch.kubernetes.io/controller-uid=u1'],
  },
  {
    name: 'a cron job shows its time zone, suspension and last schedule',
    kind: 'CronJob',
    obj: make('CronJob', 'nightly', { spec: { schedule: '0 3 * * *', timeZone: 'Europe/Paris', suspend: true, jobTemplate: { spec: { template: template() } } }, status: { lastScheduleTime: ago(120) } }),
    want: ['nightly', '0 3 * * *', 'Europe/Paris', 'True', 0, '2m', '60m', 'app,log', 'nginx:1.27,busybox:1.36', '<none>'],
  },
  {
    name: 'an autoscaler shows two metrics, then how many more, and <unknown> for what it has not measured',
    kind: 'HorizontalPodAutoscaler',
    obj: make('HorizontalPodAutoscaler', 'web', {
      apiVersion: 'autoscaling/v2',
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }, { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } }, { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } } }],
      },
    }),
    want: ['web', 'Deployment/web', 'cpu: <unknown>/80%, memory: <unknown>/512Mi + 1 more...', '2', 10, 0, '60m'],
  },
  {
    name: 'an autoscaler of an external value and no minimum',
    kind: 'HorizontalPodAutoscaler',
    obj: make('HorizontalPodAutoscaler', 'external', { spec: { scaleTargetRef: { kind: 'StatefulSet', name: 'db' }, maxReplicas: 3, metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } }] } }),
    want: ['external', 'StatefulSet/db', '<unknown>/30', '<unset>', 3, 0, '60m'],
  },
  {
    name: 'a disruption budget shows a percentage as it is and N/A for the bound it does not set',
    kind: 'PodDisruptionBudget',
    obj: make('PodDisruptionBudget', 'web', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 0 } }),
    want: ['web', '50%', 'N/A', 0, '60m'],
  },
  {
    name: 'a role binding lists users, groups and service accounts in its wide columns',
    kind: 'RoleBinding',
    obj: make('RoleBinding', 'readers', { roleRef: { kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'robot', namespace: 'default' }] }),
    want: ['readers', 'Role/reader', '60m', 'alice, bob', 'devs', 'default/robot'],
  },
  {
    name: 'a policy binding by selector prints the selector as Go prints the LabelSelector struct',
    kind: 'ValidatingAdmissionPolicyBinding',
    obj: make('ValidatingAdmissionPolicyBinding', 'tables-by-selector', { spec: { policyName: 'tables-policy', paramRef: { selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['beta', 'alpha'] }, { key: 'e', operator: 'Exists' }] } } } }, { namespace: undefined }),
    want: ['tables-by-selector', 'tables-policy', '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[beta alpha],},LabelSelectorRequirement{Key:e,Operator:Exists,Values:[],},},}', '60m'],
  },
  {
    name: 'a policy binding by name without a namespace reads */name',
    kind: 'ValidatingAdmissionPolicyBinding',
    obj: make('ValidatingAdmissionPolicyBinding', 'tables-by-name', { spec: { policyName: 'tables-policy', paramRef: { name: 'settings' } } }, { namespace: undefined }),
    want: ['tables-by-name', 'tables-policy', '*/settings', '60m'],
  },
  {
    name: 'a CSI driver prints its booleans as typed cells, attachRequired true when unset',
    kind: 'CSIDriver',
    obj: make('CSIDriver', 'csi.example.com', { spec: { podInfoOnMount: true, tokenRequests: [{ audience: 'vault' }, { audience: 'gcp' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'] } }, { namespace: undefined }),
    want: ['csi.example.com', true, true, false, 'vault,gcp', false, 'Persistent,Ephemeral', '60m'],
  },
  {
    name: 'a volume attachment names its attacher, volume and node, not attached until its status says so',
    kind: 'VolumeAttachment',
    obj: make('VolumeAttachment', 'attach-data', { spec: { attacher: 'csi.example.com', nodeName: 'worker-1', source: { persistentVolumeName: 'data-pv' } } }, { namespace: undefined }),
    want: ['attach-data', 'csi.example.com', 'data-pv', 'worker-1', false, '60m'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const row = tableFor(c.kind, [c.obj], now, { includeObject: 'None' }).rows![0]!;
    assert.deepEqual(row, { cells: c.want, ...(c.conditions ? { conditions: c.conditions } : {}), object: null });
  });
}
