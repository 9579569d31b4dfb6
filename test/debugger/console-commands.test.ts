// The Debug Console's commands over stdio, as VS Code sends them: an error is answered for the console to show in
// place (not also as a notification), `kubectl get` of several types prints kubectl's tables, and `explain` while the
// scheduler weighs a pod says what it has decided so far.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { deploymentYaml, evaluate, fixture, raw, resume, startWith, topFrames, withSession } from './harness';

test('A console line the console cannot answer is an error shown in the console, not also as a notification', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.bind' }] });
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    for (const expression of ['kubectl get foo', 'status.phse', 'kubectl frobnicate']) {
      const response = await raw(dc, 'evaluate', { expression, frameId, context: 'repl' }) as DebugProtocol.ErrorResponse;
      assert.equal(response.success, false, expression);
      assert.equal(response.body.error?.showUser, false, `${expression}: ${JSON.stringify(response.body.error)}`);
    }
    // A request the user did not type in place still tells the user.
    const stepIn = await raw(dc, 'stepIn', { threadId: event.body.threadId, targetId: 99 }) as DebugProtocol.ErrorResponse;
    assert.equal(stepIn.body.error?.showUser, true);
  });
});

test('Variables asked for a stop the user has continued from are refused quietly, not in a notification', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.bind' }] });
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    const scope = (await dc.scopesRequest({ frameId })).body.scopes[0]!.variablesReference;
    await resume(dc, 'nextRequest', event.body.threadId);
    for (const [command, args] of [['variables', { variablesReference: scope }], ['scopes', { frameId }]] as const) {
      const response = await raw(dc, command, args) as DebugProtocol.ErrorResponse;
      assert.equal(response.success, false, command);
      assert.match(response.message + JSON.stringify(response.body.error), /moved on/);
      assert.equal(response.body.error?.showUser, false, command);
    }
  });
});

test('kubectl get deploy,rs,pods prints a table per type, names prefixed with their kind, a blank line between', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { manifest: deploymentYaml }, { functions: [{ name: 'kubelet.admit' }] });
    const text = await evaluate(dc, event.body.threadId, 'kubectl get deploy,rs,pods');
    const tables = text.split('\n\n');
    assert.equal(tables.length, 3, text);
    assert.match(tables[0]!, /^NAME {18}READY {3}UP-TO-DATE {3}AVAILABLE {3}AGE\ndeployment\.apps\/web {3}0\/3 /);
    assert.match(tables[1]!, /^NAME +DESIRED +CURRENT +READY +AGE\nreplicaset\.apps\/web-[a-z0-9]+ +3 +3 +0 /);
    assert.match(tables[2]!, /^NAME +READY +STATUS +RESTARTS +AGE\n(pod\/web-[a-z0-9]+-[a-z0-9]{5} +0\/1 +\w+ +0 +0s\n?){3}$/);
  });
});

const explainCases: { name: string; manifest?: string; at: string; want: RegExp[]; not?: RegExp }[] = [
  {
    name: 'explain in scheduler.filter lists the attempt so far and says the cycle goes on',
    at: 'scheduler.filter',
    want: [/^kube-scheduler's decisions for default\/web so far, in its current attempt:/, /scheduler\.queue {2}popped from activeQ for attempt 1/, /scheduler\.filter {2}2 of 3 nodes fit: worker-1, worker-2/, /The cycle goes on/],
    not: /nothing to explain/,
  },
  {
    name: 'explain in scheduler.bind shows the filter and score tables and why this node',
    at: 'scheduler.bind',
    want: [/^FILTER +NodeUnschedulable/m, /^SCORE +TaintToleration/m, /^WHY worker-[12] /m, /control-plane +TaintToleration: node\(s\) had untolerated taint\(s\)/],
  },
  {
    name: 'explain of a pod no node fits says why, and what would make it schedule',
    manifest: fixture('too-big.yaml'),
    at: 'scheduler.postFilter',
    want: [/^WHY no node fits: 0 of 3 nodes passed the filters/m, /Insufficient cpu/, /^WHAT WOULD MAKE IT SCHEDULE/m],
  },
];

for (const c of explainCases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, c.manifest ? { manifest: c.manifest } : {}, { functions: [{ name: c.at }] });
      const text = await evaluate(dc, event.body.threadId, 'explain');
      for (const want of c.want) assert.match(text, want);
      if (c.not) assert.doesNotMatch(text, c.not);
    });
  });
}
