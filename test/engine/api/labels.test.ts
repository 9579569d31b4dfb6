// Tests label selectors against Kubernetes' own expectations: the selector string syntax and its errors,
// printing, LabelSelector matching and node selector terms. Rows come from
// staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go and
// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go unless marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EVERYTHING, formatLabelSelector, labelSelectorAsSelector, matchesLabelSelector, newRequirement, NOTHING, parseSelector, SelectorError, selectorFromSet, selectorMatches,
  selectorToString, type Labels,
} from '../../../src/engine/api/labels';
import { matchesNodeSelectorTerms, matchNodeSelectorTerms } from '../../../src/engine/api/node-selector';
import type { LabelSelector, Node, NodeSelectorTerm } from '../../../src/engine/api/types';

const KEY_NAME_ERROR = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_ERROR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// TestSelectorParse (good strings print back without their spaces) and TestSetSelectorParser (sorted by key).
const printCases = [
  ...['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'].map((input) => ({
    name: `prints ${JSON.stringify(input)} back without spaces`, input, want: input.replaceAll(' ', ''),
  })),
  { name: 'sorts requirements by key', input: 'x=a,a=x', want: 'a=x,x=a' },
  { name: 'skips a leading carriage return', input: '\rx', want: 'x' },
  { name: 'accepts a prefixed key', input: 'this-is-a-dns.domain.com/key-with-dash', want: 'this-is-a-dns.domain.com/key-with-dash' },
  { name: 'accepts in with a prefixed key', input: 'this-is-another-dns.domain.com/key-with-dash in (so,what)', want: 'this-is-another-dns.domain.com/key-with-dash in (so,what)' },
  { name: 'accepts notin with dotted values', input: '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', want: '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)' },
  { name: 'accepts tabs and spaces around in', input: 'foo  in\t (abc)', want: 'foo in (abc)' },
  { name: 'accepts a newline after notin', input: 'x notin\n (abc)', want: 'x notin (abc)' },
  { name: 'sorts and keeps the values of in', input: 'x in (def,abc)', want: 'x in (abc,def)' },
  { name: 'reads a trailing comma as an empty value', input: 'x in (abc,)', want: 'x in (,abc)' },
  { name: 'reads () as the empty value', input: 'x in ()', want: 'x in ()' },
  { name: 'reads ( ) as the empty value', input: 'x notin ( )', want: 'x notin ()' },
  { name: 'reads a leading comma as an empty value', input: 'x notin (, a)', want: 'x notin (,a)' },
  { name: 'parses several requirements and sorts them', input: 'x notin (abc,,def),bar,z in (),w', want: 'bar,w,x notin (,abc,def),z in ()' },
  { name: 'sorts a set requirement before an exists one', input: 'x,y in (a)', want: 'x,y in (a)' },
  { name: 'parses less-than', input: 'x<7', want: 'x<7' },
  { name: 'parses equals, not-equals and in together', input: 'x=a,y!=b,z in (h,i,j)', want: 'x=a,y!=b,z in (h,i,j)' },
  { name: 'accepts a trailing space after a key', input: 'a ', want: 'a' },
  { name: 'reads in and notin as values inside a list', input: 'a in (x,y,notin, z,in)', want: 'a in (in,notin,x,y,z)' },
  { name: 'reads in as a value after =', input: 'notin=in', want: 'notin=in' },
  { name: 'keeps == as written', input: 'x==a', want: 'x==a' },
];

for (const c of printCases) {
  test(c.name, () => {
    assert.equal(selectorToString(parseSelector(c.input)), c.want);
  });
}

const u = (message: string): string => `unable to parse requirement: ${message}`;

