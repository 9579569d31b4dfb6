// Helpers for the serve tests: a stub handler that answers /version as kube-apiserver does and records what it saw,
// and an HTTPS client that presents a chosen certificate or token.
import { request } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeRequest } from '../../src/serve/tls-server';

/** VERSION is the body of kube-apiserver's /version (version.Info) for the simulated release. */
export const VERSION = {
  major: '1', minor: '36', emulationMajor: '1', emulationMinor: '36', minCompatibilityMajor: '1', minCompatibilityMinor: '35',
  gitVersion: 'v1.36.0', gitCommit: '', gitTreeState: 'clean', buildDate: '2026-04-22T00:00:00Z', goVersion: 'go1.26.0',
  compiler: 'gc', platform: 'linux/amd64',
};

/** Seen is one request the stub handler answered. */
export interface Seen {
  method: string;
  url: string;
  request: ServeRequest;
}

/** versionHandler answers GET /version with VERSION and anything else with a 404 Status, recording every request. */
export function versionHandler(seen: Seen[]): (req: IncomingMessage, res: ServerResponse, request: ServeRequest) => void {
  return (req, res, served) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', request: served });
    const path = (req.url ?? '').split('?')[0];
    const found = req.method === 'GET' && path === '/version';
    res.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(found ? VERSION : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 }));
  };
}

/** ClientOptions are what an HTTPS client presents: a CA to trust, a client certificate and key, a bearer token. */
export interface ClientOptions {
  ca: string;
  cert?: string;
  key?: string;
  token?: string;
  path?: string;
}

/** get sends one GET over a fresh connection and resolves with the status and body. */
export function get(port: number, o: ClientOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: o.path ?? '/version', method: 'GET', agent: false, ca: o.ca, servername: 'localhost',
      ...(o.cert ? { cert: o.cert, key: o.key } : {}),
      headers: o.token ? { Authorization: `Bearer ${o.token}` } : {},
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
