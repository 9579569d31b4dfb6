// Reading kubectl's identity out of a kubeconfig: the context's user, its token or client certificate, and
// client-go's refusals. See staging/src/k8s.io/client-go/tools/clientcmd (client_config.go, validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identityFromKubeconfig } from '../../../src/engine/cluster/kubeconfig';
import { inputError } from './input-error';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const files: Record<string, string> = { '/k/jane.crt': PEM, '/k/token': '  s3cret\n' };
const read = (p: string): string => {
  const text = files[p];
  if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
  return text;
};
const kubeconfig = (user: string): string => `apiVersion: v1
kind: Config
current-context: c
contexts:
- name: c
  context: {cluster: k, user: u}
users:
- name: u
  user:
${user.replace(/^/gm, '    ')}
`;

const cases = [
  { name: 'a token is a bearer token', user: 'token: abc', want: { kind: 'token', token: 'abc' } },
  { name: 'a token file is read next to the kubeconfig, whitespace trimmed', user: 'tokenFile: token', want: { kind: 'token', token: 's3cret' } },
  { name: 'a client certificate file with its key is the certificate', user: 'client-certificate: jane.crt\nclient-key: jane.key', want: { kind: 'certificate', certificatePem: PEM } },
  { name: 'inline certificate data is base64', user: `client-certificate-data: ${Buffer.from(PEM).toString('base64')}\nclient-key-data: a2V5`, want: { kind: 'certificate', certificatePem: PEM } },
  { name: 'a user with no credentials is anonymous', user: '{}', want: { kind: 'anonymous' } },
];
for (const c of cases) {
  test(`kubeconfig: ${c.name}`, () => assert.deepEqual(identityFromKubeconfig('/k/config', kubeconfig(c.user), undefined, read), c.want));
}

const errors = [
  { name: 'a certificate without a key', user: 'client-certificate: jane.crt', want: '/k/config:10: client-key-data or client-key must be specified for u to use the clientCert authentication method' },
  { name: 'a certificate file that cannot be read', user: 'client-certificate: nope.crt\nclient-key: k', want: "/k/config:10: unable to read client-cert nope.crt for u due to ENOENT: no such file or directory, open '/k/nope.crt'" },
  { name: 'certificate data without a PEM block', user: `client-certificate-data: ${Buffer.from('hello').toString('base64')}\nclient-key-data: a2V5`, want: '/k/config:10: tls: failed to find any PEM data in certificate input' },
];
for (const c of errors) {
  test(`kubeconfig: ${c.name} is refused`, () => assert.equal(inputError(() => identityFromKubeconfig('/k/config', kubeconfig(c.user), undefined, read)).message, c.want));
}
