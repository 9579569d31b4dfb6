// The debug adapter's bundle (dist/debugAdapter.js). Run as a program, it serves one PodLifecycleSession over
// stdin/stdout, for other clients and the adapter's tests; the extension loads it as a module and runs the session
// inline, so the engine is loaded only when a session starts.
import { DebugSession } from '@vscode/debugadapter';
import { embeddedCluster } from '../engine/cluster/files';
import { PodLifecycleSession } from './session';

export { embeddedCluster, PodLifecycleSession };

if (require.main === module) {
  DebugSession.run(PodLifecycleSession);
  // Parse the embedded default cluster while the client initializes, so the launch that follows finds it ready.
  setImmediate(() => embeddedCluster());
}