// The bad strings of TestSelectorParse and TestSetSelectorParser, with the messages labels.Parse returns.
const parseErrorCases = [
  { name: 'rejects || inside a value', input: 'x=a||y=b', want: u(`values[0][x]: Invalid value: "a||y": ${VALUE_ERROR}`) },
  { name: 'rejects a second == after a value', input: 'x==a==b', want: "found '==', expected: ',' or 'end of string'" },
  { name: 'rejects an operator after !key', input: '!x=a', want: "found '=', expected: ',' or 'end of string'" },
  { name: 'rejects a non-integer after <', input: 'x<a', want: u(`values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`) },
  { name: 'rejects two commas in a row', input: 'x,,y', want: "found ',', expected: identifier after ','" },
  { name: 'rejects a leading comma', input: ',x,y', want: "found ',', expected: !, identifier, or 'end of string'" },
  { name: 'rejects an unknown operator word', input: 'x nott in (y)', want: u("found 'nott', expected: in, notin, =, ==, !=, gt, lt") },
  { name: 'rejects a trailing comma', input: 'a in (xyz),', want: "found '', expected: identifier after ','" },
  { name: 'rejects a requirement glued to the next', input: 'a in (xyz)b notin ()', want: "found 'b', expected: ',' or 'end of string'" },
  { name: 'rejects values without a comma', input: 'a in (xyz abc)', want: u("found 'abc', expected: ',' or ')'") },
  { name: 'rejects an unclosed list', input: 'a notin(', want: u("found '', expected: ',', ')' or identifier") },
  { name: 'rejects a parenthesis where an operator belongs', input: 'a (', want: u("found '(', expected: in, notin, =, ==, !=, gt, lt") },
  { name: 'rejects a lone parenthesis', input: '(', want: "found '(', expected: !, identifier, or 'end of string'" },
  // Derived from the parser's branches.
  { name: 'rejects in without a list', input: 'x in', want: u("found '' expected: '('") },
  { name: 'rejects an operator inside a list', input: 'x in (a,=)', want: u("found '=', expected: ',', or identifier") },
  { name: 'rejects a lone !', input: '!', want: u("found '', expected: identifier") },
  { name: 'rejects an operator where a value belongs', input: 'x=(', want: u("found '(', expected: identifier") },
  { name: 'rejects an invalid key with a nil field path', input: 'a:', want: u(`<nil>: Invalid value: "a:": ${KEY_NAME_ERROR}`) },
  {
    name: 'aggregates every problem of one requirement',
    input: 'x>a-',
    want: u(`[values[0]: Invalid value: "a-": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "a-": ${VALUE_ERROR}]`),
  },
];

for (const c of parseErrorCases) {
  test(c.name, () => {
    assert.throws(() => parseSelector(c.input), (err: unknown) => err instanceof SelectorError && err.message === c.want);
  });
}

// TestSelectorMatches and TestRequirementSelectorMatching: every operator, matching and not.
const matchCases: Array<{ name: string; selector: string; labels: Labels; want: boolean }> = [
  { name: 'matches everything with the empty selector', selector: '', labels: { x: 'y' }, want: true },
  { name: 'matches = on an equal value', selector: 'x=y', labels: { x: 'y' }, want: true },
  { name: 'matches two = requirements', selector: 'x=y,z=w', labels: { x: 'y', z: 'w' }, want: true },
  { name: 'matches != on other values', selector: 'x!=y,z!=w', labels: { x: 'z', z: 'a' }, want: true },
  { name: 'matches in and notin as plain words in an exact match', selector: 'notin=in', labels: { notin: 'in' }, want: true },
  { name: 'matches exists on a present key', selector: 'x', labels: { x: 'z' }, want: true },
  { name: 'matches !key on an absent key', selector: '!x', labels: { y: 'z' }, want: true },
  { name: 'matches > on a larger integer', selector: 'x>1', labels: { x: '2' }, want: true },
  { name: 'matches < on a smaller integer', selector: 'x<1', labels: { x: '0' }, want: true },
  { name: 'does not match = on missing labels', selector: 'x=z', labels: {}, want: false },
  { name: 'does not match = on another value', selector: 'x=y', labels: { x: 'z' }, want: false },
  { name: 'does not match when one of two = fails', selector: 'x=y,z=w', labels: { x: 'w', z: 'w' }, want: false },
  { name: 'does not match != on the same value', selector: 'x!=y,z!=w', labels: { x: 'z', z: 'w' }, want: false },
  { name: 'does not match exists on an absent key', selector: 'x', labels: { y: 'z' }, want: false },
  { name: 'does not match !key on a present key', selector: '!x', labels: { x: 'z' }, want: false },
  { name: 'does not match > on a smaller integer', selector: 'x>1', labels: { x: '0' }, want: false },
  { name: 'does not match < on a larger integer', selector: 'x<1', labels: { x: '2' }, want: false },
  { name: 'does not match a selector with an extra key', selector: 'foo=bar,foobar=bar,baz=blah', labels: { foo: 'bar', baz: 'blah' }, want: false },
  { name: 'matches in on a listed value and notin on an unlisted one', selector: 'x in (foo),y notin (alpha)', labels: { x: 'foo', y: 'baz' }, want: true },
  { name: 'does not match in on an unlisted value', selector: 'x in (foo),y in (alpha)', labels: { x: 'foo', y: 'baz' }, want: false },
  { name: 'matches notin on an absent key', selector: 'x notin (),y', labels: { y: '' }, want: true },
  { name: 'matches !key with exists on an empty value', selector: '!x,y', labels: { y: '' }, want: true },
  { name: 'does not match !y when y is set to empty', selector: 'x notin (),!y', labels: { y: '' }, want: false },
  { name: 'does not match in () on an absent key', selector: 'x in ()', labels: { y: 'baz' }, want: false },
  { name: 'does not match > on a value that is not an integer', selector: 'z>1', labels: { z: 'v2' }, want: false },
  { name: 'matches nothing on null labels except absence checks', selector: '!x', labels: null, want: true },
];

