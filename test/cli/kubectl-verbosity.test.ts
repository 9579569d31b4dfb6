// `pod-lifecycle run -- kubectl ... -v=N` as a process: kubectl's klog lines on stderr as kubectl 1.36 writes them
// (round_trippers.go's "Request" and "Response", the bodies at -v=8, the curl commands and connection timings at -v=9,
// the bodies whole at -v=10), apart from the report on stdout, and in --json's
// `kubectlLog`; the refusals of what is not simulated; and the discovery cache a later kubectl of the run reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CLI, ROOT, type Report } from './harness';

const F = 'test/fixtures/kubectl-verbosity';
const URL = 'https://192.168.49.2:6443';
/** HOME is the home directory the runs are given: kubectl's -v=6 log names the kubeconfig under it. */
const HOME = '/home/dev';

/** cli runs pod-lifecycle with a fixed HOME and no color; its stdout, stderr and exit status (-v=10 logs the OpenAPI documents whole: megabytes). */
function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', HOME }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`pod-lifecycle ${args.join(' ')} did not finish: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** head is a klog header of the run's kubectl at the virtual start (2026-01-01 00:00:00), naming its source line. */
const head = (site: string) => `I0101 00:00:00.000000       1 ${site}] `;

/** FEATURE_GATES are client-go's -v=1 lines, one per feature gate (client-go features/envvar.go). */
const FEATURE_GATES = [
  ['AtomicFIFO', true], ['ClientsAllowCARotation', true], ['ClientsAllowCBOR', false], ['ClientsAllowTLSCacheGC', true], ['ClientsPreferCBOR', false],
  ['InOrderInformers', true], ['InOrderInformersBatchProcess', true], ['InformerResourceVersion', true], ['UnlockWhileProcessingFIFO', true], ['WatchListClient', true],
].map(([f, on]) => `${head('envvar.go:195')}"Feature gate default state" feature="${f}" enabled=${on}`);

const START = [`${head('loader.go:407')}Config loaded from file:  ${HOME}/.kube/config`, ...FEATURE_GATES];
const HASH = 'C3CAD0E8059E9D75B80AE69B99011FD895159313503A39C34841042E0441F5EFBBC46E1D5DCEB1ED28AD962121CF90EA6A3122D809707910B371C8D6EC211814';
const response = (verb: string, path: string, status: string) => `${head('round_trippers.go:632')}"Response" verb="${verb}" url="${URL}${path}" status="${status}" milliseconds=0`;

const stderrCases = [
  {
    name: 'kubectl apply -f at -v=6 logs the kubeconfig, each answer with its verb, URL and status, then apply\'s post-processor',
    argv: ['apply', '-f', `${F}/pod.yaml`, '-v=6'],
    stdout: 'pod/web created',
    stderr: [
      ...START,
      response('GET', '/openapi/v3?timeout=32s', '200 OK'),
      response('GET', `/openapi/v3/api/v1?hash=${HASH}&timeout=32s`, '200 OK'),
      response('GET', '/api?timeout=32s', '200 OK'),
      response('GET', '/apis?timeout=32s', '200 OK'),
      response('GET', '/api/v1/namespaces/default/pods/web', '404 Not Found'),
      response('POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', '201 Created'),
      `${head('apply.go:546')}Running apply post-processor function`,
    ].join('\n'),
  },
  {
    name: 'kubectl run at -v=6 logs discovery and the POST: run reads no OpenAPI and has no post-processor',
    argv: ['run', 'web', '--image=nginx:1.27', '-v=6'],
    stdout: 'pod/web created',
    stderr: [
      ...START,
      response('GET', '/api?timeout=32s', '200 OK'),
      response('GET', '/apis?timeout=32s', '200 OK'),
      response('POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', '201 Created'),
    ].join('\n'),
  },
  {
    name: 'kubectl run at -v=7 logs each request with its headers, and each answer\'s status without the URL',
    argv: ['run', 'web', '--image=nginx:1.27', '-v=7'],
    stdout: 'pod/web created',
    stderr: [
      ...START,
      ...['/api?timeout=32s', '/apis?timeout=32s'].flatMap((path) => [
        `${head('round_trippers.go:527')}"Request" verb="GET" url="${URL}${path}" headers=<`,
        '\tAccept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
        '\tUser-Agent: kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0',
        ' >',
        `${head('round_trippers.go:632')}"Response" status="200 OK" milliseconds=0`,
      ]),
      `${head('round_trippers.go:527')}"Request" verb="POST" url="${URL}/api/v1/namespaces/default/pods?fieldManager=kubectl-run" headers=<`,
      '\tAccept: application/json, */*',
      '\tContent-Type: application/json',
      '\tUser-Agent: kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0',
      ' >',
      `${head('round_trippers.go:632')}"Response" status="201 Created" milliseconds=0`,
    ].join('\n'),
  },
  {
    name: 'kubectl apply -f at -v=8 logs the bodies (cut at 1024 bytes) and the answers\' headers, each body at the line that called Do',
    argv: ['apply', '-f', `${F}/pod.yaml`, '-v=8'],
    stdout: 'pod/web created',
    stderr: readFileSync(join(ROOT, F, 'apply-v8.stderr'), 'utf8').replace(/\n$/, ''),
  },
  {
    name: 'kubectl run at -v=9 logs each request as a curl command, the one dial, and each answer with its headers and timings, the bodies cut at 10240 bytes',
    argv: ['run', 'web', '--image=nginx:1.27', '-v=9'],
    stdout: 'pod/web created',
    stderr: readFileSync(join(ROOT, F, 'run-v9.stderr'), 'utf8').replace(/\n$/, ''),
  },
  {
    name: 'kubectl at -v=11 logs as at -v=10, nothing kubectl logs being above V(10) (here as at -v=9 too: no body reaches 10240 bytes)',
    argv: ['run', 'web', '--image=nginx:1.27', '-v=11'],
    stdout: 'pod/web created',
    stderr: readFileSync(join(ROOT, F, 'run-v9.stderr'), 'utf8').replace(/\n$/, ''),
  },
  {
    name: 'kubectl at -v=4 logs only what is logged at 4 or less: the feature gates and apply\'s post-processor',
    argv: ['apply', '-f', `${F}/pod.yaml`, '-v=4'],
    stdout: 'pod/web created',
    stderr: [...FEATURE_GATES, `${head('apply.go:546')}Running apply post-processor function`].join('\n'),
  },
];

