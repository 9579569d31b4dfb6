// The debug adapter's bundle (dist/debugAdapter.js). Run as a program, it serves one PodLifecycleSession over
// stdin/stdout, for other clients and the adapter's tests; the extension loads it as a module and runs the session
// inline, so the engine is loaded only when a session starts.
import { DebugSession } from '@vscode/debugadapter';
import { embeddedCluster } from '../engine/cluster/files';
import { tightenHeap } from '../host/heap';
import { PodLifecycleSession } from './session';

export { embeddedCluster, PodLifecycleSession };

if (require.main === module) {
  // A process of its own keeps a session's memory near what is live (a run and its checkpoints for Step Back): at
  // 1,000 replicas on 1,000 nodes its peak went from 285–630 MB to about 285 MB. Inline in the extension host the
  // heap is not ours to tune.
  tightenHeap();
  DebugSession.run(PodLifecycleSession);
  // Parse the embedded default cluster while the client initializes, so the launch that follows finds it ready.
  setImmediate(() => embeddedCluster());
}
