// Serving a live cluster: the CA the engine's x509 authenticator trusts, the HTTPS listener with the API handler, and
// the kubeconfig written for its clients. The CLI's `serve` and the debugger's served sessions start it the same way.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_USER } from '../engine/apiserver/authn/x509';
import type { SimulationInputs } from '../engine/cluster/inputs';
import { ApiHandler } from './api-handler';
import { buildKubeconfig, serveUsers } from './kubeconfig';
import type { LiveCluster } from './live-cluster';
import { createServePki, type ServePki, withClientCA } from './pki';
import { startHttps } from './tls-server';

/** trustServePki makes a fresh PKI and has the cluster's authenticator trust its CA beside any the cluster file names. */
export function trustServePki(inputs: SimulationInputs): ServePki {
  const pki = createServePki(ADMIN_USER);
  const auth = inputs.cluster.profile.authentication;
  auth.clientCA = withClientCA(auth.clientCA, pki.ca.certificatePem);
  return pki;
}

/** Served is a cluster being served: its URL, the kubeconfig file, its contexts, and how to stop. */
export interface Served {
  url: string;
  kubeconfigFile: string;
  contexts: string[];
  close(): Promise<void>;
}

/** serveCluster listens on 127.0.0.1:port (0: any free port) and writes the kubeconfig (to `kubeconfigOut`, or a temporary file). */
export async function serveCluster(cluster: LiveCluster, pki: ServePki, options: { port?: number; kubeconfigOut?: string }): Promise<Served> {
  const handler = new ApiHandler(cluster);
  const server = await startHttps({ port: options.port ?? 0, pki, handler: handler.handle });
  const kubeconfig = buildKubeconfig({ port: server.port, ca: pki.ca, admin: pki.admin, users: serveUsers(cluster.sim.inputs.cluster.profile) });
  const file = options.kubeconfigOut ?? join(mkdtempSync(join(tmpdir(), 'pod-lifecycle-serve-')), 'kubeconfig');
  writeFileSync(file, kubeconfig.yaml, { mode: 0o600 });
  return {
    url: server.url, kubeconfigFile: file, contexts: kubeconfig.contexts,
    close: async () => {
      handler.close();
      cluster.close();
      await server.close();
    },
  };
}
