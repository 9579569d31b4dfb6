// The language server's figures: diagnostics time on a generated file of Kubernetes manifests (20,000 lines, or
// --mb megabytes), side by side with yaml-language-server given the same Kubernetes schema (a JSON schema made from
// the same swagger.json), both spawned by this process over stdio: the first diagnostics and the complete ones (with
// the cluster's); then hover and completion p95 while a heavy validation runs and once it is done; and each
// server's memory (RSS) before, at its peak, and after every document is closed.
// Usage: npm run build && node bench/language.mjs [--lines N | --mb N] [--runs N] [--server dist/languageServer.js]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');

const arg = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const MEGABYTES = Number(arg('--mb', 0));
const LINES = MEGABYTES > 0 ? Infinity : Number(arg('--lines', 20_000));
const BYTES = MEGABYTES > 0 ? MEGABYTES * 1024 * 1024 : Infinity;
const RUNS = Number(arg('--runs', MEGABYTES > 0 ? 1 : 3));
const SERVER = arg('--server', join(root, 'dist', 'languageServer.js'));
const SAMPLES = 200;

/** KINDS are the kinds our schema validates (scripts/generate-schema.mjs), the ones the JSON schema offers too. */
const KINDS = Object.keys((await import(pathToFileURL(join(root, 'out', 'src', 'engine', 'api', 'schema', 'schema.generated.js')).href)).SCHEMA_KINDS ?? {});

/**
 * kubernetesJsonSchema turns swagger.json into the JSON schema yaml-language-server validates with: the definitions
 * as they are, closed to unknown fields (as strict decoding is), and a root that is one of the kinds, told apart by
 * apiVersion and kind.
 */
function kubernetesJsonSchema() {
  const swagger = JSON.parse(readFileSync(join(root, '..', 'shared', 'kubernetes-api', 'swagger.json'), 'utf8'));
  const definitions = {};
  for (const [name, def] of Object.entries(swagger.definitions)) {
    const copy = structuredClone(def);
    if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
    if (copy.format === 'int-or-string') { delete copy.format; copy.type = ['integer', 'string']; }
    if (name.endsWith('.Quantity')) copy.type = ['string', 'number'];
    definitions[name] = copy;
  }
  const oneOf = [];
  for (const [name, def] of Object.entries(swagger.definitions)) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
      if (!KINDS.includes(`${apiVersion}/${gvk.kind}`)) continue;
      oneOf.push({ allOf: [{ $ref: `#/definitions/${name}` }, { properties: { apiVersion: { const: apiVersion }, kind: { const: gvk.kind } }, required: ['apiVersion', 'kind'] }] });
    }
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', definitions, oneOf };
}

/** manifestFile writes about LINES lines (or BYTES bytes) of Deployments, Pods, Services and ConfigMaps, a few with mistakes. */
function manifestFile() {
  const docs = [];
  let lines = 0;
  let bytes = 0;
  for (let i = 0; lines < LINES && bytes < BYTES; i++) {
    const name = `app-${i}`;
    let doc;
    switch (i % 4) {
      case 0: doc = [
        'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, '  labels:', `    app: ${name}`, 'spec:', `  replicas: ${1 + (i % 3)}`,
        '  selector:', '    matchLabels:', `      app: ${name}`, '  template:', '    metadata:', '      labels:', `        app: ${name}`, '    spec:',
        '      containers:', '        - name: web', `          image: nginx:1.${i % 28}`, '          ports:', '            - containerPort: 80',
        '          resources:', '            requests:', '              cpu: 50m', '              memory: 64Mi', '          readinessProbe:', '            httpGet:',
        '              path: /healthz', '              port: 80', ...(i % 20 === 0 ? ['          imagePullPolicy: Sometimes'] : []),
      ]; break;
      case 1: doc = [
        'apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, 'spec:', '  restartPolicy: Always', '  containers:', '    - name: main',
        `      image: busybox:1.${i % 36}`, '      command: ["sh", "-c", "sleep 3600"]', '      resources:', '        limits:', '          cpu: 100m',
        '          memory: 32Mi', ...(i % 20 === 1 ? ['      imagee: typo'] : []), ...(i % 10 === 5 ? ['  nodeSelector:', '    disk: ssd'] : []),
      ]; break;
      case 2: doc = [
        'apiVersion: v1', 'kind: Service', 'metadata:', `  name: ${name}`, 'spec:', '  selector:', `    app: app-${i - 2}`, '  ports:', '    - port: 80',
        '      targetPort: 80', '      protocol: TCP',
      ]; break;
      default: doc = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, 'data:', '  LOG_LEVEL: info', `  INSTANCE: "${i}"`];
    }
    docs.push(doc.join('\n'));
    lines += doc.length + 1;
    bytes += docs.at(-1).length + 5;
  }
  return `${docs.join('\n---\n')}\n`;
}

