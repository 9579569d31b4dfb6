// Label selectors: metav1.LabelSelector matched against labels, and the selector string syntax
// (app=web,tier in (a,b),!canary) parsed and printed as Kubernetes' labels package does.
import type { LabelSelector } from './types';
import {
  aggregate, goQuote, invalid, isLabelKey, parseInt64, requirementErrors, type Path,
} from './labels-validation';

/** Labels is a label map as objects carry it (metadata.labels); absent means no labels. */
export type Labels = Readonly<Record<string, string>> | undefined | null;

/** SelectorOperator is a selection.Operator: "!" is DoesNotExist, "exists" Exists, "gt"/"lt" Gt/Lt. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

/** Requirement is one condition of a selector (labels.Requirement). */
export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
}

/** Selector is labels.Selector: requirements ANDed, sorted by key; `nothing` is labels.Nothing(), which matches no labels. */
export interface Selector {
  readonly nothing: boolean;
  readonly requirements: readonly Requirement[];
}

/** SelectorError is thrown for an invalid selector, with the message Kubernetes gives. */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

/** EVERYTHING is labels.Everything(): no requirement, matches all labels. */
export const EVERYTHING: Selector = Object.freeze({ nothing: false, requirements: Object.freeze([]) });
/** NOTHING is labels.Nothing(): matches no labels, prints as "". */
export const NOTHING: Selector = Object.freeze({ nothing: true, requirements: Object.freeze([]) });

// Why: binaryOperators in staging/src/k8s.io/apimachinery/pkg/labels/selector.go (parseOperator's error lists them).
const BINARY_OPERATORS: readonly SelectorOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

/**
 * newRequirement is labels.NewRequirement: it checks the key, the number of values for the operator,
 * Gt/Lt integers and each value, and throws SelectorError with all the problems (Go's aggregate).
 * `values` null is Go's nil slice; `path` prefixes the field paths (null: none).
 */
export function newRequirement(key: string, operator: string, values: readonly string[] | null, path: Path = null): Requirement {
  const errs = requirementErrors(key, operator, values, path);
  if (errs.length > 0) throw new SelectorError(aggregate(errs));
  return { key, operator: operator as SelectorOperator, values: [...(values ?? [])] };
}

const lookup = (labels: Labels, key: string): string | undefined =>
  labels && Object.hasOwn(labels, key) ? labels[key] : undefined;

/**
 * requirementMatches is Requirement.Matches: In/=/== need the key with a listed value; NotIn/!= match a
 * missing key; Gt/Lt need the key with an integer value beyond the single integer operand.
 */
export function requirementMatches(r: Requirement, labels: Labels): boolean {
  const value = lookup(labels, r.key);
  switch (r.operator) {
    case 'in': case '=': case '==':
      return value !== undefined && r.values.includes(value);
    case 'notin': case '!=':
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt': case 'lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const have = parseInt64(value);
      const bound = parseInt64(r.values[0]!);
      if (have === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? have > bound : have < bound;
    }
    default:
      return false;
  }
}

/** selectorMatches is Selector.Matches: every requirement matches; NOTHING matches nothing. */
export function selectorMatches(selector: Selector, labels: Labels): boolean {
  return !selector.nothing && selector.requirements.every((r) => requirementMatches(r, labels));
}

