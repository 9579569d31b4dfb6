// The answer to GET pods/NAME/log: text/plain, the container's lines from the Behavior. With follow=true the answer
// stays open while the container runs, as the kubelet's follow does (pkg/kubelet/server/server.go getContainerLogs,
// v1.36.3), and ends when the container stops or the pod is gone.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import type { LiveCluster } from './live-cluster';
import { isRunning, type LogSource, podLog } from './subresources';

/** LogRequest is what a log answer needs: the cluster, the pod read, the query, the wall clock and the open follows. */
export interface LogRequest {
  cluster: LiveCluster;
  pod: KubeObject;
  namespace: string | undefined;
  name: string;
  query: URLSearchParams;
  wallNow: () => number;
  /** follows are the followed logs still open, which the server ends when it closes. */
  follows: Set<ServerResponse>;
}

/** writeLog writes the log of the pod read, and follows it while the container runs when asked. */
export function writeLog(res: ServerResponse, r: LogRequest): void {
  const behavior = r.cluster.sim.inputs.behavior;
  const source = (): LogSource => ({ lines: (c) => behavior.containers[c]?.logs ?? [], nowMs: r.wallNow() });
  const previous = r.query.get('previous') === 'true';
  const log = podLog(r.pod, r.query.get('container') ?? '', previous, source());
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  if (!(r.query.get('follow') === 'true' && log.running)) {
    res.end(log.text);
    return;
  }
  res.write(log.text);
  const store = r.cluster.sim.store;
  // A followed log gets each line as the container writes it, until the container stops or the pod is gone.
  let written = log.text.length;
  const stop = r.cluster.onAdvance(() => {
    const pod = store.get('Pod', r.namespace, r.name);
    if (pod && isRunning(pod, log.container)) {
      const now = podLog(pod, log.container, false, source()).text;
      if (now.length > written) res.write(now.slice(written));
      written = now.length;
    } else res.end();
  });
  r.follows.add(res);
  const done = (): void => {
    stop();
    r.follows.delete(res);
  };
  res.on('close', done);
  res.on('finish', done);
}
