// kubectl's caches across the kubectl commands of one run, as a process: the first kubectl fetches discovery and the
// OpenAPI v3 documents and stores them (~/.kube/cache/discovery, ~/.kube/cache/http); a later `--then-apply` reads
// discovery from the disk, revalidates the OpenAPI v3 index (304, the stored answer handed back) and takes the hashed
// document from the HTTP cache with no request. Its -v=N log (the run's kubectl's -v) and the trace say which.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, type Report } from './harness';

const F = 'test/fixtures/kubectl-verbosity';
const URL = 'https://192.168.49.2:6443';
const HOME = '/home/dev';
const HASH = 'C3CAD0E8059E9D75B80AE69B99011FD895159313503A39C34841042E0441F5EFBBC46E1D5DCEB1ED28AD962121CF90EA6A3122D809707910B371C8D6EC211814';
const DOC = `/openapi/v3/api/v1?hash=${HASH}&timeout=32s`;

/** run is `pod-lifecycle run --then-apply 5s,pod-v2.yaml [--json] -- kubectl apply -f pod.yaml -v=N` with a fixed HOME. */
function run(v: number, json = false): { status: number | null; stdout: string; stderr: string } {
  const args = [CLI, 'run', '--then-apply', `5s,${F}/pod-v2.yaml`, ...(json ? ['--json', '--trace', 'full'] : []), '--', 'kubectl', 'apply', '-f', `${F}/pod.yaml`, `-v=${v}`];
  // -v=10 logs the OpenAPI documents whole, twice: megabytes.
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', HOME }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`pod-lifecycle did not finish: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** later is the log of the run's later kubectl: from its kubeconfig line at 00:00:05, the feature gates left out. */
function later(stderr: string): string[] {
  const lines = stderr.split('\n');
  return lines.slice(lines.findIndex((l) => l.startsWith('I0101 00:00:05.000000') && l.includes('loader.go:407]'))).filter((l) => l !== '' && !l.includes('envvar.go:195]'));
}

/** answer is the block of a -v=8 answer to `path`: its status line and its headers, up to the milliseconds. */
function answer(log: readonly string[], path: string): string[] {
  const at = log.findIndex((l) => l.includes(`"Request" verb="GET" url="${URL}${path}"`));
  const from = log.findIndex((l, i) => i > at && l.includes('"Response"'));
  const to = log.findIndex((l, i) => i > from && l.startsWith(' > milliseconds='));
  return log.slice(from, to + 1).map((l) => l.replace(/^I0101 00:00:0\d\.000000 {7}1 /, ''));
}

test('A later kubectl apply at -v=6 logs the OpenAPI answers the HTTP cache gave and no discovery request', () => {
  const r = run(6);
  assert.equal(r.status, 0);
  const head = 'I0101 00:00:05.000000       1 ';
  const response = (verb: string, path: string) => `${head}round_trippers.go:632] "Response" verb="${verb}" url="${URL}${path}" status="200 OK" milliseconds=0`;
  assert.deepEqual(later(r.stderr), [
    `${head}loader.go:407] Config loaded from file:  ${HOME}/.kube/config`,
    response('GET', '/openapi/v3?timeout=32s'),
    response('GET', DOC),
    response('GET', '/api/v1/namespaces/default/pods/web'),
    response('PATCH', '/api/v1/namespaces/default/pods/web?fieldManager=kubectl-client-side-apply&fieldValidation=Strict'),
    `${head}apply.go:546] Running apply post-processor function`,
  ]);
});

test('At -v=8 the revalidated index and the hashed document come marked X-From-Cache, the document with the Audit-Id and Date it was stored with', () => {
  const r = run(8);
  assert.equal(r.status, 0);
  const all = r.stderr.split('\n');
  const first = answer(all, DOC);
  const etag = (path: string) => `\tEtag: "${path}"`;
  // The first kubectl's answer, as httpcache stores it: X-Varied-Accept added, since the document varies by Accept.
  assert.deepEqual(first.slice(2), [
    '\tCache-Control: public, immutable', '\tContent-Type: application/json', '\tDate: Thu, 01 Jan 2026 00:00:00 GMT', etag(HASH),
    '\tExpires: Fri, 01 Jan 2027 00:00:00 UTC', '\tVary: Accept', '\tX-Varied-Accept: application/json', ' > milliseconds=0',
  ]);
  const second = answer(later(r.stderr), DOC);
  assert.deepEqual(second, [
    'round_trippers.go:632] "Response" status="200 OK" headers=<', first[1]!,
    '\tCache-Control: public, immutable', '\tContent-Type: application/json', '\tDate: Thu, 01 Jan 2026 00:00:00 GMT', etag(HASH),
    '\tExpires: Fri, 01 Jan 2027 00:00:00 UTC', '\tVary: Accept', '\tX-From-Cache: 1', '\tX-Varied-Accept: application/json', ' > milliseconds=0',
  ]);
  // The index: a 304 merged into the stored answer, with the 304's new Audit-Id and Date.
  const index = answer(later(r.stderr), '/openapi/v3?timeout=32s');
  assert.match(index[1]!, /^\tAudit-Id: [0-9a-f-]{36}$/);
  assert.notEqual(index[1], answer(all, '/openapi/v3?timeout=32s')[1]);
  assert.deepEqual(index.slice(2).map((l) => l.replace(/"[0-9A-F]{128}"/, '"E"')), [
    '\tCache-Control: no-cache, private', '\tContent-Type: application/json', '\tDate: Thu, 01 Jan 2026 00:00:05 GMT', '\tEtag: "E"', '\tX-From-Cache: 1', ' > milliseconds=0',
  ]);
  // No two answers a server gave the run's kubectl processes share an audit id.
  const ids = all.filter((l) => l.startsWith('\tAudit-Id: '));
  assert.equal(new Set(ids).size, ids.length - 1);
});

test('The trace says which answers came from the HTTP cache and which from the server', () => {
  const r = run(6, true);
  assert.equal(r.status, 0);
  const report = JSON.parse(r.stdout) as Report;
  const openapi = report.trace.filter((e) => e.phase === 'kubectl.validate' && e.result.startsWith(`GET ${URL}/openapi/`)).map((e) => [e.at, e.result.replace(/ — .*/, '')]);
  assert.deepEqual(openapi, [
    [0, `GET ${URL}/openapi/v3?timeout=32s: 200 OK`],
    [0, `GET ${URL}${DOC}: 200 OK`],
    [5, `GET ${URL}/openapi/v3?timeout=32s: 304 Not Modified (If-None-Match: its ETag), 200 OK from the HTTP cache in ~/.kube/cache/http`],
    [5, `GET ${URL}${DOC}: 200 OK from the HTTP cache in ~/.kube/cache/http, fresh until Fri, 01 Jan 2027 00:00:00 UTC: no request sent`],
  ]);
  // A revalidation is a request the server authenticated and authorized; an answer from the disk reached no server.
  const details = report.trace.filter((e) => e.at === 5 && e.result.startsWith(`GET ${URL}/openapi/`)).map((e) => e.detail as Record<string, unknown>);
  assert.deepEqual(details.map((d) => [d['authenticatedBy'], (d['response'] as Record<string, unknown>)['fromCache']]), [['x509', true], [undefined, true]]);
});

test('At -v=9 an answer from the HTTP cache took no connection and no server time; at -v=10 the disk cache\'s reads are logged', () => {
  const at9 = later(run(9).stderr);
  const doc = at9.findIndex((l) => l.includes(`'${URL}${DOC}'`));
  const timing = at9.find((l, i) => i > doc && l.startsWith(' > milliseconds='));
  assert.equal(timing, ' > milliseconds=0 dnsLookupMilliseconds=0 dialMilliseconds=0 tlsHandshakeMilliseconds=0');
  // The later process dials once, for its first request (the index's revalidation).
  assert.equal(at9.filter((l) => l.includes('"HTTP Trace: Dial succeed"')).length, 1);
  const at10 = later(run(10).stderr).filter((l) => l.includes('cached_discovery.go'));
  assert.equal(at10.length, 13);
  assert.equal(at10[0], `I0101 00:00:05.000000       1 cached_discovery.go:113] returning cached discovery info from ${HOME}/.kube/cache/discovery/192.168.49.2_6443/servergroups.json`);
  assert.ok(at10.slice(1).every((l) => /cached_discovery\.go:77\] returning cached discovery info from \/home\/dev\/\.kube\/cache\/discovery\/192\.168\.49\.2_6443\/(\S+\/)?v\d\w*\/serverresources\.json$/.test(l)), at10.join('\n'));
});

