// Runs a program without a shell and collects its output, for the commands that call kubectl.
import { execFile } from 'node:child_process';
import type { Runner } from './import-cluster';

/** MAX_OUTPUT_BYTES bounds what a program may print (a large cluster's YAML fits; a runaway one does not). */
export const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** processRunner runs `command args...`; a program that cannot start is reported as exit code 127. */
export function processRunner(command = 'kubectl', options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Runner {
  return (args) => new Promise((resolve) => {
    execFile(command, args, { env: options.env ?? process.env, cwd: options.cwd, maxBuffer: MAX_OUTPUT_BYTES, timeout: options.timeoutMs ?? 120_000, windowsHide: true }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 127) : 0;
      const why = err && code === 127 ? `${command}: ${(err as Error).message.split('\n')[0]}` : '';
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || why });
    });
  });
}
