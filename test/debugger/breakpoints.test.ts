// Tests the adapter's breakpoints over stdio: conditions and hit counts on phases, logpoints, exception filters with
// exceptionInfo, line breakpoints on manifest and cluster-file lines, and data breakpoints on pod fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { join } from 'node:path';
import { collectOutput, evaluate, expand, fixture, podYaml, resume, root, scopes, startWith, topFrames, withSession } from './harness';

const hooks = { manifest: fixture('hooks.yaml'), behavior: fixture('hooks-behavior.yaml') };

const conditionCases = [
  { name: 'A condition on the plugin stops on that plugin\'s entry of the phase', args: {}, bp: { name: 'scheduler.filter', condition: 'plugin == "NodeResourcesFit"' }, frame: 'scheduler.filter › plugin NodeResourcesFit' },
  { name: 'A condition on a node stops on the first plugin that weighs that node', args: {}, bp: { name: 'scheduler.score', condition: 'node == "worker-2" && kind == "plugin"' }, frame: 'scheduler.score › plugin TaintToleration' },
  { name: 'A condition on a container stops on that container\'s sub-step', args: hooks, bp: { name: 'kubelet.initContainers', condition: 'container == "init-db"' }, frame: /^kubelet\.initContainers › container init-db$/ },
  { name: 'A condition over the detail compares numbers and strings', args: {}, bp: { name: 'kubelet.imagePull', condition: 'pullSeconds >= 2 && policy == "IfNotPresent"' }, frame: 'kubelet.imagePull' },
];

for (const c of conditionCases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event, functions } = await startWith(dc, c.args, { functions: [c.bp] });
      assert.equal(functions[0]?.verified, true);
      assert.equal(event.body.reason, 'function breakpoint');
      const name = (await topFrames(dc, event.body.threadId))[0]?.name.split(' · ')[0] ?? '';
      if (typeof c.frame === 'string') assert.equal(name, c.frame);
      else assert.match(name, c.frame);
    });
  });
}

test('A condition that never holds lets the run go to its end', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, { functions: [{ name: 'scheduler.bind', condition: 'node == "worker-9"' }] }, 'terminated');
  });
});

const badOptionCases = [
  { name: 'a condition that is not an expression', bp: { name: 'bind', condition: 'node ==' }, want: /The condition is not an expression: expected a value at column 8/ },
  { name: 'a condition with an unknown operator', bp: { name: 'bind', condition: 'node = "x"' }, want: /not an expression: unexpected "="/ },
  { name: 'a hit count that is no count', bp: { name: 'bind', hitCondition: 'often' }, want: /The hit count "often" is not a count/ },
];

for (const c of badOptionCases) {
  test(`A breakpoint with ${c.name} is unverified and says how to write it`, async () => {
    await withSession(async (dc) => {
      const { functions } = await startWith(dc, { stopOnEntry: true }, { functions: [c.bp] });
      assert.equal(functions[0]?.verified, false);
      assert.match(functions[0]?.message ?? '', c.want);
    });
  });
}

test('A hit count of 2 stops where the second hit of the breakpoint is', async () => {
  let second = '';
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'authn' }] });
    second = await evaluate(dc, (await resume(dc, 'continueRequest', event.body.threadId)).body.threadId, 'seq');
  });
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'authn', hitCondition: '2' }] });
    assert.equal(await evaluate(dc, event.body.threadId, 'seq'), second);
  });
});

test('A logpoint prints its interpolated message and does not stop', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const logpoint = { line: 11, condition: 'phase == "kubelet.imagePull"', logMessage: '{container}: pulling {imageRef} at {at}s' };
    await startWith(dc, {}, { lines: { path: podYaml, breakpoints: [logpoint] } }, 'terminated');
    assert.ok(output.some((o) => o.output === 'app: pulling docker.io/library/nginx:1.27 at 0s\n'), 'the logpoint line');
  });
});