/** Server is one language server spawned over stdio with a JSON-RPC connection. */
class Server {
  constructor(name, args, settings) {
    this.name = name;
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.waiting = new Map();
    this.connection.onNotification('textDocument/publishDiagnostics', (p) => this.waiting.get(p.uri)?.(p));
    this.connection.onRequest('workspace/configuration', (params) => params.items.map((item) => (item.section ? item.section.split('.').reduce((v, k) => v?.[k], settings) : settings) ?? null));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification(() => undefined);
    this.connection.listen();
    this.settings = settings;
  }

  async initialize(workspace) {
    await this.connection.sendRequest('initialize', {
      processId: process.pid, rootUri: pathToFileURL(workspace).href, workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'bench' }],
      capabilities: { workspace: { configuration: true }, textDocument: { completion: { completionItem: { snippetSupport: true } }, hover: { contentFormat: ['markdown'] } } },
    });
    this.connection.sendNotification('initialized', {});
    this.connection.sendNotification('workspace/didChangeConfiguration', { settings: this.settings });
  }

  /**
   * diagnose opens a document and returns the milliseconds until its first diagnostics arrive and until the complete
   * ones (those that pass `complete`: ours come in two publishes, the cluster's warnings in the second) arrive.
   */
  async diagnose(uri, text, complete = () => true) {
    const start = performance.now();
    const cpuStart = cpuMs(this.child.pid);
    const cpu = () => (cpuStart === undefined ? undefined : cpuMs(this.child.pid) - cpuStart);
    let first;
    const published = new Promise((resolve) => this.waiting.set(uri, (p) => {
      first ??= { ms: performance.now() - start, cpu: cpu(), count: p.diagnostics.length };
      if (complete(p)) resolve(p);
    }));
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const p = await published;
    return { first, ms: performance.now() - start, cpu: cpu(), count: p.diagnostics.length };
  }

  /** latencies times one request at each position and returns the milliseconds, sorted. */
  async latencies(method, uri, positions) {
    const out = [];
    for (const position of positions) {
      const start = performance.now();
      await this.connection.sendRequest(method, { textDocument: { uri }, position });
      out.push(performance.now() - start);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * busy opens a document and, until its diagnostics pass `complete`, sends one request after the other, taking the
   * (method, positions) pairs in turn (at most `limit` requests); it returns each method's milliseconds, sorted, how
   * many were answered before the complete diagnostics came, and the time they took.
   */
  async busy(uri, text, requests, complete, limit = SAMPLES * 2) {
    const start = performance.now();
    let done = false;
    const published = new Promise((resolve) => this.waiting.set(uri, (p) => {
      if (complete(p)) resolve(p);
    })).then(() => { done = true; });
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const latencies = new Map(requests.map(([method]) => [method, []]));
    let answeredBefore = 0;
    for (let k = 0; !done && k < limit; k++) {
      const [method, positions] = requests[k % requests.length];
      const t = performance.now();
      await this.connection.sendRequest(method, { textDocument: { uri }, position: positions[Math.floor(k / requests.length) % positions.length] });
      latencies.get(method).push(performance.now() - t);
      if (!done) answeredBefore++;
    }
    await published;
    for (const list of latencies.values()) list.sort((a, b) => a - b);
    return { latencies, answeredBefore, completeMs: performance.now() - start };
  }

  /** rss is the server process's resident memory in MB (every thread of it), or undefined where /proc is not there. */
  rss() {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'))?.[1]);
      return kb / 1024;
    } catch {
      return undefined;
    }
  }

  close(uri) {
    this.waiting.delete(uri);
    this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async stop() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.connection.sendRequest('shutdown');
    this.connection.sendNotification('exit');
    await exited;
    this.connection.dispose();
  }
}

