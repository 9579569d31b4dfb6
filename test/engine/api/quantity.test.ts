// Tests resource quantities against Kubernetes' own expectations: parsing, errors, canonical printing,
// Value/MilliValue rounding and arithmetic. Most rows come from
// staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go; rows marked "1.36" pin behaviour
// that later Kubernetes releases changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, fromMilli, fromScaled, fromValue, parseQuantity, Quantity, QuantityError,
  type QuantityFormat,
} from '../../../src/engine/api/quantity';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

// TestQuantityParse: [input, mantissa, exponent, format] — the value is mantissa × 10^exponent.
const parseTable: Array<[string, bigint, number, QuantityFormat]> = [
  ['0', 0n, 0, 'DecimalSI'], ['0n', 0n, 0, 'DecimalSI'], ['0u', 0n, 0, 'DecimalSI'], ['0m', 0n, 0, 'DecimalSI'],
  ['0Ki', 0n, 0, 'BinarySI'], ['0k', 0n, 0, 'DecimalSI'], ['0Mi', 0n, 0, 'BinarySI'], ['0M', 0n, 0, 'DecimalSI'],
  ['0Gi', 0n, 0, 'BinarySI'], ['0G', 0n, 0, 'DecimalSI'], ['0Ti', 0n, 0, 'BinarySI'], ['0T', 0n, 0, 'DecimalSI'],
  ['1', 1n, 0, 'DecimalSI'],
  ['1Ki', 1024n, 0, 'BinarySI'], ['8Ki', 8n * 1024n, 0, 'BinarySI'], ['7Mi', 7n * 1024n ** 2n, 0, 'BinarySI'],
  ['6Gi', 6n * 1024n ** 3n, 0, 'BinarySI'], ['5Ti', 5n * 1024n ** 4n, 0, 'BinarySI'], ['4Pi', 4n * 1024n ** 5n, 0, 'BinarySI'],
  ['3Ei', 3n * 1024n ** 6n, 0, 'BinarySI'], ['10Ti', 10n * 1024n ** 4n, 0, 'BinarySI'], ['100Ti', 100n * 1024n ** 4n, 0, 'BinarySI'],
  ['5n', 5n, -9, 'DecimalSI'], ['4u', 4n, -6, 'DecimalSI'], ['3m', 3n, -3, 'DecimalSI'], ['9', 9n, 0, 'DecimalSI'],
  ['8k', 8n, 3, 'DecimalSI'], ['50k', 5n, 4, 'DecimalSI'], ['7M', 7n, 6, 'DecimalSI'], ['6G', 6n, 9, 'DecimalSI'],
  ['5T', 5n, 12, 'DecimalSI'], ['40T', 4n, 13, 'DecimalSI'], ['300T', 3n, 14, 'DecimalSI'], ['2P', 2n, 15, 'DecimalSI'],
  ['1E', 1n, 18, 'DecimalSI'],
  ['1E-3', 1n, -3, 'DecimalExponent'], ['1e3', 1n, 3, 'DecimalExponent'], ['1E6', 1n, 6, 'DecimalExponent'],
  ['1e9', 1n, 9, 'DecimalExponent'], ['1E12', 1n, 12, 'DecimalExponent'], ['1e15', 1n, 15, 'DecimalExponent'],
  ['1E18', 1n, 18, 'DecimalExponent'], ['1e14', 1n, 14, 'DecimalExponent'], ['1e13', 1n, 13, 'DecimalExponent'],
  ['100.035k', 100035n, 0, 'DecimalSI'],
  ['0.001', 1n, -3, 'DecimalSI'], ['0.0005k', 5n, -1, 'DecimalSI'], ['0.005', 5n, -3, 'DecimalSI'], ['0.05', 5n, -2, 'DecimalSI'],
  ['0.5', 5n, -1, 'DecimalSI'], ['0.00050k', 5n, -1, 'DecimalSI'], ['0.00500', 5n, -3, 'DecimalSI'], ['0.05000', 5n, -2, 'DecimalSI'],
  ['0.50000', 5n, -1, 'DecimalSI'], ['0.5e0', 5n, -1, 'DecimalExponent'], ['0.5e-1', 5n, -2, 'DecimalExponent'],
  ['0.5e-2', 5n, -3, 'DecimalExponent'], ['10.035M', 10035n, 3, 'DecimalSI'],
  ['1.2e3', 12n, 2, 'DecimalExponent'], ['1.3E+6', 13n, 5, 'DecimalExponent'], ['1.40e9', 14n, 8, 'DecimalExponent'],
  ['1.53E12', 153n, 10, 'DecimalExponent'], ['1.6e15', 16n, 14, 'DecimalExponent'], ['1.7E18', 17n, 17, 'DecimalExponent'],
  ['9.01', 901n, -2, 'DecimalSI'], ['8.1k', 81n, 2, 'DecimalSI'], ['7.123456M', 7123456n, 0, 'DecimalSI'],
  ['6.987654321G', 6987654321n, 0, 'DecimalSI'], ['5.444T', 5444n, 9, 'DecimalSI'], ['40.1T', 401n, 11, 'DecimalSI'],
  ['300.2T', 3002n, 11, 'DecimalSI'], ['2.5P', 25n, 14, 'DecimalSI'], ['1.01E', 101n, 16, 'DecimalSI'],
  ['3.001n', 4n, -9, 'DecimalSI'], ['1.1E-9', 2n, -9, 'DecimalExponent'], ['0.0000000001', 1n, -9, 'DecimalSI'],
  ['0.0000000005', 1n, -9, 'DecimalSI'], ['0.00000000050', 1n, -9, 'DecimalSI'], ['0.5e-9', 1n, -9, 'DecimalExponent'],
  ['0.9n', 1n, -9, 'DecimalSI'], ['0.00000012345', 124n, -9, 'DecimalSI'], ['0.00000012354', 124n, -9, 'DecimalSI'],
  ['9Ei', MAX, 0, 'BinarySI'], ['9223372036854775807Ki', MAX, 0, 'BinarySI'], ['12E', 12n, 18, 'DecimalSI'],
  ['100.035Ki', 10243584n, -2, 'BinarySI'], ['0.5Mi', 524288n, 0, 'BinarySI'], ['0.05Gi', 536870912n, -1, 'BinarySI'],
  ['0.025Ti', 274877906944n, -1, 'BinarySI'],
  ['0.000000000001Ki', 2n, -9, 'DecimalSI'], ['.001', 1n, -3, 'DecimalSI'], ['.0001k', 100n, -3, 'DecimalSI'],
  ['1.', 1n, 0, 'DecimalSI'], ['1.G', 1n, 9, 'DecimalSI'],
];