const exceptionCases = [
  { name: 'A refused request stops as an exception with the API server\'s reason and message', args: { as: 'bob' }, filter: 'rejected', id: 'Forbidden', message: /pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"/, field: 'metadata.namespace' },
  // The field of the filter that turned most nodes away (NodeResourcesFit, 2 of 3), not the queue's spec.priority;
  // the exception shows on its line.
  { name: 'An unschedulable pod stops as an exception with the scheduler\'s message, on the request no node could meet (the cpu line)', args: { manifest: fixture('too-big.yaml') }, filter: 'unschedulable', id: 'FailedScheduling', message: /^0\/3 nodes are available: /, field: 'spec.containers[0].resources.requests.cpu', line: 12 },
  { name: 'A failing image pull stops as an exception naming the image field', args: { manifest: fixture('missing-image.yaml'), behavior: fixture('missing-image-behavior.yaml') }, filter: 'containerFailing', id: 'Failed', message: /acme\/missing:1\.0/, field: 'spec.containers[0].image' },
  { name: 'A crash-looping container stops as an exception at its back-off', args: { behavior: fixture('crash-behavior.yaml'), for: '2m' }, filter: 'containerFailing', id: 'BackOff', message: /^Back-off restarting failed container app in pod web_default\(/, field: null },
  { name: 'A failing liveness probe stops as an exception', args: { manifest: fixture('liveness.yaml'), behavior: fixture('liveness-behavior.yaml'), for: '1m' }, filter: 'containerFailing', id: 'Unhealthy', message: /^Liveness probe failed: /, field: null },
  { name: 'Any Warning event stops when that filter is on', args: { manifest: fixture('missing-image.yaml'), behavior: fixture('missing-image-behavior.yaml') }, filter: 'warning', id: 'Failed', message: /acme\/missing:1\.0/, field: 'spec.containers[0].image' },
];

for (const c of exceptionCases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, c.args, { exceptions: [c.filter] });
      assert.equal(event.body.reason, 'exception');
      const info = (await dc.exceptionInfoRequest({ threadId: event.body.threadId })).body;
      assert.equal(info.exceptionId, c.id);
      assert.equal(info.breakMode, 'always');
      assert.match(info.details?.message ?? '', c.message);
      if (c.field !== null) assert.equal(info.details?.evaluateName, c.field);
      if ('line' in c) {
        const [top] = (await dc.stackTraceRequest({ threadId: event.body.threadId })).body.stackFrames;
        assert.equal(top?.line, c.line, `the exception shows on line ${c.line}: ${top?.name}`);
      }
    });
  });
}

const identityCases = [
  { name: 'an unknown bearer token is refused by authentication', args: { token: 'nope' }, id: 'Unauthorized', user: undefined },
  { name: 'an anonymous request is refused (kubectl\'s first GET gets 403)', args: { anonymous: true }, id: 'Forbidden', user: undefined },
  { name: 'an impersonated user with groups is refused by RBAC', args: { as: 'dev', asGroups: ['devs'] }, id: 'Forbidden', user: 'dev' },
];

for (const c of identityCases) {
  test(`Launching as ${c.name}, stopping on the refusal`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, c.args, { exceptions: ['rejected'] });
      assert.equal(event.body.reason, 'exception');
      assert.equal((await dc.exceptionInfoRequest({ threadId: event.body.threadId })).body.exceptionId, c.id);
      if (c.user) {
        const request = (await scopes(dc, event.body.threadId)).get('Request')!;
        assert.equal((await expand(dc, request.variablesReference, ['user'])).variable.value, JSON.stringify(c.user));
      }
    });
  });
}

test('Launching with a kubeconfig presents its user\'s client certificate', async () => {
  await withSession(async (dc) => {
    const args = { cluster: join(root, 'test', 'fixtures', 'auth', 'cert-cluster.yaml'), kubeconfig: join(root, 'test', 'fixtures', 'auth', 'jane.kubeconfig') };
    const { event } = await startWith(dc, args, { functions: [{ name: 'apiserver.authorize' }] });
    const request = (await scopes(dc, event.body.threadId)).get('Request')!;
    assert.equal((await expand(dc, request.variablesReference, ['user'])).variable.value, '"jane"');
  });
});

