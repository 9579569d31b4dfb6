// The emulated kubectl's -v=6, -v=8 and -v=9 logs against the real kubectl's, applying the same pod to `pod-lifecycle
// serve`: both logs are klog lines that open with the kubeconfig loaded, ask the same questions in the same order
// (OpenAPI, then discovery, then the object) with the same answers, and end with apply's post-processor; at -v=8 both
// log the OpenAPI and discovery documents' bodies, the same bytes cut alike; a second kubectl reads discovery from its
// disk cache. The real kubectl on PATH may be older than 1.36 and word its lines in the older
// format (`GET URL 200 OK in 5 milliseconds`): the shape is compared, not the wording nor the source lines.
// kubectl must be on PATH: without it this fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServeProcess, startServe } from './serve-process';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const POD = join(ROOT, 'test', 'fixtures', 'kubectl-verbosity', 'pod.yaml');
const POD_V2 = join(ROOT, 'test', 'fixtures', 'kubectl-verbosity', 'pod-v2.yaml');

let served: ServeProcess;
/** homes are the real kubectl's home directories, one per test: each ~/.kube/cache starts empty. */
const homes: string[] = [];
const newHome = (): string => {
  homes.push(mkdtempSync(join(tmpdir(), 'pod-lifecycle-kubectl-home-')));
  return homes.at(-1)!;
};

