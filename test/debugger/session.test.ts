// Tests the debug adapter at its boundary: dist/debugAdapter.js over stdio, driven by the DAP test client.
// Assumes `npm test`'s pretest ran the build; every wait is for an event or a response, never a sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { join } from 'node:path';
import { deploymentYaml, fixture, plain, podYaml, raw, resume, root, topFrames, variables, withSession } from './harness';

const tooBigYaml = fixture('too-big.yaml');

/**
 * start goes through the handshake as VS Code does — initialize, the function breakpoints, launch and
 * configurationDone — and returns the first `stopped` (or `terminated`) event after it.
 */
async function start(dc: DebugClient, args: Record<string, unknown>, breakpoints: string[] = [], waitFor: 'stopped' | 'terminated' = 'stopped'): Promise<{ event: DebugProtocol.Event; breakpoints: DebugProtocol.Breakpoint[] }> {
  const initialized = dc.waitForEvent('initialized');
  await dc.initializeRequest();
  await initialized;
  const set = await dc.setFunctionBreakpointsRequest({ breakpoints: breakpoints.map((name) => ({ name })) });
  const event = dc.waitForEvent(waitFor);
  const launched = dc.launchRequest({ manifest: podYaml, ...args } as DebugProtocol.LaunchRequestArguments);
  await dc.configurationDoneRequest();
  await launched;
  return { event: await event, breakpoints: set.body.breakpoints };
}

/** stepInToSubStep steps in until the top frame is a sub-step (three frames), within the phase's few entries. */
async function stepInToSubStep(dc: DebugClient, threadId: number): Promise<DebugProtocol.StackFrame[]> {
  let frames = await topFrames(dc, threadId);
  for (let steps = 0; frames.length < 3 && steps < 10; steps++) {
    assert.equal((await resume(dc, 'stepInRequest', threadId)).body.reason, 'step');
    frames = await topFrames(dc, threadId);
  }
  return frames;
}

async function threadName(dc: DebugClient, threadId: number): Promise<string | undefined> {
  return (await dc.threadsRequest()).body.threads.find((t) => t.id === threadId)?.name;
}

test('Initialize declares the capabilities the adapter implements and nothing it does not', async () => {
  await withSession(async (dc) => {
    const initialized = dc.waitForEvent('initialized');
    const caps = (await dc.initializeRequest()).body ?? {};
    await initialized;
    assert.equal(caps.supportsConfigurationDoneRequest, true);
    assert.equal(caps.supportsFunctionBreakpoints, true);
    assert.equal(caps.supportsTerminateRequest, true);
    assert.equal(caps.supportsDelayedStackTraceLoading, false);
    for (const capability of ['supportsConditionalBreakpoints', 'supportsHitConditionalBreakpoints', 'supportsLogPoints', 'supportsDataBreakpoints', 'supportsStepBack', 'supportsStepInTargetsRequest', 'supportsSetVariable', 'supportsCompletionsRequest', 'supportsRestartRequest', 'supportsExceptionInfoRequest'] as const) {
      assert.equal(caps[capability], true, capability);
    }
    assert.deepEqual(caps.exceptionBreakpointFilters?.map((f) => f.filter), ['rejected', 'unschedulable', 'containerFailing', 'warning']);
  });
});

test('Launching with stopOnEntry stops before the first phase, on the pod\'s thread, at the top of the manifest', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, { stopOnEntry: true });
    assert.equal(event.body.reason, 'entry');
    assert.equal(await threadName(dc, event.body.threadId), 'Pod default/web');
    const [frame, ...rest] = await topFrames(dc, event.body.threadId);
    assert.equal(rest.length, 0);
    assert.equal(frame?.name, 'kubectl apply -f pod.yaml');
    assert.equal(frame?.source?.path, podYaml);
    assert.equal(frame?.line, 2, 'the document starts at apiVersion, line 2');
  });
});