test('With no exception filter on, a refused request runs to its end', async () => {
  await withSession(async (dc) => {
    await startWith(dc, { as: 'bob' }, { exceptions: [] }, 'terminated');
  });
});

test('exceptionInfo on a stop that is no exception answers with an error', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, { stopOnEntry: true });
    await assert.rejects(dc.exceptionInfoRequest({ threadId: event.body.threadId }), /is not stopped on an exception/);
  });
});

const lineCases = [
  { name: 'A line breakpoint on the image stops first where the scheduler weighs image locality, on that line', args: {}, path: podYaml, line: 11, message: /^Stops in scheduler\.score, kubelet\.imagePull.* \(they read spec\.containers\[0\]\.image\)\.$/, frame: 'scheduler.score › plugin ImageLocality' },
  { name: 'A line breakpoint on a request stops where the scheduler reads the requests', args: {}, path: podYaml, line: 16, message: /scheduler\.filter/, frame: /^scheduler\.filter/ },
  { name: 'A line breakpoint on preStop: stops in kubelet.preStop', args: { ...hooks, delete: true }, path: fixture('hooks.yaml'), line: 15, message: /^Stops in kubelet\.preStop/, frame: /^kubelet\.preStop/ },
  { name: 'A line breakpoint on a Node of the cluster file stops when the scheduler weighs it', args: { cluster: fixture('cluster.yaml') }, path: fixture('cluster.yaml'), line: 239, message: /^Stops when the scheduler weighs node worker-2 \(scheduler\.filter, scheduler\.score/, frame: /^scheduler\.filter/ },
  { name: 'A line breakpoint on a RoleBinding stops when RBAC reads it', args: { cluster: fixture('cluster.yaml'), as: 'dev' }, path: fixture('cluster.yaml'), line: 344, message: /^Stops when the RBAC authorizer reads RoleBinding dev-edits \(apiserver\.authorize\)/, frame: /^apiserver\.authorize/ },
];

for (const c of lineCases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event, lines } = await startWith(dc, c.args, { lines: { path: c.path, breakpoints: [{ line: c.line }] } });
      assert.equal(lines[0]?.verified, true, lines[0]?.message);
      assert.match(lines[0]?.message ?? '', c.message);
      assert.equal(event.body.reason, 'breakpoint');
      assert.deepEqual(event.body.hitBreakpointIds, [lines[0]?.id]);
      const top = (await topFrames(dc, event.body.threadId))[0];
      if (typeof c.frame === 'string') assert.equal(top?.name.split(' · ')[0], c.frame);
      else assert.match(top?.name ?? '', c.frame);
      if (c.line === 11) assert.equal(top?.line, c.line);
    });
  });
}

