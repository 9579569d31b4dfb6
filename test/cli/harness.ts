// What the CLI tests share: the built CLI run as a process, and the --json report's shape.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

/** ROOT is the project folder, the CLI's working directory in the tests. */
export const ROOT = join(__dirname, '..', '..', '..');

/** CLI is the bundled command line. */
export const CLI = join(ROOT, 'dist', 'cli.js');

/** TraceEntry is a trace entry as --json writes it. */
export interface TraceEntry {
  phase: string;
  at?: number;
  object?: string;
  field?: string;
  result: string;
  step?: { kind: string; name: string };
  detail: Record<string, unknown>;
  outcome?: string;
}

/** StoredObject is an object of the report's `objects`. */
export interface StoredObject {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string>; generation?: number };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  /** The kind's other top-level fields (a webhook configuration's webhooks, an EndpointSlice's endpoints...). */
  [field: string]: unknown;
}

/** Report is the --json report of `pod-lifecycle run`. */
export interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: StoredObject[];
  events: { at: number; type: string; reason: string; object: string; source: string; message: string }[];
  trace: TraceEntry[];
}

/** HANG_MS is when a CLI run counts as hung. */
const HANG_MS = 120_000;

/** runJson runs the CLI with `--json` added, without color, and parses its report. */
export function runJson(...args: string[]): { status: number | null; report: Report; stderr: string } {
  // A run is a few seconds of work at most: one that goes on is a hang, reported as one instead of stalling the suite.
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: HANG_MS, maxBuffer: 512 * 1024 * 1024 });
  if (r.error) throw new Error(`pod-lifecycle ${args.join(' ')} did not finish: ${r.error.message}`);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

/** runKubectlJson runs `pod-lifecycle run [own...] --json -- kubectl ARGV` and parses its report. */
export function runKubectlJson(argv: string[], own: string[] = []): { status: number | null; report: Report; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', ...own, '--json', '--', 'kubectl', ...argv], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: HANG_MS, maxBuffer: 512 * 1024 * 1024 });
  if (r.error) throw new Error(`pod-lifecycle run -- kubectl ${argv.join(' ')} did not finish: ${r.error.message}`);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

/** pluginStep finds the sub-step of one admission plugin in one pass. */
export function pluginStep(report: Report, phase: string, plugin: string): TraceEntry | undefined {
  return report.trace.find((e) => e.phase === phase && e.step?.kind === 'plugin' && e.step.name === plugin);
}

/** hangUpAfterFirstPiece runs the CLI and closes its stdout after the first piece it writes: what became of it. */
export async function hangUpAfterFirstPiece(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stderr };
}

/** Refusal is a manifest the API server refuses: the status it answers and what kubectl prints, as the reference cluster did. */
export interface Refusal {
  file: string;
  code: number;
  reason: string;
  message: string;
  kubectl: string;
}

/** testRefusals adds one test per refused fixture of `dir`: `run` fails, with the Status and kubectl's lines expected. */
export function testRefusals(dir: string, cases: readonly Refusal[]): void {
  for (const c of cases) {
    test(`refused as kube-apiserver refuses it: ${c.file}`, () => {
      const { status, report } = runJson('run', `${dir}/${c.file}`);
      assert.equal(status, 1);
      assert.equal(report.outcome, 'Rejected');
      assert.deepEqual(report.rejection && { code: report.rejection.code, reason: report.rejection.reason, message: report.rejection.message },
        { code: c.code, reason: c.reason, message: c.message });
      assert.equal(report.kubectl, c.kubectl);
    });
  }
}
