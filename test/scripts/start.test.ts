// `npm start` (scripts/start.mjs) as a first-time user sees it: no build or packaging chatter, a few lines that say
// what is about to happen, then the run of examples/pod.yaml as a story that fits an 80-column terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');

test('npm start runs scripts/start.mjs', () => {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts['start'], 'node scripts/start.mjs');
});

test('the start script packages quietly and prints the run as a story that fits 80 columns', () => {
  // The bundles are those the tests run on: rebuilding them under the other tests' feet is not this test's business.
  const r = spawnSync(process.execPath, ['scripts/start.mjs', '--no-build'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  assert.match(lines[0]!, /^Pod Lifecycle Debugger: examples\/pod\.yaml on a simulated Kubernetes 1\.36 cluster$/);
  // vsce's file list and its DONE line stay out.
  assert.doesNotMatch(r.stdout, /├─|└─|DONE|Packaged|WARNING/);
  for (const want of [/^\$ kubectl apply -f examples\/pod\.yaml$/m, /^pod\/web created$/m, /^TIMELINE$/m, /^Pod\/default\/web$/m, /^ {2}0\.000s {2}scheduler\.bind$/m, /^OUTCOME Running$/m, /^ {2}code --install-extension dist\/pod-lifecycle-debugger\.vsix$/m]) {
    assert.match(r.stdout, want);
  }
  // Every line fits, unless it is one word too long to break (a URL with its query).
  const over = lines.filter((l) => l.length > 80 && l.trim().includes(' '));
  assert.deepEqual(over, []);
  // Each step's result is wrapped under its phase.
  const bind = lines.findIndex((l) => /^ {2}\d+\.\d{3}s {2}scheduler\.bind$/.test(l));
  assert.match(lines[bind + 1]!, /^ {10}DefaultBinder: assume web on worker-[12]/);
});
