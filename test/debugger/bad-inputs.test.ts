// A launch with inputs the CLI refuses is refused the same way by the adapter: at once, with the file, the line and
// the problem, and no stack — a device or a named pipe never blocks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { podYaml, withSession } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-adapter-inputs-'));
const fifo = join(dir, 'manifest.fifo');
const hasFifo = process.platform !== 'win32' && spawnSync('mkfifo', [fifo]).status === 0;
const kubeconfig = join(dir, 'contexts-5.kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts: 5\n');

const cases: { name: string; args: Record<string, unknown>; error: RegExp; needsFifo?: boolean }[] = [
  { name: 'a character device as the manifest', args: { manifest: '/dev/zero' }, error: /\/dev\/zero:1: cannot read the file: it is a character device, not a regular file/ },
  { name: 'a character device as a cluster file', args: { manifest: podYaml, cluster: '/dev/urandom' }, error: /\/dev\/urandom:1: cannot read the file: it is a character device/ },
  { name: 'a named pipe as the manifest', args: { manifest: fifo }, error: /manifest\.fifo:1: cannot read the file: it is a named pipe \(FIFO\)/, needsFifo: true },
  { name: 'a kubeconfig whose contexts is a number', args: { manifest: podYaml, kubeconfig }, error: /contexts-5\.kubeconfig:4: error loading config file ".*": json: cannot unmarshal number into Go struct field Config\.contexts of type \[\]v1\.NamedContext/ },
];

for (const c of cases) {
  test(`the adapter refuses ${c.name} at once`, { skip: c.needsFifo && !hasFifo ? 'no named pipes here' : false }, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest({ adapterID: 'pod-lifecycle', pathFormat: 'path' });
      await assert.rejects(dc.launchRequest(c.args as never), (err: Error) => {
        assert.match(err.message, c.error);
        assert.doesNotMatch(err.message, /\n\s+at |TypeError/);
        return true;
      });
    });
  });
}
