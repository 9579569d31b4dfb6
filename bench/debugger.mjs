// The debug adapter's figures, over the real protocol (dist/debugAdapter.js over stdio, driven by the DAP test client):
// the time from spawning the adapter process to the first stop (a function breakpoint on scheduler.filter), one step's
// round trip (next + stackTrace + scopes + variables), one Step Back's (stepBack to the stop), a warm relaunch, and the
// adapter process's peak RSS. For the
// example pod on the embedded cluster, and for a Deployment of 1,000 replicas on 1,000 nodes (bench/scale-inputs.mjs).
// Needs the bundle: `npm run build` (the bench:debugger script does it).
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeInputs } from './scale-inputs.mjs';

const require = createRequire(import.meta.url);
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const adapter = join(root, 'dist', 'debugAdapter.js');

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/** peakRssMiB reads a process's peak resident set (VmHWM) from /proc. */
function peakRssMiB(pid) {
  try {
    const kib = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kib / 1024;
  } catch {
    return NaN;
  }
}

/** session spawns an adapter, launches with a breakpoint, and measures spawn → stop, the step round trips and a restart. */
async function session(launch, steps) {
  const start = process.hrtime.bigint();
  const dc = new DebugClient('node', adapter, 'pod-lifecycle');
  await dc.start();
  try {
    await dc.initializeRequest();
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scheduler.filter' }] });
    const stopped = dc.waitForEvent('stopped', 600_000);
    await Promise.all([dc.launchRequest(launch), dc.configurationDoneRequest()]);
    const event = await stopped;
    const spawnMs = ms(start);
    const rounds = [];
    const backs = [];
    const threadId = event.body.threadId;
    for (let i = 0; i < steps; i++) {
      const t = process.hrtime.bigint();
      const next = dc.waitForEvent('stopped', 600_000);
      await dc.nextRequest({ threadId });
      const stop = await next;
      const frames = (await dc.stackTraceRequest({ threadId: stop.body.threadId })).body.stackFrames;
      const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
      await dc.variablesRequest({ variablesReference: scopes[0].variablesReference });
      rounds.push(ms(t));
      // Back to the filter, so every round trip is one step of the same kind of run. Step Back replays the run from its
      // start to the step before (debugger/run.ts replayTo): its time grows with how far into the run the stop is.
      const b = process.hrtime.bigint();
      const back = dc.waitForEvent('stopped', 600_000);
      await dc.stepBackRequest({ threadId: stop.body.threadId });
      await back;
      backs.push(ms(b));
    }
    // A restart launches again in the same process: the inputs are parsed already (a warm launch).
    const t = process.hrtime.bigint();
    const again = dc.waitForEvent('stopped', 600_000);
    await dc.restartRequest({});
    await again;
    return { spawnMs, rounds, backs, restartMs: ms(t), rssMiB: peakRssMiB(dc._adapterProcess.pid) };
  } finally {
    await dc.stop();
  }
}

/** measure runs `sessions` sessions of one launch and prints its figures. */
async function measure(label, launch, sessions, steps) {
  const spawns = [];
  const restarts = [];
  const rss = [];
  let rounds = [];
  let backs = [];
  for (let i = 0; i < sessions; i++) {
    const result = await session(launch, i === sessions - 1 ? steps : 0);
    spawns.push(result.spawnMs);
    restarts.push(result.restartMs);
    rss.push(result.rssMiB);
    if (result.rounds.length) ({ rounds, backs } = result);
  }
  console.log(`${label}:`);
  console.log(`  spawn → first stop (scheduler.filter): median ${median(spawns).toFixed(1)} ms of ${sessions} sessions (first ${spawns[0].toFixed(1)} ms)`);
  console.log(`  warm launch (restart → first stop, same process): median ${median(restarts).toFixed(1)} ms`);
  console.log(`  step round trip (next + stackTrace + scopes + variables): median ${median(rounds).toFixed(2)} ms, p95 ${p95(rounds).toFixed(2)} ms of ${rounds.length}`);
  console.log(`  Step Back to the first stop (replayed from the start): median ${median(backs).toFixed(1)} ms, p95 ${p95(backs).toFixed(1)} ms of ${backs.length}`);
  console.log(`  adapter peak RSS: ${Math.max(...rss).toFixed(0)} MiB`);
  return { spawn: median(spawns), p95: p95(rounds), rss: Math.max(...rss) };
}

const small = await measure('examples/pod.yaml on the embedded cluster', { manifest: join(root, 'examples', 'pod.yaml') }, 8, 60);
const inputs = writeInputs(mkdtempSync(join(tmpdir(), 'pod-lifecycle-debugger-')), 1000, 1000);
const big = await measure('a Deployment of 1,000 replicas on 1,000 nodes', { manifest: inputs.manifest, cluster: inputs.cluster }, 2, 30);
console.log(`ratios, 1,000 x 1,000 to the example: spawn → first stop ${(big.spawn / small.spawn).toFixed(1)}x (target ≤ 10x), step p95 ${(big.p95 / small.p95).toFixed(1)}x (target ≤ 3x); RSS ${big.rss.toFixed(0)} MiB (target ≤ 400)`);
