// The checks labels.NewRequirement makes (label keys, label values, operand counts) and the Go-formatted
// field errors it reports them with, so selector errors read exactly as Kubernetes prints them.

/** Path is a field.Path as printed ("values[0]", "nodeSelectorTerms[0].matchExpressions[1]"); null is Go's nil path. */
export type Path = string | null;

/** child is Path.Child: "a.b", or "b" under a nil path. */
export const child = (path: Path, name: string): string => (path === null ? name : `${path}.${name}`);
/** index is Path.Index and Path.Key: "a[0]", "a[key]". */
export const index = (path: Path, i: number | string): string => `${path ?? ''}[${i}]`;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"', '\\': '\\\\', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
};

/** goQuote is Go's strconv.Quote (%q): double quotes, with \n-style and \x/\u escapes for what is not printable. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    const named = NAMED_ESCAPES[ch];
    if (named !== undefined) out += named;
    else if (ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) out += ch;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** goStrings prints a []string as Go's %#v does: []string(nil), []string{}, []string{"a", "b"}. */
export const goStrings = (values: readonly string[] | null | undefined): string =>
  values === null || values === undefined ? '[]string(nil)' : `[]string{${values.map(goQuote).join(', ')}}`;

// Why: field.Error.Error() and ErrorBody in staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go.
/** invalid is field.Invalid(path, value, detail).Error(); `shown` is the value already printed Go-style. */
export const invalid = (path: Path, shown: string, detail: string): string =>
  `${path ?? '<nil>'}: Invalid value: ${shown}: ${detail}`;

/** notSupported is field.NotSupported(path, value, valid).Error(). */
export const notSupported = (path: Path, value: string, valid: readonly string[]): string =>
  `${path ?? '<nil>'}: Unsupported value: ${goQuote(value)}: supported values: ${valid.map(goQuote).join(', ')}`;

/** aggregate is utilerrors.Aggregate.Error(): duplicates dropped, one message alone, several as "[a, b]". */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** parseInt64 is strconv.ParseInt(s, 10, 64): undefined where Go returns an error. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(1n << 63n) && n < 1n << 63n ? n : undefined;
}

// Why: staging/src/k8s.io/apimachinery/pkg/api/validate/content (kube.go, dns.go, errors.go), which
// util/validation's IsQualifiedName and IsValidLabelValue delegate to.
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_MSG = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** regexError is content.RegexError: the message, then examples and the regex in parentheses. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/**
 * maxLenError is content.MaxLenError, which counts bytes (k8s.io/apimachinery/pkg/api/validate/content/errors.go,
 * v0.36.3); util/validation's MaxLenError, which the DNS names of names.ts use, says characters.
 */
const maxLenError = (n: number): string => `must be no more than ${n} bytes`;

/** byteLength is Go's len(): the UTF-8 length. */
function byteLength(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** isDNS1123Subdomain lists what is wrong with a lowercase RFC 1123 subdomain (content.IsDNS1123Subdomain). */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** isLabelKey lists what is wrong with a label key: [prefix/]name (content.IsLabelKey, alias IsQualifiedName). */
export function isLabelKey(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const name = parts.length === 1 ? parts[0]! : parts[1]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!LABEL_KEY_RE.test(name)) errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** isLabelValue lists what is wrong with a label value: empty, or up to 63 alphanumerics with -_. inside (content.IsLabelValue). */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// Why: binaryOperators and unaryOperators in staging/src/k8s.io/apimachinery/pkg/labels/selector.go.
const VALID_OPERATORS: readonly string[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

/**
 * requirementErrors lists the problems labels.NewRequirement finds, in its order: the key, the number of
 * values for the operator (and Gt/Lt integers), then each value. `values` null is Go's nil slice.
 */
export function requirementErrors(key: string, operator: string, values: readonly string[] | null, path: Path): string[] {
  const errs: string[] = [];
  const keyErrs = isLabelKey(key);
  if (keyErrs.length > 0) errs.push(invalid(child(path, 'key'), goQuote(key), keyErrs.join('; ')));
  const vals = values ?? [];
  const valuePath = child(path, 'values');
  const count = (ok: boolean, detail: string): void => {
    if (!ok) errs.push(invalid(valuePath, goStrings(values), detail));
  };
  switch (operator) {
    case 'in': case 'notin':
      count(vals.length > 0, "for 'in', 'notin' operators, values set can't be empty");
      break;
    case '=': case '==': case '!=':
      count(vals.length === 1, 'exact-match compatibility requires one single value');
      break;
    case 'exists': case '!':
      count(vals.length === 0, 'values set must be empty for exists and does not exist');
      break;
    case 'gt': case 'lt':
      count(vals.length === 1, "for 'Gt', 'Lt' operators, exactly one value is required");
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalid(index(valuePath, i), goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(notSupported(child(path, 'operator'), operator, VALID_OPERATORS));
  }
  vals.forEach((v, i) => {
    const valueErrs = isLabelValue(v);
    if (valueErrs.length > 0) errs.push(invalid(index(index(valuePath, i), key), goQuote(v), valueErrs.join('; ')));
  });
  return errs;
}