const breakpointCases = [
  { name: 'A breakpoint on a phase name stops in that phase', breakpoint: 'scheduler.bind', phase: 'scheduler.bind' },
  { name: 'A breakpoint on an alias stops in the phase it stands for', breakpoint: 'sandbox', phase: 'kubelet.sandbox' },
  { name: 'A breakpoint on a prefix stops in the first phase that starts with it', breakpoint: 'kubelet.*', phase: 'kubelet.admit' },
];

for (const c of breakpointCases) {
  test(`${c.name} (${c.breakpoint}), on the pod's thread`, async () => {
    await withSession(async (dc) => {
      const { event, breakpoints } = await start(dc, {}, [c.breakpoint]);
      assert.equal(breakpoints[0]?.verified, true);
      assert.equal(event.body.reason, 'function breakpoint');
      assert.deepEqual(event.body.hitBreakpointIds, [breakpoints[0]?.id]);
      assert.equal(await threadName(dc, event.body.threadId), 'Pod default/web');
      const frames = await topFrames(dc, event.body.threadId);
      assert.equal(frames[0]?.name.split(' · ')[0], c.phase);
    });
  });
}

test('A breakpoint on a name that is no phase is unverified and says why', async () => {
  await withSession(async (dc) => {
    const { breakpoints } = await start(dc, {}, ['scheduler.bnid', 'bind'], 'stopped');
    assert.equal(breakpoints[0]?.verified, false);
    assert.match(breakpoints[0]?.message ?? '', /names no phase/);
    assert.equal(breakpoints[1]?.verified, true);
  });
});

const locationCases = [
  { name: 'The top frame of an image pull points at the image line of the manifest', breakpoint: 'kubelet.imagePull', manifest: podYaml, line: 11, column: 7, endColumn: 24 },
  { name: 'A field the manifest does not write (spec.nodeName at bind) points at its nearest written parent, spec', breakpoint: 'scheduler.bind', manifest: podYaml, line: 8, column: 1, endColumn: 5 },
  { name: 'A Deployment\'s pod points into the Deployment\'s pod template', breakpoint: 'scheduler.bind', manifest: deploymentYaml, line: 17, column: 5, endColumn: 9 },
];

for (const c of locationCases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event } = await start(dc, { manifest: c.manifest }, [c.breakpoint]);
      const top = (await topFrames(dc, event.body.threadId))[0];
      assert.equal(top?.source?.path, c.manifest);
      assert.deepEqual({ line: top?.line, column: top?.column, endColumn: top?.endColumn }, { line: c.line, column: c.column, endColumn: c.endColumn });
    });
  });
}

test('The frames of a sub-step go component › phase › sub-step, the most specific on top', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, {}, ['filter']);
    const names = (await stepInToSubStep(dc, event.body.threadId)).map((f) => f.name);
    assert.match(names[0] ?? '', /^scheduler\.filter › plugin [A-Za-z]+$/);
    assert.deepEqual(names.slice(1), ['scheduler.filter', 'kube-scheduler (Pod/default/web)']);
  });
});

test('A Deployment\'s pods are threads of their own beside the control plane', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, { manifest: deploymentYaml }, ['scheduler.bind']);
    assert.match((await threadName(dc, event.body.threadId)) ?? '', /^Pod default\/web-[a-z0-9]+-[a-z0-9]{5}$/);
    const threads = (await dc.threadsRequest()).body.threads.map((t) => t.name);
    assert.equal(threads[0], 'control plane');
    assert.equal(threads.filter((t) => t.startsWith('Pod default/web-')).length, 3);
    // The control plane shows where it is: the Deployment's and ReplicaSet's last step.
    const controlPlane = (await dc.threadsRequest()).body.threads[0]!;
    const frames = (await dc.stackTraceRequest({ threadId: controlPlane.id })).body.stackFrames;
    assert.match(frames[0]?.name ?? '', /^controllers\./);
  });
});

test('A lone pod\'s session lists no control plane thread that would show as paused with nothing in it', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, {}, ['scheduler.bind']);
    const threads = (await dc.threadsRequest()).body.threads;
    assert.deepEqual(threads.map((t) => t.name), ['Pod default/web']);
    for (const t of threads) assert.ok((await dc.stackTraceRequest({ threadId: t.id })).body.stackFrames.length > 0, `${t.name} has frames`);
    assert.equal(threads[0]!.id, event.body.threadId);
  });
});

