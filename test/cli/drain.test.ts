// `pod-lifecycle run --then-drain / --then-cordon / --then-uncordon` as a process: kubectl drain cordons the node,
// refuses DaemonSet pods and bare pods without its flags, evicts the others through the Eviction API (a 429 retried
// every 5 s while the PodDisruptionBudget allows nothing), waits for them to be gone and prints `node/NAME drained`;
// the evicted pods' ReplicaSet replaces them and the scheduler puts the new ones on the other node. The lines are
// kubectl's (staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go and pkg/drain at v0.36.3); the refusals and the
// timeout's lines were checked against kubectl drain on kube-apiserver and kube-controller-manager v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson, type Report, type StoredObject } from './harness';

const BUDGET = 'examples/disruption-budget.yaml';
const STRICT = 'test/fixtures/drain/budget-allows-none.yaml';
const MIXED = 'test/fixtures/drain/daemonset-and-bare-pod.yaml';
const REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

interface Commands {
  commands?: { at: number; command: string; output: string }[];
  workloads?: { object: string; outcome: string }[];
}

const pods = (r: Report): (StoredObject & { spec: { nodeName?: string } })[] => r.objects.filter((o) => o.kind === 'Pod') as never;
/** assigned names the pods the scheduler put on a node, in the order kubectl lists them (by name). */
const assigned = (r: Report, node: string): string[] => r.events.filter((e) => e.reason === 'Scheduled' && e.message.endsWith(` to ${node}`)).map((e) => e.object.split('/')[2]!).sort();
const agentOn = (r: Report, node: string): string => pods(r).find((p) => p.metadata.labels?.['app'] === 'agent' && p.spec.nodeName === node)!.metadata.name;

