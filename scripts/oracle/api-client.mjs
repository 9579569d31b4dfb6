// A client of the reference cluster's API over HTTPS with a kubeconfig's client certificate: for families of many
// small requests, where running kubectl for each would cost a process and its discovery per request.
import { Agent, request } from 'node:https';
import { readFileSync } from 'node:fs';
import { YAML } from './common.mjs';

/**
 * parseWarnings reads the `Warning` headers of a response (RFC 7234 `299 - "text"`), one value per warning, in the
 * order sent, as client-go's warning handler prints them. See k8s.io/apimachinery/pkg/util/net/http.go (ParseWarningHeader).
 */
export function parseWarnings(rawHeaders) {
  const out = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() !== 'warning') continue;
    for (const m of rawHeaders[i + 1].matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) out.push(m[1].replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** apiClient reads a kubeconfig (its current context's cluster and user) and returns `send(method, path, body?)`. */
export function apiClient(kubeconfig) {
  const cfg = YAML.parse(readFileSync(kubeconfig, 'utf8'));
  const ctx = (cfg.contexts ?? []).find((c) => c.name === cfg['current-context'])?.context ?? cfg.contexts?.[0]?.context ?? {};
  const cluster = (cfg.clusters ?? []).find((c) => c.name === ctx.cluster)?.cluster ?? cfg.clusters?.[0]?.cluster;
  const user = (cfg.users ?? []).find((u) => u.name === ctx.user)?.user ?? cfg.users?.[0]?.user ?? {};
  const b64 = (s) => (s ? Buffer.from(s, 'base64') : undefined);
  const server = new URL(cluster.server);
  const agent = new Agent({ keepAlive: true, maxSockets: 4, ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) });
  /** send makes one request (`headers` added to its own); resolves to `{ code, body, warnings }` (the body parsed as JSON when it is). */
  const send = (method, path, body, headers = {}) => new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request({
      agent, method, hostname: server.hostname, port: server.port, path,
      headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {}), ...headers },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try { parsed = JSON.parse(text); } catch { /* not JSON: kept as text */ }
        resolve({ code: res.statusCode, body: parsed, warnings: parseWarnings(res.rawHeaders) });
      });
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: no answer in 60 s`)));
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
  return { send, close: () => agent.destroy() };
}
