// The debug adapter over stdio (dist/debugAdapter.js, the DAP test client) on workloads beside Deployments: each pod a
// StatefulSet or DaemonSet makes is a thread of its own beside the control plane, named as Kubernetes names it (a
// StatefulSet's pods by ordinal, created one after the other under OrderedReady; a DaemonSet's one per node).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { resume, root, startWith, withSession } from './harness';

/** threadNames lists the adapter's threads by name, in its order. */
const threadNames = async (dc: DebugClient): Promise<string[]> => (await dc.threadsRequest()).body.threads.map((t) => t.name);

test('A StatefulSet\'s pods are threads of their own, bound one ordinal after the other', async () => {
  await withSession(async (dc) => {
    let { event } = await startWith(dc, { manifest: join(root, 'examples', 'statefulset.yaml') }, { functions: [{ name: 'scheduler.bind' }] });
    // Each binding stops more than once (its PreBind and Bind steps): the pods in the order they stop in.
    const bound: string[] = [];
    for (let stops = 0; bound.length < 3 && stops < 12; stops++) {
      if (stops > 0) event = await resume(dc, 'continueRequest', event.body.threadId);
      const name = (await dc.threadsRequest()).body.threads.find((t) => t.id === event.body.threadId)?.name ?? '';
      if (!bound.includes(name)) bound.push(name);
    }
    assert.deepEqual(bound, ['Pod default/web-0', 'Pod default/web-1', 'Pod default/web-2']);
    const names = await threadNames(dc);
    assert.equal(names[0], 'control plane');
    assert.deepEqual(names.filter((n) => n.startsWith('Pod ')).sort(), ['Pod default/web-0', 'Pod default/web-1', 'Pod default/web-2']);
  });
});

test('A DaemonSet\'s pods are threads of their own, one per node that runs it', async () => {
  await withSession(async (dc) => {
    let { event } = await startWith(dc, { manifest: join(root, 'examples', 'daemonset.yaml') }, { functions: [{ name: 'scheduler.bind' }] });
    const agents = async () => (await threadNames(dc)).filter((n) => /^Pod default\/log-agent-[a-z0-9]{5}$/.test(n));
    // The embedded cluster's two workers run it; the control-plane node's NoSchedule taint keeps it off there.
    for (let stops = 0; (await agents()).length < 2 && stops < 8; stops++) event = await resume(dc, 'continueRequest', event.body.threadId);
    assert.equal((await agents()).length, 2, JSON.stringify(await threadNames(dc)));
    assert.equal((await threadNames(dc))[0], 'control plane');
  });
});
