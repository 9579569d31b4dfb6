// Going back on a served session over stdio, with the real kubectl as its client: stepping back and reverse continue
// show the cluster's past (a replay of what drove it) while the live cluster holds kubectl's request; stepping
// forward comes back to the live cluster, and kubectl's requests, the waiting one and the ones after, are answered.
// A what-if and the Debug Console's replaying kubectl commands stay refused, each saying why.
// kubectl must be on PATH: without it this test fails and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { StateView } from '../../src/webview/view';
import { collectOutput, resume, startWith, type Stopped, topFrames, withSession } from './harness';

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

/** Seen is what one stop shows: its top frame and its scopes, the pod's variables, and the state tree's steps (seq, phase, object, result) and objects. */
interface Seen {
  frame: string;
  scopes: string[];
  pod: string[];
  steps: string[];
  workloads: string;
  nodes: string;
}

/** look reads what a stop shows. */
async function look(dc: DebugClient, stop: Stopped): Promise<Seen> {
  const [top] = await topFrames(dc, stop.body.threadId);
  const scopes = (await dc.scopesRequest({ frameId: top!.id })).body.scopes;
  const podScope = scopes.find((s) => s.name === 'Pod');
  const pod = podScope ? (await dc.variablesRequest({ variablesReference: podScope.variablesReference })).body.variables.map((v) => `${v.name}: ${v.value}`) : [];
  const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
  return {
    frame: top?.name ?? '',
    scopes: scopes.map((s) => s.name),
    pod,
    steps: view.timeline.filter((t) => t.kind === 'phase').map((t) => `${t.seq} ${t.label} ${t.object} ${t.text}`),
    workloads: JSON.stringify(view.workloads),
    nodes: JSON.stringify(view.nodes),
  };
}

