// The language server over its real JSON-RPC connection on the workload kinds beside Deployments: StatefulSet,
// DaemonSet, CronJob, HorizontalPodAutoscaler (autoscaling/v2) and PodDisruptionBudget. Hover names each field's
// values, default and the controller that reads it; completion offers the values of their enum fields (the constants
// of k8s.io/api apps/v1, batch/v1 and autoscaling/v2 types.go, v0.36.3); the API server's validation of each kind is
// reported on the field it concerns.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, CompletionList, Hover } from 'vscode-languageserver-types';
import { type Published, startServer } from './harness';

const { connection, published } = startServer();

before(async () => {
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: {} } });
  connection.sendNotification('initialized', {});
});

let opened = 0;
/** open opens a document and waits for its first diagnostics. */
async function open(text: string): Promise<{ uri: string; published: Published }> {
  const uri = `file:///workload-${opened++}.yaml`;
  const p = published(uri);
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  return { uri, published: await p };
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;
const STATEFULSET = lines('apiVersion: apps/v1', 'kind: StatefulSet', 'metadata:', '  name: web', 'spec:', '  serviceName: web', '  podManagementPolicy: OrderedReady',
  '  replicas: 3', '  selector: {matchLabels: {app: web}}', '  template:', '    metadata:', '      labels: {app: web}', '    spec:', '      containers:', '      - name: app', '        image: nginx:1.27');
const DAEMONSET = lines('apiVersion: apps/v1', 'kind: DaemonSet', 'metadata:', '  name: agent', 'spec:', '  selector: {matchLabels: {app: agent}}', '  updateStrategy:',
  '    type: RollingUpdate', '  template:', '    metadata:', '      labels: {app: agent}', '    spec:', '      containers:', '      - name: a', '        image: busybox:1.36');
const CRONJOB = lines('apiVersion: batch/v1', 'kind: CronJob', 'metadata:', '  name: tick', 'spec:', '  schedule: "*/1 * * * *"', '  concurrencyPolicy: Forbid',
  '  jobTemplate:', '    spec:', '      template:', '        spec:', '          restartPolicy: OnFailure', '          containers:', '          - name: c', '            image: busybox:1.36');
const HPA = lines('apiVersion: autoscaling/v2', 'kind: HorizontalPodAutoscaler', 'metadata:', '  name: web', 'spec:', '  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
  '  minReplicas: 1', '  maxReplicas: 5', '  metrics:', '  - type: Resource', '    resource:', '      name: cpu', '      target: {type: Utilization, averageUtilization: 50}');
const PDB = lines('apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata:', '  name: web', 'spec:', '  minAvailable: 2', '  selector: {matchLabels: {app: web}}');

/** at is the position just inside the first occurrence of a needle on a line. */
const at = (text: string, line: number, needle: string) => ({ line, character: (text.split('\n')[line] ?? '').indexOf(needle) + 1 });

const hoverCases: { name: string; text: string; line: number; needle: string; want: RegExp[]; absent?: RegExp[] }[] = [
  {
    name: 'a StatefulSet\'s podManagementPolicy shows its two values, its default and the StatefulSet controller',
    text: STATEFULSET, line: 6, needle: 'podManagementPolicy',
    want: [/Values: `OrderedReady` \| `Parallel`/, /Default: `"OrderedReady"`/, /`controllers\.statefulset` — OrderedReady waits for each pod/],
  },
  {
    name: 'a DaemonSet\'s updateStrategy type shows RollingUpdate and OnDelete, read by the DaemonSet controller alone',
    text: DAEMONSET, line: 7, needle: 'type', want: [/Values: `RollingUpdate` \| `OnDelete`/, /Default: `"RollingUpdate"`/, /`controllers\.daemonset`/], absent: [/controllers\.statefulset/],
  },
  { name: 'a CronJob\'s concurrencyPolicy shows Allow, Forbid and Replace', text: CRONJOB, line: 6, needle: 'concurrencyPolicy', want: [/Values: `Allow` \| `Forbid` \| `Replace`/, /`controllers\.cronjob`/] },
  {
    name: 'an HPA\'s maxReplicas is read by the autoscaler, not by the controllers that read other kinds\' specs',
    text: HPA, line: 7, needle: 'maxReplicas', want: [/— required/, /`controllers\.hpa` — the most replicas it scales to/], absent: [/controllers\.persistentvolume/],
  },
  { name: 'an HPA\'s metric type shows the five metric sources', text: HPA, line: 9, needle: 'type', want: [/^\*\*type\*\* `string \(v2\.MetricSourceType\)` — required/, /Values: `Object` \| `Pods` \| `Resource` \| `ContainerResource` \| `External`/] },
  {
    name: 'a PodDisruptionBudget\'s selector is read by the disruption controller, not by the ReplicaSet or EndpointSlice controllers',
    text: PDB, line: 6, needle: 'selector', want: [/`controllers\.disruption` — the pods the budget counts/], absent: [/controllers\.replicaset/, /controllers\.endpoints/],
  },
  { name: 'a PodDisruptionBudget\'s minAvailable is read by the disruption controller and the eviction API', text: PDB, line: 5, needle: 'minAvailable', want: [/`controllers\.disruption`/, /`apiserver\.evict`/] },
];

for (const c of hoverCases) {
  test(`workload kinds, hover: ${c.name}`, async () => {
    const { uri } = await open(c.text);
    const hover = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: at(c.text, c.line, c.needle) });
    const value = (hover?.contents as { value: string } | undefined)?.value ?? '';
    for (const w of c.want) assert.match(value, w);
    for (const a of c.absent ?? []) assert.doesNotMatch(value, a);
  });
}

