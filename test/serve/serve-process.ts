// Helpers for the tests that drive `pod-lifecycle serve` as a process with the real kubectl: start the server with a
// Behavior, run kubectl against the kubeconfig it writes, and follow a long-running kubectl (a watch) line by line.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(__dirname, '..', '..', '..');

/** KubectlResult is how a kubectl run ended: its exit code and output. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** ServeProcess is a running `pod-lifecycle serve`, its scratch directory and kubeconfig. */
export interface ServeProcess {
  dir: string;
  kubeconfig: string;
  /** kubectl runs the real kubectl against the server. */
  kubectl(...args: string[]): Promise<KubectlResult>;
  /** file writes a file in the scratch directory and returns its path. */
  file(name: string, text: string): string;
  /** stop ends the server and removes the scratch directory. */
  stop(): void;
}

/** runKubectl runs the real kubectl with a kubeconfig; without kubectl on PATH it fails and says so. */
export function runKubectl(kubeconfig: string, args: readonly string[], input?: string): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, timeout: 90_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('kubectl is not on PATH: these tests drive the real kubectl against serve'));
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** startServe starts serve on the example cluster with a Behavior at a speed (and more flags), and resolves once it names its kubeconfig. */
export async function startServe(name: string, behavior: string, speed = 50, flags: readonly string[] = []): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), `pod-lifecycle-${name}-`));
  const kubeconfig = join(dir, 'kubeconfig');
  const file = (n: string, text: string): string => {
    writeFileSync(join(dir, n), text);
    return join(dir, n);
  };
  file('behavior.yaml', behavior);
  const server: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'serve', '--cluster', join(root, 'examples', 'cluster.yaml'), '--behavior', join(dir, 'behavior.yaml'), '--kubeconfig-out', kubeconfig, '--speed', String(speed), ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr!.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    createInterface({ input: server.stdout! }).on('line', (line) => {
      if (line === `export KUBECONFIG=${kubeconfig}`) resolve();
    });
  });
  return {
    dir, kubeconfig, file,
    kubectl: (...args) => runKubectl(kubeconfig, args),
    stop: () => {
      server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** KubectlFollower is a kubectl that keeps running (a watch, a followed log): its output lines, and waits for them. */
export interface KubectlFollower {
  lines: string[];
  /** errorLines are its stderr lines (with -v=6, the requests it made and their answers). */
  errorLines: string[];
  /** exited resolves with kubectl's exit code once it ends. */
  exited: Promise<number>;
  /** next resolves with the first stdout (or stderr) line, printed or to come, that matches; it rejects if kubectl ends first or 60 s pass. */
  next(match: RegExp, stream?: 'stdout' | 'stderr'): Promise<string>;
  stop(): void;
}

/** followKubectl starts a kubectl that streams (get -w, logs -f) and records its output lines. */
export function followKubectl(kubeconfig: string, args: readonly string[]): KubectlFollower {
  const child = spawn('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  const streams = { stdout: [] as string[], stderr: [] as string[] };
  const waiters: { match: RegExp; stream: 'stdout' | 'stderr'; resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  let ended = false;
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream]! }).on('line', (line) => {
      streams[stream].push(line);
      for (const w of [...waiters]) {
        if (w.stream === stream && w.match.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    });
  }
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  child.once('exit', (code) => {
    ended = true;
    for (const w of waiters.splice(0)) w.reject(new Error(`kubectl ${args.join(' ')} exited ${code} before a line matched ${w.match}:\n${streams.stderr.join('\n')}\n${streams.stdout.join('\n')}`));
  });
  return {
    lines: streams.stdout,
    errorLines: streams.stderr,
    exited,
    next: (match, stream = 'stdout') => {
      const seen = streams[stream].find((l) => match.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error(`kubectl ended before a line matched ${match}: ${streams.stderr.join('\n')}`));
      return new Promise((resolve, reject) => {
        // A bound, not a sleep: the line normally comes within a second; a server that never sends it fails the test.
        const timer = setTimeout(() => reject(new Error(`no line matched ${match} within 60 s:\n${streams[stream].join('\n')}`)), 60_000);
        waiters.push({ match, stream, resolve: (line) => (clearTimeout(timer), resolve(line)), reject: (e) => (clearTimeout(timer), reject(e)) });
      });
    },
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}
