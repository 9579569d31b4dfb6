// docs/fidelity.md lists every Event the engine records, and every reason and message it writes into a pod's status,
// with the message as a template and the Kubernetes source that writes it. This keeps the tables in step with the code:
// a set of runs that between them produce every row; each event or status recorded must match a row (a new or changed
// message fails), and each row must match one (a stale row fails). A row's `<...>` stands for any text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { runCli } from '../../src/cli/main';

const ROOT = join(__dirname, '..', '..', '..');

/** Row is one row of the table: who records the event, its type and reason, the message template and its source. */
interface Row {
  from: RegExp;
  type: string;
  reason: string;
  message: RegExp;
  template: string;
  source: string;
}

/** template turns a row's cell into a pattern of the whole text: `<...>` is any text, the rest is literal. */
function template(cell: string): RegExp {
  const parts = cell.split(/<[^>]+>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+?')}$`);
}

const code = (cell: string) => cell.trim().replace(/^`|`$/g, '');

const DOC = readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8');

/** rowsOf reads the rows of the table between `<!-- name:begin -->` and `<!-- name:end -->`, `width` cells each. */
function rowsOf(name: string, width: number): string[][] {
  const section = new RegExp(`<!-- ${name}:begin -->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(DOC);
  assert.ok(section, `docs/fidelity.md has the ${name} table between its markers`);
  const lines = section[1]!.split('\n').filter((l) => l.startsWith('| ')).slice(1);
  return lines.map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    assert.equal(cells.length, width, `a row has ${width} cells: ${line}`);
    return cells;
  });
}

function readTable(): Row[] {
  return rowsOf('events', 5).map((cells) => {
    const [from, type, reason, message, source] = cells as [string, string, string, string, string];
    return {
      from: new RegExp(`^(${from.split(', ').map((f) => code(f).replace(/<[^>]+>/, '.+')).join('|')})$`),
      type: type.trim(), reason: reason.trim(), message: template(code(message)), template: code(message), source: source.trim(),
    };
  });
}

/** RUNS are command lines of `pod-lifecycle run` that between them record every event of the table. */
const RUNS: string[][] = [
  ['test/fixtures/controllers/job-deadline.yaml', '--behavior', 'test/fixtures/controllers/job-slow-behavior.yaml', '--then-apply', '5s,test/fixtures/controllers/job-deadline-suspended.yaml', '--then-apply', '30s,test/fixtures/controllers/job-deadline-resumed.yaml'],
  ['test/fixtures/controllers/web-stuck.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/controllers/web-v1-cluster.yaml'],
  ['test/fixtures/controllers/web-v2.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/controllers/web-legacy-cluster.yaml'],
  ['test/fixtures/controllers/job-replace-terminatingorfailed.yaml'],
  ['test/fixtures/kubelet/poststart-fails.yaml', '--for', '30s'],
  ['test/fixtures/kubelet/liveness-prestop-fails.yaml', '--for', '40s'],
  ['test/fixtures/kubelet/readiness-bad-port.yaml', '--for', '40s'],
  ['test/fixtures/kubelet/crash-loop.yaml', '--for', '5m'],
  ['test/fixtures/volumes/pvc-unbound-on-node.yaml', '--for', '30s'],
  ['test/fixtures/volumes/missing-configmap.yaml', '--for', '130s'],
  ['test/fixtures/controllers/frontend-rs-1.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/controllers/frontend-orphans-cluster.yaml'],
  ['test/fixtures/controllers/job-pi.yaml', '--behavior', 'test/fixtures/controllers/job-behavior.yaml'],
  ['test/fixtures/controllers/job-backoff.yaml', '--behavior', 'test/fixtures/controllers/job-fail-behavior.yaml'],
  ['test/fixtures/controllers/job-indexed-per-index.yaml', '--behavior', 'test/fixtures/controllers/job-fail-behavior.yaml'],
  ['test/fixtures/controllers/job-indexed-max-failed.yaml', '--behavior', 'test/fixtures/controllers/job-fail-behavior.yaml'],
  ['test/fixtures/controllers/job-fail-job-rule.yaml', '--behavior', 'test/fixtures/controllers/job-exit-42-behavior.yaml'],
  ['test/fixtures/controllers/job-disruption-ignore.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/controllers/job-evicted-cluster.yaml'],
  ['test/fixtures/controllers/job-disruption-failjob.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/controllers/job-evicted-cluster.yaml'],
  ['test/fixtures/kubelet/active-deadline.yaml'],
  ['test/fixtures/podsecurity/deployment-secure.yaml', '--cluster', 'test/fixtures/podsecurity/cluster.yaml'],
  ['test/fixtures/scheduler-config/batch-pod.yaml', '--cluster', 'test/fixtures/scheduler-config/cluster.yaml'],
  ['test/fixtures/quantities/absurd-memory.yaml'],
  ['test/fixtures/volumes/pvc-wait-for-first-consumer.yaml'],
  ['test/fixtures/volumes/pvc-volume-mismatch.yaml', '--for', '31s'],
  ['test/fixtures/volumes/pvc-no-provisioner.yaml', '--for', '31s'],
  ['test/fixtures/volumes/pvc-external-provisioner.yaml', '--for', '31s'],
  ['test/fixtures/volumes/pvc-pod-before-claim.yaml'],
  ['test/fixtures/reclaim/claims.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/reclaim/cluster.yaml', '--delete'],
  ['test/fixtures/volumes/env-missing-configmap.yaml', '--for', '60s'],
  ['test/fixtures/kubelet/init-fails-always.yaml', '--for', '60s'],
  ['test/fixtures/kubelet/startup-fails.yaml', '--for', '60s'],
  ['test/fixtures/kubelet/job-succeeds.yaml'],
  ['test/fixtures/statefulset/web-local.yaml'],
  ['test/fixtures/daemonset/agent.yaml'],
  ['test/fixtures/daemonset/agent.yaml', '--then-apply', '20s,test/fixtures/daemonset/agent-new-image.yaml'],
  ['test/fixtures/statefulset/plain.yaml', '--then-apply', '20s,test/fixtures/statefulset/plain-1.yaml'],
  ['test/fixtures/statefulset/retention-retain.yaml', '--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', 'test/fixtures/statefulset/retention-cluster.yaml', '--then-apply', '30s,test/fixtures/statefulset/retention-delete.yaml', '--for', '40s'],
  ['test/fixtures/fidelity/image-missing.yaml', '--for', '40s'],
  ['test/fixtures/fidelity/image-invalid.yaml', '--for', '20s'],
  ['test/fixtures/cronjob/history-1.yaml', '--for', '3m30s', '--behavior', 'test/fixtures/cronjob/ok-behavior.yaml'],
  ['test/fixtures/cronjob/forbid.yaml', '--for', '3m30s', '--behavior', 'test/fixtures/cronjob/slow-behavior.yaml'],
  ['test/fixtures/disruption/budgets.yaml'],
  ['test/fixtures/hpa/web.yaml', '--for', '50s', '--behavior', 'test/fixtures/hpa/cpu-300m.yaml'],
  ['test/fixtures/hpa/missing-target.yaml', '--for', '20s'],
  ['test/fixtures/hpa/two-hpas.yaml', '--for', '35s'],
  ['test/fixtures/hpa/target-kinds.yaml', '--for', '20s'],
  ['test/fixtures/hpa/web.yaml', '--cluster', 'test/fixtures/webhooks/nodes.yaml', '--cluster', 'test/fixtures/hpa/scale-policy.yaml', '--for', '35s', '--behavior', 'test/fixtures/hpa/cpu-300m.yaml'],
  ['test/fixtures/hpa/sources/all-missing.yaml', '--for', '20s'],
  // Half a second into the drain, the first evicted pod is still terminating with its DisruptionTarget condition.
  ['examples/disruption-budget.yaml', '--then-drain', '10s,worker-1', '--for', '10.5s'],
];

/** AGGREGATE is what the correlator puts before a combined event's message. */
const AGGREGATE = '(combined from similar events): ';

/** StatusRow is one row of the status table: where in the pod's status, the reason, the message template. */
interface StatusRow {
  where: string[];
  reason: string;
  message: RegExp;
  template: string;
  source: string;
}

function readStatusTable(): StatusRow[] {
  return rowsOf('status', 4).map(([where, reason, message, source]) => {
    const text = code(message!) === '—' ? '' : code(message!);
    return { where: where!.split(', ').map(code), reason: reason!.trim(), message: text ? template(text) : /^$/, template: text, source: source!.trim() };
  });
}

/** Said is a reason and message a stored pod's status carries, and where. */
interface Said {
  run: string;
  where: string;
  reason: string;
  message: string;
}

interface ReportPod {
  kind: string;
  status?: {
    reason?: string;
    message?: string;
    conditions?: { type: string; reason?: string; message?: string }[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}
type ContainerState = Record<string, { reason?: string; message?: string } | undefined>;
interface ContainerStatus {
  state?: ContainerState;
  lastState?: ContainerState;
}

/** statusOf lists every reason (with its message) a pod's status carries. */
function statusOf(run: string, pod: ReportPod): Said[] {
  const said: Said[] = [];
  const add = (where: string, reason?: string, message?: string) => {
    if (reason || message) said.push({ run, where, reason: reason ?? '', message: message ?? '' });
  };
  const st = pod.status ?? {};
  add('pod', st.reason, st.message);
  for (const c of st.conditions ?? []) add(`condition ${c.type}`, c.reason, c.message);
  for (const cs of [...(st.containerStatuses ?? []), ...(st.initContainerStatuses ?? [])]) {
    for (const [key, state] of [['state', cs.state], ['lastState', cs.lastState]] as const) {
      for (const [kind, s] of Object.entries(state ?? {})) add(`${key}.${kind}`, s?.reason, s?.message);
    }
  }
  return said;
}

/** recorded runs each command line in-process and returns its events and the reasons its pods' statuses carry. */
function recorded(): { events: { run: string; source: string; type: string; reason: string; message: string }[]; statuses: Said[] } {
  const events = [];
  const statuses = [];
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    for (const args of RUNS) {
      let out = '';
      runCli(['run', ...args, '--json', '--trace', 'none'], (s) => { out += s; }, () => undefined, {}, false);
      const report = JSON.parse(out) as { events: { source: string; type: string; reason: string; message: string }[]; objects: ReportPod[] };
      for (const e of report.events) events.push({ run: args[0]!, source: e.source, type: e.type, reason: e.reason, message: e.message.startsWith(AGGREGATE) ? e.message.slice(AGGREGATE.length) : e.message });
      for (const pod of report.objects.filter((o) => o.kind === 'Pod')) statuses.push(...statusOf(args[0]!, pod));
    }
  } finally {
    process.chdir(cwd);
  }
  return { events, statuses };
}

const rows = readTable();
const statusRows = readStatusTable();
const { events, statuses } = recorded();
const fits = (r: StatusRow, s: Said) => r.where.includes(s.where) && r.reason === s.reason && r.message.test(s.message);

test('fidelity table: every row names a Kubernetes source file (or the container runtime\'s)', () => {
  for (const row of [...rows, ...statusRows]) assert.match(row.source, /`(pkg|staging|cmd|internal)\/[\w./-]+\.go`/, `${row.reason}: ${row.source}`);
});

test('fidelity table: every event the runs record matches a row', () => {
  const unmatched = events.filter((e) => !rows.some((r) => r.from.test(e.source) && r.type === e.type && r.reason === e.reason && r.message.test(e.message)));
  assert.deepEqual(unmatched.map((e) => `${e.run}: ${e.source} ${e.type} ${e.reason}: ${e.message}`), []);
});

test('fidelity table: every row matches an event the runs record', () => {
  const stale = rows.filter((r) => !events.some((e) => r.from.test(e.source) && r.type === e.type && r.reason === e.reason && r.message.test(e.message)));
  assert.deepEqual(stale.map((r) => `${r.reason}: ${r.template}`), []);
});

test('fidelity table: every reason and message in a pod\'s status matches a row', () => {
  const unmatched = [...new Set(statuses.filter((s) => !statusRows.some((r) => fits(r, s))).map((s) => `${s.run}: ${s.where} ${s.reason}: ${s.message}`))];
  assert.deepEqual(unmatched, []);
});

test('fidelity table: every status row matches a pod\'s status in the runs', () => {
  const stale = statusRows.filter((r) => !statuses.some((s) => fits(r, s)));
  assert.deepEqual(stale.map((r) => `${r.where.join(', ')} ${r.reason}: ${r.template}`), []);
});
