// A served session (launch attribute `serve`) over stdio, with the real kubectl as its client: the Debug Console
// names the KUBECONFIG, a kubectl apply stops at a phase breakpoint and waits there until the user continues, a pause
// while the cluster waits for work stops at once, and going back before anything happened stays at the start.
// kubectl must be on PATH: without it this test fails and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { collectOutput, startWith, topFrames, withSession } from './harness';

/** kubectl starts the real kubectl and resolves once it exits, with its code and output. */
function kubectl(kubeconfig: string, args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', (e) => reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('kubectl is not on PATH: this test drives the real kubectl against the served session') : e));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

test('A served session stops a real kubectl apply at a breakpoint on apiserver.admit.mutating; kubectl waits until the user continues', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-served-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(join(dir, 'pod.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n');
  try {
    await withSession(async (dc) => {
      const output = collectOutput(dc);
      const { event } = await startWith(dc, { manifest: undefined, serve: true, kubeconfigOut: kubeconfig, speed: 20, stopOnEntry: true }, { functions: [{ name: 'apiserver.admit.mutating' }] });
      assert.equal(event.body.reason, 'entry');
      assert.ok(output.some((o) => o.output === `export KUBECONFIG=${kubeconfig}\n`), 'the Debug Console names the kubeconfig');
      // Nothing has happened yet: going back stays at the start (serve-history.test.ts goes back through a served past).
      const back = dc.waitForEvent('stopped');
      await dc.stepBackRequest({ threadId: event.body.threadId });
      assert.equal(((await back) as DebugProtocol.StoppedEvent).body.reason, 'entry');
      // Nothing is due: the session waits for work, and a pause stops it at once.
      await dc.continueRequest({ threadId: event.body.threadId });
      const paused = dc.waitForEvent('stopped');
      await dc.pauseRequest({ threadId: event.body.threadId });
      assert.equal(((await paused) as DebugProtocol.StoppedEvent).body.reason, 'pause');
      // kubectl apply: its create stops at the breakpoint, and kubectl waits for the answer.
      const stopped = dc.waitForEvent('stopped');
      await dc.continueRequest({ threadId: event.body.threadId });
      const apply = kubectl(kubeconfig, ['apply', '-f', join(dir, 'pod.yaml')]);
      const stop = (await stopped) as DebugProtocol.StoppedEvent & { body: { threadId: number } };
      assert.equal(stop.body.reason, 'function breakpoint');
      const [top] = await topFrames(dc, stop.body.threadId);
      assert.match(top?.name ?? '', /^apiserver\.admit\.mutating/);
      assert.equal(apply.child.exitCode, null, 'kubectl still waits for its answer');
      // Continue: the request finishes and kubectl prints what it prints against a real cluster.
      await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
      await dc.continueRequest({ threadId: stop.body.threadId });
      const result = await apply.done;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'pod/web created');
      // The cluster goes on: the pod is scheduled and started on the served cluster's time.
      const ready = await kubectl(kubeconfig, ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']).done;
      assert.equal(ready.code, 0, ready.stderr);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
