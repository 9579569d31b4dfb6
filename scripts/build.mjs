// Bundles the extension, the debug adapter, the language server and the CLI into dist/ with esbuild.
// Usage: node scripts/build.mjs — exits non-zero when any bundle fails.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';

/** shared holds the options every bundle has: one CommonJS file for Node 20, minified, source map beside it. */
const shared = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
};

/** bundles lists each entry point and its output; only the extension host provides `vscode`. */
const bundles = [
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['src/debugger/main.ts'], outfile: 'dist/debugAdapter.js' },
  { entryPoints: ['src/language/server.ts'], outfile: 'dist/languageServer.js' },
  // The language server's diagnostics run in a worker thread: its own script beside the server's.
  { entryPoints: ['src/language/diagnostics/worker.ts'], outfile: 'dist/diagnosticsWorker.js' },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The state tree page runs in the webview, a browser: one script, no Node.
  { entryPoints: ['src/webview/page/main.ts'], outfile: 'dist/webview.js', format: 'iife', platform: 'browser', target: 'chrome120' },
];

mkdirSync('dist', { recursive: true });
// The OpenAPI documents are read from beside the bundle when serve starts or a -v=8 log shows one, not bundled.
copyFileSync('src/engine/api/openapi/v3.json.gz', 'dist/openapi-v3.json.gz');
const results = await Promise.allSettled(bundles.map((options) => build({ ...shared, ...options })));
if (results[bundles.findIndex((b) => b.outfile === 'dist/cli.js')].status === 'fulfilled') chmodSync('dist/cli.js', 0o755);
const failed = results.filter((result) => result.status === 'rejected');
if (failed.length > 0) {
  // esbuild has already printed each error with its file and line (logLevel above).
  console.error(`build failed: ${failed.length} of ${bundles.length} bundles`);
  process.exit(1);
}
console.log(`built ${bundles.map((b) => b.outfile).join(', ')}`);
