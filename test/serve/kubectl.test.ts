// The real kubectl (Go's crypto/tls and client-go) against the HTTPS listener and the kubeconfig serve writes:
// it trusts the serving certificate, presents the admin's client certificate, sends a token context's token.
// kubectl must be on PATH: without it these tests fail and say so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/x509';
import { buildKubeconfig, type ServeKubeconfig } from '../../src/serve/kubeconfig';
import { createCA, createServePki, issueClientCertificate } from '../../src/serve/pki';
import { type HttpsServer, type ServeRequest, startHttps } from '../../src/serve/tls-server';
import { type Seen, VERSION, versionHandler } from './support';

const pki = createServePki(ADMIN_USER);
const seen: Seen[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-serve-'));
let server: HttpsServer;
let kubeconfig: ServeKubeconfig;

before(async () => {
  server = await startHttps({ pki, handler: versionHandler(seen) });
  kubeconfig = buildKubeconfig({
    port: server.port, ca: pki.ca, admin: pki.admin,
    users: [{ kind: 'token', name: 'alice', token: '31ada4fd' }, { kind: 'certificate', name: 'bob', groups: ['dev', 'ops'] }],
  });
  writeFileSync(join(dir, 'kubeconfig'), kubeconfig.yaml);
  // The same cluster and users, but trusting another CA: kubectl must refuse our serving certificate.
  // The admin's name and groups on certificates other CAs signed: one named as ours, one not.
  for (const [file, caName] of [['impostor-same-name', 'pod-lifecycle-ca'], ['impostor-other-name', 'corp-ca']] as const) {
    const impostor = issueClientCertificate(createCA(caName), ADMIN_USER.name, ADMIN_USER.groups);
    writeFileSync(join(dir, file), buildKubeconfig({ port: server.port, ca: pki.ca, admin: impostor }).yaml);
  }
  writeFileSync(join(dir, 'wrong-ca'), kubeconfig.yaml.replace(Buffer.from(pki.ca.certificatePem).toString('base64'), Buffer.from(createCA().certificatePem).toString('base64')));
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** kubectl runs the kubectl on PATH with stdin closed (so a prompt cannot wait) and resolves when it exits. */
function kubectl(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: join(dir, file), NO_COLOR: '1' }, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && 'code' in err && err.code === 'ENOENT') {
        reject(new Error('kubectl is not on PATH: these tests drive the real kubectl against `serve`\'s HTTPS listener; install kubectl (1.32 or later) or put it on PATH'));
        return;
      }
      resolve({ code: typeof err?.code === 'number' ? err.code : err ? 1 : 0, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** credentialed is what the handler saw with credentials since `from`: the command's own requests, the gcloud dispatcher's /version probe included. */
const credentialed = (from: number): ServeRequest['credentials'][] =>
  seen.slice(from).map((s) => s.request.credentials).filter((c) => c.token !== undefined || c.certificatePem !== undefined);

const cases: { name: string; args: (port: number) => string[]; want: { stdout: unknown; credentials: () => ServeRequest['credentials'] } }[] = [
  {
    name: 'kubectl version trusts the serving certificate and presents the admin certificate of the current context',
    args: () => ['version', '-o', 'json'],
    want: { stdout: VERSION.gitVersion, credentials: () => ({ certificatePem: pki.admin.certificatePem }) },
  },
  {
    name: "kubectl get --raw in a token user's context sends the token and no certificate",
    args: () => ['--context', 'alice@pod-lifecycle', 'get', '--raw', '/version'],
    want: { stdout: VERSION, credentials: () => ({ token: '31ada4fd' }) },
  },
  {
    name: "kubectl in a certificate user's context presents the certificate our CA minted for it",
    args: () => ['--context', 'bob@pod-lifecycle', 'get', '--raw', '/version'],
    want: { stdout: VERSION, credentials: () => ({ certificatePem: kubeconfig.certificates.get('bob')!.certificatePem }) },
  },
  {
    name: 'kubectl reaches the server by the DNS name localhost, which the serving certificate names',
    args: (port) => ['--server', `https://localhost:${port}`, 'get', '--raw', '/version'],
    want: { stdout: VERSION, credentials: () => ({ certificatePem: pki.admin.certificatePem }) },
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const from = seen.length;
    const run = await kubectl('kubeconfig', c.args(server.port));
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { serverVersion?: { gitVersion: string } };
    assert.deepEqual(out.serverVersion ? out.serverVersion.gitVersion : out, c.want.stdout);
    const sent = credentialed(from);
    assert.ok(sent.length > 0, `the handler saw no credentials: ${JSON.stringify(seen.slice(from))}`);
    for (const credentials of sent) assert.deepEqual(credentials, c.want.credentials());
  });
}

test('kubectl trusting another CA refuses the serving certificate: unknown authority', async () => {
  const run = await kubectl('wrong-ca', ['get', '--raw', '/version']);
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /x509: certificate signed by unknown authority/);
});

/** seenWithout is what the handler saw of a request: the certificate's PEM left out, only whether it was presented and verified. */
const seenWithout = (r: ServeRequest) => ({ credentials: r.credentials, presented: r.clientCertificate !== undefined, verified: r.clientCertificate?.verified, error: r.clientCertificate?.error });

const impostorCases: { name: string; file: string; want: ReturnType<typeof seenWithout> }[] = [
  {
    name: 'kubectl holding a certificate from a CA not among the advertised ones still sends it, and it is not verified',
    file: 'impostor-other-name', want: { credentials: {}, presented: true, verified: false, error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
  },
  {
    name: "kubectl holding a certificate from another CA of our CA's name sends it, and it is not verified",
    file: 'impostor-same-name', want: { credentials: {}, presented: true, verified: false, error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
  },
];

for (const c of impostorCases) {
  test(c.name, async () => {
    const from = seen.length;
    const run = await kubectl(c.file, ['get', '--raw', '/version']);
    assert.equal(run.code, 0, run.stderr);
    // client-go answers every CertificateRequest with its certificate: its GetClientCertificate ignores the CA list
    // (staging/src/k8s.io/client-go/transport/transport.go, TLSConfigFor), so only verification keeps it out.
    const requests = seen.slice(from).map((s) => seenWithout(s.request));
    assert.ok(requests.length > 0);
    for (const r of requests) assert.deepEqual(r, c.want);
  });
}
