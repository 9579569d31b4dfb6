// Localization: every string of our own goes through vscode.l10n or package.nls.json, and the Simplified
// Chinese translation covers each of them with the same placeholders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_STRINGS } from '../src/webview/html';

const ROOT = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    return statSync(join(ROOT, rel)).isDirectory() ? sources(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

/** l10nStrings are the first arguments of vscode.l10n.t written as string literals, and the page's strings. */
function l10nStrings(): Set<string> {
  const out = new Set<string>(Object.values(PAGE_STRINGS));
  for (const file of sources('src')) {
    for (const m of read(file).matchAll(/l10n\.t\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)) {
      out.add(JSON.parse(`"${m[2]!.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string);
    }
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

test('every vscode.l10n.t string has a Simplified Chinese translation with the same placeholders', () => {
  const zh = JSON.parse(read('l10n/bundle.l10n.zh-cn.json')) as Record<string, string>;
  const strings = l10nStrings();
  assert.ok(strings.size > 20);
  const missing = [...strings].filter((s) => !(s in zh));
  assert.deepEqual(missing, [], 'strings without a zh-cn translation');
  for (const s of strings) assert.deepEqual(placeholders(zh[s]!), placeholders(s), `placeholders of ${JSON.stringify(s)}`);
  const stale = Object.keys(zh).filter((k) => !strings.has(k));
  assert.deepEqual(stale, [], 'translations of strings the code no longer has');
});

test('every %key% of package.json is in package.nls.json, and each key has a zh-cn translation', () => {
  const manifest = read('package.json');
  const nls = JSON.parse(read('package.nls.json')) as Record<string, string>;
  const zh = JSON.parse(read('package.nls.zh-cn.json')) as Record<string, string>;
  const used = new Set([...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!));
  assert.deepEqual([...used].filter((k) => !(k in nls)), [], 'keys package.json uses that package.nls.json lacks');
  assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), [], 'package.nls.json keys nothing uses');
  assert.deepEqual(Object.keys(nls).filter((k) => !(k in zh)).sort(), [], 'keys without a zh-cn translation');
  assert.deepEqual(Object.keys(zh).filter((k) => !(k in nls)).sort(), [], 'zh-cn keys that package.nls.json no longer has');
  for (const k of Object.keys(nls)) assert.match(zh[k]!, /[\u4e00-\u9fff]/, `${k} is not translated`);
});

test('every contributed command is in the Pod Lifecycle category and has a title', () => {
  const pkg = JSON.parse(read('package.json')) as { contributes: { commands: { command: string; title: string; category?: string }[] } };
  for (const c of pkg.contributes.commands) {
    assert.equal(c.category, '%podLifecycle.category%', c.command);
    assert.match(c.title, /^%podLifecycle\..+\.title%$/, c.command);
  }
});
