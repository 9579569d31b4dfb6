// Tests the what-if edit of the real-VS-Code test at the protocol level (the e2e fixture, a function breakpoint on
// scheduler.score, step in, step back, Cluster › Node › worker-1 › status › allocatable › cpu), and that a variables
// reference or frame id from before a stop or a what-if is never taken for another one: VS Code sends requests with
// the references of the view it is about to replace (variables, scopes, setVariable), after the adapter has handed
// out the new ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { collectOutput, expand, resume, root, scopes, startWith, topFrames, variables, withSession } from './harness';

const prestop = join(root, 'test', 'fixtures', 'e2e', 'prestop.yaml');
const launch = { manifest: prestop, stopOnEntry: true, delete: true };

/** atScore starts the e2e's session and goes to scheduler.score, into a plugin and back, as the e2e does. */
async function atScore(dc: DebugClient): Promise<number> {
  const { event } = await startWith(dc, launch, { functions: [{ name: 'scheduler.score' }] });
  const thread = event.body.threadId;
  await resume(dc, 'continueRequest', thread);
  assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'scheduler.score');
  await resume(dc, 'stepInRequest', thread);
  assert.match((await topFrames(dc, thread))[0]?.name ?? '', /^scheduler\.score › plugin /);
  await resume(dc, 'stepBackRequest', thread);
  assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'scheduler.score');
  return thread;
}

/** allocatable walks Cluster › Node › worker-1 › status › allocatable and returns its reference (the parent of cpu). */
async function allocatable(dc: DebugClient, thread: number): Promise<{ cluster: number; allocatable: number }> {
  const cluster = (await scopes(dc, thread)).get('Cluster')!.variablesReference;
  const { variable } = await expand(dc, cluster, ['Node', 'worker-1', 'status', 'allocatable']);
  const cpu = (await variables(dc, variable.variablesReference)).get('cpu');
  assert.equal(cpu?.value, '"4"');
  return { cluster, allocatable: variable.variablesReference };
}

/** handOut makes the adapter hand out many references, as VS Code's view does once it shows the new stop. */
async function handOut(dc: DebugClient, thread: number): Promise<void> {
  const all = await scopes(dc, thread);
  const walk = async (ref: number, depth: number): Promise<void> => {
    if (depth === 0) return;
    for (const v of (await dc.variablesRequest({ variablesReference: ref })).body.variables) {
      if (v.variablesReference > 0) await walk(v.variablesReference, depth - 1);
    }
  };
  for (const scope of all.values()) if (!scope.expensive) await walk(scope.variablesReference, 4);
  const cluster = all.get('Cluster')!.variablesReference;
  await expand(dc, cluster, ['Node', 'worker-1', 'status', 'allocatable']);
}

/** refused sends a request expected to fail and returns its message. */
async function refused(send: Promise<unknown>): Promise<string> {
  let message = '';
  await assert.rejects(send, (err: Error) => ((message = err.message), true));
  return message;
}

test('The e2e\'s what-if: cpu under Cluster › Node › worker-1 › status › allocatable is edited after a step back', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const thread = await atScore(dc);
    const { cluster, allocatable: parent } = await allocatable(dc, thread);
    // What VS Code sends when its edit box opens on the kind row "Node" instead: the Cluster scope's child, refused.
    assert.match(await refused(dc.setVariableRequest({ variablesReference: cluster, name: 'Node', value: '"100m"' })), /^Node is read-only/);
    const invalidated = dc.waitForEvent('invalidated');
    const body = (await dc.setVariableRequest({ variablesReference: parent, name: 'cpu', value: '"100m"' })).body;
    await invalidated;
    assert.equal(body.value, '"100m"');
    const text = output.map((o) => o.output).join('');
    assert.ok(text.includes('What-if: Node worker-1 status.allocatable.cpu = "100m". The lifecycle was run again from the start to scheduler.score'), text);
    assert.match(text, /Outcome: /);
  });
});

test('A variables reference from before a stop is refused, even once the new stop has handed out as many', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const thread = await atScore(dc);
    const { allocatable: stale } = await allocatable(dc, thread);
    const staleFrame = (await topFrames(dc, thread))[0]!.id;
    await resume(dc, 'stepInRequest', thread);
    await handOut(dc, thread);
    assert.match(await refused(dc.variablesRequest({ variablesReference: stale })), /moved on/);
    assert.match(await refused(dc.setVariableRequest({ variablesReference: stale, name: 'cpu', value: '"100m"' })), /moved on/);
    assert.match(await refused(dc.scopesRequest({ frameId: staleFrame })), /moved on/);
    assert.ok(!output.some((o) => o.output.includes('What-if')), 'no what-if ran on a stale reference');
  });
});

test('A variables reference from before a what-if is refused, even once the re-run has handed out as many', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const thread = await atScore(dc);
    const { allocatable: parent } = await allocatable(dc, thread);
    const staleFrame = (await topFrames(dc, thread))[0]!.id;
    const invalidated = dc.waitForEvent('invalidated');
    await dc.setVariableRequest({ variablesReference: parent, name: 'cpu', value: '"100m"' });
    await invalidated;
    // VS Code refetches the stack and the view after the invalidated event; the views it replaces still hold the
    // references of before, and re-read them (the edited container's among them).
    await handOut(dc, thread);
    const whatIfs = () => output.filter((o) => o.output.startsWith('What-if')).length;
    assert.equal(whatIfs(), 1);
    assert.match(await refused(dc.variablesRequest({ variablesReference: parent })), /moved on/);
    assert.match(await refused(dc.setVariableRequest({ variablesReference: parent, name: 'memory', value: '"1Gi"' })), /moved on/);
    assert.match(await refused(dc.scopesRequest({ frameId: staleFrame })), /moved on/);
    assert.equal(whatIfs(), 1, 'no second what-if ran on a stale reference');
  });
});
