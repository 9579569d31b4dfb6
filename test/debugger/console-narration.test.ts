// The Debug Console as a debugged run moves, over stdio: kubectl's command and what it prints come where kubectl
// prints them, before the events they cause; after going back to an earlier step the console says so, and the world's
// lines come again as they happen again; the state tree's view after going back holds nothing of that step's future.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { StateView } from '../../src/webview/view';
import { collectOutput, fixture, resume, startWith, withSession } from './harness';

/** indexOf is the place of the first output line that matches, -1 when none does. */
function indexOf(output: readonly DebugProtocol.OutputEvent['body'][], pattern: RegExp): number {
  return output.findIndex((o) => pattern.test(o.output));
}

test('kubectl apply\'s command line and what kubectl prints come first, before the events they cause', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const command = indexOf(output, /^\$ kubectl apply -f pod\.yaml\n$/);
    const created = indexOf(output, /^pod\/web created\n$/);
    const scheduled = indexOf(output, /Normal {2}Scheduled {2}pod\/web/);
    assert.ok(command === 0, `the command line comes first: ${JSON.stringify(output)}`);
    assert.ok(command < created && created < scheduled, `apply, kubectl's line, then the Scheduled event: ${JSON.stringify(output)}`);
    assert.equal(output[created]!.category, 'stdout');
  });
});

test('kubectl delete\'s command line and what it prints come when the delete begins, before the kubelet stops the pod', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const terminated = dc.waitForEvent('terminated');
    await startWith(dc, { stopOnEntry: false, delete: { gracePeriod: 5 } }, {}, 'terminated');
    await terminated;
    const command = indexOf(output, /^\$ kubectl delete -f pod\.yaml --grace-period=5\n$/);
    const deleted = indexOf(output, /^pod "web" deleted/);
    const killing = indexOf(output, /Normal {2}Killing {2}pod\/web/);
    const outcome = indexOf(output, /^Outcome: Deleted\n$/);
    assert.ok(command > indexOf(output, /^pod\/web created\n$/), JSON.stringify(output));
    assert.ok(command < deleted && deleted < killing && killing < outcome, `delete, kubectl's line, Killing, the outcome: ${JSON.stringify(output)}`);
    // Printed once each, where kubectl printed them, not again with the outcome.
    assert.equal(output.filter((o) => /^pod\/web created/.test(o.output)).length, 1);
  });
});

test('After Step Back the console says where the run went back to, and going forward prints the events again as they happen again', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const thread = event.body.threadId;
    assert.equal(output.filter((o) => /Scheduled/.test(o.output)).length, 1);
    await resume(dc, 'stepBackRequest', thread);
    await resume(dc, 'stepBackRequest', thread);
    const back = output.at(-2)!.output;
    assert.match(back, /^↶ Back to 0\.000s scheduler\.score Pod\/default\/web: what followed it above has not happened yet/);
    // The bind has not happened in the run as it stands: nothing after the rewind line speaks of it yet.
    const rewound = output.length;
    await resume(dc, 'continueRequest', thread);
    const after = output.slice(rewound);
    assert.equal(after.filter((o) => /Normal {2}Scheduled {2}pod\/web/.test(o.output)).length, 1, `the Scheduled event happens again: ${JSON.stringify(after)}`);
    assert.match(after.at(-1)!.output, /kubelet\.admit/);
  });
});

test('After Step Back the state tree shows the run at that step: no event, binding or status from its future', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { manifest: fixture('hooks.yaml') }, { functions: [{ name: 'kubelet.containers' }] });
    const thread = event.body.threadId;
    const ahead = (await dc.customRequest('podLifecycle.state')).body as StateView;
    assert.ok(ahead.timeline.some((t) => t.kind === 'event' && t.label === 'Scheduled'));
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scheduler.score' }] });
    // The view follows the stop it belongs to.
    const next = dc.waitForEvent('podLifecycle.state');
    await resume(dc, 'reverseContinueRequest', thread);
    const view = (await next).body as StateView;
    assert.equal(view.phase, 'scheduler.score');
    assert.ok(view.timeline.every((t) => t.seq === undefined || t.seq <= view.seq), 'no step after the one it stands on');
    assert.ok(!view.timeline.some((t) => t.kind === 'event'), `no event yet: ${JSON.stringify(view.timeline.filter((t) => t.kind === 'event'))}`);
    assert.ok(!view.nodes.some((n) => n.pods.length > 0), 'no pod bound to a node yet');
    assert.match(JSON.stringify(view.workloads), /"status":"Pending"/);
  });
});