for (const c of matchCases) {
  test(c.name, () => {
    assert.equal(selectorMatches(parseSelector(c.selector), c.labels), c.want);
  });
}

// metav1.LabelSelectorAsSelector: nil matches nothing, empty everything (staging/.../apis/meta/v1/helpers.go).
const labelSelectorCases: Array<{ name: string; selector: LabelSelector | undefined | null; labels: Labels; want: boolean; text: string }> = [
  { name: 'matches nothing with a null selector', selector: null, labels: { app: 'web' }, want: false, text: '<none>' },
  { name: 'matches nothing with an undefined selector', selector: undefined, labels: {}, want: false, text: '<none>' },
  { name: 'matches everything with an empty selector', selector: {}, labels: { app: 'web' }, want: true, text: '<none>' },
  { name: 'matches everything with empty lists', selector: { matchLabels: {}, matchExpressions: [] }, labels: {}, want: true, text: '<none>' },
  { name: 'matches matchLabels', selector: { matchLabels: { app: 'web', tier: 'fe' } }, labels: { app: 'web', tier: 'fe', x: 'y' }, want: true, text: 'app=web,tier=fe' },
  { name: 'does not match matchLabels with a missing label', selector: { matchLabels: { app: 'web', tier: 'fe' } }, labels: { app: 'web' }, want: false, text: 'app=web,tier=fe' },
  {
    name: 'ANDs matchLabels with In and NotIn',
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'qa'] }, { key: 'track', operator: 'NotIn', values: ['canary'] }] },
    labels: { app: 'web', env: 'qa' }, want: true, text: 'app=web,env in (prod,qa),track notin (canary)',
  },
  {
    name: 'fails In on an unlisted value',
    selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }, labels: { env: 'dev' }, want: false, text: 'env in (prod)',
  },
  {
    name: 'matches Exists and DoesNotExist',
    selector: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }, { key: 'spot', operator: 'DoesNotExist' }] }, labels: { gpu: '' }, want: true, text: 'gpu,!spot',
  },
  {
    name: 'matches nothing with an unknown operator',
    selector: { matchExpressions: [{ key: 'n', operator: 'Gt', values: ['1'] }] }, labels: { n: '2' }, want: false, text: '<error>',
  },
  {
    name: 'matches nothing with In and no values',
    selector: { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] }, labels: { env: '' }, want: false, text: '<error>',
  },
];

for (const c of labelSelectorCases) {
  test(c.name, () => {
    assert.equal(matchesLabelSelector(c.selector, c.labels), c.want);
    assert.equal(formatLabelSelector(c.selector), c.text);
  });
}