test('At -v=8 the answers the HTTP cache hands back have their bodies logged, the stored ones, as the first kubectl logged them; discovery read from the disk logs none', () => {
  const r = run(8);
  assert.equal(r.status, 0);
  const bodies = (log: readonly string[]) => log.filter((l) => l.includes('"Response Body"')).map((l) => l.replace(/^I0101 00:00:0\d\.000000 {7}1 /, ''));
  const all = r.stderr.split('\n');
  const first = bodies(all.slice(0, all.findIndex((l) => l.startsWith('I0101 00:00:05.000000'))));
  const second = bodies(later(r.stderr));
  // The first: the index, the document, /api, /apis, the pod's GET and POST; the later one: the index and the document
  // from the HTTP cache, no discovery (read from the disk cache, no request), then the pod's GET and PATCH.
  assert.deepEqual(first.map((l) => l.replace(/\] .*/, '')), ['client.go:46', 'groupversion.go:75', 'discovery_client.go:255', 'discovery_client.go:318', 'helper.go:105', 'helper.go:246']);
  assert.deepEqual(second.map((l) => l.replace(/\] .*/, '')), ['client.go:46', 'groupversion.go:75', 'helper.go:105', 'helper.go:269']);
  assert.deepEqual(second.slice(0, 2), first.slice(0, 2));
  assert.match(second[1]!, /^groupversion\.go:75\] "Response Body" body="\{\\"openapi\\":\\"3\.0\.0\\",.* \[truncated \d+ chars\]"$/);
});
