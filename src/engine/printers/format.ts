// The small formatters the table printers share: ages, label sets and selectors, container lists, quantities.
// See pkg/printers/internalversion/printers.go (translateTimestampSince, layoutContainerCells, printBoolPtr, ...).
import type { Container, LabelSelector } from '../api/types';
import { formatLabelSelector, labelSelectorAsSelector, SelectorError, selectorToString } from '../api/labels';
import { parseQuantity, QuantityError } from '../api/quantity';
import { humanDuration } from '../kubectl/printer';

/**
 * translateTimestampSince is printers.go's: `<unknown>` for a zero (absent) time, else HumanDuration from it to
 * `nowMs`. translateMicroTimestampSince is the same over a MicroTime.
 */
export function translateTimestampSince(timestamp: string | undefined | null, nowMs: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(nowMs - t);
}

/**
 * formatLabels is labels.FormatLabels: Set.String (each `key=value`, the strings sorted, joined by ","), `<none>`
 * when empty. See staging/src/k8s.io/apimachinery/pkg/labels/labels.go.
 */
export function formatLabels(set: Readonly<Record<string, string>> | undefined | null): string {
  return Object.entries(set ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(',') || '<none>';
}

/** formatSelector is metav1.FormatLabelSelector: the selector string, `<none>` when empty, `<error>` when invalid. */
export function formatSelector(selector: LabelSelector | undefined | null): string {
  return formatLabelSelector(selector);
}

/**
 * selectorString is printDeployment's `LabelSelectorAsSelector(...).String()`, `<invalid>` when it fails to convert
 * (an empty or absent selector prints "").
 */
export function selectorString(selector: LabelSelector | undefined | null): string {
  try {
    return selectorToString(labelSelectorAsSelector(selector));
  } catch (err) {
    if (err instanceof SelectorError) return '<invalid>';
    throw err;
  }
}

/** layoutContainerCells is printers.go's: the containers' names and their images, each joined by ",". */
export function layoutContainerCells(containers: readonly Container[] | undefined): [string, string] {
  const cs = containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image ?? '').join(',')];
}

/** quantityString is resource.Quantity.String(): the canonical form ("0" for an absent quantity). */
export function quantityString(q: string | number | undefined | null): string {
  if (q === undefined || q === null || q === '') return '0';
  try {
    return parseQuantity(q).toString();
  } catch (err) {
    if (err instanceof QuantityError) return String(q);
    throw err;
  }
}

/** printBoolPtr is printers.go's: True, False, or `<unset>` for a nil pointer. */
export function printBoolPtr(value: boolean | undefined | null): string {
  return value === undefined || value === null ? '<unset>' : value ? 'True' : 'False';
}

/**
 * accessModesString is helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, for those present.
 * See pkg/apis/core/helper/helpers.go.
 */
export function accessModesString(modes: readonly string[] | undefined): string {
  const has = new Set(modes ?? []);
  return [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']]
    .filter(([mode]) => has.has(mode!)).map(([, short]) => short).join(',');
}

/** listWithMoreString is printers.go's: the list joined by ",", `+ N more...` past `max`, `<unset>` when empty. */
export function listWithMoreString(list: readonly string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** intOrString is intstr.IntOrString.String(): an int in decimal, a string as it is. */
export function intOrString(v: number | string): string {
  return typeof v === 'number' ? String(v) : v;
}

/** int64 is a cell printers.go writes as int64(x) of an int32 field: 0 when absent. */
export function int64(v: number | undefined | null): number {
  return typeof v === 'number' ? v : 0;
}
