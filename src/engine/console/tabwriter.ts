// Go's text/tabwriter, the aligner behind `kubectl get` tables and `kubectl describe` text.
// See the Go standard library text/tabwriter/tabwriter.go (format, writeLines).

/** TabwriterOptions are tabwriter.NewWriter's minwidth and padding (padchar ' ', no flags). */
export interface TabwriterOptions {
  minwidth: number;
  padding: number;
}

/** GET_TABWRITER is kubectl get's table writer: minwidth 6, padding 3. See cli-runtime/pkg/printers/tabwriter.go. */
export const GET_TABWRITER: TabwriterOptions = { minwidth: 6, padding: 3 };

/** DESCRIBE_TABWRITER is kubectl describe's writer: minwidth 0, padding 2. See kubectl/pkg/describe/describe.go (tabbedString). */
export const DESCRIBE_TABWRITER: TabwriterOptions = { minwidth: 0, padding: 2 };

/**
 * tabwrite aligns tab-terminated cells as tabwriter does: a column block is a run of consecutive lines that
 * have a tab-terminated cell in that column; each block is as wide as its widest cell plus padding (at least
 * minwidth). The text after a line's last tab is not a cell of any column and is written as it is.
 */
export function tabwrite(text: string, opts: TabwriterOptions): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const out: string[] = new Array<string>(lines.length);
  const widths: number[] = [];
  const width = (s: string): number => [...s].length;

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const cells = lines[i]!;
      out[i] = cells.map((c, j) => (j < widths.length && j < cells.length - 1 ? c + ' '.repeat(Math.max(0, widths[j]! - width(c))) : c)).join('');
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let cur = line0; cur < line1; cur++) {
      if (column >= lines[cur]!.length - 1) continue;
      writeLines(line0, cur);
      line0 = cur;
      let w = opts.minwidth;
      for (; cur < line1; cur++) {
        const cells = lines[cur]!;
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]!) + opts.padding);
      }
      widths.push(w);
      format(line0, cur);
      widths.pop();
      line0 = cur; // the line that ended the block has no cell in this column: the loop's increment skips it
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out.join('\n');
}
