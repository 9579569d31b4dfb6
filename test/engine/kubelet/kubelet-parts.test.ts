// The kubelet's parts: host-local IPAM, image references and pull decisions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostLocalIpam } from '../../../src/engine/kubelet/ipam';
import { decidePull, pulledMessage } from '../../../src/engine/kubelet/images';
import { normalizeImage } from '../../../src/engine/kubelet/pod-state';

test('host-local gives .2 first, skips the gateway, and continues after the last address it gave', () => {
  const ipam = new HostLocalIpam('10.244.1.0/24');
  assert.equal(ipam.gateway, '10.244.1.1');
  assert.equal(ipam.allocate('a'), '10.244.1.2');
  assert.equal(ipam.allocate('b'), '10.244.1.3');
  ipam.release('a');
  assert.equal(ipam.allocate('c'), '10.244.1.4');
});

test('host-local reports exhaustion when the range is full', () => {
  const ipam = new HostLocalIpam('10.0.0.0/30');
  assert.equal(ipam.allocate('a'), '10.0.0.2');
  assert.equal(ipam.allocate('b'), undefined);
});

const images: { image: string; want: string }[] = [
  { image: 'nginx', want: 'docker.io/library/nginx:latest' },
  { image: 'nginx:1.27', want: 'docker.io/library/nginx:1.27' },
  { image: 'acme/app:2', want: 'docker.io/acme/app:2' },
  { image: 'registry.acme.io/app:2', want: 'registry.acme.io/app:2' },
  { image: 'localhost:5000/app', want: 'localhost:5000/app:latest' },
  { image: `nginx@sha256:${'f'.repeat(64)}`, want: `docker.io/library/nginx@sha256:${'f'.repeat(64)}` },
  // A reference the kubelet cannot parse is never pulled: it is reported as written.
  { image: 'nginx@sha256:abc', want: 'nginx@sha256:abc' },
];
for (const c of images) test(`image references: ${c.image} normalizes to ${c.want}`, () => assert.equal(normalizeImage(c.image), c.want));

const pulls: { name: string; policy: string; present: boolean; want: string; message?: string }[] = [
  { name: 'IfNotPresent uses an image already on the node', policy: 'IfNotPresent', present: true, want: 'present', message: 'Container image "nginx:1.27" already present on machine and can be accessed by the pod' },
  { name: 'IfNotPresent pulls an absent image', policy: 'IfNotPresent', present: false, want: 'pull' },
  { name: 'Always pulls even a present image', policy: 'Always', present: true, want: 'pull' },
  { name: 'Never fails on an absent image', policy: 'Never', present: false, want: 'neverPull', message: 'Container image "nginx:1.27" is not present with pull policy of Never' },
  { name: 'Never uses a present image', policy: 'Never', present: true, want: 'present' },
];
for (const c of pulls) {
  test(`pull policy: ${c.name}`, () => {
    const d = decidePull({ name: 'app', image: 'nginx:1.27', imagePullPolicy: c.policy }, c.present);
    assert.equal(d.action, c.want);
    if (c.message && 'message' in d) assert.equal(d.message, c.message);
  });
}

test('the Pulled event gives the pull time, the time with waiting, and the size in bytes', () => {
  assert.equal(pulledMessage('nginx:1.27', 2053, 3100, 72223946), 'Successfully pulled image "nginx:1.27" in 2.053s (3.1s including waiting). Image size: 72223946 bytes.');
});
