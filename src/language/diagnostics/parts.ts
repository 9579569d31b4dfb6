// A file's diagnostics in parts, for validators on several threads that split its checks on the cluster: each runs its
// share of the workloads, and the parts are put together in the order one validator would have given them.
import type { Diagnostic } from 'vscode-languageserver-types';

/** Share is the part of a file's checks on the cluster one of `of` validators runs: the workloads of the sections shareOfSection gives `index`. */
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
  /** keys name the workloads of `cluster`, one each: the section and the place in it (see workloadKey). */
  readonly keys: string[];
  /**
   * whole is true when the validator read every section (alone, or share 0): its base and its list of workloads are
   * the file's. A later share reads only the sections it needs, and lists only the workloads it read.
   */
  readonly whole: boolean;
}

/** workloadKey names a workload the same way in every share: its section's index and its index in the section. */
export function workloadKey(section: number, index: number): string {
  return `${section}/${index}`;
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
 * mergeParts puts together the parts of several validators' shares of one file: the base and the list of workloads of
 * the share that read the whole file, and each workload's diagnostics from the validator whose share it is.
 * Undefined until every workload's part is there.
 */
export function mergeParts(parts: readonly Checked[]): Checked | undefined {
  const whole = parts.find((p) => p.whole);
  if (!whole) return undefined;
  const found = new Map<string, Diagnostic[]>();
  for (const part of parts) part.keys.forEach((key, i) => {
    const diagnostics = part.cluster[i];
    if (diagnostics) found.set(key, diagnostics);
  });
  const cluster = whole.keys.map((key, i) => whole.cluster[i] ?? found.get(key) ?? null);
  return cluster.every((d) => d !== null) ? { base: whole.base, cluster, keys: whole.keys, whole: true } : undefined;
}

/**
 * FIRST_SHARE_WEIGHT and SHARE_WEIGHT weigh the shares: the first share reads the whole file (its base diagnostics are
 * the file's), the others only the sections they need, so the first takes fewer workloads (9 in 20 of two shares:
 * reading a section costs little beside running a workload, most sections never needing their ranges).
 */
const FIRST_SHARE_WEIGHT = 9;
const SHARE_WEIGHT = 11;

/**
 * shareOfSection tells which validator runs the workloads of a section: by a hash of its text, so that a workload
 * goes to the same validator, which keeps its findings, after edits elsewhere in the file (and when it moves).
 */
export function shareOfSection(text: string, of: number): number {
  if (of <= 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const bucket = hash % (FIRST_SHARE_WEIGHT + SHARE_WEIGHT * (of - 1));
  return bucket < FIRST_SHARE_WEIGHT ? 0 : 1 + Math.floor((bucket - FIRST_SHARE_WEIGHT) / SHARE_WEIGHT);
}
