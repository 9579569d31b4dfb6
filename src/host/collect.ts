// A full garbage collection on demand, for a process that knows it has just dropped most of what it held (a big run's
// heap stepping down, a language server whose last document closed). V8's `gc` is exposed for the call and only then.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * collectNow runs a full collection; `lastResort` makes it V8's most thorough one (several passes, the young
 * generation shrunk), as when the system is short of memory. Where V8 will not expose `gc`, it does nothing.
 */
export function collectNow(lastResort = false): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  if (typeof gc === 'function') gc(lastResort ? { type: 'major', execution: 'sync', flavor: 'last-resort' } : undefined);
}
