// `pod-lifecycle serve` at a real cluster's size, as a client sees it: the server as a process on a cluster file of
// N nodes, a Deployment of R replicas applied with the real kubectl and rolled out, then lists read page by page over
// HTTPS with the kubeconfig's client certificate, as kubectl reads them (limit=500 and continue tokens): the pods,
// the Events (R × 5 of them) and the nodes. Prints each list's pages, the first page's time, the other pages' median
// and slowest, and the whole list's time; then the server's RSS.
// Usage: npm run build && node bench/serve.mjs [--replicas 2000] [--nodes 1000]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { writeInputs } from './scale-inputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const YAML = require('yaml');
const arg = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const REPLICAS = Number(arg('--replicas', '2000'));
const NODES = Number(arg('--nodes', '1000'));
const PAGE = 500;

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-serve-bench-'));
const { manifest, cluster } = writeInputs(dir, REPLICAS, NODES);
const kubeconfig = join(dir, 'kubeconfig');
const server = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'serve', '--cluster', cluster, '--kubeconfig-out', kubeconfig, '--speed', '100', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  createInterface({ input: server.stdout }).on('line', (line) => {
    if (line === `export KUBECONFIG=${kubeconfig}`) resolve();
  });
});

const kubectl = (...args) => execFileSync('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8', maxBuffer: 1 << 30 });
const started = performance.now();
kubectl('apply', '-f', manifest);
kubectl('rollout', 'status', 'deployment/web', '--timeout=600s');
console.log(`serve: ${REPLICAS} replicas on ${NODES} nodes applied and rolled out with kubectl in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const config = YAML.parse(readFileSync(kubeconfig, 'utf8'));
const base = new URL(config.clusters[0].cluster.server);
const tls = {
  ca: Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64'),
  cert: Buffer.from(config.users[0].user['client-certificate-data'], 'base64'),
  key: Buffer.from(config.users[0].user['client-key-data'], 'base64'),
};

/** get reads one page and returns its JSON and the milliseconds it took, to the last byte. */
function get(path) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request({ host: base.hostname, port: base.port, path, method: 'GET', headers: { accept: 'application/json' }, ...tls }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - start;
        if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString()), ms });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const path of ['/api/v1/namespaces/default/pods', '/api/v1/namespaces/default/events', '/api/v1/nodes']) {
  const times = [];
  let items = 0;
  let token = '';
  do {
    const { body, ms } = await get(`${path}?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    times.push(ms);
    items += body.items.length;
    token = body.metadata.continue ?? '';
  } while (token);
  const rest = times.slice(1);
  console.log(`${path}: ${items} items in ${times.length} pages of ${PAGE}; first page ${times[0].toFixed(1)} ms, other pages median ${rest.length ? median(rest).toFixed(1) : '-'} ms, slowest ${rest.length ? Math.max(...rest).toFixed(1) : '-'} ms; whole list ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms`);
}
const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024;
console.log(`serve RSS: ${rss.toFixed(0)} MB`);
server.kill('SIGTERM');
