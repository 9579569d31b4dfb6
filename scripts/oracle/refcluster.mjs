// The reference side: one refcluster process (.cache/oracle/refcluster) per distinct list of cluster files, reset
// between cases, and the real kubectl driven against it.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { apiClient } from './api-client.mjs';
import { BIN, KUBECTL, ROOT, WORK, YAML, jsonStream, run, sleep, stage } from './common.mjs';

export class RefCluster {
  /** start launches refcluster and resolves once it prints `ready`; with podsRun, its stand-in kubelet runs the pods. */
  static async start(clusterFiles, logFile, podsRun = false) {
    const args = ['--embedded', join(ROOT, 'src/engine/cluster/default-cluster.yaml'), ...clusterFiles.flatMap((f) => ['--cluster', join(ROOT, f)]), ...(podsRun ? ['--pods-run'] : [])];
    const proc = spawn(BIN, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stdin.on('error', () => { /* it has exited: the next request says so */ });
    const log = [];
    proc.stderr.on('data', (d) => log.push(d));
    const lines = createInterface({ input: proc.stdout });
    const self = new RefCluster(proc, lines, log, logFile);
    const info = {};
    const started = Date.now();
    await new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error('refcluster did not get ready in 5 minutes')), 300_000);
      proc.on('exit', (code) => { clearTimeout(timer); rej(new Error(`refcluster exited ${code} before ready; see ${logFile}`)); });
      lines.on('line', (line) => {
        const [k, ...v] = line.split(' ');
        if (k === 'ready') { clearTimeout(timer); res(); } else if (k === 'reset') self.onReset?.(); else info[k] = v.join(' ');
      });
    }).catch((e) => { self.saveLog(); throw e; });
    self.info = info;
    self.startSeconds = (Date.now() - started) / 1000;
    self.prepareKubeconfigs();
    return self;
  }

  constructor(proc, lines, log, logFile) { Object.assign(this, { proc, lines, log, logFile }); }

  saveLog() { writeFileSync(this.logFile, Buffer.concat(this.log)); }

  /**
   * prepareKubeconfigs writes a kubeconfig without credentials (for --token), one for anonymous requests, and the
   * masters' one. Real kubectl prompts for a username when the kubeconfig's user has no credentials at all, so the
   * anonymous one names a user without a password: client-go sends a Basic header, which no authenticator of
   * kube-apiserver reads, and the request is anonymous.
   */
  prepareKubeconfigs() {
    const admin = YAML.parse(readFileSync(this.info.kubeconfig, 'utf8'));
    this.bare = join(this.info.dir, 'bare.kubeconfig');
    writeFileSync(this.bare, YAML.stringify({ ...admin, users: [{ name: 'user', user: {} }] }));
    this.anonymous = join(this.info.dir, 'anonymous.kubeconfig');
    writeFileSync(this.anonymous, YAML.stringify({ ...admin, users: [{ name: 'user', user: { username: 'anonymous' } }] }));
    this.masters = join(this.info.dir, 'refcluster.kubeconfig');
    const key = (n) => readFileSync(join(this.info.dir, n)).toString('base64');
    writeFileSync(this.masters, YAML.stringify({ ...admin, users: [{ name: 'user', user: { 'client-certificate-data': key('refcluster.crt'), 'client-key-data': key('refcluster.key') } }] }));
  }

  /** kubeconfigFor turns a fixture kubeconfig into one for this cluster: its user's credentials, our server and CA. */
  kubeconfigFor(file) {
    const src = YAML.parse(readFileSync(join(ROOT, file), 'utf8'));
    const ctx = (src.contexts ?? []).find((x) => x.name === src['current-context'])?.context ?? {};
    const user = { ...((src.users ?? []).find((u) => u.name === ctx.user)?.user ?? {}) };
    for (const [f, d] of [['client-certificate', 'client-certificate-data'], ['client-key', 'client-key-data']]) {
      if (user[f]) { user[d] = readFileSync(resolve(dirname(join(ROOT, file)), user[f])).toString('base64'); delete user[f]; }
    }
    const admin = YAML.parse(readFileSync(this.info.kubeconfig, 'utf8'));
    const out = join(this.info.dir, file.replace(/[^a-zA-Z0-9.]/g, '_'));
    writeFileSync(out, YAML.stringify({ ...admin, users: [{ name: 'user', user }] }));
    return out;
  }

  /** kubectlIdentity turns the engine's identity flags into kubectl's. */
  kubectlIdentity(id = []) {
    const out = [];
    let kubeconfig = this.info.kubeconfig;
    for (let i = 0; i < id.length; i++) {
      const [flag, value] = [id[i], id[i + 1]];
      if (flag === '--anonymous') kubeconfig = this.anonymous;
      else if (flag === '--token') { kubeconfig = this.bare; out.push('--token', value); i++; }
      else if (flag === '--kubeconfig') { kubeconfig = this.kubeconfigFor(value); i++; }
      else if (flag === '--as' || flag === '--as-group') { out.push(flag, value); i++; }
    }
    return ['--kubeconfig', kubeconfig, ...out];
  }

  kubectl(args, identity = ['--kubeconfig', this.masters]) {
    return run(KUBECTL, [...identity, ...args], { cwd: WORK });
  }

  /** send writes a line to refcluster's stdin (`kubelet-down NODE`). */
  send(line) {
    if (this.proc.exitCode === null) this.proc.stdin.write(`${line}\n`);
  }

  /** watchPods watches every pod until stop(), which returns the watch events seen ({type, object}). */
  watchPods() {
    const proc = spawn(KUBECTL, ['--kubeconfig', this.masters, 'get', 'pods', '-A', '--watch', '--output-watch-events', '-o', 'json'], { cwd: WORK, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks = [];
    proc.stdout.on('data', (d) => chunks.push(d));
    return { stop: () => { proc.kill(); return jsonStream(Buffer.concat(chunks).toString('utf8')); } };
  }

  async reset() {
    if (this.proc.exitCode !== null) throw new Error(`refcluster exited ${this.proc.exitCode}; see ${this.logFile}`);
    const done = new Promise((res) => { this.onReset = res; });
    this.proc.stdin.write('reset\n');
    await Promise.race([done, sleep(30_000)]);
  }

  async stop() {
    this.proc.stdin.end();
    await Promise.race([new Promise((r) => this.proc.on('exit', r)), sleep(20_000)]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
    this.saveLog();
  }
}

/** KLOG is a klog header; kubectl -v lines start with one. */
export const KLOG = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]]+\] ?/;