// The Go test parses every row as written, with a leading "-" and with a leading "+".
const parseCases = parseTable.flatMap(([input, m, e, format]) => [
  { name: `parses ${input} to ${m}e${e} ${format}`, input, want: fromScaled(m, e), format },
  { name: `parses -${input} to the negated amount, same format`, input: `-${input}`, want: fromScaled(-m, e), format },
  { name: `parses +${input} like ${input}`, input: `+${input}`, want: fromScaled(m, e), format },
]);

for (const c of parseCases) {
  test(c.name, () => {
    const got = parseQuantity(c.input);
    assert.equal(got.cmp(c.want), 0, `${c.input} parsed to ${got.toString()}`);
    assert.equal(got.format, c.format);
  });
}

// The invalid inputs of TestQuantityParse, with the error ParseQuantity returns for each.
const errorCases = [
  { name: 'rejects the empty string', input: '', want: ERR_FORMAT_WRONG },
  { name: 'rejects a second decimal point', input: '1.1.M', want: ERR_FORMAT_WRONG },
  { name: 'rejects a sign inside the number', input: '1+1.0M', want: ERR_FORMAT_WRONG },
  { name: 'rejects an unknown suffix made of suffix letters', input: '0.1mi', want: ERR_SUFFIX },
  { name: 'rejects a letter that is no suffix letter', input: '0.1am', want: ERR_FORMAT_WRONG },
  { name: 'rejects a word', input: 'aoeu', want: ERR_FORMAT_WRONG },
  { name: 'rejects a bare i suffix', input: '.5i', want: ERR_SUFFIX },
  { name: 'rejects 1i', input: '1i', want: ERR_SUFFIX },
  { name: 'rejects a negative number with an i suffix', input: '-3.01i', want: ERR_SUFFIX },
  { name: 'rejects an exponent with no digits', input: '-3.01e-', want: ERR_SUFFIX },
  { name: 'rejects leading whitespace', input: ' 1', want: ERR_FORMAT_WRONG },
  { name: 'rejects trailing whitespace', input: '1 ', want: ERR_FORMAT_WRONG },
  // Derived from ParseQuantity: a lone "e" is no suffix, and "." has no digit for inf.Dec.SetString.
  { name: 'rejects a lone e suffix', input: '1e', want: ERR_SUFFIX },
  { name: 'rejects a number without digits on the inf.Dec path', input: '.e-10', want: ERR_NUMERIC },
  { name: 'rejects a NaN number', input: Number.NaN, want: ERR_FORMAT_WRONG },
];

