// The size of what ships: the .vsix and each bundle in dist/. Run after `npm run build && npm run package`.
import { existsSync, statSync } from 'node:fs';

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const file of ['dist/pod-lifecycle-debugger.vsix', 'dist/extension.js', 'dist/debugAdapter.js', 'dist/languageServer.js', 'dist/cli.js', 'dist/webview.js']) {
  if (!existsSync(file)) {
    console.log(`${file}: missing (run npm run build && npm run package)`);
    process.exitCode = 1;
    continue;
  }
  console.log(`${file}: ${kib(statSync(file).size)} (${statSync(file).size} bytes)`);
}
