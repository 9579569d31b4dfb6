// The state tree's side of the protocol, over stdio: the view of the run on request, the view again at every stop
// once asked, where an object's field is written, and going to a step picked in the timeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { isStateView, type StateView } from '../../src/webview/view';
import { podYaml, resume, startWith, topFrames, withSession } from './harness';

test('The state request answers the view of the run; every stop after it sends the view again', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.bind' }] });
    const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
    assert.ok(isStateView(view));
    assert.equal(view.phase, 'scheduler.bind');
    assert.equal(view.decision?.stage, 'Score');
    assert.deepEqual(view.workloads.map((w) => [w.kind, w.name]), [['Pod', 'web']]);
    const next = dc.waitForEvent('podLifecycle.state');
    await resume(dc, 'nextRequest', event.body.threadId);
    const after = (await next).body as StateView;
    assert.ok(isStateView(after));
    assert.ok(after.seq > view.seq);
  });
});

test('Once asked for, the view comes again when the run ends: the state tree shows the end, not the last stop', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.imagePull' }] });
    const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
    assert.equal(view.phase, 'kubelet.imagePull');
    assert.doesNotMatch(JSON.stringify(view.workloads), /"Running"/);
    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    const last = dc.waitForEvent('podLifecycle.state');
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: event.body.threadId });
    const end = (await last).body as StateView;
    await terminated;
    assert.ok(isStateView(end));
    assert.ok(end.seq > view.seq);
    // The pod as it ended: Running, its container running, where the last stop had it pulling its image.
    assert.match(JSON.stringify(end.workloads), /"Running"/);
  });
});

test('Asked for before the run exists, the view comes with the first stop', async () => {
  await withSession(async (dc) => {
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest({ adapterID: 'pod-lifecycle', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await initialized;
    // No run yet: the request is answered with an error, and the state tree is subscribed all the same.
    await assert.rejects(dc.customRequest('podLifecycle.state'));
    const first = dc.waitForEvent('podLifecycle.state');
    const stopped = dc.waitForEvent('stopped');
    const launched = dc.launchRequest({ manifest: podYaml } as DebugProtocol.LaunchRequestArguments);
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scheduler.bind' }] });
    await dc.configurationDoneRequest();
    await launched;
    await stopped;
    const view = (await first).body as StateView;
    assert.ok(isStateView(view));
    assert.equal(view.phase, 'scheduler.bind');
  });
});

const sources: { name: string; args: unknown; line?: number; text?: RegExp; empty?: boolean }[] = [
  { name: 'a container\'s image in the manifest', args: { ref: 'Pod/default/web', field: 'spec.containers[0].image' }, line: 10 },
  { name: 'the object itself', args: { ref: 'Pod/default/web' }, line: 1 },
  { name: 'an object of the embedded cluster, which has no file', args: { ref: 'Node/worker-1', field: 'status.allocatable' }, empty: true },
];

for (const c of sources) {
  test(`The source request finds ${c.name}`, async () => {
    await withSession(async (dc) => {
      await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
      const body = (await dc.customRequest('podLifecycle.source', c.args)).body as { path?: string; range?: { start: { line: number } } };
      if (c.empty) return assert.deepEqual(body, {});
      assert.equal(body.path, podYaml);
      assert.equal(body.range?.start.line, c.line);
    });
  });
}

test('The goto request moves the paused session back to a step of the timeline, and forward again', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
    const target = view.timeline.find((t) => t.kind === 'phase' && t.label === 'scheduler.filter')!;
    let stopped = dc.waitForEvent('stopped');
    await dc.customRequest('podLifecycle.goto', { seq: target.seq });
    assert.equal((await stopped).body.reason, 'goto');
    const frames = await topFrames(dc, (await stopped).body.threadId!);
    assert.ok(frames.some((f) => f.name.startsWith('scheduler.filter')), frames.map((f) => f.name).join(' | '));
    stopped = dc.waitForEvent('stopped');
    await dc.customRequest('podLifecycle.goto', { seq: view.seq });
    await stopped;
    const back = (await dc.customRequest('podLifecycle.state')).body as StateView;
    assert.equal(back.seq, view.seq);
  });
});

test('A malformed state-tree request answers with an error, and the session goes on', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    await assert.rejects(dc.customRequest('podLifecycle.goto', { seq: 'first' }), /takes \{seq: N\}/);
    await assert.rejects(dc.customRequest('podLifecycle.source', { ref: 7 }), /takes \{ref:/);
    assert.ok(isStateView((await dc.customRequest('podLifecycle.state')).body));
  });
});
