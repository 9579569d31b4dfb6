// A file's diagnostics split by sections across validators on several threads: each parses and checks only the
// sections of its split (by a hash of their text, so a section keeps its validator when others are added, edited or
// moved) and the documents a workload may be checked with, and runs the workloads of its own sections; the server
// puts the sections' parts together in the order one validator gives them. Each validator parses about 1/n of the
// file instead of all of it.
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ManifestSection } from '../documents';
import { ADMISSION_CONFIG_KINDS, LIFECYCLE_KINDS, RUNTIME_KINDS } from './context';
import { type Checked, flatten, type Share } from './parts';

/** SectionPart is what one section of a file gives: its own findings, its hints and its workloads' on the cluster. */
export interface SectionPart {
  readonly index: number;
  readonly findings: Diagnostic[];
  readonly hints: Diagnostic[];
  /** cluster are the findings on the cluster of the section's workloads, in their order (those known so far). */
  cluster: Diagnostic[];
}

/** SplitChecked is one validator's parts of a file: its own sections', and what concerns the whole file (`tail`). */
export interface SplitChecked {
  readonly sections: SectionPart[];
  readonly tail: Diagnostic[];
}

/** SectionRole is what a validator does with a section: check it (its own), read it for the context only, or skip it. */
export type SectionRole = 'own' | 'context' | 'skip';

/** ownsSection tells whether a section is in a validator's split: by a hash of its text. */
export function ownsSection(section: ManifestSection, split: Share): boolean {
  let hash = 0x811c9dc5;
  const text = section.text;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash % split.of === split.index;
}

/** TOP_KIND counts a section's top-level `kind:` lines. */
const TOP_KIND = /^kind:/gm;

/**
 * surelyKind is the kind of a section's only document, known without parsing it: the section names a kind of the
 * schema in one top-level `kind:` line. Otherwise (no kind, several, a List) undefined: the section must be read.
 */
function surelyKind(section: ManifestSection): string | undefined {
  if (section.kubernetes === undefined || section.text.match(TOP_KIND)?.length !== 1) return undefined;
  return section.kubernetes.slice(section.kubernetes.lastIndexOf('/') + 1);
}

/**
 * sectionRoles decides, for one validator, which sections it checks, which it reads only for the documents the
 * workloads are checked with (see context.ts: those are never workloads, and the data only running pods read is left
 * out unless admission may be configured), and which it skips. `clusterMayConfigureAdmission` says whether the
 * cluster itself may hold an admission configuration (then every section but the workloads is read).
 */
export function sectionRoles(sections: readonly ManifestSection[], split: Share, clusterMayConfigureAdmission: boolean): SectionRole[] {
  const kinds = sections.map(surelyKind);
  const admission = clusterMayConfigureAdmission || kinds.some((k) => k === undefined || ADMISSION_CONFIG_KINDS.has(k));
  return sections.map((section, i) => {
    if (ownsSection(section, split)) return 'own';
    const kind = kinds[i];
    if (kind !== undefined && (LIFECYCLE_KINDS.has(kind) || (!admission && RUNTIME_KINDS.has(kind)))) return 'skip';
    return 'context';
  });
}

/** sortedSections are the sections of several validators' parts, in the file's order. */
function sortedSections(parts: readonly SplitChecked[]): SectionPart[] {
  return parts.flatMap((p) => p.sections).sort((a, b) => a.index - b.index);
}

/**
 * mergeSplit puts together the parts of every validator of a split as one validator would give them: the findings of
 * every section, then the hints, then what concerns the whole file (the same in every part), then the cluster's.
 */
export function mergeSplit(parts: readonly SplitChecked[]): Checked {
  const sections = sortedSections(parts);
  const base = [...sections.flatMap((s) => s.findings), ...sections.flatMap((s) => s.hints), ...(parts[0]?.tail ?? [])];
  return { base, cluster: sections.map((s) => s.cluster) };
}

/** mergedDiagnostics are the parts put together as one list, in the order one validator publishes its early ones. */
export function mergedDiagnostics(parts: readonly SplitChecked[]): Diagnostic[] {
  const { base, cluster } = mergeSplit(parts);
  return [...base, ...cluster.flatMap((d) => d ?? [])];
}

/** mergedComplete is the complete diagnostics of a split: the parts put together, in the order of the stages. */
export function mergedComplete(parts: readonly SplitChecked[]): Diagnostic[] {
  return flatten(mergeSplit(parts));
}
