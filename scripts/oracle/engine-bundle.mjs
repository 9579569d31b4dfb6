// Bundles scripts/oracle/engine-entry.mjs with the engine's sources into OUT/engine.cjs (esbuild, as
// scripts/build.mjs bundles the CLI) and loads it: the engine in-process, for families of many small requests.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';

let loaded;

/** loadEngine builds the bundle under OUT once per run and returns its exports ({ createEngine, runConsole }). */
export async function loadEngine(root, out) {
  if (loaded) return loaded;
  const outfile = join(out, 'engine.cjs');
  await build({
    entryPoints: [join(root, 'scripts/oracle/engine-entry.mjs')], outfile, bundle: true, format: 'cjs', platform: 'node',
    target: 'node20', sourcemap: false, logLevel: 'warning',
  });
  loaded = createRequire(import.meta.url)(outfile);
  return loaded;
}