/**
 * splitVerbose separates what kubectl printed from its -v=9 log, and finds the Status bodies the server answered.
 * A log entry is a klog header line, and its value's lines when it has one (`body=<` ... ` >`, or a `[{` ... `}]` dump).
 */
export function splitVerbose(stderr) {
  const printed = [];
  const failures = []; // each failed response in order: method, url, code, and its Status body when it was JSON
  let until = null;
  for (const line of stderr.split('\n')) {
    if (until) {
      if (line.trim() === until) until = null;
      else if (line.startsWith('\t{"kind":"Status"') && failures.length) {
        try { failures.at(-1).status ??= JSON.parse(line.trim()); } catch { /* not whole */ }
      }
      continue;
    }
    if (KLOG.test(line)) {
      const resp = /\] (GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3}) /.exec(line);
      if (resp && Number(resp[3]) >= 400) failures.push({ method: resp[1], url: resp[2], code: Number(resp[3]) });
      if (/=<\s*$/.test(line)) until = '>';
      else if (/\[\{\s*$/.test(line)) until = '}]';
      continue;
    }
    printed.push(line);
  }
  return { printed: printed.join('\n').trim(), failures };
}

/** refApply runs `kubectl apply -f` as the case's identity; what it printed and the last failed Status. */
export function refApply(ref, c) {
  const r = ref.kubectl(['apply', '-f', c.manifest, '-v=9'], ref.kubectlIdentity(c.id));
  const { printed, failures } = splitVerbose(r.stderr);
  const text = [r.stdout.trim(), printed].filter(Boolean).join('\n');
  // What kubectl printed, in the order it printed it: warnings and errors go to stderr, results to stdout.
  const kubectl = [printed.split('\n').filter((l) => l.startsWith('Warning:')).join('\n'), r.stdout.trim(),
    printed.split('\n').filter((l) => l && !l.startsWith('Warning:')).join('\n')].filter(Boolean).join('\n');
  // The last failed request's Status; a body kubectl asked for as protobuf (the OpenAPI v2 download) is read again
  // as JSON with `kubectl get --raw`, whose error line carries the reason and message.
  const last = failures.at(-1);
  let status = last?.status;
  if (last && !status && last.method === 'GET') {
    const raw = ref.kubectl(['get', '--raw', new URL(last.url).pathname], ref.kubectlIdentity(c.id));
    const m = /^Error from server \((\w+)\): (.*)$/m.exec(raw.stderr);
    // kubectl words a 401 its own way: then the Status of an earlier request that failed alike stands for it.
    status = m ? { code: last.code, reason: m[1], message: m[2] } : failures.filter((f) => f.status?.code === last.code).at(-1)?.status;
  }
  return { exit: r.status, kubectl, text, status };
}

/** refThenApply stages a case's later manifest and applies it as the case's identity; what kubectl printed. */
export function refThenApply(ref, c) {
  stage(c.thenApply.file);
  const r = ref.kubectl(['apply', '-f', c.thenApply.file], ref.kubectlIdentity(c.id));
  return [r.stdout.trim(), r.stderr.trim()].filter(Boolean).join('\n');
}

/**
 * refDrain sends one eviction of the node's first pod (by name) through the API, whose answer the budget should refuse,
 * then runs `kubectl drain NODE --timeout=T` with its stdout and stderr in one pipe, as a terminal shows them.
 */
export async function refDrain(ref, { node, timeout }) {
  const pod = refList(ref, 'pods').filter((p) => p.spec?.nodeName === node && p.metadata.namespace === 'default').sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0];
  let eviction;
  if (pod) {
    const client = apiClient(ref.masters);
    const { name, namespace } = pod.metadata;
    try {
      eviction = (await client.send('POST', `/api/v1/namespaces/${namespace}/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } })).body;
    } finally { client.close(); }
  }
  const r = run('sh', ['-c', `"$0" --kubeconfig "$1" drain "$2" --timeout="$3" 2>&1`, KUBECTL, ref.masters, node, timeout], { cwd: WORK });
  return { eviction, output: r.stdout.trim() };
}

/** refGet reads one object back as the API server stores it. */
export function refGet(ref, kind, name, ns) {
  const r = ref.kubectl(['get', kind, name, ...(ns ? ['-n', ns] : []), '-o', 'json']);
  return r.status === 0 ? JSON.parse(r.stdout) : undefined;
}

/** refList lists a kind (all namespaces). */
export function refList(ref, kind) {
  const r = ref.kubectl(['get', kind, '-A', '-o', 'json']);
  return r.status === 0 ? JSON.parse(r.stdout).items : [];
}