before(async () => {
  served = await startServe('verbosity', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n');
});

after(() => {
  served?.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** realKubectl runs the real kubectl with the served kubeconfig and its own home; its stderr. */
function realKubectl(home: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: served.kubeconfig, HOME: home }, timeout: 90_000 }, (err, _stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('kubectl is not on PATH: this test compares our kubectl with the real one'));
      if (err) return reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr}`));
      resolve(stderr);
    });
  });
}

/** KLOG_HEADER is a klog header: severity, date, time to the microsecond, thread id, file:line. */
const KLOG_HEADER = /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [\w.-]+\.go:\d+\] /;

/** Exchange is one answer as a -v=6 line tells it, in either wording: verb, path (host left out), status. */
type Exchange = [verb: string, path: string, status: string];

/** exchanges reads the answers from a -v=6 log, either kubectl's 1.36 structured line or the older Infof one. */
function exchanges(log: string): Exchange[] {
  const out: Exchange[] = [];
  for (const line of log.split('\n')) {
    const structured = /\] "Response" verb="(\w+)" url="https:\/\/[^/]+([^"]*)" status="([^"]+)" milliseconds=\d+$/.exec(line);
    const older = /\] (GET|POST|PATCH|PUT|DELETE) https:\/\/[^/ ]+(\S*) (\d{3} [^]*?) in \d+ milliseconds$/.exec(line);
    const m = structured ?? older;
    if (m) out.push([m[1]!, m[2]!.replace(/hash=[0-9A-F]+/, 'hash=H'), m[3]!]);
  }
  // serve answers discovery in the aggregated form, as the simulated kube-apiserver does: /api and /apis, no group-version.
  return out;
}

/** shapeOf is a log's first and last line without their headers (the file name left out), and whether every line has one. */
function shapeOf(log: string): { first: string; last: string; headed: boolean } {
  const lines = log.split('\n').filter((l) => l !== '');
  return {
    first: lines[0]!.replace(KLOG_HEADER, '').replace(/ {2}\S+$/, '  FILE'),
    last: lines.at(-1)!.replace(KLOG_HEADER, ''),
    headed: lines.every((l) => KLOG_HEADER.test(l)),
  };
}

/** ours runs pod-lifecycle with the kubectl command line and returns kubectl's log (stderr). */
function ours(argv: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'run', '--', 'kubectl', ...argv], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', HOME: '/home/dev' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stderr;
}

test('kubectl apply -f at -v=6: the same klog lines, questions, order and answers as the real kubectl against serve', async () => {
  const real = await realKubectl(newHome(), ['apply', '-f', POD, '-v=6']);
  const emulated = ours(['apply', '-f', POD, '-v=6']);
  const expected: Exchange[] = [
    ['GET', '/openapi/v3?timeout=32s', '200 OK'],
    ['GET', '/openapi/v3/api/v1?hash=H&timeout=32s', '200 OK'],
    ['GET', '/api?timeout=32s', '200 OK'],
    ['GET', '/apis?timeout=32s', '200 OK'],
    ['GET', '/api/v1/namespaces/default/pods/web', '404 Not Found'],
    ['POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', '201 Created'],
  ];
  assert.deepEqual(exchanges(real), expected);
  assert.deepEqual(exchanges(emulated), expected);
  // Both open with the kubeconfig loaded and end with apply's post-processor; every line has klog's header.
  const want = { first: 'Config loaded from file:  FILE', last: 'Running apply post-processor function', headed: true };
  assert.deepEqual(shapeOf(real), want);
  assert.deepEqual(shapeOf(emulated), want);
});

/** bodies are a -v=8 log's "Response Body" values, in order, as klog wrote them (Go-quoted, or the multi-line form's first line). */
const bodies = (log: string): string[] => [...log.matchAll(/"Response Body" body=(.*)$/gm)].map((m) => m[1]!);

/** cut is how many bytes a logged body says were left out, or undefined when it is whole. */
const cut = (body: string): number | undefined => {
  const m = /\[truncated (\d+) chars\]"$/.exec(body);
  return m ? Number(m[1]) : undefined;
};

test('kubectl apply -f at -v=8: the same answers\' bodies as the real kubectl against serve, the OpenAPI and discovery documents byte for byte, cut at 1024 bytes alike', async () => {
  // A pod of its own, which neither the served cluster nor ours holds yet: a 404, then the POST.
  const pod = served.file('web8.yaml', readFileSync(POD, 'utf8').replace('name: web', 'name: web8'));
  const real = await realKubectl(newHome(), ['apply', '-f', pod, '-v=8']);
  const emulated = ours(['apply', '-f', pod, '-v=8']);
  const [realBodies, ourBodies] = [bodies(real), bodies(emulated)];
  // The index, the api/v1 document, /api, /apis, the pod's 404 and the created pod, each with its body.
  assert.equal(realBodies.length, 6);
  assert.equal(ourBodies.length, 6);
  // The four documents are served the same whatever the cluster holds: the same bytes, cut at the same place.
  assert.deepEqual(ourBodies.slice(0, 4), realBodies.slice(0, 4));
  assert.ok(realBodies.slice(0, 4).every((b) => cut(b) !== undefined && JSON.parse(b).length === 1024 + ` [truncated ${cut(b)} chars]`.length));
  // The pod's answers differ in its uid, times and names, not in whether they were cut.
  assert.deepEqual(ourBodies.slice(4).map((b) => cut(b) !== undefined), realBodies.slice(4).map((b) => cut(b) !== undefined));
  // The discovery answers' ETags are serve's, computed alike (serve sends none with its OpenAPI answers).
  const etags = (log: string) => [...log.matchAll(/Etag: "([0-9A-F]{128})"$/gm)].map((m) => m[1]);
  assert.equal(etags(real).length, 2);
  assert.deepEqual(etags(emulated).slice(-2), etags(real));
});

test('A second kubectl apply reads discovery from the disk cache the first wrote, for the real kubectl as for ours', async () => {
  // The real kubectl: a first apply fills its cache (the pod may be there already), a second changes the pod.
  const home = newHome();
  assert.ok(exchanges(await realKubectl(home, ['apply', '-f', POD, '-v=6'])).some(([, path]) => path === '/apis?timeout=32s'));
  const real = exchanges(await realKubectl(home, ['apply', '-f', POD_V2, '-v=6']));
  assert.deepEqual(real.map(([verb, path]) => `${verb} ${path.replace(/\?.*/, '')}`), ['GET /openapi/v3', 'GET /openapi/v3/api/v1', 'GET /api/v1/namespaces/default/pods/web', 'PATCH /api/v1/namespaces/default/pods/web']);
  // Ours: the run's later kubectl apply, from its trace.
  const r = spawnSync(process.execPath, [CLI, 'run', POD, '--then-apply', `5s,${POD_V2}`, '--json', '--trace', 'full'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const trace = (JSON.parse(r.stdout) as { trace: { at: number; phase: string; result: string }[] }).trace;
  const later = trace.filter((e) => e.at === 5 && e.phase === 'kubectl.validate').map((e) => e.result.replace(/ — .*|: 200 OK|\?.*/g, ''));
  assert.deepEqual(later.slice(0, 3), ['GET https://192.168.49.2:6443/openapi/v3', 'GET https://192.168.49.2:6443/openapi/v3/api/v1', 'discovery: read from the cache in ~/.kube/cache/discovery/192.168.49.2_6443, fresh for 6h: no request sent']);
});

/** Curl is one -v=9 request as its curl command tells it: verb, path, and the -H flags sorted (Go's map order varies). */
type Curl = [verb: string, path: string, headers: string[]];

/**
 * curls reads the curl commands from a -v=9 log: kubectl 1.36 logs each as the multi-line value of "Request"
 * (a tab-indented line), older ones as an Infof line of its own. The User-Agent's version is left out.
 */
function curls(log: string): Curl[] {
  const out: Curl[] = [];
  for (const line of log.split('\n')) {
    const m = /(?:\] |^\t)curl -v -X(\w+) ((?: -H "[^"]*")*) 'https:\/\/[^/]+([^']*)'$/.exec(line);
    if (!m) continue;
    const headers = [...m[2]!.matchAll(/-H "([^"]*)"/g)].map((h) => h[1]!.replace(/^User-Agent: .*/, 'User-Agent: UA')).sort();
    out.push([m[1]!, m[3]!, headers]);
  }
  return out.filter(([, path]) => !/^\/(api\/v1|apis\/[^/?]+\/[^/?]+)\?timeout=32s$/.test(path));
}

/** timings counts a -v=9 log's answers that carry the connection's timings, in either wording. */
const timings = (log: string): number => log.split('\n').filter((l) => /HTTP Statistics: .* Duration \d+ ms$|serverProcessingMilliseconds=\d+$/.test(l)).length;

test('kubectl run at -v=9: the same curl commands with the same headers, each answer with its timings, the bodies whole, for the real kubectl as for ours', async () => {
  const real = await realKubectl(newHome(), ['run', 'web9', '--image=nginx:1.27', '-v=9']);
  const emulated = ours(['run', 'web9', '--image=nginx:1.27', '-v=9']);
  const discovery = 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  const expected: Curl[] = [
    ['GET', '/api?timeout=32s', [discovery, 'User-Agent: UA']],
    ['GET', '/apis?timeout=32s', [discovery, 'User-Agent: UA']],
    ['POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', ['Accept: application/json, */*', 'Content-Type: application/json', 'User-Agent: UA']],
  ];
  assert.deepEqual(curls(real), expected);
  assert.deepEqual(curls(emulated), expected);
  // Every request sent has its answer logged with the timings (the real kubectl's legacy discovery counted too).
  for (const log of [real, emulated]) {
    const sent = log.split('\n').filter((l) => /(?:\] |^\t)curl -v -X/.test(l)).length;
    assert.equal(timings(log), sent);
    // The created pod's body (more than 1024 bytes, less than 10240) is logged whole: with the JSON encoder's line
    // break at its end, as a multi-line value (`body=<`, the body on a tab-indented line, ` >`).
    const created = /helper\.go:\d+\] "Response Body" body=<\n\t(.*)\n >$/m.exec(log)?.[1] ?? '';
    assert.ok(created.length > 1024, created);
    assert.doesNotMatch(created, /\[truncated \d+ chars\]/);
  }
});
