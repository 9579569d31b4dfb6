// Tests what a paused lifecycle shows over stdio: the Request, Decision, Node and Cluster scopes, what-if edits
// with setVariable, the Debug Console's expressions and completions, the output as it happens, and the errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Pod } from '../../src/engine/api/types';
import { simulate } from '../engine/console/simulate';
import { collectEvents, collectOutput, deploymentYaml, evaluate, expand, podYaml, raw, resume, scopes, startWith, topFrames, variables, withSession } from './harness';

test('The Request scope of an API-server step shows the user, groups, verb and resource', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'apiserver.authorize' }] });
    const request = await variables(dc, (await scopes(dc, event.body.threadId)).get('Request')!.variablesReference);
    assert.equal(request.get('user')?.value, '"kubernetes-admin"');
    assert.equal(request.get('verb')?.value, '"get"');
    assert.equal(request.get('resource')?.value, '"pods"');
    assert.match(request.get('groups')?.value ?? '', /kubeadm:cluster-admins/);
  });
});

test('The Decision scope of a filter plugin holds its node table as nested variables', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter', condition: 'plugin == "TaintToleration"' }] });
    const decision = (await scopes(dc, event.body.threadId)).get('Decision')!;
    const { variable } = await expand(dc, decision.variablesReference, ['detail', 'nodes', 'control-plane', 'code']);
    assert.equal(variable.value, '"UnschedulableAndUnresolvable"');
  });
});

test('The Node scope shows the node the pod is bound to', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.sandbox' }] });
    const all = await scopes(dc, event.body.threadId);
    const node = await variables(dc, all.get('Node')!.variablesReference);
    const name = (await expand(dc, node.get('metadata')!.variablesReference, ['name'])).variable.value;
    assert.equal(JSON.parse(name), await evaluate(dc, event.body.threadId, 'spec.nodeName'));
  });
});

test('The Cluster scope is expanded on demand, kind by kind', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    const cluster = (await scopes(dc, event.body.threadId)).get('Cluster')!;
    assert.equal(cluster.expensive, true);
    const kinds = await variables(dc, cluster.variablesReference);
    assert.equal(kinds.get('Node')?.value, '3 objects');
    assert.ok(kinds.has('ClusterRole') && kinds.has('Namespace'));
    const worker = (await variables(dc, kinds.get('Node')!.variablesReference)).get('worker-1');
    assert.equal(worker?.value, 'Node worker-1');
  });
});

test('Large lists page through start and count', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.probes' }] });
    const events = (await scopes(dc, event.body.threadId)).get('Events')!;
    assert.ok(events.variablesReference > 0);
    const page = await variables(dc, events.variablesReference, { filter: 'indexed', start: 1, count: 2 });
    assert.deepEqual([...page.keys()], ['1', '2']);
    assert.deepEqual([...(await variables(dc, events.variablesReference, { filter: 'named' })).keys()], []);
  });
});

/** setAndWait sets a variable and waits for the views to be invalidated. */
async function setAndWait(dc: DebugClient, variablesReference: number, name: string, value: string): Promise<DebugProtocol.SetVariableResponse['body']> {
  const invalidated = dc.waitForEvent('invalidated');
  const body = (await dc.setVariableRequest({ variablesReference, name, value })).body;
  await invalidated;
  return body;
}

/** firstNode is the node the example pod goes to with the default seed: the tie between the workers is broken at random. */
function firstNode(): string {
  const sim = simulate(readFileSync(podYaml, 'utf8'));
  return sim.store.get<Pod>('Pod', 'default', 'web')?.spec?.nodeName ?? '';
}

test('What-if: lowering a node\'s allocatable cpu while paused re-runs and the scheduler decides again', async () => {
  const chosen = firstNode();
  const other = chosen === 'worker-1' ? 'worker-2' : 'worker-1';
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    const thread = event.body.threadId;
    const cluster = (await scopes(dc, thread)).get('Cluster')!;
    const nodes = await variables(dc, cluster.variablesReference);
    const { variable, parent } = await expand(dc, nodes.get('Node')!.variablesReference, [chosen, 'status', 'allocatable', 'cpu']);
    assert.equal(variable.value, '"4"');
    const body = await setAndWait(dc, parent, 'cpu', '100m');
    assert.equal(body.value, '"100m"');
    const text = output.map((o) => o.output).join('');
    assert.ok(text.includes(`What-if: Node ${chosen} status.allocatable.cpu = "100m". The lifecycle was run again from the start to scheduler.filter`), text);
    assert.ok(text.includes(`kube-scheduler now binds Pod default/web to ${other} (was ${chosen}).`), text);
    assert.match(text, /Outcome: Running \(unchanged\)\./);
    assert.equal((await topFrames(dc, thread))[0]?.name.split(' · ')[0], 'scheduler.filter');
    const exited = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: thread });
    await exited;
    assert.ok(output.some((o) => new RegExp(`Scheduled {2}pod/web .*Successfully assigned default/web to ${other}`).test(o.output)));
  });
});