const completionCases: { name: string; text: string; line: number; want: string[] }[] = [
  { name: 'podManagementPolicy', text: STATEFULSET.replace('podManagementPolicy: OrderedReady', 'podManagementPolicy: '), line: 6, want: ['OrderedReady', 'Parallel'] },
  { name: 'a DaemonSet\'s updateStrategy type', text: DAEMONSET.replace('type: RollingUpdate', 'type: '), line: 7, want: ['RollingUpdate', 'OnDelete'] },
  { name: 'concurrencyPolicy', text: CRONJOB.replace('concurrencyPolicy: Forbid', 'concurrencyPolicy: '), line: 6, want: ['Allow', 'Forbid', 'Replace'] },
  { name: 'an HPA metric\'s type', text: HPA.replace('  - type: Resource', '  - type: '), line: 9, want: ['Object', 'Pods', 'Resource', 'ContainerResource', 'External'] },
];

for (const c of completionCases) {
  test(`workload kinds, completion: the values of ${c.name}`, async () => {
    const { uri } = await open(c.text);
    const character = (c.text.split('\n')[c.line] ?? '').length;
    const completion = await connection.sendRequest<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: c.line, character } });
    assert.deepEqual((Array.isArray(completion) ? completion : completion.items).map((i) => i.label), c.want);
  });
}

const diagnosticCases: { name: string; text: string; want: [number, string][] }[] = [
  {
    // pkg/apis/apps/validation/validation.go ValidateStatefulSetSpec (v1.36.3).
    name: 'a StatefulSet whose selector misses its template labels, on the labels',
    text: STATEFULSET.replace('      labels: {app: web}', '      labels: {app: other}'),
    want: [[11, 'StatefulSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`']],
  },
  {
    // pkg/apis/batch/validation/validation.go validateScheduleFormat (v1.36.3).
    name: 'a CronJob with a schedule that is not cron, on the schedule',
    text: CRONJOB.replace('"*/1 * * * *"', '"hourly"'),
    want: [[5, 'CronJob.batch "tick" is invalid: spec.schedule: Invalid value: "hourly": expected exactly 5 fields, found 1: [hourly]']],
  },
  {
    // pkg/apis/autoscaling/validation/validation.go validateHorizontalPodAutoscalerSpec (v1.36.3).
    name: 'an HPA whose maxReplicas is below minReplicas, on maxReplicas',
    text: HPA.replace('minReplicas: 1', 'minReplicas: 9'),
    want: [[7, 'HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`']],
  },
];

for (const c of diagnosticCases) {
  test(`workload kinds, diagnostics: ${c.name}`, async () => {
    const { published: p } = await open(c.text);
    assert.deepEqual(p.diagnostics.filter((d) => d.code === 'validation').map((d) => [d.range.start.line, d.message]), c.want);
  });
}
