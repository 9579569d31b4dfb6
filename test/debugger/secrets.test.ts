// The debugger shows no secret value: not in the Variables of any scope (the cluster's Secrets show keys and sizes),
// not in the Debug Console's output, not in the protocol log a "trace": true launch writes there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { collectOutput, evaluate, root, startWith, withSession } from './harness';

const VALUES = ['hunter2-db-value', 'sk-live-cluster-file-value', 'manifest-string-data-value', 'f00dcafe12345678'];
const LEAKS = VALUES.flatMap((v) => [v, Buffer.from(v).toString('base64').replace(/=+$/, '')]);

/** walk reads every variable under a reference, to a depth, and returns their names and values as text. */
async function walk(dc: DebugClient, ref: number, depth: number, seen: Set<number>): Promise<string> {
  if (ref === 0 || depth === 0 || seen.has(ref)) return '';
  seen.add(ref);
  let text = '';
  for (const v of (await dc.variablesRequest({ variablesReference: ref })).body.variables) {
    text += `${v.name}=${v.value}\n`;
    text += await walk(dc, v.variablesReference, depth - 1, seen);
  }
  return text;
}

test('no secret value in the Variables, the Debug Console or the protocol log', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const { event } = await startWith(dc, {
      manifest: join(root, 'test', 'fixtures', 'secrets', 'manifest.yaml'),
      cluster: join(root, 'test', 'fixtures', 'secrets', 'cluster.yaml'),
      trace: true,
    }, { functions: [{ name: 'kubelet.containers' }] });
    const threadId = event.body.threadId;
    const frameId = (await dc.stackTraceRequest({ threadId })).body.stackFrames[0]!.id;
    let seen = '';
    for (const scope of (await dc.scopesRequest({ frameId })).body.scopes) seen += await walk(dc, scope.variablesReference, 6, new Set());
    assert.match(seen, /<redacted: 16 bytes>/, 'the Secret db is in the Variables, with its sizes');
    for (const line of ['kubectl get secret db -o yaml', 'kubectl get secrets -A -o json', 'kubectl describe pod web']) seen += await evaluate(dc, threadId, line);
    const ended = dc.waitForEvent('terminated');
    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.continueRequest({ threadId });
    await ended;
    const all = seen + output.map((o) => o.output).join('');
    for (const leak of LEAKS) assert.ok(!all.includes(leak), `${leak} shown by the debugger`);
  });
});
