// Whether the command line colors its output, as terminals expect.

/** useColor decides on color as terminals expect: NO_COLOR turns it off, FORCE_COLOR on, else only on a TTY. */
export function useColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return isTTY;
}