/** CLOCK_TICKS is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** cpuMs reads the CPU time (user + system) a process has used so far, or undefined where /proc is not there. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

const p95 = (sorted) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

const workspace = mkdtempSync(join(tmpdir(), 'pod-lifecycle-bench-'));
const schemaFile = join(workspace, 'kubernetes.schema.json');
writeFileSync(schemaFile, JSON.stringify(kubernetesJsonSchema()));
const text = manifestFile();
const lineCount = text.split('\n').length - 1;
const documentCount = text.split('\n---\n').length;
const ours = new Server('pod-lifecycle', [SERVER, '--stdio'], { podLifecycle: {} });
const theirs = new Server('yaml-language-server', [require.resolve('yaml-language-server/bin/yaml-language-server'), '--stdio'], {
  yaml: {
    validate: true, hover: true, completion: true, format: { enable: false }, schemaStore: { enable: false }, kubernetesCRDStore: { enable: false },
    schemas: { [pathToFileURL(schemaFile).href]: '*.yaml' }, maxItemsComputed: 1_000_000,
  },
});
await Promise.all([ours.initialize(workspace), theirs.initialize(workspace)]);
const rss = { ours: { baseline: ours.rss(), peak: 0 }, theirs: { baseline: theirs.rss(), peak: 0 } };
// A small file opened, validated and closed first: the memory of a server that has done the work once (its code
// compiled, the cluster read), which a closed large file should bring it back to.
const small = `${text.split('\n---\n', 8).join('\n---\n')}\n`;
for (const [key, server] of [['ours', ours], ['theirs', theirs]]) {
  const uri = pathToFileURL(join(workspace, `small-${key}.yaml`)).href;
  await server.diagnose(uri, small, key === 'ours' ? (p) => p.diagnostics.some((d) => d.code === 'scheduling') : undefined);
  server.close(uri);
}
await new Promise((resolve) => setTimeout(resolve, 12_000));
rss.ours.warm = ours.rss();
rss.theirs.warm = theirs.rss();
const sampleRss = setInterval(() => {
  rss.ours.peak = Math.max(rss.ours.peak, ours.rss() ?? 0);
  rss.theirs.peak = Math.max(rss.theirs.peak, theirs.rss() ?? 0);
}, 100);

// The warm-up run is left out of the figures; a run of the 5 MB file is long enough to need none.
const warmUps = MEGABYTES > 0 ? 0 : 1;
console.log(`file: ${lineCount} lines, ${(text.length / 1024 / 1024).toFixed(1)} MB, ${documentCount} documents (Deployments, Pods, Services, ConfigMaps); ${RUNS} runs after ${warmUps ? 'one warm-up' : 'no warm-up'}, alternating; server ${SERVER}`);
const times = { ours: [], oursComplete: [], theirs: [] };
const cpu = { ours: [], oursComplete: [], theirs: [] };
const counts = {};
// The file has pods no node fits: our complete diagnostics are those with the scheduler's warnings.
const withScheduling = (p) => p.diagnostics.some((d) => d.code === 'scheduling');
for (let run = 1 - warmUps; run <= RUNS; run++) {
  const order = run % 2 === 0 ? [['ours', ours], ['theirs', theirs]] : [['theirs', theirs], ['ours', ours]];
  for (const [key, server] of order) {
    const uri = pathToFileURL(join(workspace, `run-${run}-${key}.yaml`)).href;
    const result = await server.diagnose(uri, text, key === 'ours' ? withScheduling : undefined);
    server.close(uri);
    counts[key] = { first: result.first.count, complete: result.count };
    if (run === 0) continue;
    times[key].push(result.first.ms);
    cpu[key].push(result.first.cpu);
    if (key === 'ours') {
      times.oursComplete.push(result.ms);
      cpu.oursComplete.push(result.cpu);
    }
  }
}
// yaml-language-server waits validationDelayMs (200 ms) after a document opens before it validates; ours validates an
// opened document at once and debounces only edits. Both ratios are shown.
const DELAY = 200;
const ratio = (a, b) => `${(a / b).toFixed(2)}x, or ${(a / Math.max(1, b - DELAY)).toFixed(2)}x without its ${DELAY} ms open delay`;
const ourMs = median(times.ours);
const completeMs = median(times.oursComplete);
const theirMs = median(times.theirs);
console.log(`yaml-language-server, open to diagnostics (median): ${fmt(theirMs)} (${counts.theirs.complete} diagnostics)`);
console.log(`pod-lifecycle, open to first diagnostics (YAML, decoding, validation, hints; median): ${fmt(ourMs)} (${counts.ours.first} diagnostics)`);
console.log(`pod-lifecycle, open to complete diagnostics (with admission and scheduling on the cluster; median): ${fmt(completeMs)} (${counts.ours.complete} diagnostics)`);
console.log(`ratio, first diagnostics: ${ratio(ourMs, theirMs)} (target <= 0.25x)`);
console.log(`ratio, complete diagnostics: ${ratio(completeMs, theirMs)} (target <= ${MEGABYTES > 0 ? 2 : 1}x)`);
// CPU time each server process spent, which a busy machine does not inflate as it does wall time.
if (cpu.ours[0] !== undefined) {
  const [a, b, c] = [median(cpu.ours), median(cpu.oursComplete), median(cpu.theirs)];
  console.log(`CPU time (median): pod-lifecycle first ${fmt(a)}, complete ${fmt(b)}; yaml-language-server ${fmt(c)}; ratios ${(a / c).toFixed(2)}x first, ${(b / c).toFixed(2)}x complete`);
}

// Hover and completion: keys spread over the whole file.
const lines = text.split('\n');
const keyLines = lines.map((l, i) => [l, i]).filter(([l]) => /^\s+[a-zA-Z]+:/.test(l));
const step = Math.max(1, Math.floor(keyLines.length / SAMPLES));
const hoverAt = keyLines.filter((_, k) => k % step === 0).slice(0, SAMPLES).map(([l, i]) => ({ line: i, character: l.search(/\S/) + 1 }));
const completeAt = keyLines.filter((_, k) => k % step === 0).slice(0, SAMPLES).map(([l, i]) => ({ line: i, character: l.length }));
const requests = [['textDocument/hover', hoverAt], ['textDocument/completion', completeAt]];

// While our validation of the whole file runs: each request as soon as the one before it is answered.
const uri = pathToFileURL(join(workspace, 'requests.yaml')).href;
const busy = await ours.busy(uri, text, requests, withScheduling);
for (const [method, latencies] of busy.latencies) {
  console.log(`${method.split('/')[1]} p95 over ${latencies.length} requests while the complete diagnostics were computing: pod-lifecycle ${fmt(p95(latencies) ?? 0)}, max ${fmt(latencies.at(-1) ?? 0)} (target < 20 ms)`);
}
console.log(`  (${busy.answeredBefore} requests answered before the complete diagnostics came, ${fmt(busy.completeMs)} after the open)`);

// Once both servers have validated the file.
await theirs.diagnose(uri, text);
for (const [method, positions] of requests) {
  const a = await ours.latencies(method, uri, positions);
  const b = await theirs.latencies(method, uri, positions);
  console.log(`${method.split('/')[1]} p95 over ${positions.length} requests once validated: pod-lifecycle ${fmt(p95(a))} (target < 20 ms), yaml-language-server ${fmt(p95(b))}`);
}
ours.close(uri);
theirs.close(uri);

// Memory once every document is closed: 5 s later, and 15 s later (our diagnostics worker stops 10 s after the last
// document closed, giving back all it held).
await new Promise((resolve) => setTimeout(resolve, 5000));
clearInterval(sampleRss);
const after5 = { ours: ours.rss(), theirs: theirs.rss() };
await new Promise((resolve) => setTimeout(resolve, 10_000));
const mb = (v) => (v === undefined ? '?' : `${v.toFixed(0)} MB`);
for (const [name, server, key] of [['pod-lifecycle', ours, 'ours'], ['yaml-language-server', theirs, 'theirs']]) {
  console.log(`RSS of ${name}: ${mb(rss[key].baseline)} after initialize, ${mb(rss[key].warm)} after a small file was validated and closed, ${mb(rss[key].peak)} at the peak; after closing every document: ${mb(after5[key])} 5 s later, ${mb(server.rss())} 15 s later`);
}
await Promise.all([ours.stop(), theirs.stop()]);
