// The text tables `kubectl get` prints: the server's Table (printers/registry.ts tableFor) as kubectl's client shows it,
// the priority 0 columns (all with -o wide), headers upper-cased. See staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go.
import type { KubeObject } from '../api/types';
import { tableFor } from '../printers/registry';
import type { TableCell } from '../printers/types';

/** Table is a header and rows of cells, before the tab writer aligns them. */
export interface Table {
  header: string[];
  rows: string[][];
}

/**
 * cellText is how tableprinter.go printTable writes a cell: a string up to its first line break (then "..."), with
 * ESC and CR escaped (WriteEscaped); any other value as fmt.Sprint prints it; nothing for a null cell.
 */
function cellText(cell: TableCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  const brk = cell.search(/[\f\n\r]/);
  const text = brk >= 0 ? cell.slice(0, brk) : cell;
  return text.replace(/\x1b/g, '^[').replace(/\r/g, '\\r') + (brk >= 0 ? '...' : '');
}

/** printTable builds the text table for objects of one kind at wall-clock `nowMs`; `wide` is -o wide. */
export function printTable(kind: string, objs: readonly KubeObject[], nowMs: number, wide: boolean): Table {
  const table = tableFor(kind, objs, nowMs, { includeObject: 'None' });
  const shown = (table.columnDefinitions ?? []).flatMap((c, i) => (wide || c.priority === 0 ? [i] : []));
  return {
    header: shown.map((i) => table.columnDefinitions![i]!.name.toUpperCase()),
    rows: (table.rows ?? []).map((r) => shown.map((i) => cellText(r.cells[i]))),
  };
}
