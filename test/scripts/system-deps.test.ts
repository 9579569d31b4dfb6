// On a fresh machine `npm test` alone gets what the tests need: its pretest runs scripts/install-system-deps.sh,
// which installs chromium and a font when they are missing and it can (apt-get, root or sudo), and otherwise says
// what is missing and lets the run go on (STRICT=1, as .ci/run sets, makes that an error). code-server is installed
// by the real-VS-Code test itself (scripts/install-code-server.sh, in its setup).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'install-system-deps.sh');

test('npm test installs the system packages first, then builds', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(pkg.scripts['pretest']!, /^bash scripts\/install-system-deps\.sh && npm run build && /);
  // The real-VS-Code test's setup installs code-server before anything else.
  assert.match(readFileSync(join(root, 'test', 'e2e', 'vscode.test.ts'), 'utf8'), /^before\(prepare\);$/m);
  assert.match(readFileSync(join(root, 'test', 'e2e', 'workbench.ts'), 'utf8'), /export function prepare\(\): void \{\n {2}run\('bash', \['scripts\/install-code-server\.sh'\]\);/);
});

test('with no apt-get to install chromium, the script says what is missing and lets the tests go on; STRICT=1 fails', () => {
  // A PATH that holds `id` and nothing else: no chromium, no apt-get, no sudo.
  const bin = mkdtempSync(join(tmpdir(), 'no-apt-'));
  try {
    symlinkSync(spawnSync('/bin/sh', ['-c', 'command -v id'], { encoding: 'utf8' }).stdout.trim(), join(bin, 'id'));
    const env = { PATH: bin, HOME: bin };
    const lenient = spawnSync('/bin/bash', [script], { encoding: 'utf8', env });
    assert.equal(lenient.status, 0, lenient.stderr);
    assert.match(lenient.stderr, /^note: the browser tests need chromium.*, and there is no apt-get here; install them \(or set CHROMIUM_PATH\)/);
    const strict = spawnSync('/bin/bash', [script], { encoding: 'utf8', env: { ...env, STRICT: '1' } });
    assert.equal(strict.status, 1);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('with everything there, the script does nothing and says nothing', () => {
  const r = spawnSync('/bin/bash', [script], { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: process.execPath } });
  // The font may be missing on this machine: then it is the one thing the script has to do.
  if (!existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')) return assert.match(r.stdout + r.stderr, /fonts-dejavu-core/);
  assert.equal(r.status, 0);
  assert.equal(r.stdout + r.stderr, '');
});