/** selectorOf builds a Selector as internalSelector.Add does: requirements sorted by key (stable). */
function selectorOf(requirements: Requirement[]): Selector {
  return { nothing: false, requirements: [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}

/** requirementToString is Requirement.String: `!k`, `k`, `k=v`, `k in (a,b)` with several values sorted. */
export function requirementToString(r: Requirement): string {
  let out = (r.operator === '!' ? '!' : '') + r.key;
  const ops: Partial<Record<SelectorOperator, string>> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<' };
  if (r.operator === 'exists' || r.operator === '!') return out;
  out += ops[r.operator] ?? '';
  const set = r.operator === 'in' || r.operator === 'notin';
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  return out + (set ? `(${values})` : values);
}

/** selectorToString is Selector.String: the requirements joined by ","; "" for EVERYTHING and NOTHING. */
export function selectorToString(selector: Selector): string {
  return selector.nothing ? '' : selector.requirements.map(requirementToString).join(',');
}

/** selectorFromSet is labels.SelectorFromSet: key=value for each label, unvalidated; empty set is EVERYTHING. */
export function selectorFromSet(set: Labels): Selector {
  return selectorOf(Object.entries(set ?? {}).map(([key, value]) => ({ key, operator: '=' as const, values: [value] })));
}

const LABEL_SELECTOR_OPERATORS: Readonly<Record<string, string>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * labelSelectorAsSelector is metav1.LabelSelectorAsSelector: null/undefined is NOTHING, an empty selector
 * is EVERYTHING, matchLabels become `=` and matchExpressions In/NotIn/Exists/DoesNotExist. It throws
 * SelectorError for a bad operator, key or value.
 * Why: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go (matchLabels taken in key order here,
 * where Go's map order makes the first error reported vary).
 */
export function labelSelectorAsSelector(ls: LabelSelector | undefined | null): Selector {
  if (ls === undefined || ls === null) return NOTHING;
  const matchLabels = ls.matchLabels ?? {};
  const expressions = ls.matchExpressions ?? [];
  const keys = Object.keys(matchLabels).sort();
  if (keys.length + expressions.length === 0) return EVERYTHING;
  const requirements = keys.map((k) => newRequirement(k, '=', [matchLabels[k]!]));
  for (const expr of expressions) {
    const op = Object.hasOwn(LABEL_SELECTOR_OPERATORS, expr.operator) ? LABEL_SELECTOR_OPERATORS[expr.operator] : undefined;
    if (op === undefined) throw new SelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    const values = expr.values && expr.values.length > 0 ? expr.values : null;
    requirements.push(newRequirement(expr.key, op, values));
  }
  return selectorOf(requirements);
}

/**
 * matchesLabelSelector tells whether labels match a metav1.LabelSelector: a null/undefined selector matches
 * nothing, an empty one everything. An invalid selector matches nothing, as controllers that skip it do.
 */
export function matchesLabelSelector(selector: LabelSelector | undefined | null, labels: Labels): boolean {
  const parsed = selector ? parsedSelector(selector) : NOTHING;
  return parsed !== undefined && selectorMatches(parsed, labels);
}

/**
 * PARSED keeps each selector object's parsed form (undefined when invalid). Stored objects are frozen, so a selector
 * read from one never changes: a controller matching thousands of pods parses its selector once.
 */
const PARSED = new WeakMap<LabelSelector, Selector | undefined>();

function parsedSelector(selector: LabelSelector): Selector | undefined {
  if (PARSED.has(selector)) return PARSED.get(selector);
  let parsed: Selector | undefined;
  try {
    parsed = labelSelectorAsSelector(selector);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
  }
  if (Object.isFrozen(selector)) PARSED.set(selector, parsed);
  return parsed;
}

/** formatLabelSelector is metav1.FormatLabelSelector: the selector string, "<none>" when empty, "<error>" when invalid. */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  try {
    return selectorToString(labelSelectorAsSelector(selector)) || '<none>';
  } catch (err) {
    if (err instanceof SelectorError) return '<error>';
    throw err;
  }
}

// ---- The selector string syntax: labels.Parse. ----

type Token = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
interface Item {
  tok: Token;
  lit: string;
}
const LITERAL_TOKENS: ReadonlyMap<string, Token> = new Map<string, Token>(
  [')', ',', '!', '==', '=', '>', 'in', '<', '!=', 'notin', '('].map((t) => [t, t as Token]),
);
const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** lex splits a selector into tokens as labels.Lexer does (a NUL character reads as the end of input, as in Go). */
function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++]! : '\0');
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      items.push({ tok: 'end', lit: '' });
      return items;
    }
    pos--;
    let buffer = '';
    if (isSpecial(ch)) {
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buffer += c;
        const tok = LITERAL_TOKENS.get(buffer);
        if (tok) last = { tok, lit: buffer };
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    for (;;) {
      const c = read();
      if (c === '\0') break;
      if (isSpecial(c) || isWhitespace(c)) {
        pos--;
        break;
      }
      buffer += c;
    }
    const keyword = buffer === 'in' || buffer === 'notin' ? (buffer as Token) : undefined;
    items.push({ tok: keyword ?? 'id', lit: buffer });
  }
}