test('drain with a budget that allows one disruption: the second eviction is refused (429) and retried 5 s later, then drained', () => {
  const { status, report } = runJson('run', BUDGET, '--then-drain', '10s,worker-1');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  const [a, b] = assigned(report, 'worker-1');
  assert.ok(a && b);
  const printed = [
    'node/worker-1 cordoned',
    `evicting pod default/${a}`,
    `evicting pod default/${b}`,
    `error when evicting pods/"${b}" -n "default" (will retry after 5s): ${REFUSED}`,
    `pod/${a} evicted`,
    `evicting pod default/${b}`,
    `pod/${b} evicted`,
    'node/worker-1 drained',
  ].join('\n');
  assert.equal(report.kubectl, `deployment.apps/web created\npoddisruptionbudget.policy/web created\n${printed}`);
  assert.deepEqual((report as Report & Commands).commands, [{ at: 10, command: 'kubectl drain worker-1', output: printed }]);
  // The replacements run on worker-2: worker-1 is cordoned, and tainted unschedulable by the node lifecycle controller.
  assert.deepEqual(pods(report).map((p) => p.spec.nodeName), ['worker-2', 'worker-2', 'worker-2']);
  const node = report.objects.find((o) => o.kind === 'Node' && o.metadata.name === 'worker-1')!;
  assert.deepEqual(node.spec?.['taints'], [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:10Z' }]);
  assert.equal(node.spec?.['unschedulable'], true);
  // The eviction API's steps: one disruption taken at 10 s, a refusal, one more taken at 15 s once the replacement was Ready.
  assert.deepEqual(report.trace.filter((e) => e.phase === 'apiserver.evict' && e.result.match(/allows|429/)).map((e) => `${e.at} ${e.object} ${e.result}`), [
    `10 Pod/default/${a} PodDisruptionBudget web allows 1 disruption(s): disruptionsAllowed 1 → 0, disruptedPods[${a}] recorded`,
    `10 Pod/default/${b} 429 TooManyRequests: ${REFUSED} (The disruption budget web does not allow evicting pods currently)`,
    `15 Pod/default/${b} PodDisruptionBudget web allows 1 disruption(s): disruptionsAllowed 1 → 0, disruptedPods[${b}] recorded`,
  ]);
});

test('drain with a budget that allows nothing: both pods retried at 0, 5 and 10 s, then --timeout=12s ends it with kubectl\'s errors', () => {
  const { status, report } = runJson('run', STRICT, '--then-drain', '10s,worker-1,timeout=12s');
  assert.equal(status, 0);
  const [a, b] = assigned(report, 'worker-1');
  // Each round as the real kubectl drain prints it (kubectl 1.32 against kube-apiserver 1.36.3, the oracle's drain case):
  // both goroutines' `evicting pod` lines, then both refusals, since each request is on the wire when the other starts.
  const round = [`evicting pod default/${a}`, `evicting pod default/${b}`, ...[a, b].map((p) => `error when evicting pods/"${p}" -n "default" (will retry after 5s): ${REFUSED}`)];
  const timeout = (p: string) => `error when evicting pods/"${p}" -n "default": global timeout reached: 12s`;
  const both = `[${timeout(a!)}, ${timeout(b!)}]`;
  assert.equal((report as Report & Commands).commands![0]!.output, [
    'node/worker-1 cordoned',
    ...round, ...round, ...round,
    `evicting pod default/${a}`, `evicting pod default/${b}`,
    `There are pending pods in node "worker-1" when an error occurred: ${both}`,
    `pod/${a}`, `pod/${b}`,
    `error: unable to drain node "worker-1" due to error: ${both}, continuing command...`,
    'There are pending nodes to be drained:',
    ' worker-1',
    timeout(a!), timeout(b!),
  ].join('\n'));
  // A drain that fails is kubectl's failure, not the workload's: the Deployment still runs its 3 pods.
  assert.equal(report.outcome, 'Running');
  assert.equal(pods(report).length, 3);
});

test('drain --disable-eviction deletes the pods (with --grace-period) without asking their budget: `pod/NAME deleted`', () => {
  const { report } = runJson('run', STRICT, '--then-drain', '10s,worker-1,disable-eviction,grace-period=5');
  const [a, b] = assigned(report, 'worker-1');
  assert.equal((report as Report & Commands).commands![0]!.output, ['node/worker-1 cordoned', `pod/${a} deleted`, `pod/${b} deleted`, 'node/worker-1 drained'].join('\n'));
  assert.deepEqual(report.trace.filter((e) => e.phase === 'apiserver.delete').map((e) => e.result), [a, b].map(() => 'graceful deletion: deletionTimestamp 2026-01-01T00:00:15Z, grace period 5s'));
  assert.equal(report.trace.filter((e) => e.phase === 'apiserver.evict').length, 0);
});

const refusals = [
  {
    name: 'without flags: the DaemonSet pod and the bare pod, both refused, as an aggregate',
    flags: '', outcome: 'Running',
    output: (agent: string) => [
      'node/worker-1 cordoned',
      `error: unable to drain node "worker-1" due to error: [cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/${agent}, cannot delete Pods that declare no controller (use --force to override): default/web], continuing command...`,
      'There are pending nodes to be drained:',
      ' worker-1',
      `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/${agent}`,
      'cannot delete Pods that declare no controller (use --force to override): default/web',
    ],
  },
  {
    name: 'with --ignore-daemonsets: the bare pod alone is refused',
    flags: ',ignore-daemonsets', outcome: 'Running',
    output: () => [
      'node/worker-1 cordoned',
      'error: unable to drain node "worker-1" due to error: cannot delete Pods that declare no controller (use --force to override): default/web, continuing command...',
      'There are pending nodes to be drained:',
      ' worker-1',
      'cannot delete Pods that declare no controller (use --force to override): default/web',
    ],
  },
  {
    name: 'with --ignore-daemonsets and --force: warned of both, the bare pod evicted for good, the DaemonSet pod left',
    flags: ',ignore-daemonsets,force', outcome: 'Running',
    output: (agent: string) => [
      'node/worker-1 cordoned',
      `Warning: ignoring DaemonSet-managed Pods: default/${agent}; deleting Pods that declare no controller: default/web`,
      'evicting pod default/web',
      'pod/web evicted',
      'node/worker-1 drained',
    ],
    workloads: [{ object: 'DaemonSet/default/agent', outcome: 'Running' }, { object: 'Pod/default/web', outcome: 'Deleted' }],
  },
];

for (const c of refusals) {
  test(`drain of a node with a DaemonSet pod and a bare pod ${c.name}`, () => {
    const { status, report } = runJson('run', MIXED, '--then-drain', `10s,worker-1${c.flags}`);
    assert.equal(status, 0);
    assert.equal(report.outcome, c.outcome);
    assert.equal((report as Report & Commands).commands![0]!.output, c.output(agentOn(report, 'worker-1')).join('\n'));
    assert.deepEqual((report as Report & Commands).workloads, c.workloads ?? [{ object: 'DaemonSet/default/agent', outcome: 'Running' }, { object: 'Pod/default/web', outcome: 'Running' }]);
  });
}

test('cordon: the pods of a Deployment applied after it all go to the other worker', () => {
  const { report } = runJson('run', 'examples/deployment.yaml', '--then-cordon', '0s,worker-1');
  assert.equal(report.outcome, 'Running');
  assert.deepEqual(pods(report).map((p) => p.spec.nodeName), ['worker-2', 'worker-2', 'worker-2']);
  // NodeUnschedulable turns worker-1 away in every scheduling cycle, before any other filter looks at it.
  const filters = report.trace.filter((e) => e.phase === 'scheduler.filter' && e.step?.name === 'NodeUnschedulable');
  assert.equal(filters.length, 3);
  for (const e of filters) assert.deepEqual((e.detail['nodes'] as Record<string, unknown>)['worker-1'], { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] });
});

test('cordon both workers: the pod is unschedulable, with the scheduler\'s words; uncordon one and it runs there', () => {
  const { status, report } = runJson('run', 'examples/pod.yaml', '--then-cordon', '0s,worker-1', '--then-cordon', '0s,worker-2', '--then-uncordon', '20s,worker-2');
  assert.equal(status, 0);
  assert.equal(report.events.find((e) => e.reason === 'FailedScheduling')!.message,
    '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) were unschedulable. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
  assert.equal(report.kubectl, 'pod/web created\nnode/worker-1 cordoned\nnode/worker-2 cordoned\nnode/worker-2 uncordoned');
  assert.equal(report.outcome, 'Running');
  assert.equal(pods(report)[0]!.spec.nodeName, 'worker-2');
  // Uncordoned: spec.unschedulable and the controller's taint are both gone.
  assert.deepEqual(report.objects.find((o) => o.kind === 'Node' && o.metadata.name === 'worker-2')!.spec, { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] });
});

test('cordon twice and uncordon a schedulable node: kubectl says it is already so', () => {
  const { report } = runJson('run', 'examples/pod.yaml', '--then-cordon', '5s,worker-1', '--then-cordon', '6s,worker-1', '--then-uncordon', '7s,worker-2', '--then-drain', '8s,worker-9');
  assert.deepEqual((report as Report & Commands).commands!.map((c) => c.output), [
    'node/worker-1 cordoned', 'node/worker-1 already cordoned', 'node/worker-2 already uncordoned', 'Error from server (NotFound): nodes "worker-9" not found',
  ]);
});

test('the human report prints each later kubectl command under its own command line', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', BUDGET, '--then-drain', '10s,worker-1,grace-period=5,ignore-daemonsets'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^\$ kubectl apply -f examples\/disruption-budget\.yaml\ndeployment\.apps\/web created\npoddisruptionbudget\.policy\/web created\n\nTIMELINE\n/);
  assert.match(r.stdout, /\n\$ kubectl drain worker-1 --ignore-daemonsets --grace-period=5 {2}\(at 10\.000s\)\nnode\/worker-1 cordoned\n(.+\n)+node\/worker-1 drained\n\nOUTCOME Running\n$/);
});