test('A served session steps back and reverse-continues through the cluster\'s past while kubectl waits, and comes back live', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-served-history-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(join(dir, 'pod.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n');
  try {
    await withSession(async (dc) => {
      const output = collectOutput(dc);
      const { event } = await startWith(dc, { manifest: undefined, serve: true, kubeconfigOut: kubeconfig, speed: 20, stopOnEntry: true }, { functions: [{ name: 'apiserver.admit.mutating' }] });
      assert.equal(event.body.reason, 'entry');
      // Stepping back before anything happened stays at the start.
      assert.equal((await resume(dc, 'stepBackRequest', event.body.threadId)).body.reason, 'entry');

      // kubectl apply stops at the breakpoint; four steps further on (the pod stored), the live cluster stands at its frontier.
      const stopped = dc.waitForEvent('stopped');
      await dc.continueRequest({ threadId: event.body.threadId });
      const apply = kubectl(kubeconfig, ['apply', '-f', join(dir, 'pod.yaml')]);
      const hit = (await stopped) as Stopped;
      assert.equal(hit.body.reason, 'function breakpoint');
      const seen: Seen[] = [await look(dc, hit)];
      assert.match(seen[0]!.frame, /^apiserver\.admit\.mutating/);
      let stop = hit;
      for (let i = 0; i < 4; i++) {
        stop = await resume(dc, 'nextRequest', stop.body.threadId);
        seen.push(await look(dc, stop));
      }
      const frontier = seen[4]!;
      assert.match(frontier.frame, /^etcd\.persist/);
      assert.ok(frontier.scopes.includes('Pod') && !seen[3]!.scopes.includes('Pod'), 'the pod is stored at the frontier, not before');
      assert.ok(frontier.workloads.includes('Pod/default/web') && !seen[3]!.workloads.includes('Pod/default/web'), 'the state tree shows the pod once stored');
      if (process.env['SHOW_SEEN']) console.log(JSON.stringify(seen.map((s) => ({ frame: s.frame, steps: s.steps.length, last: s.steps.at(-1) })), null, 1));

      // Step back: the frame, the Variables and the state tree are the previous stop's, replayed; kubectl still waits.
      const back = await resume(dc, 'stepBackRequest', stop.body.threadId);
      assert.equal(back.body.reason, 'step');
      assert.deepEqual(await look(dc, back), seen[3]);
      assert.ok(output.some((o) => o.output.startsWith('\u21b6 Back to ')), 'the Debug Console says the run went back');
      assert.equal(apply.child.exitCode, null, 'kubectl still waits for its answer');
      // The replayed steps are the live ones, entry by entry, up to where the past stands.
      assert.deepEqual(seen[3]!.steps, frontier.steps.slice(0, seen[3]!.steps.length));

      // A what-if and the console's replaying kubectl commands are refused, each with its reason.
      const frameId = (await topFrames(dc, back.body.threadId))[0]!.id;
      const whatIf = await dc.setVariableRequest({ variablesReference: 1, name: 'image', value: '"nginx:1.28"' }).then(() => '', (e: Error) => e.message);
      assert.match(whatIf, /^Not on a served cluster: a what-if runs the lifecycle again with another input, and would change the answers your kubectl has already received\.$/);
      const del = await dc.evaluateRequest({ expression: 'kubectl delete pod web', frameId, context: 'repl' }).then(() => '', (e: Error) => e.message);
      assert.match(del, /^Not on a served cluster: for kubectl delete, run the real kubectl against the served cluster/);

      // A request sent while the session shows the past waits with the live cluster.
      const get = kubectl(kubeconfig, ['get', 'pod', 'web', '-o', 'name']);

      // Reverse continue goes back to the breakpoint's hit.
      const earlier = await resume(dc, 'reverseContinueRequest', back.body.threadId);
      assert.equal(earlier.body.reason, 'breakpoint');
      assert.deepEqual(await look(dc, earlier), seen[0]);

      // Forward through the history: each stop as it was, the last one the live cluster again.
      stop = earlier;
      for (let i = 1; i <= 4; i++) {
        stop = await resume(dc, 'nextRequest', stop.body.threadId);
        assert.deepEqual(await look(dc, stop), seen[i], `step ${i} forward through the past`);
      }
      assert.ok(output.some((o) => o.output.startsWith('\u21b7 Back at the live cluster')), 'the Debug Console says the run is live again');
      assert.equal(apply.child.exitCode, null, 'kubectl waits until the live cluster goes on');

      // Continue: the waiting requests are answered, and the cluster goes on serving.
      await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
      await dc.continueRequest({ threadId: stop.body.threadId });
      const applied = await apply.done;
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(applied.stdout.trim(), 'pod/web created');
      const got = await get.done;
      assert.equal(got.code, 0, got.stderr);
      assert.equal(got.stdout.trim(), 'pod/web');
      const ready = await kubectl(kubeconfig, ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']).done;
      assert.equal(ready.code, 0, ready.stderr);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('A served session goes to earlier steps from the state tree and back, then serves a later request; a Secret replayed from the journal stays unprinted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-served-history-'));
  const kubeconfig = join(dir, 'kubeconfig');
  try {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, { manifest: undefined, serve: true, kubeconfigOut: kubeconfig, speed: 20, stopOnEntry: true }, { functions: [{ name: 'scheduler.bind' }] });
      const output = collectOutput(dc);
      // The session waits for work: a Secret is created, then the first kubectl run stops at the bind.
      const bind = dc.waitForEvent('stopped');
      await dc.continueRequest({ threadId: event.body.threadId });
      writeFileSync(join(dir, 'secret.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: hunter2-in-the-journal\n');
      const secret = await kubectl(kubeconfig, ['apply', '-f', join(dir, 'secret.yaml')]).done;
      assert.equal(secret.code, 0, secret.stderr);
      const first = kubectl(kubeconfig, ['run', 'one', '--image=nginx:1.27']);
      const bound = (await bind) as Stopped;
      assert.match((await topFrames(dc, bound.body.threadId))[0]?.name ?? '', /^scheduler\.bind/);
      // The state tree goes to an earlier step of the served cluster and back to the one it stands at.
      const at = (await dc.customRequest('podLifecycle.state')).body as StateView;
      const earlierSeq = at.timeline.filter((t) => t.kind === 'phase' && t.seq !== undefined && t.seq < at.seq).at(-2)!.seq!;
      const went = dc.waitForEvent('stopped');
      await dc.customRequest('podLifecycle.goto', { seq: earlierSeq });
      assert.equal(((await went) as Stopped).body.reason, 'goto');
      assert.equal(((await dc.customRequest('podLifecycle.state')).body as StateView).seq, earlierSeq);
      const returned = dc.waitForEvent('stopped');
      await dc.customRequest('podLifecycle.goto', { seq: at.seq });
      assert.equal(((await returned) as Stopped).body.reason, 'goto');
      assert.equal(((await dc.customRequest('podLifecycle.state')).body as StateView).seq, at.seq);
      assert.ok(output.some((o) => o.output.startsWith('\u21b7 Back at the live cluster')), 'going to the frontier is live again');
      // Back to the start and forward again to the live frontier.
      const start = await resume(dc, 'reverseContinueRequest', bound.body.threadId);
      assert.equal(start.body.reason, 'entry');
      const again = await resume(dc, 'continueRequest', start.body.threadId);
      assert.match((await topFrames(dc, again.body.threadId))[0]?.name ?? '', /^scheduler\.bind/);
      await dc.continueRequest({ threadId: again.body.threadId });
      assert.equal((await first.done).stdout.trim(), 'pod/one created');
      // A later request: its pod stops at the bind too, on the live cluster.
      const second = kubectl(kubeconfig, ['run', 'two', '--image=nginx:1.27']);
      const next = (await dc.waitForEvent('stopped')) as Stopped;
      const frames = await topFrames(dc, next.body.threadId);
      assert.match(frames[0]?.name ?? '', /^scheduler\.bind/);
      const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
      assert.equal(view.current, 'Pod/default/two');
      await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
      await dc.continueRequest({ threadId: next.body.threadId });
      const created = await second.done;
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.stdout.trim(), 'pod/two created');
      // The replays fed the Secret's request again; its value never left the engine.
      assert.ok(!output.some((o) => o.output.includes('hunter2')), 'no Debug Console line shows the Secret\'s value');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