for (const c of errorCases) {
  test(c.name, () => {
    assert.throws(() => parseQuantity(c.input), (err: unknown) => err instanceof QuantityError && err.message === c.want);
  });
}

test('quotes the split regular expression in the format error', () => {
  assert.equal(ERR_FORMAT_WRONG, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
});

// Canonical printing: TestQuantityString (alternate → expect), TestQuantityParseEmit, and the brief's examples.
const stringCases = [
  ...[
    ['1024Mi', '1Gi'], ['307200Ki', '300Mi'], ['6Ki', '6Ki'], ['1025024Mi', '1001Gi'], ['1024Gi', '1Ti'], ['5000m', '5'],
    ['0.5', '500m'], ['1000M', '1G'], ['0.001T', '1G'], ['1000u', '1m'], ['80m', '80m'], ['1.08', '1080m'],
    ['1080000000n', '1080m'], ['300M', '300M'], ['1T', '1T'], ['1E', '1E'], ['1234567M', '1234567M'], ['3k', '3k'],
    ['1025', '1025'], ['.001e12', '1e9'], ['0.001e0', '1e-3'], ['1000e-12', '1e-9'], ['80e-3', '80e-3'], ['300e6', '300e6'],
    ['3e3', '3e3'], ['00', '0'], ['1n', '1n'], ['1080n', '1080n'], ['1u', '1u'], ['1080u', '1080u'],
    ['1Ki', '1Ki'], ['1Mi', '1Mi'], ['1Gi', '1Gi'], ['.001Ki', '1024m'], ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'], ['-1Ki', '-1Ki'], ['-.001Ki', '-1024m'], ['-1000M', '-1G'],
    ['1.5', '1500m'], ['0.5Gi', '512Mi'], ['1000m', '1'], ['1e3', '1e3'], ['100M', '100M'], ['1.5Gi', '1536Mi'],
    ['0', '0'], ['-100m', '-100m'], ['100.035Ki', '102435840m'], ['-0', '0'],
  ].map(([input, want]) => ({ name: `prints ${input} as ${want}`, input: input!, want: want! })),
  // The fast path keeps the input text when it looks canonical (quantity.go, "reuse the string").
  { name: 'keeps an explicit plus sign that was parsed as canonical', input: '+1', want: '+1' },
  { name: 'keeps a fraction whose digits make a canonical mantissa', input: '1.500k', want: '1.500k' },
  { name: 'keeps a decimal exponent that is already a multiple of three', input: '1.5e4', want: '1.5e4' },
  // 1.36: a DecimalSI exponent above E has no suffix and prints bare (kubernetes#140459 later prints 1e21).
  { name: 'drops the suffix of a DecimalSI amount above E, as 1.36 does', input: '1000E', want: '1' },
  // 1.36: interpret narrows the exponent to int32 (a later release rejects it).
  { name: 'wraps an exponent beyond int32 as 1.36 does', input: '1e4294967297', want: '10' },
];

for (const c of stringCases) {
  test(c.name, () => {
    assert.equal(parseQuantity(c.input).toString(), c.want);
  });
}

// Constructors: TestNewSet, TestMilliNewSet, TestNewScaledSet, TestBinarySIZeroExponentString, TestQuantityNeg.
const constructorCases: Array<{ name: string; q: Quantity; want: string }> = [
  { name: 'prints fromValue(1) as 1', q: fromValue(1), want: '1' },
  { name: 'prints fromValue(1000) as 1k', q: fromValue(1000), want: '1k' },
  { name: 'prints fromValue(1234000) as 1234k', q: fromValue(1234000), want: '1234k' },
  { name: 'prints a BinarySI 1024 as 1Ki', q: fromValue(1024, 'BinarySI'), want: '1Ki' },
  { name: 'prints a DecimalExponent 1000000 as 1e6', q: fromValue(1000000, 'DecimalExponent'), want: '1e6' },
  { name: 'prints a BinarySI 1048576 as 1Mi', q: fromValue(1024 * 1024, 'BinarySI'), want: '1Mi' },
  { name: 'prints fromMilli(1) as 1m', q: fromMilli(1), want: '1m' },
  { name: 'prints fromMilli(1000) as 1', q: fromMilli(1000), want: '1' },
  { name: 'prints fromMilli(1234000) as 1234', q: fromMilli(1234000), want: '1234' },
  { name: 'prints a BinarySI fromMilli(1024) in DecimalSI because it is below 1024', q: fromMilli(1024, 'BinarySI'), want: '1024m' },
  { name: 'prints a BinarySI fractional amount in DecimalSI', q: fromMilli(1024 * 1024, 'BinarySI'), want: '1048576m' },
  { name: 'prints a DecimalExponent fromMilli(1000000) as 1e3', q: fromMilli(1000000, 'DecimalExponent'), want: '1e3' },
  { name: 'prints fromScaled(1, nano) as 1n', q: fromScaled(1, -9), want: '1n' },
  { name: 'prints fromScaled(1000, nano) as 1u', q: fromScaled(1000, -9), want: '1u' },
  { name: 'prints fromScaled(1000, micro) as 1m', q: fromScaled(1000, -6), want: '1m' },
  { name: 'prints fromScaled(1000, milli) as 1', q: fromScaled(1000, -3), want: '1' },
  { name: 'prints a zero at nano scale as 0', q: fromScaled(0, -9), want: '0' },
  { name: 'prints a BinarySI 2000 without a suffix', q: fromValue(2000, 'BinarySI'), want: '2000' },
  { name: 'prints a BinarySI -2000 without a suffix', q: fromValue(-2000, 'BinarySI'), want: '-2000' },
  { name: 'negates 9.01 into -9010m', q: fromScaled(901, -2).neg(), want: '-9010m' },
  { name: 'prints the largest int64 plus one after an int64 overflow', q: fromValue(MAX).add(fromValue(1)), want: '9223372036854775808' },
];

for (const c of constructorCases) {
  test(c.name, () => {
    assert.equal(c.q.toString(), c.want);
  });
}

// Value() and MilliValue(): TestScaledValue, TestNegativeValueRoundsAwayFromZero and the brief's examples.
const valueCases = [
  ...[
    [-9, -9, 1n], [-9, -6, 1n], [-9, -3, 1n], [-9, 0, 1n], [-6, -9, 1000n], [-6, -6, 1n], [-6, -3, 1n], [-6, 0, 1n],
    [-3, -9, 1000000n], [-3, -6, 1000n], [-3, -3, 1n], [-3, 0, 1n], [0, -9, 1000000000n], [0, -6, 1000000n],
    [0, -3, 1000n], [0, 0, 1n], [2, -2, 10000n],
  ].map(([from, to, want]) => ({
    name: `scales 1×10^${from} to ${want} units of 10^${to}`, q: fromScaled(1, from as number), scale: to as number, want: want as bigint,
  })),
  ...[
    ['100m', 100n, 1n], ['0.5', 500n, 1n], ['1.5Gi', 1610612736000n, 1610612736n], ['1n', 1n, 1n], ['1', 1000n, 1n],
    ['0.1m', 1n, 1n], ['-.484785E-1', -49n, -1n], ['.484785E-1', 49n, 1n], ['-0.0005', -1n, -1n], ['0.0005', 1n, 1n],
    ['-1500m', -1500n, -2n], ['1500m', 1500n, 2n], ['9.5000000001Gi', 10200547328108n, 10200547329n], ['-1', -1000n, -1n],
    ['0', 0n, 0n], ['.484785E-7466', 1n, 1n],
    // 1.36: a negative inf.Dec amount rounds toward +∞ (kubernetes#138510 later rounds it away from zero).
    ['-.484785E-7466', 1n, 1n], ['-9.5000000001Gi', -10200547328107n, -10200547328n],
  ].flatMap(([input, milli, value]) => [
    { name: `gives ${input} a MilliValue of ${milli}`, q: parseQuantity(input as string), scale: -3, want: milli as bigint },
    { name: `gives ${input} a Value of ${value}`, q: parseQuantity(input as string), scale: 0, want: value as bigint },
  ]),
  { name: 'gives 0 for a MilliValue that overflows an int64, as 1.36 does', q: fromValue(MAX), scale: -3, want: 0n },
];

for (const c of valueCases) {
  test(c.name, () => {
    assert.equal(c.q.scaledValue(c.scale), c.want);
    if (c.scale === -3) assert.equal(c.q.milliValue(), Number(c.want));
    if (c.scale === 0) assert.equal(c.q.value(), Number(c.want));
  });
}

// Comparison: TestQuantityCmp and TestQuantityCmpInt64AndDec (both orders).
const cmpRows: Array<[Quantity, Quantity, number]> = [
  [parseQuantity('0'), parseQuantity('0'), 0], [parseQuantity('100m'), parseQuantity('50m'), 1],
  [parseQuantity('50m'), parseQuantity('100m'), -1], [parseQuantity('10000T'), parseQuantity('100Gi'), 1],
  [fromScaled(901, -2), fromScaled(901, -2), 0], [fromScaled(90, -1), fromScaled(901, -2), -1],
  [fromScaled(901, -2), fromScaled(900, -2), 1], [fromScaled(0, 1), fromScaled(0, -1), 0],
  [fromScaled(800, -3), fromScaled(1, 0), -1], [fromScaled(800, -3), fromScaled(79, -2), 1],
  [fromScaled(MAX, 0), fromScaled(1, -1), 1], [fromScaled(MAX, 1), fromScaled(1, 0), 1],
  [fromScaled(MAX, -16), fromScaled(1, 3), -1], [fromScaled(MIN, 0), fromScaled(0, 0), -1],
  [fromScaled(MIN, -18), fromScaled(-1, 0), -1], [fromScaled(MIN, -19), fromScaled(-1, 0), 1],
  [fromScaled(10n ** 18n, -17), fromScaled(1, 1), 0], [fromScaled(10n ** 18n, -17), fromScaled(-10, 0), 1],
  [fromScaled(-(10n ** 18n), -17), fromScaled(-10, 0), 0], [fromScaled(10n ** 18n + 1n, -17), fromScaled(1, 1), 1],
  [fromScaled(10n ** 18n - 1n, -17), fromScaled(1, 1), -1],
];
const cmpCases = cmpRows.flatMap(([a, b, want]) => [
  { name: `compares ${a} with ${b} as ${want}`, a, b, want },
  { name: `compares ${b} with ${a} as ${-want}`, a: b, b: a, want: -want },
]);

for (const c of cmpCases) {
  test(c.name, () => {
    assert.equal(c.a.cmp(c.b) + 0, c.want + 0);
  });
}

// Arithmetic: TestQuantityAddZeroPreservesSuffix, TestQuantitySubZeroPreservesSuffix, TestSub, and sums of parsed values.
const q = parseQuantity;
const arithmeticCases: Array<{ name: string; got: Quantity; want: string; format: QuantityFormat }> = [
  { name: 'keeps 100m when adding zero', got: q('100m').add(q('0')), want: '100m', format: 'DecimalSI' },
  { name: 'takes the format of 100m when zero adds it', got: q('0').add(q('100m')), want: '100m', format: 'DecimalSI' },
  { name: 'keeps 1Gi when adding zero', got: q('1Gi').add(q('0')), want: '1Gi', format: 'BinarySI' },
  { name: 'takes the BinarySI format when zero adds 1Gi', got: q('0').add(q('1Gi')), want: '1Gi', format: 'BinarySI' },
  { name: 'keeps 100m when subtracting zero', got: q('100m').sub(q('0')), want: '100m', format: 'DecimalSI' },
  { name: 'gives -100m for zero minus 100m', got: q('0').sub(q('100m')), want: '-100m', format: 'DecimalSI' },
  { name: 'keeps 1Gi when subtracting zero', got: q('1Gi').sub(q('0')), want: '1Gi', format: 'BinarySI' },
  { name: 'gives -1Gi for zero minus 1Gi', got: q('0').sub(q('1Gi')), want: '-1Gi', format: 'BinarySI' },
  { name: 'subtracts 1e1 from 10 to zero', got: fromValue(10).sub(fromScaled(1, 1)), want: '0', format: 'DecimalSI' },
  { name: 'keeps DecimalSI for 10 minus a BinarySI 1', got: fromValue(10).sub(fromValue(1, 'BinarySI')), want: '9', format: 'DecimalSI' },
  { name: 'keeps BinarySI for a BinarySI 10 minus 1', got: fromValue(10, 'BinarySI').sub(fromValue(1)), want: '9', format: 'BinarySI' },
  { name: 'gives -50 for zero minus 50', got: fromValue(0).sub(fromValue(50)), want: '-50', format: 'DecimalSI' },
  { name: 'adds 512Mi to 1.5Gi', got: q('1.5Gi').add(q('512Mi')), want: '2Gi', format: 'BinarySI' },
  { name: 'adds 1.5 cpus to 100m', got: q('100m').add(q('1.5')), want: '1600m', format: 'DecimalSI' },
  { name: 'adds 1G to 1Gi and prints bytes (not a whole Ki)', got: q('1Gi').add(q('1G')), want: '2073741824', format: 'BinarySI' },
  { name: 'adds a nano to an inf.Dec amount exactly', got: q('0.0000000001').add(q('1n')), want: '2n', format: 'DecimalSI' },
  { name: 'subtracts 250m from 1 cpu', got: q('1').sub(q('250m')), want: '750m', format: 'DecimalSI' },
];

for (const c of arithmeticCases) {
  test(c.name, () => {
    assert.equal(c.got.toString(), c.want);
    assert.equal(c.got.format, c.format);
  });
}

const predicateCases = [
  { name: 'says 0 is zero', got: q('0').isZero(), want: true },
  { name: 'says 0Ki is zero', got: q('0Ki').isZero(), want: true },
  { name: 'says 1n is not zero', got: q('1n').isZero(), want: false },
  { name: 'gives -1m a sign of -1', got: q('-1m').sign(), want: -1 },
  { name: 'gives 0 a sign of 0', got: q('0').sign(), want: 0 },
  { name: 'gives 2Gi a sign of 1', got: q('2Gi').sign(), want: 1 },
];

for (const c of predicateCases) {
  test(c.name, () => {
    assert.equal(c.got, c.want);
  });
}

// Numbers, as a YAML or JSON number reaches ParseQuantity: as its JSON text.
const numberCases = [
  { name: 'parses the number 2 as 2', input: 2, want: '2', milli: 2000 },
  { name: 'parses the number 0.5 as 500m', input: 0.5, want: '500m', milli: 500 },
  { name: 'parses the number 0.1 as 100m', input: 0.1, want: '100m', milli: 100 },
  { name: 'parses the number 1e21 through its text 1e+21', input: 1e21, want: '1e+21', milli: 0 },
  { name: 'parses the number 1.5e-7 through its text 1.5e-7', input: 1.5e-7, want: '150e-9', milli: 1 },
];

for (const c of numberCases) {
  test(c.name, () => {
    const got = parseQuantity(c.input);
    assert.equal(got.toString(), c.want);
    assert.equal(got.milliValue(), c.milli);
  });
}

test('serializes to JSON as its canonical string', () => {
  assert.equal(JSON.stringify({ cpu: parseQuantity('1.5'), memory: parseQuantity('1024Mi') }), '{"cpu":"1500m","memory":"1Gi"}');
});

test('refuses a constructor value that is not a safe integer', () => {
  assert.throws(() => fromValue(1.5), QuantityError);
  assert.throws(() => fromMilli(2n ** 63n), QuantityError);
});
