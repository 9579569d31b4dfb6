// Aligned text tables for the command line: columns padded to their widest cell before any color is applied.

/** Cell is a table cell: its text and, optionally, how to color it once padded. */
export interface Cell {
  text: string;
  color?: (s: string) => string;
}

/** cell makes a Cell from text and an optional color. */
export function cell(text: string, color?: (s: string) => string): Cell {
  return color ? { text, color } : { text };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** renderTable prints a header row (colored by `head`) and the rows, columns separated by `gap` spaces; the last column is not padded. */
export function renderTable(header: readonly string[], rows: readonly (readonly Cell[])[], head: (s: string) => string, gap = 2): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.text.length ?? 0)));
  const sep = ' '.repeat(gap);
  const line = (cells: readonly Cell[]): string => cells.map((c, i) => {
    const text = i < cells.length - 1 ? pad(c.text, widths[i]!) : c.text;
    return c.color ? c.color(text) : text;
  }).join(sep).trimEnd();
  return [line(header.map((h) => cell(h, head))), ...rows.map(line)];
}
