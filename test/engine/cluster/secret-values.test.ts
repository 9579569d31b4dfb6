// Tests for what the store keeps of a Secret: notes of the values' sizes, the values themselves apart, and the value a
// client sends back for one it was given (a note, or as many zero bytes as serve hands out) keeping the value kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSecretValue, redactSecret, type SecretValues } from '../../../src/engine/cluster/secret-values';
import type { KubeObject } from '../../../src/engine/api/types';

const secret = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data } as unknown as KubeObject);
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const zeros = (n: number): string => Buffer.alloc(n).toString('base64');

const cases: { name: string; data: Record<string, string>; previous?: SecretValues; note: string; value: string | undefined }[] = [
  { name: 'a new value is kept apart and noted by its size', data: { password: b64('s3cr3t') }, note: '<redacted: 6 bytes>', value: 's3cr3t' },
  { name: 'a note sent back keeps the value', data: { password: '<redacted: 6 bytes>' }, previous: { password: 's3cr3t' }, note: '<redacted: 6 bytes>', value: 's3cr3t' },
  { name: 'as many zero bytes as the value sent back keep it', data: { password: zeros(6) }, previous: { password: 's3cr3t' }, note: '<redacted: 6 bytes>', value: 's3cr3t' },
  { name: 'zero bytes of another length are a new value', data: { password: zeros(4) }, previous: { password: 's3cr3t' }, note: '<redacted: 4 bytes>', value: '\u0000\u0000\u0000\u0000' },
  { name: 'zero bytes with no value kept before are a new value', data: { password: zeros(3) }, note: '<redacted: 3 bytes>', value: '\u0000\u0000\u0000' },
  { name: 'another value of the same length replaces it', data: { password: b64('hunter') }, previous: { password: 's3cr3t' }, note: '<redacted: 6 bytes>', value: 'hunter' },
];

for (const c of cases) {
  test(`redactSecret: ${c.name}`, () => {
    const { stored, values } = redactSecret(secret(c.data), c.previous);
    assert.equal((stored as unknown as { data: Record<string, string> }).data['password'], c.note);
    assert.equal(values['password'] === undefined ? undefined : decodeSecretValue(values['password']), c.value);
  });
}
