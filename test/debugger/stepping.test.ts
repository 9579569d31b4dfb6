// Tests the adapter's run control over stdio: step-in targets, step back and reverse continue through the
// recorded history, pause, restart, and the threads of a Deployment's pods appearing and going away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { collectEvents, deploymentYaml, evaluate, fixture, resume, startWith, topFrames, withSession } from './harness';

test('Step-in targets list the plugins ahead and the nodes they filter out; stepping into one stops there', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    const targets = (await dc.stepInTargetsRequest({ frameId })).body.targets;
    const labels = targets.map((t) => t.label);
    assert.ok(labels.includes('plugin TaintToleration'), labels.join(', '));
    assert.ok(labels.includes('node control-plane (filtered out by TaintToleration)'), labels.join(', '));
    const fit = targets.find((t) => t.label === 'plugin NodeResourcesFit')!;
    const stopped = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: event.body.threadId, targetId: fit.id });
    assert.equal((await stopped).body.reason, 'step');
    assert.equal((await topFrames(dc, event.body.threadId))[0]?.name.split(' · ')[0], 'scheduler.filter › plugin NodeResourcesFit');
  });
});

test('A step-in target that was not offered answers with an error', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    await assert.rejects(dc.stepInRequest({ threadId: event.body.threadId, targetId: 99 }), /no step-in target 99/);
  });
});

test('Step back goes to the previous phase, and next comes forward to the same place again', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.bind' }] });
    const thread = event.body.threadId;
    const seqAtBind = await evaluate(dc, thread, 'seq');
    const back = await resume(dc, 'stepBackRequest', thread);
    assert.equal(back.body.reason, 'step');
    assert.deepEqual((await topFrames(dc, thread)).map((f) => f.name.split(' · ')[0]), ['scheduler.score', 'kube-scheduler (Pod/default/web)']);
    assert.ok(Number(await evaluate(dc, thread, 'seq')) < Number(seqAtBind));
    await resume(dc, 'nextRequest', thread);
    assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'scheduler.bind');
    assert.equal(await evaluate(dc, thread, 'seq'), seqAtBind);
  });
});

test('Reverse continue stops on the breakpoints behind, then at the entry', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }, { name: 'kubelet.sandbox' }] });
    const thread = event.body.threadId;
    await resume(dc, 'continueRequest', thread);
    assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'kubelet.sandbox');
    const back = await resume(dc, 'reverseContinueRequest', thread);
    assert.equal(back.body.reason, 'breakpoint');
    assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'scheduler.filter');
    assert.equal((await resume(dc, 'reverseContinueRequest', thread)).body.reason, 'entry');
    assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'kubectl apply -f pod.yaml');
  });
});

test('Pause stops a running lifecycle', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { manifest: deploymentYaml, delete: true, stopOnEntry: true });
    const stopped = dc.waitForEvent('stopped');
    // Both requests leave together, as a user's Continue then Pause: the run yields to requests between chunks.
    const sent = Promise.all([dc.continueRequest({ threadId: event.body.threadId }), dc.pauseRequest({ threadId: event.body.threadId })]);
    await sent;
    assert.equal((await stopped).body.reason, 'pause');
  });
});

test('Restart starts the lifecycle over with the files read again', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { stopOnEntry: true }, { functions: [{ name: 'scheduler.bind' }] });
    await resume(dc, 'continueRequest', event.body.threadId);
    const stopped = dc.waitForEvent('stopped');
    await dc.restartRequest({});
    const again = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(again.body.reason, 'entry');
    assert.equal((await topFrames(dc, again.body.threadId!))[0]?.name.split(' · ')[0], 'kubectl apply -f pod.yaml');
  });
});

test('A Deployment\'s pods appear as threads, and go away once deleted', async () => {
  await withSession(async (dc) => {
    const threadEvents = collectEvents<DebugProtocol.ThreadEvent>(dc, 'thread');
    await startWith(dc, { manifest: deploymentYaml, delete: true }, {}, 'terminated');
    const started = threadEvents.filter((e) => e.body.reason === 'started').map((e) => e.body.threadId);
    const exited = threadEvents.filter((e) => e.body.reason === 'exited').map((e) => e.body.threadId);
    assert.equal(started.length, 3, 'one thread per replica');
    assert.deepEqual([...exited].sort(), [...started].sort(), 'each pod\'s thread exits when the pod is gone');
  });
});

const clusterFrameCases = [
  { name: 'in the cluster file, at the RoleBinding that allowed the request', args: { cluster: fixture('cluster.yaml'), as: 'dev' }, path: fixture('cluster.yaml'), line: 341 },
  { name: 'in the embedded default cluster, served by reference', args: {}, path: undefined, line: undefined },
];

