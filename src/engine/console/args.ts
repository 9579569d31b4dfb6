// Command lines typed in the console: words split as a shell splits them, and kubectl-style flags.

/** Word is one word of a command line and where it starts and ends in the text. */
export interface Word {
  text: string;
  start: number;
  end: number;
}

/** splitWords splits a line as a POSIX shell does: blanks separate words; quotes group; backslash escapes. */
export function splitWords(line: string): Word[] {
  const words: Word[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i]!)) i++;
    if (i >= line.length) break;
    const start = i;
    let text = '';
    while (i < line.length && !/\s/.test(line[i]!)) {
      const c = line[i]!;
      if (c === "'") {
        const close = line.indexOf("'", i + 1);
        const stop = close < 0 ? line.length : close;
        text += line.slice(i + 1, stop);
        i = stop + 1;
      } else if (c === '"') {
        i++;
        while (i < line.length && line[i] !== '"') {
          if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
          text += line[i];
          i++;
        }
        i++;
      } else if (c === '\\' && i + 1 < line.length) {
        text += line[i + 1];
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    words.push({ text, start, end: Math.min(i, line.length) });
  }
  return words;
}

/** FlagSpec names a command's flags: long names, their one-letter forms, and which take a value. */
export interface FlagSpec {
  values: readonly string[];
  booleans: readonly string[];
  short: Readonly<Record<string, string>>;
}

/** ParsedArgs are the positional arguments and the flags, repeated flags kept in order. */
export interface ParsedArgs {
  args: string[];
  flags: Map<string, string[]>;
}

/** FlagError is kubectl's (cobra's) complaint about a flag. */
export class FlagError extends Error {}

/** parseFlags reads flags as cobra does: `--flag=v`, `--flag v`, `-f v`, `-fv`, `-f=v`; `--` ends the flags. */
export function parseFlags(words: readonly string[], spec: FlagSpec): ParsedArgs {
  const out: ParsedArgs = { args: [], flags: new Map() };
  const add = (name: string, value: string) => out.flags.set(name, [...(out.flags.get(name) ?? []), value]);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      out.args.push(...words.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      name = eq < 0 ? w.slice(2) : w.slice(2, eq);
      inline = eq < 0 ? undefined : w.slice(eq + 1);
      if (!spec.values.includes(name) && !spec.booleans.includes(name)) throw new FlagError(`unknown flag: --${name}`);
    } else if (w.startsWith('-') && w.length > 1) {
      const letter = w[1]!;
      name = spec.short[letter];
      if (!name) throw new FlagError(`unknown shorthand flag: '${letter}' in ${w}`);
      const rest = w.slice(2);
      inline = rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest;
    } else {
      out.args.push(w);
      continue;
    }
    if (spec.booleans.includes(name)) {
      add(name, inline ?? 'true');
      continue;
    }
    if (inline === undefined) {
      if (i + 1 >= words.length) throw new FlagError(`flag needs an argument: ${w.startsWith('--') ? `--${name}` : `'${w[1]}' in ${w}`}`);
      inline = words[++i]!;
    }
    add(name, inline);
  }
  return out;
}

/** lastFlag is the last value given for a flag. */
export function lastFlag(p: ParsedArgs, name: string): string | undefined {
  return p.flags.get(name)?.at(-1);
}