const podFieldCases = [
  { name: 'a pod\'s own field', manifest: podYaml, bound: /kube-scheduler no longer binds Pod default\/web \(it went to worker-\d\)\./ },
  { name: 'a Deployment pod\'s field, changed in the pod template', manifest: deploymentYaml, bound: /kube-scheduler no longer binds Pod default\/web-[a-z0-9]+-[a-z0-9]{5} \(it went to worker-\d\)\./ },
];

for (const c of podFieldCases) {
  test(`What-if: asking for more cpu than any node has, in ${c.name}, makes the pods unschedulable`, async () => {
    await withSession(async (dc) => {
      const output = collectOutput(dc);
      const { event } = await startWith(dc, { manifest: c.manifest }, { functions: [{ name: 'scheduler.queue' }] });
      const pod = (await scopes(dc, event.body.threadId)).get('Pod')!;
      const { parent } = await expand(dc, pod.variablesReference, ['spec', 'containers', '0', 'resources', 'requests', 'cpu']);
      await setAndWait(dc, parent, 'cpu', '64');
      const text = output.map((o) => o.output).join('');
      assert.match(text, /What-if: Pod default\/web[-a-z0-9]* spec\.containers\[0\]\.resources\.requests\.cpu = 64\./);
      assert.match(text, c.bound);
      assert.match(text, /Outcome: Pending \(was Running\)\./);
    });
  });
}

test('What-if: softening the control plane\'s taint makes it a feasible node', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    const thread = event.body.threadId;
    assert.doesNotMatch(await evaluate(dc, thread, 'feasible'), /control-plane/);
    const nodes = await variables(dc, (await scopes(dc, thread)).get('Cluster')!.variablesReference);
    const { parent } = await expand(dc, nodes.get('Node')!.variablesReference, ['control-plane', 'spec', 'taints', '0', 'effect']);
    await setAndWait(dc, parent, 'effect', 'PreferNoSchedule');
    assert.match(output.map((o) => o.output).join(''), /What-if: Node control-plane spec\.taints\[0\]\.effect = "PreferNoSchedule"\./);
    assert.match(await evaluate(dc, thread, 'feasible'), /control-plane/);
  });
});

const readOnlyCases = [
  { name: 'a decision', scope: 'Decision', path: [], variable: 'result', want: /result is read-only: it is what the engine decided/ },
  { name: 'a pod\'s status', scope: 'Pod', path: ['status'], variable: 'phase', want: /A pod's status is written by the kubelet/ },
  { name: 'a name the API server set', scope: 'Pod', path: ['metadata'], variable: 'uid', want: /metadata\.uid is set by the API server/ },
];

for (const c of readOnlyCases) {
  test(`setVariable on ${c.name} answers with an error that says what can be changed`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
      const scope = (await scopes(dc, event.body.threadId)).get(c.scope)!;
      const ref = c.path.length ? (await expand(dc, scope.variablesReference, c.path)).variable.variablesReference : scope.variablesReference;
      await assert.rejects(dc.setVariableRequest({ variablesReference: ref, name: c.variable, value: '"x"' }), (err: Error) => {
        assert.match(err.message, c.want);
        return true;
      });
    });
  });
}

const evaluateCases = [
  { name: 'a field path on the pod', expression: 'pod.status.phase', want: 'Pending' },
  { name: 'a field path without pod.', expression: 'spec.containers[0].image', want: 'nginx:1.27' },
  { name: 'the pod\'s node', expression: 'node.metadata.name', want: /^worker-\d$/ },
  { name: 'a name of the step', expression: 'phase', want: 'kubelet.admit' },
  { name: 'a JSONPath filter', expression: 'pod.status.conditions[?(@.type=="PodScheduled")].status', want: 'True' },
  { name: 'kubectl get pods, as kubectl prints it at this step', expression: 'kubectl get pods', want: /^NAME {3}READY {3}STATUS {4}RESTARTS {3}AGE\nweb {4}0\/1 {5}Pending {3}0 {10}\d+s$/ },
  { name: 'explain, why the pod is not Ready yet', expression: 'explain', want: /^WHY IT IS NOT READY phase Pending/ },
  { name: 'etcdctl get with --keys-only', expression: 'etcdctl get /registry/pods/default/web --keys-only', want: '/registry/pods/default/web\n' },
];