const labelSelectorErrorCases: Array<{ name: string; selector: LabelSelector; want: string }> = [
  { name: 'names a bad operator as a label selector operator (apimachinery v0.36.3 helpers.go)', selector: { matchExpressions: [{ key: 'n', operator: 'Gt', values: ['1'] }] }, want: '"Gt" is not a valid label selector operator' },
  { name: 'reports In without values as a nil slice', selector: { matchExpressions: [{ key: 'env', operator: 'In' }] }, want: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty" },
  { name: 'reports values given to Exists', selector: { matchExpressions: [{ key: 'gpu', operator: 'Exists', values: ['a'] }] }, want: 'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist' },
  { name: 'reports an invalid matchLabels key', selector: { matchLabels: { 'a b': 'c' } }, want: `key: Invalid value: "a b": ${KEY_NAME_ERROR}` },
  { name: 'reports an invalid matchLabels value under its key', selector: { matchLabels: { a: 'b c' } }, want: `values[0][a]: Invalid value: "b c": ${VALUE_ERROR}` },
];

for (const c of labelSelectorErrorCases) {
  test(c.name, () => {
    assert.throws(() => labelSelectorAsSelector(c.selector), (err: unknown) => err instanceof SelectorError && err.message === c.want);
  });
}

// Selector values and constructors (TestRequirementConstructor, TestSetMatches, TestToString).
const constructorCases = [
  { name: 'refuses in without values', run: () => newRequirement('x', 'in', null), ok: false },
  { name: 'refuses notin with an empty list', run: () => newRequirement('x', 'notin', []), ok: false },
  { name: 'accepts in with a value', run: () => newRequirement('x', 'in', ['foo']), ok: true },
  { name: 'accepts exists without values', run: () => newRequirement('x', 'exists', []), ok: true },
  { name: 'accepts a key that starts with a digit', run: () => newRequirement('1foo', 'in', ['bar']), ok: true },
  { name: 'accepts an all-digit key', run: () => newRequirement('1234', 'in', ['bar']), ok: true },
  { name: 'accepts gt with an integer', run: () => newRequirement('y', 'gt', ['1']), ok: true },
  { name: 'refuses gt with a word', run: () => newRequirement('foo', 'gt', ['bar']), ok: false },
  { name: 'refuses lt with a word', run: () => newRequirement('barz', 'lt', ['blah']), ok: false },
  { name: 'refuses a 254-character prefixless key', run: () => newRequirement('a'.repeat(254), 'exists', []), ok: false },
  { name: 'refuses an unknown operator', run: () => newRequirement('x', 'like', ['a']), ok: false },
];

for (const c of constructorCases) {
  test(c.name, () => {
    if (c.ok) assert.doesNotThrow(c.run);
    else assert.throws(c.run, SelectorError);
  });
}

test('names the supported operators when one is unknown', () => {
  assert.throws(() => newRequirement('x', 'like', ['a']), {
    message: 'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
  });
});

const miscCases = [
  { name: 'prints EVERYTHING as the empty string', got: selectorToString(EVERYTHING), want: '' },
  { name: 'prints NOTHING as the empty string', got: selectorToString(NOTHING), want: '' },
  { name: 'matches nothing with NOTHING', got: selectorMatches(NOTHING, {}), want: false },
  { name: 'matches anything with an empty set selector', got: selectorMatches(selectorFromSet({}), { foo: 'bar' }), want: true },
  { name: 'matches a set selector on a superset', got: selectorMatches(selectorFromSet({ foo: 'bar' }), { foo: 'bar', baz: 'blah' }), want: true },
  { name: 'prints a set selector sorted', got: selectorToString(selectorFromSet({ z: '1', a: '2' })), want: 'a=2,z=1' },
];

for (const c of miscCases) {
  test(c.name, () => {
    assert.equal(c.got, c.want);
  });
}

// Node selector terms: TestNodeSelectorMatch and TestPodMatchesNodeSelectorAndAffinityTerms.
const node = (name: string, labels?: Record<string, string>): Node => ({ metadata: labels ? { name, labels } : { name } });
const expr = (key: string, operator: string, values?: string[]) => (values ? { key, operator, values } : { key, operator });
const byName = (name: string) => ({ matchFields: [expr('metadata.name', 'In', [name])] });

const nodeCases: Array<{ name: string; node: Node | null; terms: NodeSelectorTerm[] | null; want: boolean }> = [
  { name: 'does not match a null node', node: null, terms: [{ matchExpressions: [expr('a', 'Exists')] }], want: false },
  { name: 'matches In on a listed value', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }], want: true },
  { name: 'matches Gt on a larger integer label', node: node('n', { 'kernel-version': '0206' }), terms: [{ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }], want: true },
  { name: 'matches Lt on a smaller integer label', node: node('n', { cores: '3' }), terms: [{ matchExpressions: [expr('cores', 'Lt', ['4'])] }], want: true },
  { name: 'does not match Lt on an equal integer', node: node('n', { cores: '4' }), terms: [{ matchExpressions: [expr('cores', 'Lt', ['4'])] }], want: false },
  { name: 'matches NotIn on an unlisted value', node: node('n', { 'mem-type': 'DDR3' }), terms: [{ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }], want: true },
  { name: 'matches Exists on a present label', node: node('n', { GPU: 'NVIDIA-GRID-K1' }), terms: [{ matchExpressions: [expr('GPU', 'Exists')] }], want: true },
  { name: 'matches DoesNotExist on an absent label', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [expr('GPU', 'DoesNotExist')] }], want: true },
  { name: 'does not match In on unlisted values', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }], want: false },
  { name: 'matches nothing with null terms', node: node('n', { foo: 'bar' }), terms: null, want: false },
  { name: 'matches nothing with no terms', node: node('n', { foo: 'bar' }), terms: [], want: false },
  { name: 'matches nothing with an empty term', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [] }], want: false },
  { name: 'ANDs the requirements of a term that all hold', node: node('n', { GPU: 'NVIDIA-GRID-K1' }), terms: [{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }], want: true },
  { name: 'ANDs the requirements of a term where one fails', node: node('n', { GPU: 'NVIDIA-GRID-K1' }), terms: [{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }], want: false },
  { name: 'ORs the terms', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }, { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] }], want: true },
  { name: 'does not match a term with an invalid value', node: node('n', { foo: 'bar' }), terms: [{ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }], want: false },
  { name: 'matches matchFields on the node name', node: node('node_1'), terms: [byName('node_1')], want: true },
  { name: 'does not match matchFields on another name', node: node('node_2'), terms: [byName('node_1')], want: false },
  { name: 'matches the second term when the first names another node', node: node('node_2', { foo: 'bar' }), terms: [byName('node_1'), { matchExpressions: [expr('foo', 'In', ['bar'])] }], want: true },
  { name: 'ANDs matchFields with matchExpressions in one term', node: node('node_2', { foo: 'bar' }), terms: [{ ...byName('node_1'), matchExpressions: [expr('foo', 'In', ['bar'])] }], want: false },
  { name: 'matches when matchFields and matchExpressions both hold', node: node('node_1', { foo: 'bar' }), terms: [{ ...byName('node_1'), matchExpressions: [expr('foo', 'In', ['bar'])] }], want: true },
  { name: 'does not match when neither term holds', node: node('node_2', { foo: 'bar' }), terms: [byName('node_1'), { matchExpressions: [expr('foo', 'In', ['not-match-to-bar'])] }], want: false },
  { name: 'matches NotIn on matchFields for another name', node: node('node_2'), terms: [{ matchFields: [expr('metadata.name', 'NotIn', ['node_1'])] }], want: true },
  // nodeaffinity.go skips matchFields when the node has no name (len(nodeFields) == 0).
  { name: 'ignores matchFields for a node without a name', node: { metadata: {} }, terms: [byName('node_1')], want: true },
];

