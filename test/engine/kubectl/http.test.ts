// kubectl's requests as `kubectl -v=8` logs them, and the errors client-go's Result.Raw() hands back.
// See staging/src/k8s.io/client-go/transport/round_trippers.go and rest/request.go (newUnstructuredResponseError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbidden, unauthorized } from '../../../src/engine/apiserver/request';
import { ACCEPT, rawError, recordRequest, responseLog } from '../../../src/engine/kubectl/http';

test('http: a discovery GET logs its empty body, then verb, URL and headers, sorted', () => {
  const r = recordRequest({ verb: 'GET', path: '/api?timeout=32s', accept: ACCEPT.discovery }, {});
  assert.equal(r.url, 'https://192.168.49.2:6443/api?timeout=32s');
  assert.deepEqual(r.log, [
    '"Request Body" body=""',
    `"Request" verb="GET" url="https://192.168.49.2:6443/api?timeout=32s" headers=<\n\tAccept: ${ACCEPT.discovery}\n\tUser-Agent: kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0\n >`,
  ]);
});

test('http: a POST logs its JSON body and Content-Type; a bearer token is masked; impersonation headers are shown', () => {
  const r = recordRequest({ verb: 'POST', path: '/api/v1/namespaces/default/pods', accept: ACCEPT.json, body: '{"kind":"Pod"}' }, { token: 's3cret', impersonate: { user: 'bob', groups: ['dev', 'ops'] } });
  assert.deepEqual(r.headers, { Accept: ['application/json'], 'User-Agent': ['kubectl/v1.36.0 (linux/amd64) kubernetes/v1.36.0'], 'Content-Type': ['application/json'], Authorization: ['Bearer <masked>'], 'Impersonate-User': ['bob'], 'Impersonate-Group': ['dev', 'ops'] });
  assert.equal(r.log[0], '"Request Body" body="{\\"kind\\":\\"Pod\\"}"');
  assert.ok(!r.log.join('\n').includes('s3cret'));
  assert.match(r.log[1]!, /\tAuthorization: Bearer <masked>\n\tContent-Type: application\/json\n\tImpersonate-Group: dev\n\tImpersonate-Group: ops\n\tImpersonate-User: bob\n/);
});

test('http: a response logs its status', () => {
  assert.deepEqual(responseLog(404), ['"Response" status="404 Not Found" milliseconds=0']);
});

const raw = [
  { name: 'a 401 is "the server has asked for the client to provide credentials"', err: unauthorized(), want: ['Unauthorized', 'the server has asked for the client to provide credentials', 401] },
  { name: 'a 403 keeps the server message, which a JSON body does not give: "unknown"', err: forbidden('', '', undefined, 'x'), want: ['Forbidden', 'unknown', 403] },
];
for (const c of raw) {
  test(`http: Raw() error: ${c.name}`, () => {
    const e = rawError(c.err);
    assert.deepEqual([e.reason, e.message, e.code], c.want);
  });
}