const unverifiedLineCases = [
  { name: 'the comment above the object', path: podYaml, line: 1, want: /^Line 1 is outside every object of this file/ },
  { name: 'a field no phase reads', path: podYaml, line: 13, want: /^No phase reads spec\.containers\[0\]\.ports\[0\] in this run/ },
  { name: 'a YAML file that is no input', path: fixture('missing-image.yaml'), line: 8, want: /not an input of the running lifecycle/ },
  { name: 'an object of the cluster file with no phase of its own', path: fixture('cluster.yaml'), line: 358, want: /^A cluster file's breakpoints stop on a Node/ },
];

for (const c of unverifiedLineCases) {
  test(`A line breakpoint on ${c.name} is unverified and says why`, async () => {
    await withSession(async (dc) => {
      const { lines } = await startWith(dc, { stopOnEntry: true, cluster: fixture('cluster.yaml') }, { lines: { path: c.path, breakpoints: [{ line: c.line }] } });
      assert.equal(lines[0]?.verified, false);
      assert.match(lines[0]?.message ?? '', c.want);
    });
  });
}

test('A line breakpoint in a file that is not YAML answers with an error', async () => {
  await withSession(async (dc) => {
    await startWith(dc, { stopOnEntry: true });
    await assert.rejects(dc.setBreakpointsRequest({ source: { path: '/tmp/app.ts' }, breakpoints: [{ line: 3 }] }), /app\.ts is not YAML/);
  });
});

test('Line breakpoints sent before launch are bound once the files are read, and the client told', async () => {
  await withSession(async (dc) => {
    const changed: DebugProtocol.BreakpointEvent[] = [];
    dc.on('breakpoint', (e: DebugProtocol.BreakpointEvent) => changed.push(e));
    await dc.initializeRequest();
    const early = (await dc.setBreakpointsRequest({ source: { path: podYaml }, breakpoints: [{ line: 11 }] })).body.breakpoints;
    assert.equal(early[0]?.verified, false);
    assert.match(early[0]?.message ?? '', /Waiting for the launch/);
    const stopped = dc.waitForEvent('stopped');
    await Promise.all([dc.launchRequest({ manifest: podYaml } as DebugProtocol.LaunchRequestArguments), dc.configurationDoneRequest()]);
    assert.equal((await stopped).body.reason, 'breakpoint');
    assert.equal(changed[0]?.body.reason, 'changed');
    assert.equal(changed[0]?.body.breakpoint.id, early[0]?.id);
    assert.equal(changed[0]?.body.breakpoint.verified, true);
  });
});

test('A condition on a line breakpoint is honoured', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { lines: { path: podYaml, breakpoints: [{ line: 16, condition: 'phase == "scheduler.score"' }] } });
    assert.match((await topFrames(dc, event.body.threadId))[0]?.name ?? '', /^scheduler\.score › plugin NodeResourcesFit$/);
  });
});

test('A data breakpoint on status.phase, set from the Pod scope, stops when the phase changes', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const pod = (await scopes(dc, event.body.threadId)).get('Pod')!;
    const { variable: phase, parent } = await expand(dc, pod.variablesReference, ['status', 'phase']);
    assert.equal(phase.value, '"Pending"');
    const info = (await dc.dataBreakpointInfoRequest({ variablesReference: parent, name: 'phase' })).body;
    assert.equal(info.dataId, 'Pod/default/web#status.phase');
    const set = (await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId! }] })).body.breakpoints;
    assert.equal(set[0]?.verified, true);
    const stopped = await resume(dc, 'continueRequest', event.body.threadId);
    assert.equal(stopped.body.reason, 'data breakpoint');
    assert.deepEqual(stopped.body.hitBreakpointIds, [set[0]?.id]);
    assert.equal(await evaluate(dc, stopped.body.threadId, 'pod.status.phase'), 'Running');
  });
});

const dataFieldCases = [
  { name: 'spec.nodeName stops at the binding', field: 'spec.nodeName', args: {}, want: /^worker-\d$/ },
  { name: 'metadata.deletionTimestamp stops when the delete request marks the pod', field: 'metadata.deletionTimestamp', args: { delete: true }, want: /^2026-01-01T00:00:\d\dZ$/ },
  { name: 'a container\'s state stops when the container starts', field: 'status.containerStatuses[0].state', args: {}, want: /waiting|running/ },
];

for (const c of dataFieldCases) {
  test(`A data breakpoint on ${c.name}`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, { stopOnEntry: true, ...c.args });
      const info = (await dc.dataBreakpointInfoRequest({ name: c.field })).body;
      assert.equal(info.dataId, `Pod/default/web#${c.field}`);
      await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId! }] });
      const stopped = await resume(dc, 'continueRequest', event.body.threadId);
      assert.equal(stopped.body.reason, 'data breakpoint');
      assert.match(await evaluate(dc, stopped.body.threadId, c.field), c.want);
    });
  });
}

test('A data breakpoint on a value that is not a pod field is refused with the reason', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const decision = (await scopes(dc, event.body.threadId)).get('Decision')!;
    const info = (await dc.dataBreakpointInfoRequest({ variablesReference: decision.variablesReference, name: 'result' })).body;
    assert.equal(info.dataId, null);
    assert.match(info.description, /Only the fields of a pod/);
  });
});
