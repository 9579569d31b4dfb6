// How the human reports color their text: ANSI codes on a terminal, plain text elsewhere.

/** Style colors text with ANSI codes, or leaves it plain. */
export interface Style {
  phase(s: string): string;
  dim(s: string): string;
  warn(s: string): string;
  bad(s: string): string;
  good(s: string): string;
  bold(s: string): string;
}

const code = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** style returns ANSI styling when `color` is on, plain text otherwise. */
export function style(color: boolean): Style {
  if (!color) {
    const id = (s: string) => s;
    return { phase: id, dim: id, warn: id, bad: id, good: id, bold: id };
  }
  return { phase: code(36, 39), dim: code(2, 22), warn: code(33, 39), bad: code(31, 39), good: code(32, 39), bold: code(1, 22) };
}
