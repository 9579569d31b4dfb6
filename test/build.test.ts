// Tests what the build and the packager produce: the four bundles in dist/ and a .vsix that ships only them and their assets.
// Assumes `npm test`'s pretest ran the build; packages a fresh .vsix into a temporary directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

const bundleCases = [
  { file: 'dist/extension.js', shebang: false, executable: false },
  { file: 'dist/debugAdapter.js', shebang: false, executable: false },
  { file: 'dist/languageServer.js', shebang: false, executable: false },
  { file: 'dist/cli.js', shebang: true, executable: true },
];

for (const bundle of bundleCases) {
  test(`The build writes ${bundle.file}${bundle.shebang ? ', executable with a node shebang,' : ''} and its source map beside it`, () => {
    const path = join(root, bundle.file);
    const code = readFileSync(path, 'utf8');
    assert.equal(code.startsWith('#!/usr/bin/env node\n'), bundle.shebang);
    if (bundle.executable) accessSync(path, constants.X_OK);
    assert.match(code, /\/\/# sourceMappingURL=\S+\.js\.map\s*$/);
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { version: number; sourcesContent?: unknown };
    assert.equal(map.version, 3);
    assert.equal(map.sourcesContent, undefined, 'source maps should not embed the sources');
  });
}

test('The extension bundle leaves vscode to the extension host', () => {
  const code = readFileSync(join(root, 'dist/extension.js'), 'utf8');
  assert.match(code, /require\("vscode"\)/);
});

/** zipEntries lists the names in a zip file's central directory. */
function zipEntries(zip: Buffer): string[] {
  const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
  const CENTRAL_FILE_HEADER = 0x02014b50;
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  assert.ok(end >= 0, 'not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(offset), CENTRAL_FILE_HEADER);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** packageEntries runs vsce as `npm run package` does, into a temporary directory, and lists the .vsix. */
function packageEntries(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-vsix-'));
  try {
    const out = join(dir, 'pod-lifecycle-debugger.vsix');
    const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(result.status, 0, `vsce package failed:\n${result.stdout}\n${result.stderr}`);
    return zipEntries(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const entries = packageEntries();

const requiredCases = [
  'extension/package.json',
  'extension/package.nls.json',
  'extension/LICENSE.txt',
  'extension/media/icon.png',
  'extension/dist/extension.js',
  'extension/dist/debugAdapter.js',
  'extension/dist/languageServer.js',
  'extension/dist/cli.js',
];

for (const entry of requiredCases) {
  test(`The .vsix holds ${entry}`, () => {
    assert.ok(entries.includes(entry), `missing from: ${entries.join(', ')}`);
  });
}

const forbiddenCases = [
  { what: 'no source maps', pattern: /\.map$/ },
  { what: 'no TypeScript sources', pattern: /^extension\/src\// },
  { what: 'no tests', pattern: /^extension\/(test|out)\// },
  { what: 'no node_modules', pattern: /^extension\/node_modules\// },
  { what: 'no build scripts or benchmarks', pattern: /^extension\/(scripts|bench|\.ci)\// },
  { what: 'no earlier .vsix', pattern: /\.vsix$/ },
  { what: 'no TypeScript or git configuration', pattern: /^extension\/(tsconfig.*\.json|\.git.*|\.vscodeignore|package-lock\.json)$/ },
];

for (const c of forbiddenCases) {
  test(`The .vsix holds ${c.what}`, () => {
    assert.deepEqual(entries.filter((entry) => c.pattern.test(entry)), []);
  });
}

test('The .vsix holds only the allow-listed paths', () => {
  // dist/openapi-v3.json.gz: the OpenAPI documents a served debug session answers kubectl with.
  const allowed = /^(\[Content_Types\]\.xml|extension\.vsixmanifest|extension\/(package\.json|package\.nls(\.[\w-]+)?\.json|LICENSE\.txt|README\.md|CHANGELOG\.md|dist\/[^/]+\.js|dist\/openapi-v3\.json\.gz|(media|syntaxes|examples|l10n)\/.+))$/i;
  assert.deepEqual(entries.filter((entry) => !allowed.test(entry)), []);
});
