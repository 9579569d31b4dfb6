// Refreshes the screenshots of docs/ from a real VS Code: the end-to-end suite "a Deployment's debug session"
// (test/e2e/suites/deployment.ts) debugs examples/deployment.yaml in code-server, once in Dark Modern and once in Light
// Modern, shows the state tree, and photographs the window and the panel into out/screenshots/; this copies them into docs/.
// Usage: node scripts/screenshots.mjs (after the build and the tests' compilation: `npm run screenshot` does both).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = ['debugger-dark.png', 'debugger-light.png', 'state-tree-dark.png', 'state-tree-light.png'];

const run = spawnSync(process.execPath, ['--test', "--test-name-pattern=a Deployment's debug session", 'out/test/e2e/vscode.test.js'], { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(join(ROOT, 'docs'), { recursive: true });
for (const shot of SHOTS) copyFileSync(join(ROOT, 'out', 'screenshots', shot), join(ROOT, 'docs', shot));
console.log(`docs/: ${SHOTS.join(', ')}`);
