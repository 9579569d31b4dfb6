// What-if edits while paused: a new value for a field of an input object (a node's allocatable, a taint, a pod
// field) becomes a copy of the inputs with that change; the session re-runs it and says what the engine now decides.
import { parse as parseYaml } from 'yaml';
import { goYamlTags } from '../engine/cluster/go-yaml';
import { formatFieldPath, type PathSegment, parseFieldPath } from '../engine/api/fieldpath';
import { deepClone, type KubeObject, type ObjectRef, refOf } from '../engine/api/types';
import type { SimulationInputs, SourceDocument } from '../engine/cluster/inputs';
import type { Located } from './lines';
import type { LifecycleRun, Probe, ThreadChanges } from './run';
import type { Owner } from './variables';

/** WhatIf is an accepted edit: the changed inputs and a line saying what changed. */
export interface WhatIf {
  inputs: SimulationInputs;
  change: string;
  /** value is the new value, as the Variables view shows it. */
  value: unknown;
}

/** READ_ONLY_ROOTS are fields no input writes: the system fills them in. */
const READ_ONLY = [/^metadata\.(name|namespace|uid|resourceVersion|creationTimestamp|generation|managedFields)$/, /^(kind|apiVersion)$/];

/**
 * applyEdit changes `path` of the object `ref` in a copy of the inputs. A pod's fields are changed in the manifest
 * document it came from (its Deployment's pod template for a Deployment's pod); a cluster object's in its cluster
 * document. Returns a message for the user when the field cannot be changed.
 */
export function applyEdit(inputs: SimulationInputs, ref: ObjectRef, path: readonly PathSegment[], text: string, located: Located): WhatIf | string {
  const field = formatFieldPath(path);
  if (READ_ONLY.some((r) => r.test(field))) return `${field} is set by the API server and cannot be changed.`;
  const value = parseValue(text);
  if (ref.startsWith('Pod/')) {
    if (path[0] === 'status') return `A pod's status is written by the kubelet, not the manifest: change the Behavior file to change what the containers do.`;
    if (!located || !inputs.manifest.includes(located.doc)) return `${ref} does not come from the manifest, so it has no field to change.`;
    const prefix = located.prefix ? parseFieldPath(located.prefix.replace(/\.$/, '')) : [];
    return { inputs: replaceDoc(inputs, located.doc, [...prefix, ...path], value), change: `${refLabel(ref)} ${field} = ${JSON.stringify(value)}`, value };
  }
  const doc = [...inputs.manifest, ...inputs.cluster.objects].find((d) => refOf(d.object) === ref);
  if (!doc) return `${ref} is not written in the manifest or a cluster file, so it has no field to change.`;
  return { inputs: replaceDoc(inputs, doc, path, value), change: `${refLabel(ref)} ${field} = ${JSON.stringify(value)}`, value };
}

/**
 * parseValue reads a value as kubectl reads YAML, go-yaml v2's scalars (`500m`, `4`, `yes`, `e1` a string,
 * `{key: gpu, effect: NoSchedule}`), else keeps the text.
 */
function parseValue(text: string): unknown {
  try {
    const value: unknown = parseYaml(text, { version: '1.1', customTags: goYamlTags });
    return value === null && text.trim() !== 'null' ? text : value;
  } catch {
    return text;
  }
}

function replaceDoc(inputs: SimulationInputs, doc: SourceDocument, path: readonly PathSegment[], value: unknown): SimulationInputs {
  const object = deepClone(doc.object) as KubeObject & Record<string, unknown>;
  setPath(object, path, value);
  const copy: SourceDocument = { ...doc, object };
  const swap = (docs: SourceDocument[]) => docs.map((d) => (d === doc ? copy : d));
  return { ...inputs, manifest: swap(inputs.manifest), cluster: { ...inputs.cluster, objects: swap(inputs.cluster.objects) } };
}

function setPath(target: Record<string | number, unknown>, path: readonly PathSegment[], value: unknown): void {
  let at: Record<string | number, unknown> = target;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      at[segment] = value;
      return;
    }
    const next = at[segment];
    if (next === null || typeof next !== 'object') at[segment] = typeof path[i + 1] === 'number' ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  });
}

/**
 * whatIf changes an input field while paused and re-runs the lifecycle from the start to where it was (the same
 * step, or the next entry of the same phase): the lines to print say what changed and what the engine now decides.
 */
export function whatIf(run: LifecycleRun, owner: Owner, text: string): { value: unknown; lines: string[]; changes: ThreadChanges } | string {
  const edit = applyEdit(run.inputs, owner.ref, owner.path, text, run.sources.documentOf(owner.ref));
  if (typeof edit === 'string') return edit;
  const before = run.probe();
  const at = run.current;
  const replayed = run.replayTo(at ? (e) => e.seq >= at.seq && e.phase === at.phase : undefined, edit.inputs);
  const where = run.current ? `${run.current.phase} (step ${run.current.seq})` : 'the entry';
  const lines = [`What-if: ${edit.change}. The lifecycle was run again from the start to ${where}.`, ...decisionChanges(before, run.probe()).map((l) => `  ${l}`)];
  if (!replayed.reached && at) lines.push(`  The run no longer reaches ${at.phase}: it is paused on its last step.`);
  return { value: edit.value, lines, changes: replayed.changes };
}

/** decisionChanges says, in words, what the engine decides differently between two runs of the inputs. */
export function decisionChanges(before: Probe, after: Probe): string[] {
  const lines: string[] = [];
  for (const ref of new Set([...before.bound.keys(), ...after.bound.keys()])) {
    const was = before.bound.get(ref);
    const now = after.bound.get(ref);
    if (was === now) continue;
    if (now && was) lines.push(`kube-scheduler now binds ${refLabel(ref)} to ${now} (was ${was}).`);
    else if (now) lines.push(`kube-scheduler now binds ${refLabel(ref)} to ${now} (it was not scheduled before).`);
    else lines.push(`kube-scheduler no longer binds ${refLabel(ref)} (it went to ${was}).`);
  }
  lines.push(before.outcome === after.outcome ? `Outcome: ${after.outcome} (unchanged).` : `Outcome: ${after.outcome} (was ${before.outcome}).`);
  return lines;
}

function refLabel(ref: ObjectRef): string {
  const [kind, ...rest] = ref.split('/');
  return `${kind} ${rest.join('/')}`;
}
