// Inputs that are not regular files — devices, named pipes, directories — and oversized ones: every path the CLI
// reads refuses them at once, with exit 2 and the file named, instead of blocking or filling memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-bad-files-'));
const fifo = join(dir, 'manifest.fifo');
const hasFifo = process.platform !== 'win32' && spawnSync('mkfifo', [fifo]).status === 0;
const big = join(dir, 'big.yaml');
writeFileSync(big, '');
truncateSync(big, 9 * 1024 * 1024);
const tokenFileKubeconfig = join(dir, 'token-file.kubeconfig');
writeFileSync(tokenFileKubeconfig, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://192.168.49.2:6443"}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
users: [{name: u, user: {tokenFile: /dev/zero}}]
`);
const pod = join(ROOT, 'examples', 'pod.yaml');

const cases: { name: string; args: string[]; error: RegExp; needsFifo?: boolean }[] = [
  { name: 'a character device as the manifest', args: ['run', '/dev/zero'], error: /^error: \/dev\/zero:1: cannot read the file: it is a character device, not a regular file$/m },
  { name: 'a character device as a cluster file', args: ['run', pod, '--cluster', '/dev/zero'], error: /\/dev\/zero:1: cannot read the file: it is a character device, not a regular file/ },
  { name: 'a character device as the behavior file', args: ['run', pod, '--behavior', '/dev/urandom'], error: /\/dev\/urandom:1: cannot read the file: it is a character device/ },
  { name: 'a character device as the kubeconfig', args: ['run', pod, '--kubeconfig', '/dev/urandom'], error: /\/dev\/urandom:1: cannot read the file: it is a character device/ },
  { name: 'a character device as a later manifest', args: ['run', pod, '--then-apply', '1s,/dev/zero'], error: /\/dev\/zero:1: cannot read the file: it is a character device/ },
  { name: "a character device as a kubeconfig user's token file", args: ['run', pod, '--kubeconfig', tokenFileKubeconfig], error: /unable to read token-file \/dev\/zero for u due to it is a character device, not a regular file/ },
  { name: 'a directory as the manifest', args: ['run', dir], error: /cannot read the file: it is a directory/ },
  { name: 'an oversized manifest', args: ['run', big], error: /big\.yaml:1: cannot read the file: file is too large \(9437184 bytes; the limit is 8388608 bytes\)/ },
  { name: 'a named pipe as the manifest', args: ['run', fifo], error: /manifest\.fifo:1: cannot read the file: it is a named pipe \(FIFO\), not a regular file/, needsFifo: true },
  { name: 'a named pipe as a cluster file', args: ['run', pod, '--cluster', fifo], error: /manifest\.fifo:1: cannot read the file: it is a named pipe \(FIFO\)/, needsFifo: true },
];

for (const c of cases) {
  test(`the CLI refuses ${c.name} at once`, { skip: c.needsFifo && !hasFifo ? 'no named pipes here' : false }, () => {
    // Seconds, not minutes: a read that blocked or streamed a device would be killed here and fail.
    const r = spawnSync(process.execPath, [CLI, ...c.args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 });
    assert.equal(r.error, undefined, `pod-lifecycle ${c.args.join(' ')}: ${r.error?.message}`);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, c.error);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
}
