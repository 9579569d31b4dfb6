// Expected container start times when restarts wait out a CrashLoopBackOff, shared by the engine and CLI tests.
import assert from 'node:assert/strict';

/**
 * Start is an exact start time in seconds, or a restart that waits out a CrashLoopBackOff: the pod worker syncs the
 * pod again when the back-off runs out plus up to half of it again (wait.Jitter(backoff, 0.5) in
 * pkg/kubelet/pod_workers.go completeWork), so it comes between exit + backoff and exit + 1.5 × backoff, the exit
 * being runSeconds after the start before it.
 */
export type Start = number | { backoff: number; runSeconds: number };

/** backoffs lists the restarts after the given back-offs, each run lasting runSeconds. */
export const backoffs = (runSeconds: number, ...seconds: number[]): Start[] => seconds.map((backoff) => ({ backoff, runSeconds }));

/** assertStarts checks a container's start times against the expected ones, exact or within their back-off window. */
export function assertStarts(starts: readonly number[], want: readonly Start[]): void {
  assert.equal(starts.length, want.length, `starts at ${starts.join(', ')}`);
  want.forEach((w, i) => {
    if (typeof w === 'number') return assert.equal(starts[i], w, `start ${i + 1} of ${starts.join(', ')}`);
    const exit = starts[i - 1]! + w.runSeconds;
    const at = starts[i]!;
    assert.ok(at >= exit + w.backoff && at <= exit + 1.5 * w.backoff, `start ${i + 1} at ${at}s, after the exit at ${exit}s and a ${w.backoff}s back-off`);
  });
}