test('The variables show the stored Pod, the decision and the events so far', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, {}, ['scheduler.bind']);
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
    assert.deepEqual(scopes.map((s) => s.name), ['Pod', 'Decision', 'Cluster', 'Events']);
    const pod = await variables(dc, scopes[0]!.variablesReference);
    assert.equal(pod.get('kind')?.value, '"Pod"');
    const metadata = await variables(dc, pod.get('metadata')!.variablesReference);
    assert.equal(metadata.get('name')?.value, '"web"');
    const decision = await variables(dc, scopes[1]!.variablesReference);
    assert.match(decision.get('result')?.value ?? '', /DefaultBinder/);
    assert.equal(decision.get('field')?.value, '"spec.nodeName"');
  });
});

test('stepIn reaches the sub-steps of a phase; next and stepOut go on to the next phase-level entry', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, {}, ['scheduler.filter']);
    const thread = event.body.threadId;
    const subStep = await stepInToSubStep(dc, thread);
    assert.match(subStep[0]?.name ?? '', /^scheduler\.filter › /);
    for (const request of ['nextRequest', 'stepOutRequest'] as const) {
      const stopped = await resume(dc, request, thread);
      assert.equal(stopped.body.reason, 'step');
      assert.equal(stopped.body.threadId, thread);
      const frames = await topFrames(dc, thread);
      assert.equal(frames.length, 2, `${request} stops on a phase-level entry (phase and component frames), not on ${frames[0]?.name}`);
    }
  });
});

test('Continue with no breakpoint runs to the end, prints the events and the outcome, and terminates', async () => {
  await withSession(async (dc) => {
    const output: DebugProtocol.OutputEvent['body'][] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push({ ...e.body, output: plain(e.body.output) }));
    const { event } = await start(dc, { stopOnEntry: true });
    const exited = dc.waitForEvent('exited');
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: event.body.threadId });
    assert.equal((await exited).body.exitCode, 0);
    await terminated;
    assert.ok(output.some((o) => o.category === 'console' && /Normal {2}Scheduled {2}pod\/web .*Successfully assigned default\/web to worker-/.test(o.output)));
    assert.ok(output.some((o) => o.category === 'stdout' && o.output === 'pod/web created\n'));
    assert.ok(output.some((o) => o.category === 'stdout' && o.output === 'Outcome: Running\n'));
    await assert.rejects(dc.stackTraceRequest({ threadId: event.body.threadId }), /has ended/);
  });
});

test('A Warning event goes to stderr, and a lifecycle that stops short exits with 1', async () => {
  await withSession(async (dc) => {
    const output: DebugProtocol.OutputEvent['body'][] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push({ ...e.body, output: plain(e.body.output) }));
    const exited = dc.waitForEvent('exited');
    await start(dc, { manifest: tooBigYaml }, [], 'terminated');
    assert.equal((await exited).body.exitCode, 1);
    assert.ok(output.some((o) => o.category === 'stderr' && /Warning {2}FailedScheduling {2}pod\/big .*0\/3 nodes are available: .*Insufficient cpu/.test(o.output)));
    assert.ok(output.some((o) => o.category === 'stderr' && o.output === 'Outcome: Pending\n'));
  });
});

test('Terminate while paused ends the run and the session', async () => {
  await withSession(async (dc) => {
    await start(dc, { stopOnEntry: true });
    const terminated = dc.waitForEvent('terminated');
    await dc.terminateRequest();
    await terminated;
    await assert.rejects(dc.nextRequest({ threadId: 1 }), /has ended/);
  });
});

