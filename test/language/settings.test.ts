// The settings: package.json declares one switch per rule the server knows, and the server reads them as VS Code sends them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../cli/harness';
import { DEFAULT_SETTINGS, readSettings, RULES } from '../../src/language/settings';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { type: unknown; default: unknown }> } } };
const properties = manifest.contributes.configuration.properties;

test('settings: package.json declares the cluster and one boolean switch per rule, on by default', () => {
  // podLifecycle.kubectlPath belongs to the Import Cluster command, not to the language server.
  const serverSettings = Object.keys(properties).filter((k) => k !== 'podLifecycle.kubectlPath');
  assert.deepEqual(serverSettings.sort(), ['podLifecycle.cluster', ...Object.values(RULES).map((r) => `podLifecycle.diagnostics.${r}`)].sort());
  for (const rule of Object.values(RULES)) assert.deepEqual([properties[`podLifecycle.diagnostics.${rule}`]?.type, properties[`podLifecycle.diagnostics.${rule}`]?.default], ['boolean', true]);
  assert.deepEqual(properties['podLifecycle.cluster']?.type, ['string', 'array']);
});

const cases: { name: string; section: unknown; want: { cluster: string[]; off: string[] } }[] = [
  { name: 'nothing sent keeps the defaults', section: undefined, want: { cluster: [], off: [] } },
  { name: 'one cluster file as a string', section: { cluster: 'cluster.yaml' }, want: { cluster: ['cluster.yaml'], off: [] } },
  { name: 'a list of cluster files, blanks dropped', section: { cluster: ['a.yaml', '', 'b.yaml'] }, want: { cluster: ['a.yaml', 'b.yaml'], off: [] } },
  { name: 'switches nested as VS Code sends dotted settings', section: { diagnostics: { scheduling: false, hint: { latestTag: false } } }, want: { cluster: [], off: ['scheduling', 'hint.latestTag'] } },
  { name: 'a switch written flat', section: { diagnostics: { 'hint.noProbes': false } }, want: { cluster: [], off: ['hint.noProbes'] } },
  { name: 'values of the wrong type are ignored', section: { cluster: 3, diagnostics: { decode: 'no' } }, want: { cluster: [], off: [] } },
];

for (const c of cases) {
  test(`settings: ${c.name}`, () => {
    const s = readSettings(c.section);
    assert.deepEqual(s.cluster, c.want.cluster);
    assert.deepEqual(Object.entries(s.rules).filter(([, on]) => !on).map(([r]) => r), c.want.off);
    assert.equal(Object.keys(s.rules).length, Object.keys(DEFAULT_SETTINGS.rules).length);
  });
}
