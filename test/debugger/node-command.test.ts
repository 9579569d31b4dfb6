// `kubectl drain NODE` and `kubectl cordon NODE` typed in the Debug Console over stdio: a console line cannot move the
// virtual clock, so the run is replayed with the command at the current virtual time (as --then-drain runs it) and
// paused on its first step; the console prints what kubectl prints to the end of the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { evaluate, resume, root, startWith, type Stopped, topFrames, withSession } from './harness';

const budget = join(root, 'examples', 'disruption-budget.yaml');

test('kubectl drain while paused replays the run with the drain at that time, pauses on its GET of the node and prints its lines', async () => {
  await withSession(async (dc) => {
    // The PodDisruptionBudget's first status: the pods are not Ready yet.
    const { event } = await startWith(dc, { manifest: budget }, { functions: [{ name: 'controllers.disruption' }] });
    const stopped = dc.waitForEvent('stopped');
    const result = await evaluate(dc, event.body.threadId, 'kubectl drain worker-1 --ignore-daemonsets');
    const lines = result.split('\n');
    assert.equal(lines[0], 'kubectl drain worker-1 --ignore-daemonsets at 0s: the lifecycle was run again from the start with it, and is paused on it. kubectl prints, over the rest of the run:');
    assert.equal(lines[1], '  node/worker-1 cordoned');
    assert.ok(lines.includes('  node/worker-1 drained'), result);
    assert.equal(lines.at(-1), '  Outcome: Running (unchanged).');
    const paused = (await stopped) as Stopped;
    assert.equal(paused.body.reason, 'goto');
    assert.equal(paused.body.text, 'kubectl sends GET /api/v1/nodes/worker-1: the resource builder reads the node');
    assert.equal((await topFrames(dc, paused.body.threadId))[0]?.name.split(' · ')[0], 'kubectl.drain');
    // Going on: the cordon's patch is sent.
    const next = await resume(dc, 'nextRequest', paused.body.threadId);
    assert.match(next.body.text ?? '', /^kubectl sends PATCH \/api\/v1\/nodes\/worker-1: cordon the node/);
  });
});

test('kubectl drain with a flag kubectl has not is refused in its words, and nothing is replayed', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { manifest: budget }, { functions: [{ name: 'controllers.disruption' }] });
    await assert.rejects(evaluate(dc, event.body.threadId, 'kubectl drain worker-1 --now'), (err: Error) => {
      assert.equal(err.message, "error: unknown flag: --now\nSee 'kubectl drain --help' for usage.");
      return true;
    });
    assert.equal((await topFrames(dc, event.body.threadId))[0]?.name.split(' ')[0], 'controllers.disruption');
  });
});
