// ServiceAccount as a plugin: the account it sets and mounts, a missing account, mirror pods and mountable secrets,
// in both passes; messages from plugin/pkg/admission/serviceaccount/admission.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, ServiceAccount } from '../../../../src/engine/api/types';
import { serviceAccount } from '../../../../src/engine/apiserver/admission/service-account';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const sa = (name: string, extra: Partial<ServiceAccount> = {}): ServiceAccount =>
  ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default' }, ...extra });
const enforcing = (name: string, extra: Partial<ServiceAccount> = {}): ServiceAccount =>
  sa(name, { metadata: { name, namespace: 'default', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, ...extra });
const mirror = { annotations: { 'kubernetes.io/config.mirror': 'abc' } };

const admitCases: { name: string; accounts: ServiceAccount[]; pod: Pod; want?: string }[] = [
  { name: 'A pod gets the default account when it exists', accounts: [sa('default')], pod: makePod('web') },
  // getServiceAccount: errors.NewNotFound(api.Resource("serviceaccount"), name), wrapped by "error looking up service account %s/%s: %w".
  {
    name: 'A pod naming a missing service account is forbidden', accounts: [sa('default')], pod: makePod('web', { serviceAccountName: 'builder' }),
    want: 'pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
  },
  {
    name: 'A namespace without its default account refuses pods that name none', accounts: [], pod: makePod('web'),
    want: 'pods "web" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
  },
  {
    name: 'A pod named by generateName is named by its prefix', accounts: [], pod: makePod('', {}, { generateName: 'web-7d4b9c-' }),
    want: 'pods "web-7d4b9c-" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
  },
  // Validate: "a mirror pod may not reference service accounts" / "... secrets".
  { name: 'A mirror pod is left without an account', accounts: [], pod: makePod('web', {}, mirror) },
  {
    name: 'A mirror pod may not name a service account', accounts: [sa('default')], pod: makePod('web', { serviceAccountName: 'default' }, mirror),
    want: 'pods "web" is forbidden: a mirror pod may not reference service accounts',
  },
  {
    name: 'A mirror pod may not reference secrets, even from an ephemeral container', accounts: [],
    pod: makePod('web', { ephemeralContainers: [{ name: 'debug', image: 'busybox', envFrom: [{ secretRef: { name: 's' } }] }] }, mirror),
    want: 'pods "web" is forbidden: a mirror pod may not reference secrets',
  },
  // limitSecretReferences: `volume with secret.secretName="%s" is not allowed because service account %s does not reference that secret`.
  {
    name: 'An account enforcing mountable secrets refuses a secret it does not list', accounts: [enforcing('default', { secrets: [{ name: 'ok' }] })],
    pod: makePod('web', { volumes: [{ name: 'v', secret: { secretName: 'other' } }] }),
    want: 'pods "web" is forbidden: volume with secret.secretName="other" is not allowed because service account default does not reference that secret',
  },
  {
    name: 'An account enforcing mountable secrets admits the secrets it lists', accounts: [enforcing('default', { secrets: [{ name: 'ok' }] })],
    pod: makePod('web', { volumes: [{ name: 'v', secret: { secretName: 'ok' } }] }),
  },
];

for (const c of admitCases) {
  test(c.name, () => {
    const a = attributesFor(c.pod);
    const result = serviceAccount.admit!(a, makeContext(c.accounts));
    assert.equal(result.error?.message, c.want);
    if (c.want) assert.equal(result.error?.code, 403);
    if (!c.want && !c.pod.metadata?.annotations) assert.equal((a.object as Pod).spec?.serviceAccountName, 'default');
  });
}

const validateCases: { name: string; accounts: ServiceAccount[]; pod: Pod; want?: string }[] = [
  { name: 'Validation passes a pod whose account exists', accounts: [sa('default')], pod: makePod('web', { serviceAccountName: 'default' }) },
  // Validate: "no service account specified for pod %s/%s" (a later mutation cleared it).
  {
    name: 'Validation refuses a pod that lost its service account', accounts: [sa('default')], pod: makePod('web'),
    want: 'pods "web" is forbidden: no service account specified for pod default/web',
  },
  {
    name: 'Validation refuses an imagePullSecret the enforcing account does not list', accounts: [enforcing('default')],
    pod: makePod('web', { serviceAccountName: 'default', imagePullSecrets: [{ name: 'regcred' }] }),
    want: 'pods "web" is forbidden: imagePullSecrets[0].name="regcred" is not allowed because service account default does not reference that imagePullSecret',
  },
];

for (const c of validateCases) {
  test(c.name, () => {
    const result = serviceAccount.validate!(attributesFor(c.pod), makeContext(c.accounts));
    assert.equal(result.error?.message, c.want);
  });
}

test('Ephemeral containers may only name secrets an enforcing account lists', () => {
  const pod = makePod('web', { serviceAccountName: 'default', ephemeralContainers: [{ name: 'debug', image: 'busybox', env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'tok', key: 'k' } } }] }] });
  const result = serviceAccount.validate!(attributesFor(pod, { operation: 'UPDATE', subresource: 'ephemeralcontainers' }), makeContext([enforcing('default')]));
  assert.equal(result.error?.message,
    'pods "web" is forbidden: ephemeral container debug with envVar T referencing secret.secretName="tok" is not allowed because service account default does not reference that secret');
});

test('ServiceAccount handles pods and pods/ephemeralcontainers on create and update', () => {
  const pod = makePod('web');
  const handled = [
    serviceAccount.handles(attributesFor(pod)), serviceAccount.handles(attributesFor(pod, { operation: 'UPDATE', subresource: 'ephemeralcontainers' })),
    serviceAccount.handles(attributesFor(pod, { subresource: 'status', operation: 'UPDATE' })), serviceAccount.handles(attributesFor(pod, { operation: 'DELETE' })),
  ];
  assert.deepEqual(handled, [true, true, false, false]);
});