for (const c of clusterFrameCases) {
  test(`The RBAC authorizer's frame points ${c.name}`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, c.args, { functions: [{ name: 'authz' }] });
      const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
      const rbac = (await dc.stepInTargetsRequest({ frameId })).body.targets.find((t) => t.label === 'authorizer RBAC')!;
      const stopped = dc.waitForEvent('stopped');
      await dc.stepInRequest({ threadId: event.body.threadId, targetId: rbac.id });
      await stopped;
      const top = (await topFrames(dc, event.body.threadId))[0]!;
      assert.equal(top.name, 'apiserver.authorize › authorizer RBAC');
      if (c.path) {
        assert.equal(top.source?.path, c.path);
        assert.equal(top.line, c.line);
      } else {
        assert.equal(top.source?.sourceReference, 1);
        assert.equal(top.source?.name, 'default-cluster.yaml');
      }
    });
  });
}

test('Reverse continue stops where a data breakpoint\'s field changed', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { stopOnEntry: true }, { functions: [{ name: 'kubelet.probes' }] });
    const thread = event.body.threadId;
    const info = (await dc.dataBreakpointInfoRequest({ name: 'spec.nodeName' })).body;
    await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId! }] });
    assert.equal((await resume(dc, 'continueRequest', thread)).body.reason, 'data breakpoint');
    const boundAt = await evaluate(dc, thread, 'seq');
    assert.equal((await resume(dc, 'continueRequest', thread)).body.reason, 'function breakpoint');
    const back = await resume(dc, 'reverseContinueRequest', thread);
    assert.equal(back.body.reason, 'data breakpoint');
    assert.equal(await evaluate(dc, thread, 'seq'), boundAt);
  });
});

test('Reverse continue stops on an exception met going forward', async () => {
  await withSession(async (dc) => {
    const args = { manifest: fixture('missing-image.yaml'), behavior: fixture('missing-image-behavior.yaml') };
    const { event } = await startWith(dc, args, { exceptions: ['containerFailing'] });
    const thread = event.body.threadId;
    const first = await evaluate(dc, thread, 'seq');
    assert.equal((await resume(dc, 'continueRequest', thread)).body.reason, 'exception');
    const back = await resume(dc, 'reverseContinueRequest', thread);
    assert.equal(back.body.reason, 'exception');
    assert.equal(await evaluate(dc, thread, 'seq'), first);
    assert.equal((await dc.exceptionInfoRequest({ threadId: thread })).body.exceptionId, 'Failed');
  });
});

test('A data breakpoint\'s hit count lets the first changes pass', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { stopOnEntry: true });
    const info = (await dc.dataBreakpointInfoRequest({ name: 'status.phase' })).body;
    await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId!, hitCondition: '2' }] });
    const stopped = await resume(dc, 'continueRequest', event.body.threadId);
    assert.equal(stopped.body.reason, 'data breakpoint');
    assert.equal(await evaluate(dc, stopped.body.threadId, 'status.phase'), 'Running', 'absent → Pending is the first change, Pending → Running the second');
  });
});

test('Restart with new arguments launches the new configuration', async () => {
  await withSession(async (dc) => {
    await startWith(dc, { stopOnEntry: true });
    const stopped = dc.waitForEvent('stopped');
    await dc.restartRequest({ arguments: { type: 'pod-lifecycle', request: 'launch', name: 'x', manifest: deploymentYaml, stopOnEntry: true } } as DebugProtocol.RestartArguments);
    const again = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal((await topFrames(dc, again.body.threadId!))[0]?.name.split(' · ')[0], 'kubectl apply -f deployment.yaml');
  });
});

const stopWhileRunningCases = [
  { name: 'disconnect', send: (dc: DebugClient) => dc.disconnectRequest({}) },
  { name: 'terminate', send: (dc: DebugClient) => Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]) },
];

for (const c of stopWhileRunningCases) {
  test(`A ${c.name} while the lifecycle runs is answered at once`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, { manifest: deploymentYaml, delete: true, stopOnEntry: true });
      await Promise.all([dc.continueRequest({ threadId: event.body.threadId }), c.send(dc)]);
    });
  });
}

test('Step Over through kubectl\'s requests never lands on a stop that looks like the last: each frame names what its step did', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubectl.validate' }] });
    const names: string[] = [];
    let thread = event.body.threadId;
    for (let i = 0; i < 5; i++) {
      const [top] = await topFrames(dc, thread);
      names.push(top?.name ?? '');
      thread = (await resume(dc, 'nextRequest', thread)).body.threadId;
    }
    // `kubectl.validate · GET https://…/openapi/v3?timeout=32s`, then the next request, and so on.
    assert.match(names[0]!, /^kubectl\.validate · GET /);
    for (let i = 1; i < names.length; i++) assert.notEqual(names[i], names[i - 1], `stop ${i} looks like stop ${i - 1}: ${names[i]}`);
  });
});
