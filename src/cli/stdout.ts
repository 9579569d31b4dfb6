// Writing the report to standard output as it is made, whatever stdout is: a file, a terminal or a pipe. Node queues
// writes to a pipe in memory when the reader is slower than the run, which for a report of hundreds of megabytes ends
// in ENOBUFS; each piece is written through before the next is made instead, waiting while the pipe is full.
import { writeSync } from 'node:fs';

/** WAIT is what a full pipe makes the writer wait on before it tries again. */
const WAIT = new Int32Array(new SharedArrayBuffer(4));

/**
 * A full pipe is tried again after 50 µs, then twice as long each time up to 5 ms: a quick reader (a pipe holds 64 KiB)
 * is kept fed, where a fixed wait of milliseconds capped a report's speed at about 13 MB/s; a slow one costs no CPU.
 */
const FIRST_WAIT_MS = 0.05;
const LONGEST_WAIT_MS = 5;

/** StdoutClosed says the reader went away (EPIPE): what is left is not written, and the run ends as it would. */
export class StdoutClosed extends Error {}

/** writeAll writes text (or bytes) to a file descriptor completely, waiting out EAGAIN; EPIPE throws StdoutClosed. */
export function writeAll(fd: number, text: string | Uint8Array): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let offset = 0;
  let wait = FIRST_WAIT_MS;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
      wait = FIRST_WAIT_MS;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(WAIT, 0, 0, wait);
        wait = Math.min(LONGEST_WAIT_MS, wait * 2);
      } else if (code === 'EPIPE') throw new StdoutClosed();
      else throw err;
    }
  }
}
