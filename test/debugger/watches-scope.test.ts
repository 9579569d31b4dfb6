// Tests the Watches scope and the state tree's watches over stdio: at a stop of a run that records its watches, each
// program's informers with the watch request they have open, what they have been told and what is still to be handed
// to their handlers (a Behavior's informer delay); a run that does not record them has no such scope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { StateView } from '../../src/webview/view';
import { expand, root, scopes, startWith, variables, withSession } from './harness';

const delay = join(root, 'test', 'fixtures', 'watch', 'kubelet-delay.yaml');
const KUBELET_PODS = /^"?GET \/api\/v1\/pods\?allowWatchBookmarks=true&fieldSelector=spec\.nodeName%3Dworker-2&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=\d{3}&watch=true"?$/;

const cases = [
  {
    name: 'At the kubelet\'s sub-step of the pod\'s binding, its pod watch has been told ADDED and holds it 2s for its handlers',
    condition: 'watcher == "kubelet worker-2" && type == "ADDED"',
    want: {
      told: '1 ADDED',
      last: 'ADDED Pod/default/web at resourceVersion 1185, at 0s (handled at 2s)',
      pending: '1 to hand to the handlers',
      scheduler: '1 ADDED, 1 MODIFIED; last MODIFIED Pod/default/web at resourceVersion 1185, at 0s',
    },
  },
  {
    name: 'At the kubelet\'s next sub-step, 2s later, the binding has been handed over and the new change waits in its stead',
    condition: 'watcher == "kubelet worker-2" && type == "MODIFIED"',
    want: {
      told: '1 ADDED, 1 MODIFIED',
      last: 'MODIFIED Pod/default/web at resourceVersion 1186, at 2s (handled at 4s)',
      pending: '1 to hand to the handlers',
      scheduler: '1 ADDED, 2 MODIFIED; last MODIFIED Pod/default/web at resourceVersion 1186, at 2s',
    },
  },
];

for (const c of cases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event } = await startWith(dc, { watches: true, behavior: delay }, { functions: [{ name: 'watch', condition: c.condition }] });
      const watches = (await scopes(dc, event.body.threadId)).get('Watches');
      assert.ok(watches, 'a Watches scope');
      assert.equal(watches.expensive, true);
      const programs = await variables(dc, watches.variablesReference);
      assert.deepEqual([...programs.keys()].slice(0, 3), ['kube-scheduler', 'kube-controller-manager', 'kubelet control-plane']);
      const pods = (await expand(dc, watches.variablesReference, ['kubelet worker-2', 'pods'])).variable;
      assert.match(pods.value, /^pods: /);
      const fields = await variables(dc, pods.variablesReference);
      assert.match(fields.get('request')!.value, KUBELET_PODS);
      assert.equal(fields.get('told')!.value, c.want.told);
      assert.equal(fields.get('last')!.value, c.want.last);
      assert.equal(fields.get('pending')!.value, c.want.pending);
      assert.equal(fields.get('initialEvents')!.value, '0');
      const scheduler = (await expand(dc, watches.variablesReference, ['kube-scheduler', 'pods'])).variable;
      assert.equal(scheduler.value, `pods: ${c.want.scheduler}`);
      // The state tree's view carries the same watches, worded by the same engine module.
      const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
      const kubelet = view.watches?.programs.find((p) => p.watcher === 'kubelet worker-2')?.informers.find((i) => i.resource === 'pods');
      assert.equal(kubelet?.text, pods.value);
      assert.equal(kubelet?.pending.length, 1);
    });
  });
}

test('A run that does not record its watches has no Watches scope and no watches in its state view', async () => {
  await withSession(async (dc) => {
    const { event } = await startWith(dc, {}, { functions: [{ name: 'scheduler.bind' }] });
    assert.equal((await scopes(dc, event.body.threadId)).has('Watches'), false);
    const view = (await dc.customRequest('podLifecycle.state')).body as StateView;
    assert.equal(view.watches, undefined);
  });
});
