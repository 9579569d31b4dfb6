// Unit tests of the breakpoint condition language (a pure module): what parses, what it means, what it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, ExpressionError, interpolate, parseExpression } from '../../src/debugger/expressions';

const scope: Record<string, unknown> = { node: ['worker-1', 'worker-2'], plugin: 'TaintToleration', exitCode: 143, ready: false, detail: { nodes: { 'worker-1': { code: 'Success' } } } };
const resolve = (path: readonly (string | number)[]): unknown => path.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined), scope);

const cases = [
  { name: 'a list equals a value it holds', text: 'node == "worker-2"', want: true },
  { name: 'a list does not equal a value it lacks', text: 'node == "worker-3"', want: false },
  { name: '!= is the negation', text: 'plugin != "NodeName"', want: true },
  { name: '&& binds tighter than ||', text: 'plugin == "x" && exitCode == 1 || exitCode == 143', want: true },
  { name: 'parentheses group', text: 'plugin == "x" && (exitCode == 1 || exitCode == 143)', want: false },
  { name: '! negates a value', text: '!ready', want: true },
  { name: 'numbers compare as numbers', text: 'exitCode >= 128 && exitCode < 256', want: true },
  { name: 'a number equals its numeric string', text: 'exitCode == "143"', want: true },
  { name: 'single quotes make strings too', text: "plugin == 'TaintToleration'", want: true },
  { name: 'dotted paths read nested values, with dashes in keys', text: 'detail.nodes.worker-1.code == "Success"', want: true },
  { name: 'bracketed keys read nested values', text: 'detail.nodes["worker-1"].code == "Success"', want: true },
  { name: 'an unknown name is undefined, equal to null', text: 'container == null', want: true },
];

for (const c of cases) {
  test(`In a condition, ${c.name}: ${c.text}`, () => {
    assert.equal(evaluate(parseExpression(c.text), resolve), c.want);
  });
}

const errors = [
  { text: 'node ==', want: /expected a value at column 8/ },
  { text: 'node = "x"', want: /unexpected "="/ },
  { text: 'plugin == "open', want: /unterminated string at column 11/ },
  { text: '(ready', want: /expected "\)"/ },
  { text: 'a.', want: /expected a field name after "\."/ },
  { text: 'ready ready', want: /unexpected "ready"/ },
];

for (const c of errors) {
  test(`A condition that does not parse says where: ${c.text}`, () => {
    assert.throws(() => parseExpression(c.text), (err: Error) => err instanceof ExpressionError && c.want.test(err.message));
  });
}

test('A logpoint message interpolates its {expressions}, and shows a bad one in place', () => {
  assert.equal(interpolate('{plugin} exited {exitCode}; nodes {node}; {node ==}', resolve), 'TaintToleration exited 143; nodes ["worker-1","worker-2"]; <expected a value at column 8 of "node ==">');
});
