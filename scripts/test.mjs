// Runs every compiled test (out/test/**/*.test.js) with Node's built-in test runner.
// Usage: node scripts/test.mjs [substring] — only the test files whose path contains it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(find(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv[2] ?? '';
const files = find('out/test').filter((f) => f.includes(filter)).sort();
if (files.length === 0) {
  console.error(`no test files match "${filter}" under out/test`);
  process.exit(1);
}
// The spec reporter ends with a list of the failing tests and their errors, so the tail of a long log says what failed.
const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
