// Kubeconfigs of the wrong shape: the CLI says what client-go says (the messages below are real kubectl's for the
// same files), at the field's line, with exit 2 — never an internal error with a stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-kubeconfig-'));

const cases: { name: string; yaml: string; line: number; error: string }[] = [
  { name: 'users is a string', yaml: 'users: garbage', line: 4, error: 'json: cannot unmarshal string into Go struct field Config.users of type []v1.NamedAuthInfo' },
  { name: 'contexts is a number', yaml: 'contexts: 5', line: 4, error: 'json: cannot unmarshal number into Go struct field Config.contexts of type []v1.NamedContext' },
  { name: 'a context is a number (a null one is skipped)', yaml: 'contexts: [null, 1]', line: 4, error: 'json: cannot unmarshal number into Go struct field Config.contexts of type v1.NamedContext' },
  { name: "a user's user is a number", yaml: 'users:\n- name: u\n  user: 5', line: 6, error: 'json: cannot unmarshal number into Go struct field NamedAuthInfo.users.user of type v1.AuthInfo' },
  { name: "a context's user is a list", yaml: 'contexts: [{name: x, context: {user: [1]}}]', line: 4, error: 'json: cannot unmarshal array into Go struct field Context.contexts.context.user of type string' },
  { name: 'a group is a number', yaml: 'users: [{name: u, user: {as-groups: [1]}}]', line: 4, error: 'json: cannot unmarshal number into Go struct field AuthInfo.users.user.as-groups of type string' },
  { name: 'an extra is not a list', yaml: 'users: [{name: u, user: {as-user-extra: {a: 5}}}]', line: 4, error: 'json: cannot unmarshal number into Go struct field AuthInfo.users.user.as-user-extra of type []string' },
  { name: 'clusters is an object', yaml: 'clusters: {a: 1}', line: 4, error: 'json: cannot unmarshal object into Go struct field Config.clusters of type []v1.NamedCluster' },
];

for (const c of cases) {
  test(`a kubeconfig where ${c.name} is refused as kubectl refuses it`, () => {
    const file = join(dir, `${c.name.replace(/\W+/g, '-')}.kubeconfig`);
    writeFileSync(file, `apiVersion: v1\nkind: Config\ncurrent-context: x\n${c.yaml}\n`);
    const r = spawnSync(process.execPath, [CLI, 'run', join(ROOT, 'examples', 'pod.yaml'), '--kubeconfig', file], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim(), `error: ${file}:${c.line}: error loading config file "${file}": ${c.error}`);
  });
}
