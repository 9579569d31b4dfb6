// The stdio entry of the debug adapter (bundled to dist/debugAdapter.js): one PodLifecycleSession over stdin/stdout.
// VS Code runs the session inline (src/extension.ts); this entry serves other clients and the adapter's tests.
import { DebugSession } from '@vscode/debugadapter';
import { embeddedCluster } from '../engine/cluster/files';
import { PodLifecycleSession } from './session';

DebugSession.run(PodLifecycleSession);
// Parse the embedded default cluster while the client initializes, so the launch that follows finds it ready.
setImmediate(() => embeddedCluster());
