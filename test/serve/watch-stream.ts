// A client of the served API as the serve tests use it without kubectl: the admin's credentials from the kubeconfig
// serve wrote, and a watch read event by event.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import { parse } from 'yaml';

/** adminCredentials are the admin's, from the kubeconfig serve wrote: the server, its CA and the client certificate. */
export function adminCredentials(kubeconfig: string): RequestOptions {
  const config = parse(readFileSync(kubeconfig, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const url = new URL(config.clusters[0].cluster.server);
  const user = config.users[0].user;
  return { host: url.hostname, port: url.port, ca: b64(config.clusters[0].cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
}

/**
 * watchEvents opens a watch and resolves with its status, headers and events up to and with the first one `until` accepts
 * (given the events so far), or up to its end; `opened` is called when its head has come (the server has registered
 * it by then). A watch that neither ends nor satisfies `until` within a minute fails: a bound, not a sleep.
 */
export function watchEvents<E>(credentials: RequestOptions, path: string, until: (e: E, seen: E[]) => boolean = () => false, opened: () => void = () => undefined): Promise<{ status: number; events: E[]; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ ...credentials, path, method: 'GET' }, (res) => {
      opened();
      const events: E[] = [];
      let buffer = '';
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        req.destroy();
        resolve({ status: res.statusCode ?? 0, events, headers: res.headers });
      };
      res.on('data', (d) => {
        buffer += d;
        for (let nl = buffer.indexOf('\n'); nl >= 0 && !done; nl = buffer.indexOf('\n')) {
          const e = JSON.parse(buffer.slice(0, nl)) as E;
          buffer = buffer.slice(nl + 1);
          events.push(e);
          if (until(e, events)) finish();
        }
      });
      res.on('end', finish);
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`the watch ${path} ended no wait within 60 s: ${JSON.stringify(events)}`.slice(0, 2000)));
      }, 60_000);
      res.on('close', () => clearTimeout(timer));
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}