for (const c of evaluateCases) {
  test(`The Debug Console evaluates ${c.name}`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
      const result = await evaluate(dc, event.body.threadId, c.expression);
      if (typeof c.want === 'string') assert.equal(result, c.want);
      else assert.match(result, c.want);
    });
  });
}

test('The Debug Console completes field names', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    const targets = (await dc.completionsRequest({ text: 'pod.sp', column: 7, frameId })).body.targets;
    assert.deepEqual(targets.map((t) => [t.label, t.start, t.length]), [['spec', 5, 2]]);
    const top = (await dc.completionsRequest({ text: 'no', column: 3, frameId })).body.targets.map((t) => t.label);
    assert.ok(top.includes('node'));
    const commands = (await dc.completionsRequest({ text: 'kubectl ge', column: 11, frameId })).body.targets.map((t) => t.label);
    assert.ok(commands.includes('get'), commands.join(', '));
  });
});

test('Events and pod status changes reach the Debug Console as they happen, colored by type', async () => {
  await withSession(async (dc) => {
    const raw = collectEvents<DebugProtocol.OutputEvent>(dc, 'output');
    await startWith(dc, {}, {}, 'terminated');
    const lines = raw.map((e) => e.body.output);
    assert.ok(lines.some((l) => l.includes('\u001b[32mNormal\u001b[39m  Scheduled')), 'Normal in green');
    assert.ok(lines.some((l) => /Status.*pod\/web {2}Pending, Ready False → Running, Ready False/.test(l)), lines.filter((l) => /Status/.test(l)).join(''));
    assert.ok(lines.some((l) => /Status.*pod\/web {2}Running, Ready False → Running, Ready True/.test(l)));
  });
});

test('A long virtual wait shows as a progress notification when the client supports them', async () => {
  await withSession(async (dc) => {
    const starts = collectEvents<DebugProtocol.ProgressStartEvent>(dc, 'progressStart');
    const ends = collectEvents<DebugProtocol.ProgressEndEvent>(dc, 'progressEnd');
    await startWith(dc, {}, { initialize: { supportsProgressReporting: true } }, 'terminated');
    const pull = starts.find((s) => s.body.title.startsWith('Pulling the image'));
    assert.ok(pull, starts.map((s) => s.body.title).join(', '));
    assert.equal(pull.body.title, 'Pulling the image: 2s of virtual time');
    assert.ok(ends.some((e) => e.body.progressId === pull.body.progressId));
  });
});

test('Step Back shows its replay from the start as a progress notification, ended before the stop', async () => {
  await withSession(async (dc) => {
    const order: string[] = [];
    for (const name of ['progressStart', 'progressEnd', 'stopped']) dc.on(name, (e: DebugProtocol.Event) => order.push(`${name}${name === 'stopped' ? '' : `:${(e.body as { progressId: string }).progressId}`}`));
    const starts = collectEvents<DebugProtocol.ProgressStartEvent>(dc, 'progressStart');
    const ends = collectEvents<DebugProtocol.ProgressEndEvent>(dc, 'progressEnd');
    const { event } = await startWith(dc, {}, { initialize: { supportsProgressReporting: true }, functions: [{ name: 'scheduler.bind' }] });
    order.length = 0;
    await resume(dc, 'stepBackRequest', event.body.threadId);
    const replay = starts.find((s) => s.body.title === 'Replaying the run from its start');
    assert.ok(replay, starts.map((s) => s.body.title).join(', '));
    assert.match(replay.body.message ?? '', /^from step \d+$/);
    const end = ends.find((e) => e.body.progressId === replay.body.progressId);
    assert.match(end?.body.message ?? '', /^at step \d+$/);
    assert.deepEqual(order, [`progressStart:${replay.body.progressId}`, `progressEnd:${replay.body.progressId}`, 'stopped']);
  });
});

test('No progress notifications go to a client that does not support them', async () => {
  await withSession(async (dc) => {
    const starts = collectEvents<DebugProtocol.ProgressStartEvent>(dc, 'progressStart');
    await startWith(dc, {}, {}, 'terminated');
    assert.equal(starts.length, 0);
  });
});

