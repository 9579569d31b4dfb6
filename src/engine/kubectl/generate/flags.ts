// kubectl's command-line flags as spf13/pflag v1.0.9 parses them (cobra v1.10.2 hands it each command's flags): long
// and shorthand forms, values inline or in the next word, optional values (NoOptDefVal), `--` ending the flags, and
// pflag's own error messages. See github.com/spf13/pflag flag.go (parseArgs, parseLongArg, parseSingleShortArg),
// errors.go, string_slice.go, string_array.go, bool.go, int32.go.
import { goQuote } from '../../apiserver/authz/forbidden';
import { goDurationMs, goInt, goParseBool } from './strconv';

/** FlagType is the pflag value type of a flag. */
export type FlagType = 'bool' | 'string' | 'stringArray' | 'stringSlice' | 'int' | 'int32' | 'duration';

/** FlagSpec declares one flag: its name, shorthand letter, type, default and optional value. */
export interface FlagSpec {
  name: string;
  shorthand?: string;
  type: FlagType;
  /** def is the default, as pflag prints it (`Always`, `-1`, `[]`). */
  def?: string;
  /** noOptDefVal is the value `--flag` alone sets (bool flags: `true`). */
  noOptDefVal?: string;
  /** required marks a flag cobra's ValidateRequiredFlags checks (cmd.MarkFlagRequired). */
  required?: boolean;
}

/** FlagValue is a parsed value: text, a switch, a list or a number. */
export type FlagValue = string | boolean | string[] | number;

/** ParsedFlags is a command line after pflag: the flags set (by name) and the positional arguments. */
export interface ParsedFlags {
  values: Map<string, FlagValue>;
  /** changed lists the flags given on the command line (pflag's Changed), in the order first given. */
  changed: string[];
  args: string[];
  /** argsLenAtDash is cobra's ArgsLenAtDash: how many arguments came before `--`, or -1 without one. */
  argsLenAtDash: number;
}

/** FlagError is pflag's refusal of a command line; cobra hands it to kubectl's FlagErrorFunc. */
export class FlagError extends Error {}

/** HelpRequested is pflag's ErrHelp: `-h` or `--help` met before any error. */
export class HelpRequested extends Error {}

/** goQuoteRune is Go's %q of a rune: 'x'. */
function goQuoteRune(c: string): string {
  return c === "'" ? "'\\''" : c === '\\' ? "'\\\\'" : `'${c}'`;
}

/** FlagSet is one command's flags (its own and those it inherits), normalized as kubectl normalizes them (`_` → `-`). */
export class FlagSet {
  private readonly byName = new Map<string, FlagSpec>();
  private readonly byShorthand = new Map<string, FlagSpec>();

  constructor(specs: readonly FlagSpec[]) {
    for (const s of specs) {
      this.byName.set(s.name, s);
      if (s.shorthand) this.byShorthand.set(s.shorthand, s);
    }
  }

  /** lookup finds a flag by its (normalized) long name. */
  lookup(name: string): FlagSpec | undefined {
    return this.byName.get(normalize(name));
  }

  /** lookupShorthand finds a flag by its letter. */
  lookupShorthand(c: string): FlagSpec | undefined {
    return this.byShorthand.get(c);
  }

  /** specs lists every flag, in declaration order. */
  specs(): FlagSpec[] {
    return [...this.byName.values()];
  }

  /** parse reads the command line as pflag's Parse does (interspersed flags and arguments); it throws FlagError. */
  parse(argv: readonly string[]): ParsedFlags {
    const out: ParsedFlags = { values: new Map(), changed: [], args: [], argsLenAtDash: -1 };
    let rest = [...argv];
    while (rest.length > 0) {
      const s = rest.shift()!;
      if (s.length === 0 || s[0] !== '-' || s.length === 1) {
        out.args.push(s);
        continue;
      }
      if (s[1] === '-') {
        if (s.length === 2) {
          out.argsLenAtDash = out.args.length;
          out.args.push(...rest);
          break;
        }
        rest = this.parseLong(s, rest, out);
      } else {
        rest = this.parseShort(s, rest, out);
      }
    }
    return out;
  }

