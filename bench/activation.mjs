// Activation time of the extension: loading dist/extension.js and running activate(), against a stand-in of the
// `vscode` module that accepts every call (VS Code's own start-up cost is not ours to measure). Prints the median
// and p95 of fresh loads. Run after `npm run build`.
import { createRequire } from 'node:module';
import Module from 'node:module';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const bundle = resolve('dist/extension.js');

/** anything is a value every property access and call of which gives anything again: a stand-in for the vscode API. */
function anything() {
  const fn = function () { return proxy; };
  const proxy = new Proxy(fn, {
    get: (_t, key) => {
      if (key === Symbol.toPrimitive) return () => '';
      if (key === 'then') return undefined; // not a promise
      if (key === Symbol.iterator) return function* () {};
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

/** NAMESPACES are the vscode API's top-level names; a bundler copies a module's own keys, so the stand-in lists them. */
const NAMESPACES = ['commands', 'debug', 'env', 'extensions', 'l10n', 'languages', 'tasks', 'window', 'workspace', 'Uri', 'Range', 'Position',
  'Selection', 'Disposable', 'EventEmitter', 'ViewColumn', 'ProgressLocation', 'DebugConfigurationProviderTriggerKind',
  'DebugAdapterInlineImplementation', 'CancellationTokenSource', 'version'];
const any = anything();
// The language client starts asynchronously against the stand-in and fails there; that part is not activation.
process.on('unhandledRejection', () => undefined);

const stub = new Proxy({}, {
  get: (_t, key) => (key === 'version' ? '1.100.3' : any),
  has: () => true,
  ownKeys: () => NAMESPACES,
  getOwnPropertyDescriptor: (_t, key) => ({ value: key === 'version' ? '1.100.3' : any, enumerable: true, configurable: true, writable: false }),
});
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return stub;
  return originalLoad.call(this, request, ...rest);
};

const context = { subscriptions: [], asAbsolutePath: (p) => resolve(p), extensionUri: any, extensionPath: resolve('.') };
const runs = 20;
const times = [];
for (let i = 0; i < runs; i++) {
  for (const key of Object.keys(require.cache)) if (key.startsWith(resolve('dist'))) delete require.cache[key];
  const start = performance.now();
  const ext = require(bundle);
  ext.activate({ ...context, subscriptions: [] });
  times.push(performance.now() - start);
  await ext.deactivate?.().catch?.(() => undefined);
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
console.log(`activation (load dist/extension.js + activate): median ${at(0.5)} ms, p95 ${at(0.95)} ms over ${runs} fresh loads`);
