// The debug adapter's two figures, over the real protocol (dist/debugAdapter.js over stdio, driven by the DAP test
// client): the time from launch to the first stop, and one step's round trip (next + stackTrace + scopes + variables).
// Targets: under 100 ms and under 10 ms. Needs the bundle: `npm run build` (the bench:debugger script does it).
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const adapter = join(root, 'dist', 'debugAdapter.js');
const manifest = join(root, 'examples', 'pod.yaml');
const sessions = 8;
const steps = 60;

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/** session starts an adapter, launches with a breakpoint, and measures launch → stop and the step round trips. */
async function session(measureSteps) {
  const dc = new DebugClient('node', adapter, 'pod-lifecycle');
  await dc.start();
  try {
    await dc.initializeRequest();
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scheduler.filter' }] });
    const start = process.hrtime.bigint();
    const stopped = dc.waitForEvent('stopped');
    await Promise.all([dc.launchRequest({ manifest }), dc.configurationDoneRequest()]);
    const event = await stopped;
    const launchMs = ms(start);
    const rounds = [];
    const threadId = event.body.threadId;
    for (let i = 0; measureSteps && i < steps; i++) {
      const t = process.hrtime.bigint();
      const next = dc.waitForEvent('stopped');
      await dc.nextRequest({ threadId });
      const stop = await next;
      const frames = (await dc.stackTraceRequest({ threadId: stop.body.threadId })).body.stackFrames;
      const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
      await dc.variablesRequest({ variablesReference: scopes[0].variablesReference });
      rounds.push(ms(t));
      // Back to the filter, so every round trip is one step of the same kind of run.
      const back = dc.waitForEvent('stopped');
      await dc.stepBackRequest({ threadId: stop.body.threadId });
      await back;
    }
    // A restart launches again in the same process: the embedded cluster is parsed already (a warm launch).
    const t = process.hrtime.bigint();
    const again = dc.waitForEvent('stopped');
    await dc.restartRequest({});
    await again;
    return { launchMs, rounds, restartMs: ms(t) };
  } finally {
    await dc.stop();
  }
}

const launches = [];
const restarts = [];
let rounds = [];
for (let i = 0; i < sessions; i++) {
  const result = await session(i === sessions - 1);
  launches.push(result.launchMs);
  restarts.push(result.restartMs);
  rounds = result.rounds;
}
console.log(`launch → first stop (scheduler.filter, examples/pod.yaml): first ${launches[0].toFixed(1)} ms (cold process), median ${median(launches).toFixed(1)} ms of ${sessions} sessions (target < 100 ms)`);
console.log(`warm launch (restart → first stop, same process): median ${median(restarts).toFixed(1)} ms of ${sessions} (target < 100 ms)`);
console.log(`step round trip (next + stackTrace + scopes + variables): median ${median(rounds).toFixed(2)} ms, p95 ${p95(rounds).toFixed(2)} ms of ${rounds.length} (target < 10 ms)`);