test('The embedded default cluster, which has no file, is served by a source request', async () => {
  await withSession(async (dc) => {
    await start(dc, { stopOnEntry: true });
    const content = (await dc.sourceRequest({ sourceReference: 1, source: { name: 'default-cluster.yaml', sourceReference: 1 } })).body.content;
    assert.match(content, /^# The embedded default cluster/);
    await assert.rejects(dc.sourceRequest({ sourceReference: 7 }), /no source 7/);
  });
});

test('Run Without Debugging prints the timeline and terminates without stopping', async () => {
  await withSession(async (dc) => {
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    await start(dc, { noDebug: true, stopOnEntry: true }, ['scheduler.bind'], 'terminated');
    const text = output.join('');
    assert.match(text, /TIMELINE/);
    assert.match(text, /scheduler\.bind/);
    assert.match(text, /OUTCOME Running/);
  });
});

const deleteCases = [
  { name: 'delete: true deletes with the pod\'s own grace period', args: { delete: true }, want: /pod "web" deleted from default namespace/ },
  { name: 'delete with force deletes at once, as kubectl delete --force', args: { delete: { force: true } }, want: /pod "web" force deleted from default namespace/ },
  { name: 'delete with a grace period, as kubectl delete --grace-period', args: { delete: { gracePeriod: 5 } }, want: /pod "web" deleted from default namespace/ },
];

for (const c of deleteCases) {
  test(`Run Without Debugging with ${c.name}`, async () => {
    await withSession(async (dc) => {
      const output: string[] = [];
      dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
      const exited = dc.waitForEvent('exited');
      await start(dc, { noDebug: true, ...c.args }, [], 'terminated');
      assert.equal((await exited).body.exitCode, 0);
      assert.match(output.join(''), c.want);
      assert.match(output.join(''), /OUTCOME Deleted/);
    });
  });
}

const unreadableCases = [
  { name: 'a cluster file', args: { cluster: 'missing-cluster.yaml' }, id: 3003, want: /^Cannot read the cluster file: missing-cluster\.yaml:1: cannot read the file/ },
  { name: 'a behavior file', args: { behavior: 'missing-behavior.yaml' }, id: 3004, want: /^Cannot read the behavior file: missing-behavior\.yaml:1: cannot read the file/ },
  { name: 'a kubeconfig', args: { kubeconfig: 'missing.kubeconfig' }, id: 3005, want: /^Cannot read the kubeconfig: missing\.kubeconfig:1: cannot read the file/ },
];

for (const c of unreadableCases) {
  test(`Launching with ${c.name} that does not exist answers with error ${c.id}, naming the file`, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest();
      const response = await raw(dc, 'launch', { manifest: podYaml, ...c.args });
      assert.equal((response as DebugProtocol.ErrorResponse).body.error?.id, c.id);
      assert.match(response.message ?? '', c.want);
    });
  });
}

test('Run Without Debugging for a while stops the lifecycle there', async () => {
  await withSession(async (dc) => {
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    const exited = dc.waitForEvent('exited');
    await start(dc, { noDebug: true, for: '1s' }, [], 'terminated');
    assert.equal((await exited).body.exitCode, 1, 'the image pull takes 2s: the pod is still Pending');
    assert.match(output.join(''), /OUTCOME Pending/);
  });
});

test('An unknown launch attribute is named in a warning, and the launch goes on', async () => {
  await withSession(async (dc) => {
    const output: DebugProtocol.OutputEvent['body'][] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body));
    await start(dc, { stopOnEntry: true, clsuter: 'cluster.yaml' });
    assert.ok(output.some((o) => o.category === 'stderr' && /^Ignored unknown launch attribute\(s\): clsuter\./.test(o.output)));
  });
});

test('Launching a manifest that does not exist answers with an error naming the file', async () => {
  await withSession(async (dc) => {
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ manifest: 'missing.yaml' } as DebugProtocol.LaunchRequestArguments), {
      message: 'Cannot read the manifest: missing.yaml:1: cannot read the file: no such file',
    });
  });
});