  private parseLong(s: string, rest: string[], out: ParsedFlags): string[] {
    const body = s.slice(2);
    if (body.length === 0 || body[0] === '-' || body[0] === '=') throw new FlagError(`bad flag syntax: ${s}`);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const flag = this.lookup(name);
    if (!flag) {
      if (name === 'help') throw new HelpRequested('help requested');
      throw new FlagError(`unknown flag: --${name}`);
    }
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (flag.noOptDefVal !== undefined) value = flag.noOptDefVal;
    else if (rest.length > 0) value = rest.shift()!;
    else throw new FlagError(`flag needs an argument: --${name}`);
    this.set(flag, value, out);
    return rest;
  }

  private parseShort(s: string, rest: string[], out: ParsedFlags): string[] {
    let shorthands = s.slice(1);
    while (shorthands.length > 0) {
      const c = shorthands[0]!;
      const flag = this.byShorthand.get(c);
      if (!flag) {
        if (c === 'h') throw new HelpRequested('help requested');
        throw new FlagError(`unknown shorthand flag: ${goQuoteRune(c)} in -${shorthands}`);
      }
      let value: string;
      if (shorthands.length > 2 && shorthands[1] === '=') {
        value = shorthands.slice(2);
        shorthands = '';
      } else if (flag.noOptDefVal !== undefined) {
        value = flag.noOptDefVal;
        shorthands = shorthands.slice(1);
      } else if (shorthands.length > 1) {
        value = shorthands.slice(1);
        shorthands = '';
      } else if (rest.length > 0) {
        value = rest.shift()!;
        shorthands = '';
      } else {
        throw new FlagError(`flag needs an argument: ${goQuoteRune(c)} in -${shorthands}`);
      }
      this.set(flag, value, out);
    }
    return rest;
  }

  /** set is FlagSet.Set: the value's own Set, then Changed; a refused value is pflag's InvalidValueError. */
  private set(flag: FlagSpec, value: string, out: ParsedFlags): void {
    const first = !out.changed.includes(flag.name);
    let v: FlagValue;
    try {
      v = convert(flag, value, first ? undefined : out.values.get(flag.name));
    } catch (err) {
      const name = flag.shorthand ? `-${flag.shorthand}, --${flag.name}` : `--${flag.name}`;
      throw new FlagError(`invalid argument ${goQuote(value)} for ${goQuote(name)} flag: ${(err as Error).message}`);
    }
    out.values.set(flag.name, v);
    if (first) out.changed.push(flag.name);
  }
}

/** normalize is cliflag.WordSepNormalizeFunc: kubectl reads `--image_pull_policy` as `--image-pull-policy`. */
function normalize(name: string): string {
  return name.replace(/_/g, '-');
}

function convert(flag: FlagSpec, value: string, previous: FlagValue | undefined): FlagValue {
  switch (flag.type) {
    case 'bool': return goParseBool(value);
    case 'string': return value;
    case 'duration': return goDurationMs(value);
    case 'int': return goInt(value, 0, 64, 'strconv.ParseInt');
    case 'int32': return goInt(value, 0, 32, 'strconv.ParseInt');
    case 'stringArray': return [...((previous as string[] | undefined) ?? []), value];
    case 'stringSlice': return [...((previous as string[] | undefined) ?? []), ...readAsCSV(value)];
  }
}

/**
 * readAsCSV is pflag's reading of a string slice value: one line of encoding/csv (commas split it, a field in double
 * quotes may hold commas and `""`); an empty value is an empty list. See encoding/csv reader.go (readRecord).
 */
export function readAsCSV(val: string): string[] {
  if (val === '') return [];
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (val[i] === '"') {
      let field = '';
      let j = i + 1;
      for (;;) {
        const q = val.indexOf('"', j);
        if (q < 0) throw new Error(`parse error on line 1, column ${val.length + 1}: extraneous or missing " in quoted-field`);
        field += val.slice(j, q);
        if (val[q + 1] === '"') {
          field += '"';
          j = q + 2;
          continue;
        }
        if (q + 1 === val.length || val[q + 1] === ',') {
          i = q + 1;
          break;
        }
        throw new Error(`parse error on line 1, column ${q + 1}: extraneous or missing " in quoted-field`);
      }
      fields.push(field);
    } else {
      const comma = val.indexOf(',', i);
      const field = comma < 0 ? val.slice(i) : val.slice(i, comma);
      const quote = field.indexOf('"');
      if (quote >= 0) throw new Error(`parse error on line 1, column ${i + quote + 1}: bare " in non-quoted-field`);
      fields.push(field);
      i = comma < 0 ? val.length : comma;
    }
    if (i >= val.length) return fields;
    i++; // the comma
    if (i === val.length) return [...fields, ''];
  }
}
