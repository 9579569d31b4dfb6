// The HTTPS listener: which client certificates count as verified, how bearer tokens are read, and that bad input
// (garbage bytes, broken handshakes, malformed HTTP, clients that leave mid-request, failing handlers) never stops it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/x509';
import { createCA, createServePki, type IssuedCertificate, issueClientCertificate } from '../../src/serve/pki';
import { bearerToken, type HttpsServer, type ServeRequest, startHttps } from '../../src/serve/tls-server';
import { get, type Seen, VERSION, versionHandler } from './support';

const tokenCases: { name: string; header?: string; want?: string }[] = [
  { name: 'a Bearer header carries its token', header: 'Bearer 31ada4fd', want: '31ada4fd' },
  { name: 'the scheme is read in any case', header: 'bearer 31ada4fd', want: '31ada4fd' },
  { name: 'surrounding whitespace is trimmed', header: '  Bearer 31ada4fd \t', want: '31ada4fd' },
  { name: 'words after the token are ignored, as bearertoken splits in three', header: 'Bearer 31ada4fd extra', want: '31ada4fd' },
  { name: 'two spaces leave an empty token, which is no token', header: 'Bearer  31ada4fd' },
  { name: 'a scheme alone is no token', header: 'Bearer' },
  { name: 'another scheme is no token', header: 'Basic YWxpY2U6cHc=' },
  { name: 'no header is no token' },
];

for (const c of tokenCases) test(c.name, () => assert.equal(bearerToken(c.header), c.want));

const pki = createServePki(ADMIN_USER);
const corpCA = createCA('corp-ca');
const strangerCA = createCA('pod-lifecycle-ca');
const seen: Seen[] = [];
const errors: Error[] = [];
const upload = { arrived: defer(), closed: defer() };