const misuseCases: { name: string; command: string; args: (frameId: number) => unknown; want: RegExp; id: number }[] = [
  { name: 'a thread that does not exist', command: 'stackTrace', args: () => ({ threadId: 99 }), want: /^There is no thread 99\.$/, id: 3012 },
  { name: 'a frame that does not exist', command: 'scopes', args: () => ({ frameId: 999 }), want: /^There is no stack frame 999/, id: 3012 },
  { name: 'variables that do not exist', command: 'variables', args: () => ({ variablesReference: 999 }), want: /^There are no variables 999/, id: 3012 },
  { name: 'an expression that is no field path', command: 'evaluate', args: (frameId) => ({ expression: 'pod.spec[', frameId }), want: /^cannot parse "pod\.spec\[": unterminated array$/, id: 3014 },
  { name: 'a field the pod does not have', command: 'evaluate', args: (frameId) => ({ expression: 'pod.spec.nodeNam', frameId }), want: /^unknown field "nodeNam" in pod\.spec; did you mean "nodeName"\?$/, id: 3014 },
  { name: 'setVariable on variables that do not exist', command: 'setVariable', args: () => ({ variablesReference: 999, name: 'x', value: '1' }), want: /^There are no variables 999/, id: 3012 },
  { name: 'a source that does not exist', command: 'source', args: () => ({ sourceReference: 42 }), want: /^There is no source 42\.$/, id: 3012 },
  { name: 'a second launch', command: 'launch', args: () => ({ manifest: 'x.yaml' }), want: /already launched/, id: 3006 },
  { name: 'attach', command: 'attach', args: () => ({}), want: /cannot be attached to/, id: 3013 },
  { name: 'exception info off an exception', command: 'exceptionInfo', args: () => ({ threadId: 2 }), want: /is not stopped on an exception/, id: 3012 },
  { name: 'a step-in target never offered', command: 'stepIn', args: () => ({ threadId: 2, targetId: 5 }), want: /no step-in target 5/, id: 3017 },
];

for (const c of misuseCases) {
  test(`A request about ${c.name} answers with error ${c.id}, and the session goes on`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, {}, { functions: [{ name: 'kubelet.admit' }] });
      const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
      const response = await raw(dc, c.command, c.args(frameId));
      assert.equal(response.success, false);
      assert.match(response.message ?? '', c.want);
      assert.equal((response as DebugProtocol.ErrorResponse).body.error?.id, c.id);
      // The adapter is still there and answers.
      assert.ok((await dc.threadsRequest()).body.threads.length >= 1);
      await resume(dc, 'nextRequest', event.body.threadId);
    });
  });
}

const earlyCases = ['stackTrace', 'scopes', 'variables', 'evaluate', 'setVariable', 'stepBack', 'reverseContinue', 'stepInTargets', 'pause', 'restart', 'dataBreakpointInfo', 'exceptionInfo', 'completions'];

for (const command of earlyCases) {
  test(`${command} before launch answers with error 3010`, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest();
      const response = await raw(dc, command, { threadId: 1, frameId: 1, variablesReference: 1, name: 'x', value: '1', expression: 'x', text: 'x', column: 1 });
      assert.equal(response.success, false);
      assert.equal((response as DebugProtocol.ErrorResponse).body.error?.id, 3010);
      assert.match(response.message ?? '', /needs a launch first/);
    });
  });
}

test('An unknown request answers with an error instead of hanging', async () => {
  await withSession(async (dc) => {
    await dc.initializeRequest();
    await assert.rejects(dc.customRequest('rewindTheCluster', {}), /unrecognized request|rewindTheCluster/);
  });
});

const stepLineCases = [
  { name: 'a function breakpoint on the bind', functions: [{ name: 'scheduler.bind' }], line: /^\d+\.\d{3}s\s+scheduler\.bind\s+Pod\/default\/web  / },
  { name: 'a plugin\'s sub-step', functions: [{ name: 'scheduler.filter', condition: 'plugin == "NodeResourcesFit"' }], line: /^\d+\.\d{3}s\s+scheduler\.filter › plugin NodeResourcesFit\s+Pod\/default\/web  NodeResourcesFit / },
];

for (const c of stepLineCases) {
  test(`Each stop says in the Debug Console what its step did, as the timeline prints it: ${c.name}`, async () => {
    await withSession(async (dc) => {
      const output = collectOutput(dc);
      const { event } = await startWith(dc, {}, { functions: c.functions });
      const lines = output.filter((o) => o.category === 'console').map((o) => o.output);
      const last = lines.at(-1) ?? '';
      assert.match(last, c.line);
      // The line ends with the step's result, the text the stop's description carries.
      assert.ok(last.trimEnd().endsWith(event.body.text ?? '\u0000'), `${last} ends with ${event.body.text}`);
      // A step over prints the next one.
      const before = lines.length;
      await resume(dc, 'nextRequest', event.body.threadId);
      assert.ok(output.filter((o) => o.category === 'console').length > before);
    });
  });
}
