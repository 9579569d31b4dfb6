// A file's diagnostics in parts, for validators on several threads that split its checks on the cluster: each runs its
// share of the workloads, and the parts are put together in the order one validator would have given them.
import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceDocument } from '../../engine/cluster/inputs';

/** Share is the part of a file's checks on the cluster one of `of` validators runs: the workloads inShare of `index`. */
export interface Share {
  readonly index: number;
  readonly of: number;
}

/**
 * Checked is a file's diagnostics in parts: those found without the cluster, then each workload's on the cluster, in
 * the order of the workloads (null: another validator's share).
 */
export interface Checked {
  readonly base: Diagnostic[];
  readonly cluster: (Diagnostic[] | null)[];
}

/**
 * STAGES are the stages that report problems, in the order a request meets them: the YAML, kube-apiserver's decoding,
 * its mutating admission and validation, its validating admission, the controllers, kube-scheduler; the hints last.
 * (A document's admission problems of both passes are reported as `admission`: see cluster.ts for the phase.)
 */
const STAGES = ['syntax', 'decode', 'validation', 'admission', 'controllers', 'scheduling'];

/** stageOf ranks a diagnostic by its code: its stage's place, the hints after every stage. */
function stageOf(d: Diagnostic): number {
  const at = STAGES.indexOf(String(d.code));
  return at < 0 ? STAGES.length : at;
}

/**
 * flatten is a file's diagnostics in the order the API server meets them: by stage (the cluster's findings after
 * the decoding and the validation, the hints last), each stage's in the order of the documents.
 */
export function flatten(checked: Checked): Diagnostic[] {
  return [...checked.base, ...checked.cluster.flatMap((d) => d ?? [])].map((d, i) => ({ d, i })).sort((a, b) => stageOf(a.d) - stageOf(b.d) || a.i - b.i).map((x) => x.d);
}

/**
 * mergeParts puts together the parts of several validators' shares of one file: the base of the first, and each
 * workload's diagnostics from the validator whose share it is. Undefined until every workload's part is there.
 */
export function mergeParts(parts: readonly Checked[]): Checked | undefined {
  const [first] = parts;
  if (!first) return undefined;
  const cluster = first.cluster.map((_, i) => parts.find((p) => p.cluster[i] !== null && p.cluster[i] !== undefined)?.cluster[i] ?? null);
  return cluster.every((d) => d !== null) ? { base: first.base, cluster } : undefined;
}

/**
 * inShare tells which validator runs a workload: by a hash of its kind, namespace and name, so that the same workload
 * goes to the same validator, which keeps its findings, after edits elsewhere in the file.
 */
export function inShare(doc: SourceDocument, share: Share): boolean {
  const meta = doc.object.metadata;
  const key = `${String(doc.object.kind)}/${meta?.namespace ?? ''}/${meta?.name ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % share.of === share.index;
}
