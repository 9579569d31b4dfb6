// A launch bounded by "maxSteps" stops there and says so in the Debug Console, naming the attribute that raises it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collectOutput, root, startWith, withSession } from './harness';

test('a launch stops at its budget of steps and says how to raise it', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const exited = dc.waitForEvent('exited');
    await startWith(dc, { maxSteps: 30 }, {}, 'terminated');
    assert.equal((await exited).body.exitCode, 1);
    const stderr = output.filter((o) => o.category === 'stderr').map((o) => o.output).join('');
    assert.match(stderr, /The run reached its budget of 30 steps \(trace entries\) before the workload settled: raise "maxSteps" in the launch configuration\./);
  });
});

test('a budget of 0 is a bad launch attribute', async () => {
  await withSession(async (dc) => {
    await dc.initializeRequest({ adapterID: 'pod-lifecycle', pathFormat: 'path' });
    await assert.rejects(dc.launchRequest({ manifest: 'examples/pod.yaml', maxObjects: 0 } as never), /"maxObjects" must be 1 or more/);
  });
});

test('a launch cut by its 10-minute limit while a controller is at work says so and how to give it longer', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const exited = dc.waitForEvent('exited');
    const cluster = [join(root, 'test', 'fixtures', 'webhooks', 'nodes.yaml'), join(root, 'test', 'fixtures', 'budget', 'controller-manager-slow.yaml')];
    await startWith(dc, { manifest: join(root, 'test', 'fixtures', 'apps', 'deployment-100.yaml'), cluster }, {}, 'terminated');
    assert.equal((await exited).body.exitCode, 1);
    const stderr = output.filter((o) => o.category === 'stderr').map((o) => o.output).join('');
    assert.match(stderr, /The run reached its time limit of 10 minutes of virtual time before the workload settled: replicaset-controller still at work: give it longer with "for" in the launch configuration\./);
  });
});