for (const c of nodeCases) {
  test(c.name, () => {
    assert.equal(matchesNodeSelectorTerms(c.node, c.terms), c.want);
  });
}

test('reports parse errors of all terms when none matches', () => {
  const terms: NodeSelectorTerm[] = [
    { matchFields: [expr('metadata.name', 'In', ['host_1', 'host_2'])] },
    { matchExpressions: [expr('label_1', 'In', ['label_1_val'])], matchFields: [expr('metadata.name', 'In', ['host_1'])] },
    { matchExpressions: [expr('invalid key', 'In', ['label_value'])] },
  ];
  assert.deepEqual(matchNodeSelectorTerms(node('host_2'), terms), {
    matches: false,
    error: `[nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element, nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": ${KEY_NAME_ERROR}]`,
  });
});

test('reports an unsupported node selector operator with the valid ones', () => {
  assert.deepEqual(matchNodeSelectorTerms(node('n'), [{ matchExpressions: [expr('a', 'Like', ['b'])] }]), {
    matches: false,
    error: 'nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Like": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"',
  });
});

test('does not report parse errors when another term matches', () => {
  const terms: NodeSelectorTerm[] = [{ matchExpressions: [expr('a', 'Gt', ['x'])] }, { matchExpressions: [expr('b', 'Exists')] }];
  assert.deepEqual(matchNodeSelectorTerms(node('n', { b: '' }), terms), { matches: true });
});
