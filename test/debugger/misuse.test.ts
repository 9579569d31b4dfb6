// The adapter misused: every request before a launch, while stopped and after the end, with arguments of every wrong
// type. It answers each with a response — an error that names the argument, never an internal message — and stays up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { raw, startWith, withSession } from './harness';

/** COMMANDS are the requests a client may send, with arguments of the right shape (the base the bad ones vary). */
const COMMANDS: Record<string, Record<string, unknown>> = {
  setBreakpoints: { source: { path: '/tmp/x.yaml' }, breakpoints: [{ line: 1 }] },
  setFunctionBreakpoints: { breakpoints: [{ name: 'scheduler.filter' }] },
  setExceptionBreakpoints: { filters: [] },
  dataBreakpointInfo: { name: 'x', variablesReference: 1 },
  setDataBreakpoints: { breakpoints: [{ dataId: 'x' }] },
  breakpointLocations: { source: { path: '/tmp/x.yaml' }, line: 1 },
  continue: { threadId: 1 },
  next: { threadId: 1 },
  stepIn: { threadId: 1 },
  stepOut: { threadId: 1 },
  stepBack: { threadId: 1 },
  reverseContinue: { threadId: 1 },
  pause: { threadId: 1 },
  goto: { threadId: 1, targetId: 1 },
  gotoTargets: { source: { path: '/tmp/x.yaml' }, line: 1 },
  stepInTargets: { frameId: 1 },
  stackTrace: { threadId: 1 },
  scopes: { frameId: 1 },
  variables: { variablesReference: 1 },
  setVariable: { variablesReference: 1, name: 'x', value: '1' },
  source: { sourceReference: 1 },
  evaluate: { expression: 'pod', context: 'repl' },
  completions: { text: 'ku', column: 3 },
  exceptionInfo: { threadId: 1 },
  threads: {},
  loadedSources: {},
};

const BAD_VALUES: unknown[] = [null, 7, 'text', true, [], {}, -1.5];

/** INTERNAL matches what an answer must never show: JavaScript's own error texts and stack lines. */
const INTERNAL = /Cannot read propert|is not a function|is not iterable|TypeError|RangeError|ReferenceError|\n\s+at /;

/** answered asserts a response came, and if it failed, with a message of ours. */
function answered(response: DebugProtocol.Response, what: string): void {
  assert.ok(response, `no response to ${what}`);
  if (!response.success) {
    assert.ok(response.message && !INTERNAL.test(response.message), `${what}: ${response.message}`);
    const format = (response.body as { error?: { format?: string } } | undefined)?.error?.format ?? '';
    assert.ok(!INTERNAL.test(format), `${what}: ${format}`);
  }
}

/** misuse sends every command with bad whole arguments and with each field replaced by each bad value. */
async function misuse(dc: DebugClient, state: string): Promise<void> {
  for (const [command, good] of Object.entries(COMMANDS)) {
    for (const bad of BAD_VALUES) {
      if (typeof bad === 'object' && bad !== null && !Array.isArray(bad)) continue;
      const response = await raw(dc, command, bad);
      answered(response, `${state}: ${command} with arguments ${JSON.stringify(bad)}`);
      assert.equal(response.success, false, `${state}: ${command} with arguments ${JSON.stringify(bad)} succeeded`);
    }
    for (const field of Object.keys(good)) {
      for (const bad of BAD_VALUES) {
        answered(await raw(dc, command, { ...good, [field]: bad }), `${state}: ${command} with ${field}: ${JSON.stringify(bad)}`);
      }
    }
  }
  // Still up: a plain request is answered.
  const threads = await raw(dc, 'threads', undefined);
  assert.ok(threads.success, `${state}: threads after the misuse`);
}

test('a launch with null arguments, before and after initialize, is an error, and the adapter stays up', async () => {
  await withSession(async (dc) => {
    const before = await raw(dc, 'launch', null);
    assert.equal(before.success, false);
    assert.match(before.message ?? '', /the arguments of a "launch" request must be an object, not null/);
    await dc.initializeRequest({ adapterID: 'pod-lifecycle', pathFormat: 'path' });
    const after = await raw(dc, 'launch', null);
    assert.equal(after.success, false);
    assert.match(after.message ?? '', /must be an object, not null/);
    for (const args of [5, 'x', [], { manifest: 5 }, { manifest: null }, { cluster: {} }]) answered(await raw(dc, 'launch', args), `launch ${JSON.stringify(args)}`);
    assert.ok((await raw(dc, 'threads', undefined)).success);
  });
});

test('every request with arguments of every wrong type, before a launch', async () => {
  await withSession(async (dc) => {
    await dc.initializeRequest({ adapterID: 'pod-lifecycle', pathFormat: 'path' });
    await misuse(dc, 'before launch');
  });
});

test('every request with arguments of every wrong type, while stopped', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    // Some of these are right enough to act (a continue with threadId -1.5): the run may move on, or end, meanwhile.
    await misuse(dc, 'stopped');
  });
});

test('every request with arguments of every wrong type, after the run ended', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, {}, 'terminated');
    await misuse(dc, 'ended');
  });
});

test('expressions too long or too deep are refused with what the limit is', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.filter' }] });
    const frameId = (await dc.stackTraceRequest({ threadId: event.body.threadId })).body.stackFrames[0]!.id;
    const cases: { expression: string; message: RegExp }[] = [
      { expression: 'x'.repeat(10 * 1024 * 1024), message: /"evaluate": "expression" is too long \(10485760 characters; the limit is 16384\)/ },
      { expression: `${'('.repeat(8_000)}plugin${')'.repeat(8_000)}`, message: /too long \(more than 1000 names, values and operators\)/ },
      { expression: `${'('.repeat(100)}plugin${')'.repeat(100)}`, message: /nests too deeply \(more than 64 parentheses or "!"\)/ },
      { expression: Array.from({ length: 1200 }, () => 'p').join('&&'), message: /too long \(more than 1000 names, values and operators\)/ },
    ];
    for (const c of cases) {
      const response = await raw(dc, 'evaluate', { expression: c.expression, frameId, context: 'repl' });
      assert.equal(response.success, false);
      assert.match(response.message ?? '', c.message);
    }
    const condition = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scheduler.score', condition: `${'!'.repeat(100)}plugin` }] });
    assert.equal(condition.body.breakpoints[0]!.verified, false);
    assert.match(condition.body.breakpoints[0]!.message ?? '', /nests too deeply/);
  });
});