for (const c of stderrCases) {
  test(`${c.name}, on stderr apart from the report`, () => {
    const r = cli(['run', '--', 'kubectl', ...c.argv]);
    assert.equal(r.status, 0);
    assert.equal(r.stderr, `${c.stderr}\n`);
    // The report on stdout is what it is without -v: kubectl's own output, no klog line.
    assert.match(r.stdout, new RegExp(`^\\$ kubectl ${c.argv.join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n${c.stdout}\\n\\nTIMELINE\\n`));
    assert.doesNotMatch(r.stdout, /round_trippers\.go|loader\.go/);
  });
}

test('With --json, kubectl\'s log is the report\'s kubectlLog and stderr stays empty', () => {
  const r = cli(['run', '--json', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '-v=6']);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const report = JSON.parse(r.stdout) as Report & { kubectlLog?: string[] };
  assert.equal(report.kubectl, 'pod/web created');
  assert.deepEqual(report.kubectlLog, [
    ...START, response('GET', '/api?timeout=32s', '200 OK'), response('GET', '/apis?timeout=32s', '200 OK'),
    response('POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', '201 Created'),
  ]);
});

test('Without -v there is no kubectl log: no kubectlLog in --json, nothing on stderr', () => {
  const r = cli(['run', '--json', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27']);
  assert.equal(r.stderr, '');
  assert.equal((JSON.parse(r.stdout) as { kubectlLog?: string[] }).kubectlLog, undefined);
});

test('At -v=9 the first request dials the API server (by its address: no DNS lookup) and later ones reuse the connection', () => {
  const r = cli(['run', '--', 'kubectl', 'apply', '-f', `${F}/pod.yaml`, '-v=9']);
  assert.equal(r.status, 0);
  const dials = r.stderr.split('\n').filter((l) => l.includes('HTTP Trace'));
  assert.deepEqual(dials, [`${head('round_trippers.go:562')}"HTTP Trace: Dial succeed" network="tcp" address="192.168.49.2:6443"`]);
  const timings = [...r.stderr.matchAll(/^ > milliseconds=0 (.*)$/gm)].map((m) => m[1]);
  assert.deepEqual(timings, [
    'dnsLookupMilliseconds=0 dialMilliseconds=0 tlsHandshakeMilliseconds=0 serverProcessingMilliseconds=0',
    ...Array<string>(5).fill('getConnectionMilliseconds=0 serverProcessingMilliseconds=0'),
  ]);
  // levelsV9 replaces levelsV8: the request is the curl command alone, without the verb, URL and headers keys.
  assert.doesNotMatch(r.stderr, /"Request" verb=/);
});

test('A body is cut at 10240 bytes at -v=9 and logged whole from -v=10, as request.go\'s truncateBody does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-big-pod-'));
  try {
    const note = 'n'.repeat(11000);
    const pod = join(dir, 'big.yaml');
    writeFileSync(pod, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n    note: ${note}\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n`);
    const at9 = cli(['run', '--', 'kubectl', 'create', '-f', pod, '-v=9']);
    assert.equal(at9.status, 0);
    const body9 = /helper\.go:246\] "Request Body" body=(.*)$/m.exec(at9.stderr)?.[1] ?? '';
    // The body is logged as a Go-quoted text, which JSON reads: its first 10240 bytes, then how many were left out.
    const cut = /^([^]*) \[truncated (\d+) chars\]$/.exec(JSON.parse(body9) as string);
    assert.ok(cut, body9.slice(0, 200));
    assert.equal(Buffer.byteLength(cut[1]!), 10240);
    assert.ok(Number(cut[2]) > note.length - 10240);
    const at10 = cli(['run', '--', 'kubectl', 'create', '-f', pod, '-v=10']);
    assert.equal(at10.status, 0);
    assert.doesNotMatch(at10.stderr, /\[truncated \d+ chars\]/);
    // The whole note, in the request's body and in the created pod the server answers with.
    assert.equal(at10.stderr.split(note).length - 1, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('A bearer token is masked in the logged headers as client-go masks it (Bearer <masked>), never printed', () => {
  const r = cli(['run', '--cluster', 'examples/cluster.yaml', '--token', '31ada4fd', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '-v=8']);
  assert.doesNotMatch(r.stderr, /31ada4fd/);
  assert.equal(r.stderr.split('\n').filter((l) => l === '\tAuthorization: Bearer <masked>').length, 3);
  // alice may not create pods: the refusal's Status is the logged body of the POST's answer.
  assert.match(r.stderr, /helper\.go:246\] "Response Body" body=<\n\t\{"kind":"Status",.*"code":403\}\n >\n/);
  // At -v=9 the curl commands carry the header masked the same way.
  const at9 = cli(['run', '--cluster', 'examples/cluster.yaml', '--token', '31ada4fd', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '-v=9']);
  assert.doesNotMatch(at9.stderr, /31ada4fd/);
  assert.equal(at9.stderr.split('\n').filter((l) => l.startsWith('\tcurl -v -X') && l.includes(' -H "Authorization: Bearer <masked>" ')).length, 3);
});

for (const v of ['-v=8', '-v=10']) {
  test(`A Secret's values never reach the log at ${v}: its request and response bodies show them by their sizes`, () => {
    const r = cli(['run', '--', 'kubectl', 'apply', '-f', `${F}/secret.yaml`, v]);
    assert.equal(r.status, 0);
    assert.match(r.stderr, /helper\.go:246\] "Request Body" body=</);
    assert.match(r.stderr, /helper\.go:246\] "Response Body" body=/);
    assert.doesNotMatch(r.stderr, /hunter2-s3cr3t|aHVudGVyMi1zM2NyM3Q/);
  });
}

