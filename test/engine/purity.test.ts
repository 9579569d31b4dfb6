// Holds the engine pure: no file under src/engine imports VS Code, the Debug Adapter Protocol or LSP packages, nor the serve front.
// It reads the TypeScript sources, so it needs no build of the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');
const engine = join(root, 'src', 'engine');

/** FORBIDDEN matches the module specifiers the engine must not depend on. */
const FORBIDDEN = /^(vscode|@vscode\/.*|vscode-languageserver.*|vscode-languageclient.*)$/;

/** specifiers lists every module a source imports: static and type imports, re-exports, import() and require(). */
function specifiers(source: string): string[] {
  const patterns = [
    /\bimport\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // also covers `import x = require('...')`
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

/** sourceFiles lists the .ts files under a directory, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const extractionCases = [
  { name: 'a named import', source: `import { x } from 'vscode';`, want: ['vscode'] },
  { name: 'a type import over lines', source: `import type {\n  A,\n  B,\n} from "@vscode/debugprotocol";`, want: ['@vscode/debugprotocol'] },
  { name: 'a namespace import', source: `import * as lsp from 'vscode-languageserver/node';`, want: ['vscode-languageserver/node'] },
  { name: 'a default and named import', source: `import def, { y } from 'vscode-languageclient';`, want: ['vscode-languageclient'] },
  { name: 'a side-effect import', source: `import 'vscode';`, want: ['vscode'] },
  { name: 'a re-export', source: `export * from '@vscode/debugadapter';`, want: ['@vscode/debugadapter'] },
  { name: 'a require call', source: `const v = require('vscode');`, want: ['vscode'] },
  { name: 'a dynamic import', source: `await import("vscode-languageserver-textdocument");`, want: ['vscode-languageserver-textdocument'] },
  { name: 'an import-equals', source: `import vscode = require('vscode');`, want: ['vscode'] },
  { name: 'a relative import', source: `import { Clock } from '../runtime/clock';`, want: ['../runtime/clock'] },
];

for (const c of extractionCases) {
  test(`The import scanner finds ${c.name}`, () => {
    assert.deepEqual(specifiers(c.source), c.want);
  });
}

const forbiddenCases = [
  { specifier: 'vscode', want: true },
  { specifier: '@vscode/debugadapter', want: true },
  { specifier: '@vscode/debugprotocol', want: true },
  { specifier: 'vscode-languageserver/node', want: true },
  { specifier: 'vscode-languageserver-textdocument', want: true },
  { specifier: 'vscode-languageclient/node', want: true },
  { specifier: 'yaml', want: false },
  { specifier: 'node:fs', want: false },
  { specifier: './vscode-like', want: false },
];

for (const c of forbiddenCases) {
  test(`The engine ${c.want ? 'may not' : 'may'} import ${c.specifier}`, () => {
    assert.equal(FORBIDDEN.test(c.specifier), c.want);
  });
}

const files = sourceFiles(engine).sort();

test('The engine has source files to check', () => {
  assert.ok(files.length > 0, `no .ts files under ${engine}`);
});

for (const file of files) {
  const name = relative(root, file).split('\\').join('/');
  test(`${name} imports nothing from VS Code, DAP or LSP packages`, () => {
    const found = specifiers(readFileSync(file, 'utf8')).filter((specifier) => FORBIDDEN.test(specifier));
    assert.deepEqual(found, []);
  });
}

const serve = join(root, 'src', 'serve');

test('No engine file imports the serve front (src/serve imports the engine, never the other way)', () => {
  const found = files.flatMap((file) => specifiers(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.') && resolve(file, '..', specifier).startsWith(serve))
    .map((specifier) => `${relative(root, file)}: ${specifier}`));
  assert.deepEqual(found, []);
});