const invalidLaunchCases = [
  { name: 'no manifest', args: { manifest: undefined }, want: /"manifest" is required/ },
  { name: 'a negative seed', args: { seed: -1 }, want: /"seed" must be a whole number/ },
  { name: 'a duration that is none', args: { for: 'soon' }, want: /"for" must be a duration/ },
  { name: 'a grace period without delete', args: { gracePeriod: 5 }, want: /go with "delete": true/ },
  { name: 'two identities', args: { token: 'abc', anonymous: true }, want: /"token" and "anonymous" cannot be used together/ },
  { name: 'a cluster that is not a path', args: { cluster: 3 }, want: /"cluster" must be a path or a list/ },
  { name: 'a delete with an unknown option', args: { delete: { grace: 5 } }, want: /"delete" takes gracePeriod and force, not "grace"/ },
  { name: 'a delete that is a number', args: { delete: 5 }, want: /"delete" must be true, false or \{"gracePeriod": N, "force": true\}, not 5/ },
  { name: 'a negative grace period', args: { delete: { gracePeriod: -1 } }, want: /"gracePeriod" must be a whole number of 0 or more, not -1/ },
  { name: 'a context without a kubeconfig', args: { context: 'prod' }, want: /"context" goes with "kubeconfig"/ },
  { name: 'groups without a user to impersonate', args: { asGroups: ['dev'] }, want: /"asGroups" goes with "as"/ },
  { name: 'an anonymous flag that is not a boolean', args: { anonymous: 'yes' }, want: /"anonymous" must be true or false, not "yes"/ },
  { name: 'stopOnEntry that is not a boolean', args: { stopOnEntry: 1 }, want: /"stopOnEntry" must be true or false, not 1/ },
];

for (const c of invalidLaunchCases) {
  test(`Launching with ${c.name} is refused with a message that says what to fix`, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest();
      await assert.rejects(dc.launchRequest({ manifest: podYaml, ...c.args } as DebugProtocol.LaunchRequestArguments), (err: Error) => {
        assert.match(err.message, /^Invalid launch configuration: /);
        assert.match(err.message, c.want);
        return true;
      });
    });
  });
}

const earlyRequestCases = [
  { name: 'stackTrace', send: (dc: DebugClient) => dc.stackTraceRequest({ threadId: 1 }) },
  { name: 'continue', send: (dc: DebugClient) => dc.continueRequest({ threadId: 1 }) },
  { name: 'scopes', send: (dc: DebugClient) => dc.scopesRequest({ frameId: 1 }) },
  { name: 'variables', send: (dc: DebugClient) => dc.variablesRequest({ variablesReference: 1 }) },
];

for (const c of earlyRequestCases) {
  test(`${c.name} before launch answers with an error instead of hanging`, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest();
      await assert.rejects(c.send(dc), /needs a launch first/);
    });
  });
}

test('A stale variables reference after the run moved on answers with an error', async () => {
  await withSession(async (dc) => {
    const { event } = await start(dc, {}, ['scheduler.filter']);
    const frameId = (await topFrames(dc, event.body.threadId))[0]!.id;
    const podRef = (await dc.scopesRequest({ frameId })).body.scopes[0]!.variablesReference;
    await resume(dc, 'stepInRequest', event.body.threadId);
    await assert.rejects(dc.variablesRequest({ variablesReference: podRef }), /moved on/);
  });
});

test('A manifest with no object is refused as kubectl apply refuses it: its error on stderr, exit 1', async () => {
  // kubernetes/kubectl pkg/cmd/apply/apply.go at v0.36.0: "no objects passed to apply"; the engine's rejection.
  await withSession(async (dc) => {
    const output: DebugProtocol.OutputEvent['body'][] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push({ ...e.body, output: plain(e.body.output) }));
    const exited = dc.waitForEvent('exited');
    await start(dc, { manifest: join(root, 'test', 'fixtures', 'no-objects', 'comments.yaml') }, [], 'terminated');
    assert.equal((await exited).body.exitCode, 1);
    assert.ok(output.some((o) => o.category === 'stderr' && o.output === 'error: no objects passed to apply\n'), JSON.stringify(output));
    assert.ok(output.some((o) => o.category === 'stderr' && o.output === 'Outcome: Rejected in kubectl.validate (NoObjects)\n'), JSON.stringify(output));
  });
});
