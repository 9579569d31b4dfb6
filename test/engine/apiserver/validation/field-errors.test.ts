// field.Error bodies as ErrorBody prints them, from staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go
// (and errors_test.go's TestErrorUsefulMessage): %q for strings, %v for numbers, json.Marshal for everything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  asJSON, duplicate, forbidden, goJSONMarshal, invalidValue, notFound, notSupported, required, toCauses, tooLong, tooMany,
} from '../../../../src/engine/apiserver/validation/field-errors';

const cases = [
  { name: 'Required has no value and an optional detail', got: required('spec.containers'), want: 'Required value' },
  { name: 'Required with a detail appends it', got: required('spec.dnsConfig', 'must provide `dnsConfig`'), want: 'Required value: must provide `dnsConfig`' },
  { name: 'Invalid quotes a string with %q', got: invalidValue('f', 'a\tb\u00a0', 'bad'), want: 'Invalid value: "a\\tb\\u00a0": bad' },
  { name: 'Invalid prints a number bare', got: invalidValue('f', -1, 'must be greater than or equal to 0'), want: 'Invalid value: -1: must be greater than or equal to 0' },
  { name: 'Invalid prints a named string with json.Marshal, escaping HTML characters', got: invalidValue('f', asJSON('<a&b>'), 'x'), want: 'Invalid value: "\\u003ca\\u0026b\\u003e": x' },
  { name: 'Invalid prints a slice with json.Marshal', got: invalidValue('f', ['a', 'b'], 'x'), want: 'Invalid value: ["a","b"]: x' },
  { name: 'Invalid prints a nil pointer as null', got: invalidValue('f', null, 'x'), want: 'Invalid value: null: x' },
  { name: 'NotSupported lists the values with strconv.Quote', got: notSupported('f', asJSON('UDPX'), ['SCTP', 'TCP', 'UDP']), want: 'Unsupported value: "UDPX": supported values: "SCTP", "TCP", "UDP"' },
  { name: 'NotSupported without values has no detail', got: notSupported('f', 'x', []), want: 'Unsupported value: "x"' },
  { name: 'Duplicate quotes the value', got: duplicate('f', 'app'), want: 'Duplicate value: "app"' },
  { name: 'Forbidden never prints the value', got: forbidden('f', 'may not specify more than 1 handler type'), want: 'Forbidden: may not specify more than 1 handler type' },
  { name: 'NotFound quotes the value and takes a detail set afterwards', got: notFound('f', 'gpu', 'must be one of'), want: 'Not found: "gpu": must be one of' },
  { name: 'TooLong omits the value and says bytes', got: tooLong('f', 4095), want: 'Too long: may not be more than 4095 bytes' },
  { name: 'TooLong says byte for one', got: tooLong('f', 1), want: 'Too long: may not be more than 1 byte' },
  { name: 'TooMany prints the count', got: tooMany('f', 21, 20), want: 'Too many: 21: must have at most 20 items' },
];

for (const c of cases) {
  test(c.name, () => {
    assert.equal(c.got.body, c.want);
  });
}

test('The causes of an Invalid status carry the reason, body and field', () => {
  assert.deepEqual(toCauses([notFound('spec.containers[0].volumeMounts[0].name', 'data')]), [
    { reason: 'FieldValueNotFound', message: 'Not found: "data"', field: 'spec.containers[0].volumeMounts[0].name' },
  ]);
});

test('json.Marshal keeps the order of a struct and nests values', () => {
  assert.equal(goJSONMarshal({ Type: 'Localhost', LocalhostProfile: null, N: 3, L: [true] }), '{"Type":"Localhost","LocalhostProfile":null,"N":3,"L":[true]}');
});
