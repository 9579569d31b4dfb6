// The scopes of a stack frame: the object it works on (Pod), the API request (Request), what the step decided
// (Decision), the pod's Node, every stored object by kind (Cluster, expanded on demand), the Events so far and, when
// the run records them, the informers' Watches.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { Scope } from '@vscode/debugadapter';
import { type KubeObject, refOf } from '../engine/api/types';
import { watchesAt } from '../engine/report/watches';
import type { TraceEntry } from '../engine/runtime/recorder';
import type { FrameSpec } from './frames';
import type { LifecycleRun } from './run';
import { ObjectsByName, type VariableStore } from './variables';
import { watchesScope } from './watches';

/**
 * scopesOf lists a frame's scopes; the state is the store as it was right after the frame's entry, or as it stands
 * in a run that keeps no store history (a served cluster's live run, which stands right after its current entry).
 */
export function scopesOf(run: LifecycleRun, frame: FrameSpec, variables: VariableStore): DebugProtocol.Scope[] {
  const objects = frame.entry && run.options.snapshots ? run.sim.snapshot(frame.entry.seq) : run.sim.snapshot();
  const scopes: DebugProtocol.Scope[] = [];
  const kind = frame.object?.split('/')[0] ?? 'Object';
  const stored = frame.object ? objects.find((o) => refOf(o) === frame.object) : undefined;
  const prefix = kind === 'Pod' ? { prefix: 'pod' } : {};
  if (stored && frame.object) {
    scopes.push(new Scope(kind, variables.reference(stored, { ref: frame.object, path: [], ...prefix }), false));
  } else if (frame.object) {
    const written = run.sources.documentOf(frame.object);
    if (written && written.prefix === '') scopes.push(new Scope(`${kind} (as written)`, variables.reference(written.doc.object, { ref: frame.object, path: [] }), false));
  }
  const request = frame.entry ? requestOf(run.sim.trace, frame.entry) : undefined;
  if (request) scopes.push(new Scope('Request', variables.reference(request), false));
  if (frame.entry) scopes.push(new Scope('Decision', variables.reference(decisionOf(frame.entry)), false));
  const nodeName = kind === 'Pod' ? (stored as { spec?: { nodeName?: string } } | undefined)?.spec?.nodeName : undefined;
  const node = nodeName ? objects.find((o) => o.kind === 'Node' && o.metadata?.name === nodeName) : undefined;
  if (node) scopes.push(new Scope('Node', variables.reference(node, { ref: refOf(node), path: [], prefix: 'node' }), false));
  const cluster = new Scope('Cluster', variables.reference(() => byKind(objects), undefined, false), true);
  scopes.push(cluster);
  const events = frame.entry ? run.sim.events.filter((e) => e.at <= frame.entry!.at) : [...run.sim.events];
  scopes.push(new Scope('Events', variables.reference(events), false));
  // With --watches, who is told what: the informers' watches as they stand right after the frame's entry.
  // A busy-only view says whether the informers have opened by then; every informer is listed once expanded.
  const seq = frame.entry?.seq;
  if (run.options.watches && seq !== undefined && watchesAt(run.sim.trace, seq, 'busy')) {
    scopes.push(new Scope('Watches', variables.reference(() => watchesScope(watchesAt(run.sim.trace, seq, 'all')!)), true));
  }
  return scopes;
}

/** byKind groups stored objects by kind, then by name (`namespace/name` for namespaced ones). */
function byKind(objects: readonly KubeObject[]): Record<string, unknown> {
  const out: Record<string, Record<string, KubeObject>> = {};
  for (const obj of objects) {
    const kind = obj.kind ?? 'Unknown';
    const name = obj.metadata?.namespace ? `${obj.metadata.namespace}/${obj.metadata.name ?? ''}` : obj.metadata?.name ?? '';
    (out[kind] ??= {})[name] = obj;
  }
  // Each kind's map holds stored objects: the variable store makes each one editable on its own.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, new ObjectsByName(v)]));
}

/**
 * requestOf is the API request of a kubectl or API-server step: the user, groups, verb and resource the
 * authorizer saw for that object (the latest authorization at or before the step).
 */
function requestOf(trace: readonly TraceEntry[], entry: TraceEntry): Record<string, unknown> | undefined {
  if (!/^(kubectl|apiserver|etcd)\./.test(entry.phase)) return undefined;
  for (let i = entry.seq; i >= 0; i--) {
    const e = trace[i];
    if (!e || e.object !== entry.object) continue;
    const attributes = e.detail.attributes;
    if (e.phase === 'apiserver.authorize' && !e.step && attributes && typeof attributes === 'object') {
      const decision = { decision: e.detail.decision, decidedBy: e.detail.decidedBy };
      return { ...(attributes as Record<string, unknown>), ...decision };
    }
    if (e.phase === 'apiserver.authenticate' && !e.step && e.detail.user && e.seq === entry.seq) return { user: e.detail.user, authenticator: e.detail.authenticator };
  }
  const request = entry.detail.request;
  return request && typeof request === 'object' ? { request } : undefined;
}

/** decisionOf is the Decision scope: what the entry decided, from which field, with its data (tables as nested values). */
export function decisionOf(entry: TraceEntry): Record<string, unknown> {
  return {
    result: entry.result, phase: entry.phase, object: entry.object, field: entry.field,
    step: entry.step ? `${entry.step.kind} ${entry.step.name}` : undefined, outcome: entry.outcome, at: `${entry.at}s`, detail: entry.detail,
  };
}
