// `kubectl delete pod NAME ...` typed in the Debug Console over stdio: one more delete while the pod is terminating
// replays the run with it and pauses on it; before the first delete, and for flags kubectl refuses, it answers why not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { evaluate, fixture, resume, startWith, type Stopped, topFrames, withSession } from './harness';

const stuck = fixture('stuck-terminating.yaml');

test('kubectl delete --grace-period=0 --force while the pod is terminating replays the run, pauses on it and says what changed', async () => {
  await withSession(async (dc) => {
    // The first kubelet.terminate step: SIGTERM at 12 s, after the 10 s preStop hook; SIGKILL is due at 32 s.
    const { event } = await startWith(dc, { manifest: stuck, delete: true }, { functions: [{ name: 'kubelet.terminate' }] });
    assert.equal(event.body.text, 'StopContainer app: SIGTERM, SIGKILL after 20s');
    const stopped = dc.waitForEvent('stopped');
    const result = await evaluate(dc, event.body.threadId, 'kubectl delete pod web --grace-period=0 --force');
    assert.equal(result, [
      'kubectl delete at 12s (10s after the first delete): the lifecycle was run again from the start with it, and is paused on it.',
      '  Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
      '  pod "web" force deleted from default namespace',
      '  Pod default/web is removed from the API server at 12s (was 32s).',
      // SyncTerminatingPod kills on a context of its own: the kill in progress keeps its window.
      '  Its containers stop at 32s (app: exit code 137), as before.',
      '  Outcome: Deleted (unchanged).',
    ].join('\n'));
    const paused = (await stopped) as Stopped;
    assert.equal(paused.body.reason, 'goto');
    assert.equal(paused.body.text, 'kubectl sends DELETE /api/v1/namespaces/default/pods/web with gracePeriodSeconds 0');
    assert.equal((await topFrames(dc, paused.body.threadId))[0]?.name.split(' · ')[0], 'kubectl.validate');
    // Going on: the kubelet hears of the shorter grace period while the pod is already gone from the API server.
    const next = await resume(dc, 'continueRequest', paused.body.threadId);
    assert.match(next.body.text ?? '', /^UpdatePod: deletionGracePeriodSeconds is now 0: .* the kill in progress keeps its 30s window$/);
    assert.equal(await evaluate(dc, next.body.threadId, 'kubectl get pods'), 'No resources found in default namespace.');
  });
});

const refusals: { name: string; launch: Record<string, unknown>; stopAt: string; line: string; want: RegExp }[] = [
  {
    name: 'before the first delete it says the pod has not been deleted yet',
    launch: { manifest: stuck, delete: true }, stopAt: 'kubelet.admit', line: 'kubectl delete pod web --force',
    want: /^The run has not deleted the pod yet: its kubectl delete comes once the pod has settled\./,
  },
  {
    name: 'a run launched without a delete says how to launch one',
    launch: { manifest: stuck }, stopAt: 'kubelet.admit', line: 'kubectl delete pod web',
    want: /^This run does not delete the pod: launch it with "delete": true/,
  },
  {
    // staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go Validate.
    name: '--force with a grace period above 0 is refused in kubectl\'s words, and nothing is replayed',
    launch: { manifest: stuck, delete: true }, stopAt: 'kubelet.terminate', line: 'kubectl delete pod web --force --grace-period=5',
    want: /^error: --force and --grace-period greater than 0 cannot be specified together$/,
  },
];

for (const c of refusals) {
  test(`kubectl delete in the Debug Console: ${c.name}`, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, c.launch, { functions: [{ name: c.stopAt }] });
      await assert.rejects(evaluate(dc, event.body.threadId, c.line), (err: Error) => {
        assert.match(err.message, c.want);
        return true;
      });
      // The run is where it was.
      assert.equal((await topFrames(dc, event.body.threadId))[0]?.name.split(' ')[0], c.stopAt);
    });
  });
}

test('the Debug Console completes kubectl delete\'s flags', async () => {
  await withSession(async (dc) => {
    await startWith(dc, { manifest: stuck, delete: true }, { functions: [{ name: 'kubelet.admit' }] });
    const body: DebugProtocol.CompletionsResponse['body'] = (await dc.completionsRequest({ text: 'kubectl delete pod web --', column: 26 })).body;
    assert.deepEqual(body.targets.map((t) => t.label), ['--namespace', '--grace-period', '--force', '--now']);
  });
});
