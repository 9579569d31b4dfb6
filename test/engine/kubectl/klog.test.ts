// klog's text format as kubectl writes it (k8s.io/klog/v2 formatHeader and internal/serialize KVFormat), and
// request.go's truncation of a logged body (staging/src/k8s.io/client-go/rest/request.go truncateBody, v0.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../../../src/engine/runtime/clock';
import { headersText, klogHeader, klogStructured } from '../../../src/engine/kubectl/klog';
import { bodyLimit, curlCommand, RequestLog, truncateBody } from '../../../src/engine/kubectl/request-log';

const clock = new VirtualClock(new Date('2026-12-03T00:01:02Z'));

const headerCases = [
  { name: 'the epoch itself', at: 0, want: 'I1203 00:01:02.000000       1 round_trippers.go:632] ' },
  { name: 'milliseconds as microseconds', at: 1345, want: 'I1203 00:01:03.345000       1 round_trippers.go:632] ' },
  { name: 'a day later', at: 86_400_000, want: 'I1204 00:01:02.000000       1 round_trippers.go:632] ' },
];

for (const c of headerCases) {
  test(`klog: the header at ${c.name} has the virtual date and time, thread id 1 and the source line`, () => {
    assert.equal(klogHeader('I', clock, c.at, { file: 'round_trippers.go', line: 632 }), c.want);
  });
}

const valueCases = [
  { name: 'a text is quoted as strconv.Quote does', kvs: [['url', 'https://h/a?b="c"']] as const, want: '"Response" url="https://h/a?b=\\"c\\""' },
  { name: 'an integer and a boolean are written as they are', kvs: [['milliseconds', 3], ['enabled', false]] as const, want: '"Response" milliseconds=3 enabled=false' },
  { name: 'a text ending with a line break is one tab-indented line per line, closed by " >"', kvs: [['headers', 'A: 1\nB: 2\n']] as const, want: '"Response" headers=<\n\tA: 1\n\tB: 2\n >' },
  { name: 'a text with a line break but none at its end gets its last line and a break', kvs: [['body', '{}\nx']] as const, want: '"Response" body=<\n\t{}\n\tx\n >' },
];

for (const c of valueCases) {
  test(`klog: ${c.name}`, () => {
    assert.equal(klogStructured('Response', c.kvs), c.want);
  });
}

test('klog: headers are written sorted by key, one line per value', () => {
  assert.equal(headersText({ 'User-Agent': ['k'], Accept: ['a', 'b'] }), 'Accept: a\nAccept: b\nUser-Agent: k\n');
});

const truncateCases = [
  { name: 'a body of 1024 bytes is kept whole', body: 'x'.repeat(1024), want: 'x'.repeat(1024) },
  { name: 'a longer body is cut at 1024 bytes and says how much was left out', body: 'x'.repeat(1030), want: `${'x'.repeat(1024)} [truncated 6 chars]` },
];

for (const c of truncateCases) {
  test(`truncateBody: ${c.name}`, () => {
    assert.equal(truncateBody(c.body), c.want);
  });
}

const limitCases = [
  { name: 'at -v=8 a body is cut at 1024 bytes', v: 8, body: 'x'.repeat(1030), want: `${'x'.repeat(1024)} [truncated 6 chars]` },
  { name: 'at -v=9 a body of 10240 bytes is kept whole', v: 9, body: 'x'.repeat(10240), want: 'x'.repeat(10240) },
  { name: 'at -v=9 a longer body is cut at 10240 bytes', v: 9, body: 'x'.repeat(10250), want: `${'x'.repeat(10240)} [truncated 10 chars]` },
  { name: 'at -v=10 no body is cut', v: 10, body: 'x'.repeat(50_000), want: 'x'.repeat(50_000) },
];

for (const c of limitCases) {
  test(`truncateBody: ${c.name}`, () => {
    assert.equal(truncateBody(c.body, bodyLimit(c.v)), c.want);
  });
}

test('curlCommand: -H flags by header name, each Go-quoted, the URL in single quotes, then a line break', () => {
  assert.equal(
    curlCommand('POST', 'https://h/api?x=1', { 'User-Agent': ['k'], Authorization: ['Bearer <masked>'], Accept: ['a "b"'] }),
    `curl -v -XPOST  -H "Accept: a \\"b\\"" -H "Authorization: Bearer <masked>" -H "User-Agent: k" 'https://h/api?x=1'\n`,
  );
});

test('RequestLog: at -v=9 the first exchange dials and logs the dial\'s timings, a later one the connection taken from the pool', () => {
  const lines: string[] = [];
  const log = new RequestLog(9, clock, (l) => lines.push(l));
  for (const at of [0, 0]) log.exchange({ verb: 'GET', url: 'https://h/api', requestHeaders: { Accept: ['a'] }, caller: { file: 'x.go', line: 1 }, sentAt: at, answeredAt: at + 2, status: 200 });
  const kept = lines.map((l) => l.replace(/^I1203 00:01:02\.00\d000 {7}1 /, '').replace(/\tAudit-Id: .*\n/, '').replace(/\tDate: .*\n/, ''));
  const request = 'round_trippers.go:527] "Request" curlCommand=<\n\tcurl -v -XGET  -H "Accept: a" \'https://h/api\'\n >';
  const response = (timings: string) => `round_trippers.go:632] "Response" verb="GET" url="https://h/api" status="200 OK" headers=<\n\tCache-Control: no-cache, private\n\tContent-Type: application/json\n > milliseconds=2 ${timings} serverProcessingMilliseconds=2`;
  assert.deepEqual(kept, [
    'x.go:1] "Request Body" body=""', request,
    'round_trippers.go:562] "HTTP Trace: Dial succeed" network="tcp" address="192.168.49.2:6443"',
    response('dnsLookupMilliseconds=0 dialMilliseconds=0 tlsHandshakeMilliseconds=0'),
    'x.go:1] "Request Body" body=""', request,
    response('getConnectionMilliseconds=0'),
  ]);
});

const levelCases = [
  { v: 5, want: [] },
  { v: 6, want: ['round_trippers.go:632] "Response" verb="GET" url="https://h/api" status="200 OK" milliseconds=0'] },
  { v: 7, want: ['round_trippers.go:527] "Request" verb="GET" url="https://h/api" headers=<\n\tAccept: a\n >', 'round_trippers.go:632] "Response" status="200 OK" milliseconds=0'] },
];

for (const c of levelCases) {
  test(`RequestLog: at -v=${c.v} one exchange logs ${c.want.length} line(s)`, () => {
    const lines: string[] = [];
    new RequestLog(c.v, clock, (l) => lines.push(l)).exchange({ verb: 'GET', url: 'https://h/api', requestHeaders: { Accept: ['a'] }, caller: { file: 'x.go', line: 1 }, sentAt: 0, answeredAt: 0, status: 200 });
    assert.deepEqual(lines.map((l) => l.replace(/^I1203 00:01:02\.000000 {7}1 /, '')), c.want);
  });
}
