// Tests the `watch` phase over stdio: a launch with "watches": true records who is told of each change, a function
// breakpoint on `watch` stops at a change, and one with a condition on the watcher stops only at that watcher's sub-step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, resume, startWith, topFrames, withSession } from './harness';

const cases = [
  {
    name: 'A watch breakpoint with a condition on a kubelet stops only at that kubelet\'s sub-steps: the pod bound, then updated',
    bp: { name: 'watch', condition: 'watcher == "kubelet worker-2" && object == "Pod/default/web"' },
    stops: [
      { frame: 'watch › watcher kubelet worker-2', type: 'ADDED', component: 'kubelet' },
      { frame: 'watch › watcher kubelet worker-2', type: 'MODIFIED', component: 'kubelet' },
    ],
  },
  {
    name: 'A watch breakpoint with a condition on the scheduler stops at the scheduler\'s sub-step of the pod\'s creation',
    bp: { name: 'watch', condition: 'component == "kube-scheduler" && object == "Pod/default/web"' },
    stops: [{ frame: 'watch › watcher kube-scheduler', type: 'ADDED', component: 'kube-scheduler' }],
  },
  {
    name: 'A watch breakpoint without a condition stops first at the informers opening their watches',
    bp: { name: 'watch' },
    stops: [{ frame: 'watch', type: '', component: '' }],
  },
];

for (const c of cases) {
  test(c.name, async () => {
    await withSession(async (dc) => {
      const { event, functions } = await startWith(dc, { watches: true }, { functions: [c.bp] });
      assert.equal(functions[0]?.verified, true);
      let stopped = event;
      for (const [i, want] of c.stops.entries()) {
        if (i > 0) stopped = await resume(dc, 'continueRequest', stopped.body.threadId);
        assert.equal(stopped.body.reason, 'function breakpoint');
        const name = (await topFrames(dc, stopped.body.threadId))[0]?.name.split(' · ')[0] ?? '';
        assert.equal(name, want.frame);
        if (want.type) {
          assert.match(await evaluate(dc, stopped.body.threadId, 'type'), new RegExp(want.type));
          assert.match(await evaluate(dc, stopped.body.threadId, 'component'), new RegExp(want.component));
        }
      }
    });
  });
}

test('A watch breakpoint never stops in a run that does not record its watches', async () => {
  await withSession(async (dc) => {
    await startWith(dc, {}, { functions: [{ name: 'watch' }] }, 'terminated');
  });
});