const refusedCases = [
  { name: '--vmodule', argv: ['run', 'web', '--image=nginx:1.27', '--vmodule=round_trippers=8'], message: /^error: kubectl's --vmodule is not simulated: use -v=N \(up to 10\)/ },
  { name: 'create deployment at -v=8 (protobuf bodies)', argv: ['create', 'deployment', 'web', '--image=nginx:1.27', '-v=8'], message: /^error: kubectl create deployment -v=8 is not simulated: its typed client sends protobuf/ },
];

for (const c of refusedCases) {
  test(`kubectl ${c.name} is not simulated: unusable input, exit 2, one line saying why`, () => {
    const r = cli(['run', '--', 'kubectl', ...c.argv]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, c.message);
    assert.equal(r.stderr.split('\n').length, 2);
  });
}

test('kubectl -v=abc is kubectl\'s own flag error: Rejected at kubectl.generate, exit 1', () => {
  const r = cli(['run', '--json', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '-v=abc']);
  const report = JSON.parse(r.stdout) as Report;
  assert.equal(r.status, 1);
  assert.equal(report.kubectl, 'error: invalid argument "abc" for "-v, --v" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee \'kubectl run --help\' for usage.');
});

/** discoveryEntries are the trace's discovery steps: the requests for /api and /apis, and the cache's. */
function discoveryEntries(report: Report): [number | undefined, string][] {
  return report.trace.filter((e) => e.phase === 'kubectl.validate' && /\/apis?\?timeout=32s|^discovery: /.test(e.result)).map((e) => [e.at, e.result.replace(/ — .*/, '')]);
}

test('The first kubectl of a run fetches discovery and caches it; a later kubectl apply reads the cache and sends no discovery request', () => {
  const r = cli(['run', `${F}/pod.yaml`, '--then-apply', `5s,${F}/pod-v2.yaml`, '--json']);
  assert.equal(r.status, 0);
  const report = JSON.parse(r.stdout) as Report;
  assert.equal(report.kubectl, 'pod/web created\npod/web configured');
  assert.deepEqual(discoveryEntries(report), [
    [0, `GET ${URL}/api?timeout=32s: 200 OK`],
    [0, `GET ${URL}/apis?timeout=32s: 200 OK`],
    [0, 'discovery: fetched from the server, cached in ~/.kube/cache/discovery/192.168.49.2_6443 (13 files, fresh for 6h)'],
    [5, 'discovery: read from the cache in ~/.kube/cache/discovery/192.168.49.2_6443, fresh for 6h: no request sent'],
  ]);
  // The later kubectl is a process of its own: it asks for the OpenAPI documents again (they are not in that cache).
  const openapi = report.trace.filter((e) => e.phase === 'kubectl.validate' && e.result.startsWith(`GET ${URL}/openapi/v3?`)).map((e) => e.at);
  assert.deepEqual(openapi, [0, 5]);
});

/** bodyAt is the text of the "Response Body" a -v log writes at a source line: its Go-quoted value read back. */
function bodyAt(log: string, site: string): string {
  // A body logged whole ends with the JSON encoder's line break, so it is a multi-line value: `body=<`, the body on a
  // tab-indented line, ` >`; one cut short, or with no line break (an OpenAPI document), is quoted.
  const at = site.replace('.', '\\.');
  const whole = new RegExp(`${at}\\] "Response Body" body=<\\n\\t(.*)\\n >$`, 'm').exec(log)?.[1];
  if (whole !== undefined) return whole;
  const quoted = new RegExp(`${at}\\] "Response Body" body=(".*")$`, 'm').exec(log)?.[1];
  assert.ok(quoted, `no Response Body at ${site}`);
  return JSON.parse(quoted) as string;
}

/** OPENAPI_V1 is the OpenAPI v3 document of api/v1 as serve answers it: its JSON text in the generated documents. */
const OPENAPI_V1 = JSON.stringify((JSON.parse(gunzipSync(readFileSync(join(ROOT, 'src/engine/api/openapi/v3.json.gz'))).toString('utf8')) as { documents: Record<string, unknown> }).documents['api/v1']);

const documentCases = [
  { name: 'cut at 1024 bytes at -v=8', v: 8, limit: 1024 },
  { name: 'cut at 10240 bytes at -v=9', v: 9, limit: 10240 },
  { name: 'whole at -v=10', v: 10, limit: Infinity },
];

for (const c of documentCases) {
  test(`The OpenAPI v3 document kubectl apply reads is logged ${c.name}, the bytes serve answers, at the line that called DoRaw`, () => {
    const r = cli(['run', '--', 'kubectl', 'apply', '-f', `${F}/pod.yaml`, `-v=${c.v}`]);
    assert.equal(r.status, 0);
    const body = bodyAt(r.stderr, 'groupversion.go:75');
    const bytes = Buffer.from(OPENAPI_V1);
    const want = bytes.length > c.limit ? `${bytes.subarray(0, c.limit).toString('utf8')} [truncated ${bytes.length - c.limit} chars]` : OPENAPI_V1;
    assert.equal(body.length, want.length);
    assert.ok(body === want, 'the logged document differs from the one served');
    // Its URL's hash and its ETag are the document's SHA-512, as kube-openapi computes them.
    const hash = createHash('sha512').update(OPENAPI_V1).digest('hex').toUpperCase();
    assert.match(r.stderr, new RegExp(`url="${URL}/openapi/v3/api/v1\\?hash=${hash}&timeout=32s"`));
  });
}

test('At -v=10 the aggregated discovery lists are logged whole, each with the ETag kube-apiserver computes for it', () => {
  const r = cli(['run', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '-v=10']);
  assert.equal(r.status, 0);
  const etags = [...r.stderr.matchAll(/^\tEtag: "([0-9A-F]{128})"$/gm)].map((m) => m[1]);
  const lists = ['discovery_client.go:255', 'discovery_client.go:318'].map((site) => bodyAt(r.stderr, site));
  assert.deepEqual(lists.map((l) => (JSON.parse(l) as { kind: string }).kind), ['APIGroupDiscoveryList', 'APIGroupDiscoveryList']);
  // calculateETag: the SHA-512 of the list marshalled without its kind and apiVersion.
  const etagOf = (list: string) => {
    const { kind: _k, apiVersion: _a, ...rest } = JSON.parse(list) as Record<string, unknown>;
    return createHash('sha512').update(JSON.stringify(rest)).digest('hex').toUpperCase();
  };
  assert.deepEqual(etags, lists.map(etagOf));
});