/** defer is a promise with its resolve, to wait for an event the server sees. */
function defer(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const stub = versionHandler(seen);
let server: HttpsServer;

/** handler answers /version through the stub, and has paths that throw, reject, or wait for a request body. */
function handler(req: IncomingMessage, res: ServerResponse, served: ServeRequest): void | Promise<void> {
  if (req.url === '/throw') throw new Error('handler bug');
  if (req.url === '/reject') return Promise.reject(new Error('async handler bug'));
  if (req.url === '/upload') {
    upload.arrived.resolve();
    req.on('close', () => upload.closed.resolve());
    req.resume();
    return;
  }
  stub(req, res, served);
}

before(async () => {
  server = await startHttps({ pki, clientCAs: [corpCA.certificatePem], onError: (e) => errors.push(e), handler });
});
after(() => server.close());

const expired = issueClientCertificate(pki.ca, 'old', [], { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2021-01-01T00:00:00Z') });
const presenting = (cert: IssuedCertificate) => ({ cert: cert.certificatePem, key: cert.keyPem });

const clientCases: { name: string; client: { cert?: string; key?: string; token?: string }; want: { credentials: ServeRequest['credentials']; verified?: boolean; error?: RegExp } }[] = [
  { name: "the admin's certificate from our CA is verified and handed on", client: presenting(pki.admin), want: { credentials: { certificatePem: pki.admin.certificatePem }, verified: true } },
  { name: 'a request with neither certificate nor token has no credentials (anonymous)', client: {}, want: { credentials: {} } },
  { name: 'a bearer token arrives as the token', client: { token: '31ada4fd' }, want: { credentials: { token: '31ada4fd' } } },
  {
    name: 'a certificate and a token both arrive, for the chain to try x509 first',
    client: { ...presenting(pki.admin), token: '31ada4fd' }, want: { credentials: { token: '31ada4fd', certificatePem: pki.admin.certificatePem }, verified: true },
  },
  {
    name: 'a certificate from another CA, even one of the same name, is presented but not verified',
    client: presenting(issueClientCertificate(strangerCA, 'kubernetes-admin', ['kubeadm:cluster-admins'])), want: { credentials: {}, verified: false, error: /SIGNATURE|ISSUER/ },
  },
  { name: 'a certificate from a CA given in clientCAs is verified', client: presenting(issueClientCertificate(corpCA, 'erin', ['corp'])), want: { credentials: { certificatePem: '' }, verified: true } },
  { name: 'an expired certificate from our CA is not verified', client: presenting(expired), want: { credentials: {}, verified: false, error: /CERT_HAS_EXPIRED/ } },
  { name: 'a server-auth certificate is no client certificate: not verified', client: presenting(pki.serving), want: { credentials: {}, verified: false, error: /UNSUPPORTED_CERTIFICATE_PURPOSE|INVALID_PURPOSE/ } },
];

for (const c of clientCases) {
  test(c.name, async () => {
    const before = seen.length;
    const answer = await get(server.port, { ca: server.ca, ...c.client });
    assert.deepEqual({ status: answer.status, body: JSON.parse(answer.body) as unknown }, { status: 200, body: VERSION });
    const served = seen[before]!.request;
    const presented = c.client.cert ? served.clientCertificate : undefined;
    // The PEM handed on is the certificate the client sent, re-armoured from the DER it sent.
    const wantCredentials = c.want.credentials.certificatePem === '' ? { certificatePem: c.client.cert } : c.want.credentials;
    assert.deepEqual(served.credentials, wantCredentials);
    assert.equal(presented?.verified, c.want.verified);
    assert.equal(presented?.pem, c.client.cert);
    if (c.want.error) assert.match(presented?.error ?? '', c.want.error);
  });
}

/** rawTcp writes bytes to the port and resolves when the server has closed the connection. */
function rawTcp(bytes: Buffer, thenDestroy = false): Promise<void> {
  return new Promise((resolve) => {
    const socket = connectTcp(server.port, '127.0.0.1', () => {
      socket.write(bytes);
      if (thenDestroy) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.resume();
    socket.on('close', () => resolve());
  });
}

/** rawTls sends bytes over a TLS connection and resolves with everything the server answered before closing. */
function rawTls(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const socket = connectTls({ port: server.port, host: '127.0.0.1', ca: server.ca, servername: 'localhost' }, () => socket.write(bytes));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (got += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
  });
}

const abuseCases: { name: string; abuse: () => Promise<unknown>; want?: RegExp }[] = [
  { name: 'plain HTTP to the TLS port is refused without harm', abuse: () => rawTcp(Buffer.from('GET /version HTTP/1.1\r\nHost: x\r\n\r\n')) },
  { name: 'random garbage bytes are refused without harm', abuse: () => rawTcp(Buffer.from('16030100ffdeadbeef'.repeat(40), 'hex')) },
  { name: 'a client that leaves in the middle of its ClientHello does no harm', abuse: () => rawTcp(Buffer.from('160301020001', 'hex'), true) },
  { name: 'a client that closes right after connecting does no harm', abuse: () => rawTcp(Buffer.alloc(0), true) },
  { name: 'a malformed HTTP request over TLS gets 400 Bad Request', abuse: () => rawTls('NOT HTTP AT ALL\r\n\r\n'), want: /^HTTP\/1\.1 400 Bad Request\r\n/ },
  { name: 'a header line without a colon gets 400 Bad Request', abuse: () => rawTls('GET /version HTTP/1.1\r\nbroken header\r\n\r\n'), want: /^HTTP\/1\.1 400 Bad Request\r\n/ },
  { name: 'headers beyond the size limit get 431', abuse: () => rawTls(`GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`), want: /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/ },
  { name: 'a handler that throws answers 500 InternalError', abuse: () => get(server.port, { ca: server.ca, path: '/throw' }).then((r) => `${r.status} ${r.body}`), want: /^500 .*"reason":"InternalError"/ },
  { name: 'a handler that rejects answers 500 InternalError', abuse: () => get(server.port, { ca: server.ca, path: '/reject' }).then((r) => `${r.status} ${r.body}`), want: /^500 .*"reason":"InternalError"/ },
  {
    name: 'a client that disconnects in the middle of its request body does no harm',
    abuse: async () => {
      const socket = connectTls({ port: server.port, host: '127.0.0.1', ca: server.ca, servername: 'localhost' }, () => {
        socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\npartial');
      });
      socket.on('error', () => undefined);
      await upload.arrived.promise;
      socket.destroy();
      await upload.closed.promise;
    },
  },
];

for (const c of abuseCases) {
  test(c.name, async () => {
    const got = await c.abuse();
    if (c.want) assert.match(String(got), c.want);
    // The server still answers the next request.
    const next = await get(server.port, { ca: server.ca, ...presenting(pki.admin) });
    assert.equal(next.status, 200);
  });
}

test('what went wrong on connections reached onError', () => {
  assert.ok(errors.some((e) => e.message === 'handler bug'), errors.map((e) => e.message).join('\n'));
  assert.ok(errors.length >= 4, errors.map((e) => e.message).join('\n'));
});

test('a second server on the port of a running one fails to start instead of throwing later', async () => {
  await assert.rejects(startHttps({ port: server.port, pki, handler: () => undefined }), /EADDRINUSE/);
});

test('close ends keep-alive connections and resolves', async () => {
  const other = await startHttps({ handler: versionHandler([]) });
  assert.equal((await get(other.port, { ca: other.ca })).status, 200);
  await other.close();
  await assert.rejects(get(other.port, { ca: other.ca }), /ECONNREFUSED/);
});
