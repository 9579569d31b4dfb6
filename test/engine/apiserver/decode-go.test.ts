// The Go library behaviour the body decoder reproduces: strconv.Quote, base64 error offsets, RFC 3339 time errors,
// encoding/json's string text and map key order, strings.TrimSpace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  base64ErrorOffset, goJsonStringBody, goQuote, goSortedKeys, goTrimSpace, RFC3339, RFC3339_MICRO, timeParseError,
} from '../../../src/engine/apiserver/decode-go';

const quoteCases = [
  { name: 'a plain path as it is', s: 'spec.containers[0].imagee', want: '"spec.containers[0].imagee"' },
  { name: 'quotes and backslashes escaped', s: 'a"b\\c', want: '"a\\"b\\\\c"' },
  { name: 'a tab and a newline as \\t and \\n', s: 'a\tb\n', want: '"a\\tb\\n"' },
  { name: 'other control characters as \\x', s: '\u0001\u007f', want: '"\\x01\\x7f"' },
  { name: 'printable non-ASCII letters as they are', s: 'größe', want: '"größe"' },
  { name: 'a zero-width space as \\u', s: 'a\u200bb', want: '"a\\u200bb"' },
];
for (const c of quoteCases) test(`goQuote writes ${c.name}`, () => assert.equal(goQuote(c.s), c.want));

// Offsets as base64.StdEncoding.DecodeString reports them: a short last quantum is reported at its start.
const base64Cases = [
  { s: 'aHVudGVyMg==', want: undefined },
  { s: 'aHVu\ndGVy\r\nMg==\n', want: undefined },
  { s: '', want: undefined },
  { s: 'dGVzdA', want: 4 },
  { s: 'dGVzdA=', want: 7 },
  { s: 'dGVz dA==', want: 4 },
  { s: 'dGVzdA==x', want: 8 },
  { s: 'dGVzdA=x', want: 6 },
  { s: '=', want: 0 },
  { s: 'abc', want: 0 },
  { s: 'héllo', want: 1 },
];
for (const c of base64Cases) {
  test(`base64 of ${JSON.stringify(c.s)} ${c.want === undefined ? 'decodes' : `fails at byte ${c.want}`}`, () => assert.equal(base64ErrorOffset(c.s), c.want));
}

const timeCases: { value: string; layout?: typeof RFC3339_MICRO; want: string | undefined }[] = [
  { value: '2024-02-29T23:59:59Z', want: undefined },
  { value: '2024-01-01T00:00:00.123456789+05:30', want: undefined },
  { value: '', want: 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"' },
  { value: '2024-01-01', want: 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"' },
  { value: '2024-01-01 00:00:00Z', want: 'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"' },
  { value: '2024-01-01T00:00:00', want: 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"' },
  { value: '2024-1-01T00:00:00Z', want: 'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"' },
  { value: '2024-00-10T00:00:00Z', want: 'parsing time "2024-00-10T00:00:00Z": month out of range' },
  { value: '2023-02-29T00:00:00Z', want: 'parsing time "2023-02-29T00:00:00Z": day out of range' },
  { value: '2024-01-01T24:00:00Z', want: 'parsing time "2024-01-01T24:00:00Z": hour out of range' },
  { value: '2024-01-01T00:60:00Z', want: 'parsing time "2024-01-01T00:60:00Z": minute out of range' },
  { value: '2024-01-01T00:00:00Zz', want: 'parsing time "2024-01-01T00:00:00Zz": extra text: "z"' },
  { value: '2024-01-01T00:00:00+25:00', want: 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range' },
  { value: '2024-01-01T00:00:00.123456Z', layout: RFC3339_MICRO, want: undefined },
  { value: '2024-01-01T00:00:00Z', layout: RFC3339_MICRO, want: 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"' },
];
for (const c of timeCases) {
  test(`time.Parse of ${JSON.stringify(c.value)}${c.layout ? ' as RFC3339Micro' : ''} ${c.want ? 'fails as Go says' : 'succeeds'}`, () => {
    assert.equal(timeParseError(c.value, c.layout ?? RFC3339), c.want);
  });
}

test('encoding/json escapes HTML characters and line separators in strings', () => {
  assert.equal(goJsonStringBody('<a & b>\u2028"\n'), '\\u003ca \\u0026 b\\u003e\\u2028\\"\\n');
});

test('strings.TrimSpace trims Unicode spaces but keeps a byte order mark', () => {
  assert.equal(goTrimSpace('\u00a0 1\t\n'), '1');
  assert.equal(goTrimSpace('\ufeff1'), '\ufeff1');
});

test('map keys are ordered by their UTF-8 bytes, as encoding/json writes a map', () => {
  assert.deepEqual(goSortedKeys({ spec: 1, apiVersion: 2, Kind: 3, kind: 4 }), ['Kind', 'apiVersion', 'kind', 'spec']);
  assert.deepEqual(goSortedKeys({ '\u{1F600}': 1, '\uFF01': 2 }), ['\uFF01', '\u{1F600}']);
});
