// The pieces kubectl describe prints for any object: the prefix writer's levels, labels, annotations, resources.
// See staging/src/k8s.io/kubectl/pkg/describe/describe.go (PrefixWriter, printLabelsMultiline, printAnnotationsMultiline).
import { parseQuantity } from '../api/quantity';

/** PrefixWriter is describe's writer: each level indents by two spaces; the text keeps its tabs for the tab writer. */
export class PrefixWriter {
  private text = '';

  /** write writes at a level (0, 1, 2, 3). */
  write(level: number, s: string): void {
    this.text += '  '.repeat(level) + s;
  }

  /** writeLine is WriteLine: the text and a newline, no indent. */
  writeLine(s: string): void {
    this.text += `${s}\n`;
  }

  toString(): string {
    return this.text;
  }
}

/** printLabelsMultiline writes `Title:\tk=v` lines, keys sorted, `<none>` when empty. */
export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Readonly<Record<string, string>> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, '\t');
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

/** MAX_ANNOTATION_LEN is describe's maxAnnotationLen. */
const MAX_ANNOTATION_LEN = 140;

/** printAnnotationsMultiline writes annotations (not last-applied-configuration), long or multi-line values on their own lines. */
export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Readonly<Record<string, string>> | undefined): void {
  w.write(0, `${title}:\t`);
  // skipAnnotations holds corev1.LastAppliedConfigAnnotation.
  const keys = Object.keys(annotations ?? {}).filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration').sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, '\t');
    const value = annotations![k]!.replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(0, `${k}:\n`);
      for (const s of value.split('\n')) w.write(0, `\t  ${s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s}\n`);
    } else {
      w.write(0, `${k}: ${value}\n`);
    }
  });
}

/** quantityString is resource.Quantity.String of a stored quantity. */
export function quantityString(q: unknown): string {
  try {
    return parseQuantity(q as string | number).toString();
  } catch {
    return String(q);
  }
}

/** describeResources writes Limits: and Requests: with the resource names sorted. */
export function describeResources(w: PrefixWriter, resources: { limits?: Record<string, unknown>; requests?: Record<string, unknown> } | undefined, level: number): void {
  if (!resources) return;
  for (const [title, list] of [['Limits', resources.limits], ['Requests', resources.requests]] as const) {
    const names = Object.keys(list ?? {}).sort();
    if (names.length > 0) w.write(level, `${title}:\n`);
    for (const n of names) w.write(level + 1, `${n}:\t${quantityString(list![n])}\n`);
  }
}
