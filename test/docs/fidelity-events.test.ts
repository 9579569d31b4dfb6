// docs/fidelity.md lists every Event the engine records with its message as a template and the Kubernetes source that
// writes it. This keeps the table in step with the code: a set of runs that between them record every event of the
// table; each event recorded must match a row (a new or changed message fails), and each row must match an event (a
// stale row fails). A row's `<...>` stands for any text.
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

function readTable(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8');
  const section = /<!-- events:begin -->\n([\s\S]*?)<!-- events:end -->/.exec(doc);
  assert.ok(section, 'docs/fidelity.md has the events table between its markers');
  return section[1]!.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| from ') && !l.startsWith('|---')).map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    assert.equal(cells.length, 5, `a row has five cells: ${line}`);
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
];

/** AGGREGATE is what the correlator puts before a combined event's message. */
const AGGREGATE = '(combined from similar events): ';

/** recorded runs each command line in-process and returns its events. */
function recorded(): { run: string; source: string; type: string; reason: string; message: string }[] {
  const all = [];
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    for (const args of RUNS) {
      let out = '';
      runCli(['run', ...args, '--json', '--trace', 'none'], (s) => { out += s; }, () => undefined, {}, false);
      const report = JSON.parse(out) as { events: { source: string; type: string; reason: string; message: string }[] };
      for (const e of report.events) all.push({ run: args[0]!, source: e.source, type: e.type, reason: e.reason, message: e.message.startsWith(AGGREGATE) ? e.message.slice(AGGREGATE.length) : e.message });
    }
  } finally {
    process.chdir(cwd);
  }
  return all;
}

const rows = readTable();
const events = recorded();

test('fidelity table: every row names a Kubernetes source file', () => {
  for (const row of rows) assert.match(row.source, /`(pkg|staging|cmd)\/[\w./-]+\.go`/, `${row.reason}: ${row.source}`);
});

test('fidelity table: every event the runs record matches a row', () => {
  const unmatched = events.filter((e) => !rows.some((r) => r.from.test(e.source) && r.type === e.type && r.reason === e.reason && r.message.test(e.message)));
  assert.deepEqual(unmatched.map((e) => `${e.run}: ${e.source} ${e.type} ${e.reason}: ${e.message}`), []);
});

test('fidelity table: every row matches an event the runs record', () => {
  const stale = rows.filter((r) => !events.some((e) => r.from.test(e.source) && r.type === e.type && r.reason === e.reason && r.message.test(e.message)));
  assert.deepEqual(stale.map((r) => `${r.reason}: ${r.template}`), []);
});
