// Image references as the kubelet parses them before any pull: github.com/distribution/reference v0.6.0
// ParseNormalizedNamed (the version k8s.io/kubernetes v1.36.3 requires), with go-digest v1.0.0's digest check. Each
// expected result was produced by that library itself (ParseNormalizedNamed, then Domain, Path, Tag and Digest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageNameError, invalidImageNameMessage, normalizedImage, parseNormalizedNamed } from '../../../src/engine/kubelet/image-reference';

const F64 = 'f'.repeat(64);
const HEX64 = '1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a';

// [input, domain, path, tag, digest] for a valid reference, [input, error] for one the library refuses.
const valid: [string, string, string, string?, string?][] = [
  ['nginx', 'docker.io', 'library/nginx'],
  ['nginx:1.27', 'docker.io', 'library/nginx', '1.27'],
  ['library/nginx', 'docker.io', 'library/nginx'],
  ['docker.io/nginx', 'docker.io', 'library/nginx'],
  ['index.docker.io/nginx', 'docker.io', 'library/nginx'],
  ['index.docker.io/foo/bar', 'docker.io', 'foo/bar'],
  ['localhost/foo', 'localhost', 'foo'],
  ['localhost:5000/app', 'localhost:5000', 'app'],
  ['registry.acme.io/app:2', 'registry.acme.io', 'app', '2'],
  ['acme/app:2', 'docker.io', 'acme/app', '2'],
  ['nginx:Tag', 'docker.io', 'library/nginx', 'Tag'],
  ['Docker/docker', 'Docker', 'docker'],
  ['[fc00::1]:5000/docker', '[fc00::1]:5000', 'docker'],
  [`docker.io/${HEX64}`, 'docker.io', `library/${HEX64}`],
  [`nginx@sha256:${F64}`, 'docker.io', 'library/nginx', undefined, `sha256:${F64}`],
  [`nginx:1.25@sha256:${F64}`, 'docker.io', 'library/nginx', '1.25', `sha256:${F64}`],
  [`nginx@sha384:${'f'.repeat(96)}`, 'docker.io', 'library/nginx', undefined, `sha384:${'f'.repeat(96)}`],
  ['nginx:_x', 'docker.io', 'library/nginx', '_x'],
  ['foo__bar', 'docker.io', 'library/foo__bar'],
  ['foo--bar', 'docker.io', 'library/foo--bar'],
  ['my.registry:5000/a/b:v1', 'my.registry:5000', 'a/b', 'v1'],
  // A first part without a dot or colon is no domain: the whole 255-character name is the path, the longest allowed.
  [`${'a/'.repeat(127)}a:tag-puts-this-over-max`, 'docker.io', `${'a/'.repeat(127)}a`, 'tag-puts-this-over-max'],
  [`nginx:${'t'.repeat(128)}`, 'docker.io', 'library/nginx', 't'.repeat(128)],
];

const invalid: [string, string][] = [
  ['nginx::1.25', 'invalid reference format'],
  ['Nginx', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
  ['docker/Docker', 'invalid reference format: repository name (docker/Docker) must be lowercase'],
  ['ghcr.io/OWNER/repo', 'invalid reference format: repository name (OWNER/repo) must be lowercase'],
  ['test:5000/Uppercase/lowercase:tag', 'invalid reference format: repository name (Uppercase/lowercase) must be lowercase'],
  ['https://github.com/docker/docker', 'invalid reference format'],
  ['-docker', 'invalid reference format'],
  ['docker///docker', 'invalid reference format'],
  ['[fc00::1]:5000', 'invalid reference format'],
  ['fc00::1:5000/debian', 'invalid reference format'],
  [HEX64, `invalid repository name (${HEX64}), cannot specify 64-byte hexadecimal strings`],
  ['nginx@sha256:abc', 'invalid reference format'],
  [`nginx@sha256:${'F'.repeat(64)}`, 'invalid checksum digest format'],
  [`nginx@sha256:${'f'.repeat(34)}`, 'invalid checksum digest length'],
  [`nginx@sha512:${F64}`, 'invalid checksum digest length'],
  [`nginx@md5:${F64}`, 'unsupported digest algorithm'],
  [':justtag', 'invalid reference format'],
  ['nginx:', 'invalid reference format'],
  ['nginx:-1', 'invalid reference format'],
  ['foo___bar', 'invalid reference format'],
  ['foo..bar', 'invalid reference format'],
  ['nginx latest', 'invalid reference format'],
  ['nginx/', 'invalid reference format'],
  [`domain/${'a'.repeat(256)}:tag`, 'repository name must not be more than 255 characters'],
  [`nginx:${'t'.repeat(129)}`, 'invalid reference format'],
];

for (const [image, domain, path, tag, digest] of valid) {
  test(`image reference ${image.length > 60 ? `${image.slice(0, 57)}...` : image} parses to ${domain} ${path.length > 40 ? '...' : path}`, () => {
    assert.deepEqual(parseNormalizedNamed(image), { domain, path, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) });
  });
}

for (const [image, error] of invalid) {
  test(`image reference ${image.length > 60 ? `${image.slice(0, 57)}...` : image} is refused: ${error.length > 60 ? `${error.slice(0, 57)}...` : error}`, () => {
    assert.deepEqual(parseNormalizedNamed(image), { error });
  });
}

test('the kubelet\'s messages for an image it cannot parse: ParseImageName, then EnsureImageExists (v1.36.3)', () => {
  // pkg/util/parsers/parsers.go: "couldn't parse image name %q: %v"; image_manager.go: "Failed to apply default image tag %q: %v".
  const error = imageNameError('nginx::1.25');
  assert.equal(error, 'couldn\'t parse image name "nginx::1.25": invalid reference format');
  assert.equal(invalidImageNameMessage('nginx::1.25', error!), 'Failed to apply default image tag "nginx::1.25": couldn\'t parse image name "nginx::1.25": invalid reference format');
  assert.equal(imageNameError('nginx:1.27'), undefined);
});

const normalized: [string, string][] = [
  ['nginx', 'docker.io/library/nginx:latest'],
  ['index.docker.io/foo/bar:1', 'docker.io/foo/bar:1'],
  [`nginx@sha256:${F64}`, `docker.io/library/nginx@sha256:${F64}`],
  ['nginx::1.25', 'nginx::1.25'],
];
for (const [image, want] of normalized) test(`the runtime reports ${image} as ${want}`, () => assert.equal(normalizedImage(image), want));
