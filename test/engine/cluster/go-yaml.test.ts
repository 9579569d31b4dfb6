// Scalars read as kubectl 1.36 reads them. Each row is a YAML document and the JSON kubectl's decoder makes of it
// (k8s.io/apimachinery v0.36.3 util/yaml.NewYAMLOrJSONDecoder into a runtime.RawExtension, i.e. sigs.k8s.io/yaml
// v1.6.0 over go.yaml.in/yaml/v2 v2.4.3), or its error without the "error converting YAML to JSON: " and "yaml: "
// prefixes; printed by a Go program built against those exact modules, and spot-checked with the kubectl on PATH
// (`kubectl label --local -f FILE x=y -o json`, which decodes without a server: e1, E5, ., -., +e2, 0o17, 09, .5_0,
// 1e400, 0x10000000000000000, 1e6, 0644, yes, 1e-5, -0.0, 1_0.5, .nan gave the same). Both readers must agree with it:
// the full reader (the yaml library with go-yaml's tags) and the quick reader of big cluster files.
// Integers beyond 2^53 are compared as the doubles JSON.parse makes of kubectl's digits: the engine holds numbers so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/engine/cluster/inputs';
import { parseDocuments } from '../../../src/engine/cluster/loader';
import { readPlainYaml } from '../../../src/engine/cluster/plain-yaml';

