// The pieces kubectl's command line goes through before a command sees it: the launch configuration's command line
// split into words, pflag's parse (shorthand groups, values inline or next, NoOptDefVal, `--`, string slices as CSV,
// Go's base-0 integers) and the image reference grammar kubectl run checks. Whole commands are tested through the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitCommandLine } from '../../../src/engine/kubectl/generate/argv';
import { FlagError, FlagSet } from '../../../src/engine/kubectl/generate/flags';
import { isValidReference } from '../../../src/engine/kubectl/generate/image-reference';

const splitCases = [
  { name: 'blanks separate words', line: ' kubectl  run\tweb ', want: ['kubectl', 'run', 'web'] },
  { name: 'single quotes keep everything', line: `kubectl run web -- sh -c 'echo "$HOME"; sleep 1'`, want: ['kubectl', 'run', 'web', '--', 'sh', '-c', 'echo "$HOME"; sleep 1'] },
  { name: 'double quotes keep all but the escapes of \\" and \\\\', line: 'a "b \\"c\\" \\\\ \\n"', want: ['a', 'b "c" \\ \\n'] },
  { name: 'a backslash outside quotes keeps the next character', line: 'a b\\ c', want: ['a', 'b c'] },
  { name: 'empty quotes are an empty word', line: `kubectl run '' --image=x`, want: ['kubectl', 'run', '', '--image=x'] },
  { name: 'an unclosed quote is named', line: `kubectl run "web`, want: 'the double quote at character 13 is not closed' },
];
for (const c of splitCases) test(`command line words: ${c.name}`, () => assert.deepEqual(splitCommandLine(c.line), c.want));

const flags = new FlagSet([
  { name: 'stdin', shorthand: 'i', type: 'bool', noOptDefVal: 'true' },
  { name: 'tty', shorthand: 't', type: 'bool', noOptDefVal: 'true' },
  { name: 'namespace', shorthand: 'n', type: 'string' },
  { name: 'dry-run', type: 'string', def: 'none', noOptDefVal: 'unchanged' },
  { name: 'image', type: 'stringSlice' },
  { name: 'env', type: 'stringArray' },
  { name: 'replicas', shorthand: 'r', type: 'int32' },
  { name: 'image-pull-policy', type: 'string' },
]);

const parseCases = [
  { name: 'shorthand switches group, and a value-taking letter takes the rest', argv: ['-itnprod', 'web'], values: { stdin: true, tty: true, namespace: 'prod' }, args: ['web'], dash: -1 },
  { name: '-n=ns and -n ns both set the value', argv: ['-n=a', 'x', '-n', 'b'], values: { namespace: 'b' }, args: ['x'], dash: -1 },
  { name: 'a flag with an optional value takes none from the next word', argv: ['--dry-run', 'web'], values: { 'dry-run': 'unchanged' }, args: ['web'], dash: -1 },
  { name: '-- ends the flags and is counted as ArgsLenAtDash', argv: ['web', '--', '--image=x', '-i'], values: {}, args: ['web', '--image=x', '-i'], dash: 1 },
  { name: 'a string slice reads each value as CSV and appends', argv: ['--image=a,b', '--image', '"c,d",e'], values: { image: ['a', 'b', 'c,d', 'e'] }, args: [], dash: -1 },
  { name: 'a string array keeps each value whole', argv: ['--env=A=1,2', '--env', 'B=3'], values: { env: ['A=1,2', 'B=3'] }, args: [], dash: -1 },
  { name: 'an int32 is read as Go reads base 0', argv: ['-r', '0x10', '--replicas=0o7', '-r', '1_000'], values: { replicas: 1000 }, args: [], dash: -1 },
  { name: 'underscores in a name are dashes', argv: ['--image_pull_policy=Never'], values: { 'image-pull-policy': 'Never' }, args: [], dash: -1 },
];
for (const c of parseCases) {
  test(`pflag: ${c.name}`, () => {
    const parsed = flags.parse(c.argv);
    assert.deepEqual(Object.fromEntries(parsed.values), c.values);
    assert.deepEqual([parsed.args, parsed.argsLenAtDash], [c.args, c.dash]);
  });
}

const flagErrorCases = [
  { argv: ['--frobnicate'], want: 'unknown flag: --frobnicate' },
  { argv: ['-ix'], want: "unknown shorthand flag: 'x' in -x" },
  { argv: ['--image', '"a"b'], want: 'invalid argument "\\"a\\"b" for "--image" flag: parse error on line 1, column 3: extraneous or missing " in quoted-field' },
  { argv: ['--image', '"a,b'], want: 'invalid argument "\\"a,b" for "--image" flag: parse error on line 1, column 5: extraneous or missing " in quoted-field' },
  { argv: ['-n'], want: "flag needs an argument: 'n' in -n" },
  { argv: ['--namespace'], want: 'flag needs an argument: --namespace' },
  { argv: ['---x'], want: 'bad flag syntax: ---x' },
  { argv: ['--stdin=maybe'], want: 'invalid argument "maybe" for "-i, --stdin" flag: strconv.ParseBool: parsing "maybe": invalid syntax' },
  { argv: ['-r', '1.5'], want: 'invalid argument "1.5" for "-r, --replicas" flag: strconv.ParseInt: parsing "1.5": invalid syntax' },
  { argv: ['-r', '3000000000'], want: 'invalid argument "3000000000" for "-r, --replicas" flag: strconv.ParseInt: parsing "3000000000": value out of range' },
  { argv: ['-r', '1__0'], want: 'invalid argument "1__0" for "-r, --replicas" flag: strconv.ParseInt: parsing "1__0": invalid syntax' },
  { argv: ['--image', 'a"b'], want: 'invalid argument "a\\"b" for "--image" flag: parse error on line 1, column 2: bare " in non-quoted-field' },
];
for (const c of flagErrorCases) {
  test(`pflag refuses ${c.argv.join(' ')}: ${c.want}`, () => {
    assert.throws(() => flags.parse(c.argv), (err: Error) => err instanceof FlagError && err.message === c.want);
  });
}

// Checked against kubectl v1.36 run --dry-run=client: each valid one is accepted, each invalid one refused.
const valid = ['nginx', 'nginx:1.27', 'nginx:latest-', 'foo_bar', 'foo__bar', 'foo--bar', 'localhost:5000/foo', 'Registry.Example.COM/foo', '[::1]:5000/foo',
  `a/b/c:tag@sha256:${'0123456789abcdef'.repeat(4)}`, `foo:${'a'.repeat(128)}`];
const invalid = ['NGINX', 'nginx:', 'nginx@', ':tag', '-nginx', 'foo___bar', 'foo-.bar', 'localhost:5000/Foo', 'foo@sha256:abc', `foo:${'a'.repeat(129)}`];
for (const image of valid) test(`the image reference ${image.slice(0, 40)} is valid`, () => assert.equal(isValidReference(image), true));
for (const image of invalid) test(`the image reference ${image.slice(0, 40)} is invalid`, () => assert.equal(isValidReference(image), false));