const usage = [
  { name: 'a flag kubectl drain does not have', arg: ['--then-drain', '5s,worker-1,cascade=orphan'], want: /^error: invalid option for --then-drain: unknown flag: --cascade\n/ },
  { name: 'a timeout without a unit, as pflag refuses it', arg: ['--then-drain', '5s,worker-1,timeout=30'], want: /^error: invalid option for --then-drain: invalid argument "30" for "--timeout" flag: time: missing unit in duration "30"\n/ },
  { name: 'a grace period that is not an integer', arg: ['--then-drain', '5s,worker-1,grace-period=soon'], want: /^error: invalid option for --then-drain: invalid argument "soon" for "--grace-period" flag: strconv\.ParseInt: parsing "soon": invalid syntax\n/ },
  { name: 'no node', arg: ['--then-cordon', '5s'], want: /^error: invalid value for --then-cordon: "5s" \(AFTER,NODE: a duration after the first apply/ },
  { name: 'flags on a cordon', arg: ['--then-uncordon', '5s,worker-1,force'], want: /^error: invalid value for --then-uncordon: "5s,worker-1,force" \(kubectl uncordon takes a node name alone\)\n/ },
];

for (const c of usage) {
  test(`--then-drain/--then-cordon is a usage error (exit 2) with ${c.name}`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', 'examples/pod.yaml', ...c.arg], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, c.want);
  });
}