const KUBECTL: [string, string | { error: string }][] = [
  ["v: e1\n", "{\"v\":\"e1\"}"],
  ["v: E5\n", "{\"v\":\"E5\"}"],
  ["v: .\n", "{\"v\":\".\"}"],
  ["v: -.\n", "{\"v\":\"-.\"}"],
  ["v: +e2\n", "{\"v\":\"+e2\"}"],
  ["v: .e1\n", "{\"v\":\".e1\"}"],
  ["v: 1e\n", "{\"v\":\"1e\"}"],
  ["v: 1e5\n", "{\"v\":100000}"],
  ["v: 1E5\n", "{\"v\":100000}"],
  ["v: 1e+5\n", "{\"v\":100000}"],
  ["v: 1.5e3\n", "{\"v\":1500}"],
  ["v: .5\n", "{\"v\":0.5}"],
  ["v: +.5\n", "{\"v\":0.5}"],
  ["v: -.5\n", "{\"v\":-0.5}"],
  ["v: ._5\n", "{\"v\":\"._5\"}"],
  ["v: .5_0\n", "{\"v\":0.5}"],
  ["v: 1_000\n", "{\"v\":1000}"],
  ["v: 1__0\n", "{\"v\":10}"],
  ["v: 1_\n", "{\"v\":1}"],
  ["v: _1\n", "{\"v\":\"_1\"}"],
  ["v: 0644\n", "{\"v\":420}"],
  ["v: 0o17\n", "{\"v\":15}"],
  ["v: 0O17\n", "{\"v\":15}"],
  ["v: 0x1F\n", "{\"v\":31}"],
  ["v: 0X1f\n", "{\"v\":31}"],
  ["v: 0x\n", "{\"v\":\"0x\"}"],
  ["v: 0b101\n", "{\"v\":5}"],
  ["v: 0B101\n", "{\"v\":5}"],
  ["v: -0b101\n", "{\"v\":-5}"],
  ["v: +0x10\n", "{\"v\":16}"],
  ["v: -0x10\n", "{\"v\":-16}"],
  ["v: 09\n", "{\"v\":9}"],
  ["v: 0\n", "{\"v\":0}"],
  ["v: -0\n", "{\"v\":0}"],
  ["v: +0\n", "{\"v\":0}"],
  ["v: -0.0\n", "{\"v\":-0}"],
  ["v: 1.\n", "{\"v\":1}"],
  ["v: 1.e2\n", "{\"v\":100}"],
  ["v: 12345678901234567890\n", "{\"v\":12345678901234567890}"],
  ["v: 9223372036854775807\n", "{\"v\":9223372036854775807}"],
  ["v: 9223372036854775808\n", "{\"v\":9223372036854775808}"],
  ["v: -9223372036854775808\n", "{\"v\":-9223372036854775808}"],
  ["v: -9223372036854775809\n", "{\"v\":-9223372036854776000}"],
  ["v: 18446744073709551616\n", "{\"v\":18446744073709552000}"],
  ["v: 1e400\n", "{\"v\":\"1e400\"}"],
  ["v: -1e400\n", "{\"v\":\"-1e400\"}"],
  ["v: 1e-400\n", "{\"v\":0}"],
  ["v: .inf\n", { error: "json: unsupported value: +Inf" }],
  ["v: .Inf\n", { error: "json: unsupported value: +Inf" }],
  ["v: .INF\n", { error: "json: unsupported value: +Inf" }],
  ["v: .iNf\n", "{\"v\":\".iNf\"}"],
  ["v: +.inf\n", { error: "json: unsupported value: +Inf" }],
  ["v: -.inf\n", { error: "json: unsupported value: -Inf" }],
  ["v: +.Inf\n", { error: "json: unsupported value: +Inf" }],
  ["v: -.INF\n", { error: "json: unsupported value: -Inf" }],
  ["v: .nan\n", { error: "json: unsupported value: NaN" }],
  ["v: .NaN\n", { error: "json: unsupported value: NaN" }],
  ["v: .NAN\n", { error: "json: unsupported value: NaN" }],
  ["v: nan\n", "{\"v\":\"nan\"}"],
  ["v: NaN\n", "{\"v\":\"NaN\"}"],
  ["v: inf\n", "{\"v\":\"inf\"}"],
  ["v: Inf\n", "{\"v\":\"Inf\"}"],
  ["v: y\n", "{\"v\":true}"],
  ["v: Y\n", "{\"v\":true}"],
  ["v: yes\n", "{\"v\":true}"],
  ["v: Yes\n", "{\"v\":true}"],
  ["v: YES\n", "{\"v\":true}"],
  ["v: yEs\n", "{\"v\":\"yEs\"}"],
  ["v: true\n", "{\"v\":true}"],
  ["v: True\n", "{\"v\":true}"],
  ["v: TRUE\n", "{\"v\":true}"],
  ["v: tRUE\n", "{\"v\":\"tRUE\"}"],
  ["v: on\n", "{\"v\":true}"],
  ["v: On\n", "{\"v\":true}"],
  ["v: ON\n", "{\"v\":true}"],
  ["v: oN\n", "{\"v\":\"oN\"}"],
  ["v: n\n", "{\"v\":false}"],
  ["v: N\n", "{\"v\":false}"],
  ["v: no\n", "{\"v\":false}"],
  ["v: No\n", "{\"v\":false}"],
  ["v: NO\n", "{\"v\":false}"],
  ["v: false\n", "{\"v\":false}"],
  ["v: False\n", "{\"v\":false}"],
  ["v: FALSE\n", "{\"v\":false}"],
  ["v: off\n", "{\"v\":false}"],
  ["v: Off\n", "{\"v\":false}"],
  ["v: OFF\n", "{\"v\":false}"],
  ["v: ~\n", "{\"v\":null}"],
  ["v: null\n", "{\"v\":null}"],
  ["v: Null\n", "{\"v\":null}"],
  ["v: NULL\n", "{\"v\":null}"],
  ["v: nULL\n", "{\"v\":\"nULL\"}"],
  ["v: 1:20\n", "{\"v\":\"1:20\"}"],
  ["v: 2001-12-14\n", "{\"v\":\"2001-12-14\"}"],
  ["v: 2001-12-14T21:59:43.10-05:00\n", "{\"v\":\"2001-12-14T21:59:43.10-05:00\"}"],
  ["v: 10.0.0.1\n", "{\"v\":\"10.0.0.1\"}"],
  ["v: 61255492Ki\n", "{\"v\":\"61255492Ki\"}"],
  ["v: 1.5Gi\n", "{\"v\":\"1.5Gi\"}"],
  ["v: +3\n", "{\"v\":3}"],
  ["v: -7\n", "{\"v\":-7}"],
  ["v: 0.1\n", "{\"v\":0.1}"],
  ["v: 1_0.5\n", "{\"v\":10.5}"],
  ["v: 0x1_F\n", "{\"v\":31}"],
  ["v: 1e1_0\n", "{\"v\":10000000000}"],
  ["v: 3.14_15\n", "{\"v\":3.1415}"],
  ["v: -x\n", "{\"v\":\"-x\"}"],
  ["v: -1x\n", "{\"v\":\"-1x\"}"],
  ["v: 0xG\n", "{\"v\":\"0xG\"}"],
  ["v: 1.2.3\n", "{\"v\":\"1.2.3\"}"],
  ["v: +-\n", "{\"v\":\"+-\"}"],
  ["v: +.\n", "{\"v\":\"+.\"}"],
  ["v: -e1\n", "{\"v\":\"-e1\"}"],
  ["v: 0.0\n", "{\"v\":0}"],
  ["v: 00\n", "{\"v\":0}"],
  ["v: 007\n", "{\"v\":7}"],
  ["v: 08\n", "{\"v\":8}"],
  ["v: 0o8\n", "{\"v\":\"0o8\"}"],
  ["v: 0b2\n", "{\"v\":\"0b2\"}"],
  ["v: 1e-5\n", "{\"v\":0.00001}"],
  ["v: 100e-2\n", "{\"v\":1}"],
  ["v: 0x_1F\n", "{\"v\":31}"],
  ["v: 0b_101\n", "{\"v\":5}"],
  ["v: 0o_17\n", "{\"v\":15}"],
  ["v: 1_e5\n", "{\"v\":100000}"],
  ["v: 1e_5\n", "{\"v\":100000}"],
  ["v: .5e1\n", "{\"v\":5}"],
  ["v: .5E+1\n", "{\"v\":5}"],
  ["v: ._\n", "{\"v\":\"._\"}"],
  ["v: 0.5_\n", "{\"v\":0.5}"],
  ["v: +_1\n", "{\"v\":1}"],
  ["v: -_1\n", "{\"v\":-1}"],
  ["v: 1_.5\n", "{\"v\":1.5}"],
  ["v: 0x8000000000000000\n", "{\"v\":9223372036854775808}"],
  ["v: 0xFFFFFFFFFFFFFFFF\n", "{\"v\":18446744073709551615}"],
  ["v: 0x10000000000000000\n", "{\"v\":\"0x10000000000000000\"}"],
  ["v: -0x8000000000000000\n", "{\"v\":-9223372036854775808}"],
  ["v: -0x8000000000000001\n", "{\"v\":\"-0x8000000000000001\"}"],
  ["v: 1.0\n", "{\"v\":1}"],
  ["v: 100\n", "{\"v\":100}"],
  ["v: 1e21\n", "{\"v\":1e+21}"],
  ["v: 123456789012345678\n", "{\"v\":123456789012345678}"],
  ["v: .0\n", "{\"v\":0}"],
  ["v: 0.\n", "{\"v\":0}"],
  ["v: 0e0\n", "{\"v\":0}"],
  ["v: +0e0\n", "{\"v\":0}"],
  ["v: 0x1p-2\n", "{\"v\":\"0x1p-2\"}"],
  ["v: 1_000_000.5e-3\n", "{\"v\":1000.0005}"],
  ["1: 1\n", "{\"1\":1}"],
  ["1.5: 1\n", "{\"1.5\":1}"],
  ["1e6: 1\n", "{\"1e+06\":1}"],
  ["0x10: 1\n", "{\"16\":1}"],
  ["yes: 1\n", "{\"true\":1}"],
  ["~: 1\n", { error: "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1" }],
  [".nan: 1\n", "{\".nan\":1}"],
  [".inf: 1\n", "{\".inf\":1}"],
  ["-.inf: 1\n", "{\"-.inf\":1}"],
  ["12345678901234567890: 1\n", { error: "unsupported map key of type: uint64, key: 0xab54a98ceb1f0ad2, value: 1" }],
  ["0.1: 1\n", "{\"0.1\":1}"],
  ["123456789.0: 1\n", "{\"1.2345679e+08\":1}"],
  ["1e21: 1\n", "{\"1e+21\":1}"],
  ["true: 1\n", "{\"true\":1}"],
  ["2001-12-14: 1\n", "{\"2001-12-14\":1}"],
  ["1.0: 1\n", "{\"1\":1}"],
  ["100000: 1\n", "{\"100000\":1}"],
  ["1e5: 1\n", "{\"100000\":1}"],
  ["0.0001: 1\n", "{\"0.0001\":1}"],
  ["0.00001: 1\n", "{\"1e-05\":1}"],
  ["-1.5: 1\n", "{\"-1.5\":1}"],
  ["3.4e38: 1\n", "{\"3.4e+38\":1}"],
  ["1e39: 1\n", "{\".inf\":1}"],
  ["16777217.0: 1\n", "{\"1.6777216e+07\":1}"],
  ["-0: 1\n", "{\"0\":1}"],
  ["0644: 1\n", "{\"420\":1}"],
  ["null: 1\n", { error: "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1" }],
  ["v: !!int 12\n", "{\"v\":12}"],
  ["v: !!int \"12\"\n", "{\"v\":12}"],
  ["v: !!int 1.5\n", { error: "cannot decode !!float `1.5` as a !!int" }],
  ["v: !!float 1\n", "{\"v\":1}"],
  ["v: !!str 12\n", "{\"v\":\"12\"}"],
  ["v: !!bool yes\n", "{\"v\":true}"],
  ["v: !!bool 1\n", { error: "cannot decode !!int `1` as a !!bool" }],
  ["v: !!null ~\n", "{\"v\":null}"],
  ["v: !!null x\n", { error: "cannot decode !!str `x` as a !!null" }],
  ["v: !foo x\n", "{\"v\":\"x\"}"],
  ["v: !!timestamp 2001-12-14\n", "{\"v\":\"2001-12-14\"}"],
  ["v: !!binary aGk=\n", "{\"v\":\"hi\"}"],
  ["v: !!float .nan\n", { error: "json: unsupported value: NaN" }],
  ["v: !!int 0x10\n", "{\"v\":16}"],
  ["v: !!float abc\n", { error: "cannot decode !!str `abc` as a !!float" }],
  ["v: !!str\n", "{\"v\":\"\"}"],
  ["v: !!int\n", { error: "cannot decode !!null `` as a !!int" }],
  ["v:\n", "{\"v\":null}"],
  ["v: ''\n", "{\"v\":\"\"}"],
  ["? [a]\n: 1\n", { error: "invalid map key: []interface {}{\"a\"}" }],
  ["v: !!timestamp 12\n", { error: "cannot decode !!int `12` as a !!timestamp" }],
];

