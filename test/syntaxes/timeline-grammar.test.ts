// The timeline grammar: valid JSON, every pattern a valid regular expression, and the scopes land on real CLI output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Rule { match?: string; name?: string; captures?: Record<string, { name: string }> }
const grammar = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'syntaxes', 'pod-lifecycle-timeline.tmLanguage.json'), 'utf8')) as { scopeName: string; repository: Record<string, Rule> };

/** scopesOf lists the scope names whose rule matches somewhere in the line. */
function scopesOf(line: string): string[] {
  const out: string[] = [];
  for (const rule of Object.values(grammar.repository)) {
    const re = new RegExp(rule.match!, 'g');
    for (const m of line.matchAll(re)) {
      if (rule.name) out.push(rule.name);
      for (const [i, cap] of Object.entries(rule.captures ?? {})) if (m[Number(i)] !== undefined) out.push(cap.name);
    }
  }
  return out;
}

test('the grammar declares its scope and every rule compiles', () => {
  assert.equal(grammar.scopeName, 'source.pod-lifecycle-timeline');
  for (const [name, rule] of Object.entries(grammar.repository)) {
    assert.ok(rule.match, `${name} has a match`);
    assert.doesNotThrow(() => new RegExp(rule.match!), name);
  }
});

const lines: { name: string; line: string; scopes: string[] }[] = [
  { name: 'a timeline line colors its time and phase', line: '2.000s     scheduler.bind   Pod/default/web  DefaultBinder: POST pods/web/binding to worker-1', scopes: ['constant.numeric.time.pod-lifecycle', 'entity.name.function.phase.pod-lifecycle', 'variable.other.object.pod-lifecycle'] },
  { name: 'a Warning event is marked as a warning with its reason', line: '0.000s   Warning   FailedScheduling   pod/web   default-scheduler   0/3 nodes are available', scopes: ['markup.changed.event-warning.pod-lifecycle', 'support.constant.reason.pod-lifecycle'] },
  { name: 'a Normal event is marked as normal', line: '2.000s   Normal   Pulled   pod/web   kubelet   Successfully pulled image "nginx:1.27" in 2s (2s including waiting).', scopes: ['markup.inserted.event-normal.pod-lifecycle', 'support.constant.reason.pod-lifecycle', 'string.quoted.double.pod-lifecycle', 'constant.numeric.duration.pod-lifecycle'] },
  { name: 'a good outcome is inserted, a bad one deleted', line: 'OUTCOME Running', scopes: ['markup.inserted.outcome.pod-lifecycle'] },
  { name: 'a rejection is marked as a failure', line: 'OUTCOME Rejected: pods is forbidden', scopes: ['markup.deleted.outcome.pod-lifecycle'] },
  { name: 'any event reason is marked, not only the common ones', line: '300.000s   Normal   TaintManagerEviction   pod/web   taint-eviction-controller   Marking for deletion Pod default/web', scopes: ['support.constant.reason.pod-lifecycle'] },
  { name: 'a container state reason in a status line is marked', line: 'kubelet.status  Pod/default/web  container app in CrashLoopBackOff', scopes: ['support.constant.reason.pod-lifecycle'] },
  { name: 'the explanation\'s headings are headings', line: 'WHAT WOULD MAKE IT SCHEDULE', scopes: ['markup.heading.pod-lifecycle'] },
  { name: 'kubectl errors are marked illegal', line: 'Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden', scopes: ['invalid.illegal.kubectl-error.pod-lifecycle'] },
];
for (const c of lines) {
  test(`timeline grammar: ${c.name}`, () => {
    const got = scopesOf(c.line);
    for (const s of c.scopes) assert.ok(got.includes(s), `${s} in ${got.join(', ')}`);
  });
}
