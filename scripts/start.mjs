// `npm start`: builds the bundles and the .vsix quietly (their output is shown only when they fail), then runs
// examples/pod.yaml and prints what happens to it, wrapped to the terminal's width (80 columns when it has none).
// Usage: node scripts/start.mjs [--no-build] — --no-build uses the bundles dist/ holds (the test of this script does).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VSIX = 'dist/pod-lifecycle-debugger.vsix';
const MANIFEST = 'examples/pod.yaml';

/** quietly runs a step and prints its output only when it fails, then stops with its status. */
function quietly(what, command, args) {
  const r = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status === 0) return;
  process.stderr.write(`${what} failed:\n${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `${r.error.message}\n` : ''}`);
  process.exit(r.status ?? 1);
}

if (!process.argv.includes('--no-build')) quietly('Building the bundles', process.execPath, ['scripts/build.mjs']);
quietly('Packaging the extension', process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', VSIX]);

const columns = process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : 80;
const lines = [
  `Pod Lifecycle Debugger: ${MANIFEST} on a simulated Kubernetes 1.36 cluster`,
  '(a tainted control-plane node and two workers), on a virtual clock.',
  'kubectl applies the Pod; kube-apiserver authenticates, authorizes, admits,',
  'validates and stores it; kube-scheduler filters and scores the nodes and binds',
  'it; the kubelet mounts its volumes, starts its sandbox, pulls its image and',
  'starts its container, until it is Running and Ready.',
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
const run = spawnSync(process.execPath, ['dist/cli.js', 'run', MANIFEST], {
  cwd: ROOT, stdio: 'inherit', env: { ...process.env, COLUMNS: String(columns) },
});
process.stdout.write([
  '',
  'To step through the same run in VS Code:',
  `  code --install-extension ${VSIX}`,
  `then open ${MANIFEST} and press F5.`,
  '',
].join('\n'));
process.exit(run.status ?? 1);