/** read gives the document's fields besides apiVersion and kind as JSON, or the problem of the InputError. */
function read(doc: string, lazyRanges: boolean): string | { error: string } {
  try {
    const [first] = parseDocuments(`apiVersion: v1\nkind: ConfigMap\n${doc}`, 'f.yaml', { lazyRanges });
    const { apiVersion: _a, kind: _k, ...rest } = first!.object;
    return JSON.stringify(rest);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { error: err.message.replace(/^f\.yaml:\d+(:\d+)?: /, '') };
  }
}

for (const [doc, want] of KUBECTL) {
  test(`go-yaml v2 as kubectl reads it: ${JSON.stringify(doc)}`, () => {
    for (const lazyRanges of [false, true]) {
      const got = read(doc, lazyRanges);
      if (typeof want === 'string') {
        assert.equal(typeof got, 'string', `${lazyRanges ? 'quick' : 'full'} reader: ${JSON.stringify(got)}`);
        // Re-encoded, so that Go's -0 (from -0.0) compares as the 0 a JSON encoder of the engine writes.
        assert.equal(got, JSON.stringify(JSON.parse(want)), `${lazyRanges ? 'quick' : 'full'} reader`);
      } else {
        assert.equal(typeof got, 'object', `${lazyRanges ? 'quick' : 'full'} reader: ${JSON.stringify(got)}`);
        // The engine adds where the value came from after encoding/json's words: "(.nan has no JSON form)".
        assert.ok((got as { error: string }).error.startsWith(want.error), `${(got as { error: string }).error} starts with ${want.error}`);
      }
    }
  });
}

test('the name and labels of the issue are strings, and the quick reader reads them itself', () => {
  const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: e1\n  labels: {app: e1, tier: E5, c: +e2}\nspec: {}\n';
  assert.deepEqual(readPlainYaml(text)?.[0]?.value, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'e1', labels: { app: 'e1', tier: 'E5', c: '+e2' } }, spec: {} });
  for (const lazyRanges of [false, true]) {
    const [doc] = parseDocuments(`${text}---\napiVersion: v1\nkind: ConfigMap\ndata: {a: ., b: -.}\n`, 'pod.yaml', { lazyRanges });
    assert.deepEqual(doc!.object.metadata, { name: 'e1', labels: { app: 'e1', tier: 'E5', c: '+e2' } });
  }
});