/**
 * parseSelector parses the selector string syntax as labels.Parse does — `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-separated — and throws SelectorError with
 * Kubernetes' message. "" parses to EVERYTHING; the requirements come back sorted by key.
 * Why: Parser.parse and its helpers in staging/src/k8s.io/apimachinery/pkg/labels/selector.go.
 */
export function parseSelector(text: string): Selector {
  const items = lex(text);
  let position = 0;
  // In the values context, "in" and "notin" are plain identifiers.
  const asValue = (item: Item): Item => (item.tok === 'in' || item.tok === 'notin' ? { tok: 'id', lit: item.lit } : item);
  const lookahead = (): Item => asValue(items[Math.min(position, items.length - 1)]!);
  const consume = (values = true): Item => {
    const item = items[Math.min(position++, items.length - 1)]!;
    return values ? asValue(item) : item;
  };
  const fail = (message: string): never => {
    throw new SelectorError(message);
  };

  const parseRequirement = (): Requirement => {
    let operator: string = '';
    let { tok, lit } = consume();
    if (tok === '!') {
      operator = '!';
      ({ tok, lit } = consume());
    }
    if (tok !== 'id') fail(`found '${lit}', expected: identifier`);
    const key = lit;
    const keyErrs = isLabelKey(key);
    if (keyErrs.length > 0) fail(invalid(null, goQuote(key), keyErrs.join('; ')));
    const next = lookahead().tok;
    if ((next === 'end' || next === ',') && operator !== '!') operator = 'exists';
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);

    const opItem = consume(false);
    const ops: Partial<Record<Token, string>> = { in: 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    operator = ops[opItem.tok] ?? fail(`found '${opItem.lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    const values = new Set<string>();
    if (operator === 'in' || operator === 'notin') {
      const open = consume();
      if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
      const first = lookahead();
      if (first.tok === ')') {
        consume();
        values.add('');
      } else if (first.tok === 'id' || first.tok === ',') {
        parseIdentifiers(values);
        consume(); // the ')' that ended the list
      } else {
        fail(`found '${first.lit}', expected: ',', ')' or identifier`);
      }
    } else {
      const next2 = lookahead();
      if (next2.tok === 'end' || next2.tok === ',') values.add('');
      else {
        const value = consume();
        if (value.tok !== 'id') fail(`found '${value.lit}', expected: identifier`);
        values.add(value.lit);
      }
    }
    return newRequirement(key, operator, [...values].sort());
  };

  const parseIdentifiers = (values: Set<string>): void => {
    for (;;) {
      const { tok, lit } = consume();
      if (tok === 'id') {
        values.add(lit);
        const after = lookahead();
        if (after.tok === ')') return;
        if (after.tok !== ',') fail(`found '${after.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (values.size === 0) values.add(''); // "(,"
        const after = lookahead().tok;
        if (after === ')') {
          values.add(''); // ",)"
          return;
        }
        if (after === ',') values.add(''); // ",,"
      } else {
        fail(`found '${lit}', expected: ',', or identifier`);
      }
    }
  };

  const requirements: Requirement[] = [];
  for (;;) {
    const { tok, lit } = lookahead();
    if (tok === 'end') return selectorOf(requirements);
    if (tok !== 'id' && tok !== '!') fail(`found '${lit}', expected: !, identifier, or 'end of string'`);
    try {
      requirements.push(parseRequirement());
    } catch (err) {
      if (err instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${err.message}`);
      throw err;
    }
    const after = consume();
    if (after.tok === 'end') return selectorOf(requirements);
    if (after.tok !== ',') fail(`found '${after.lit}', expected: ',' or 'end of string'`);
    const next = lookahead();
    if (next.tok !== 'id' && next.tok !== '!') fail(`found '${next.lit}', expected: identifier after ','`);
  }
}
