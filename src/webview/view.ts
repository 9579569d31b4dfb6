// The state tree's view shape: what the extension posts to the page. Types and the check of a received value
// only, so the page's bundle carries none of the engine.
import type { WatchesView } from '../engine/report/watches';

export type { WatchesView } from '../engine/report/watches';

/** STATE_EVENT is the custom event the debug adapter sends at each stop once the state tree asked for the state. */
export const STATE_EVENT = 'podLifecycle.state';
/** STATE_REQUEST answers the current StateView (and turns the events on); SOURCE_REQUEST where an object's field is
 *  written ({ref, field} → {path, range}); GOTO_REQUEST moves the paused session to a trace entry ({seq}). */
export const STATE_REQUEST = 'podLifecycle.state';
export const SOURCE_REQUEST = 'podLifecycle.source';
export const GOTO_REQUEST = 'podLifecycle.goto';

/** STATE_VIEW_VERSION is the shape's version; the page ignores a message of another version. */
export const STATE_VIEW_VERSION = 1;

/** TreeItem is one object in the workload tree: a Deployment, ReplicaSet, Pod or container. */
export interface TreeItem {
  id: string;
  kind: string;
  name: string;
  /** ref is the engine's reference (`Pod/default/web`); containers use their pod's. */
  ref: string;
  /** status is what `kubectl get` would print in its STATUS (or READY) column. */
  status: string;
  /** tone colors the status: ok (running, ready), warn (waiting), error (failed), idle (done, deleted). */
  tone: 'ok' | 'warn' | 'error' | 'idle';
  /** phase is the lifecycle phase the object was last seen in (`kubelet.imagePull`). */
  phase?: string;
  /** field is the manifest field that clicking the item reveals. */
  field?: string;
  children: TreeItem[];
}

/** NodeResource is one resource of a node: what its pods request against what it can allocate. */
export interface NodeResource {
  name: string;
  requested: string;
  allocatable: string;
  percent: number;
}

/** NodeView is a node with its capacity, taints and pods. */
export interface NodeView {
  name: string;
  ref: string;
  ready: boolean;
  taints: string[];
  resources: NodeResource[];
  pods: string[];
}

/** DecisionCell is one plugin's verdict or score on one node. */
export interface DecisionCell {
  text: string;
  tone: 'ok' | 'warn' | 'error' | 'idle';
}

/** Decision is the scheduler's node × plugin table for the pod it weighs last. */
export interface Decision {
  pod: string;
  stage: 'Filter' | 'Score';
  plugins: string[];
  nodes: string[];
  /** cells[plugin][node] */
  cells: Record<string, Record<string, DecisionCell>>;
  totals?: Record<string, number>;
  chosen?: string;
}

/** TimelineItem is one phase entry or one Kubernetes event, on the virtual clock. */
export interface TimelineItem {
  at: number;
  /** seq is the trace entry's number (phase entries only), what selecting the item goes back to. */
  seq?: number;
  kind: 'phase' | 'event';
  label: string;
  object: string;
  text: string;
  tone: 'ok' | 'warn' | 'error' | 'idle';
}

/** StateView is everything the state tree shows at one stop. */
export interface StateView {
  version: typeof STATE_VIEW_VERSION;
  /** at is the virtual time in seconds; seq the trace entry the run stopped after. */
  at: number;
  seq: number;
  phase?: string;
  /** current is the object of the current step, which the page highlights. */
  current?: string;
  workloads: TreeItem[];
  nodes: NodeView[];
  decision?: Decision;
  timeline: TimelineItem[];
  /** watches are the informers' watches, in a run that records them (--watches). */
  watches?: WatchesView;
}

const TONES = new Set(['ok', 'warn', 'error', 'idle']);

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isTreeItem(v: unknown, depth = 0): v is TreeItem {
  if (!isRecord(v) || depth > 8) return false;
  return isString(v['id']) && isString(v['kind']) && isString(v['name']) && isString(v['ref']) && isString(v['status'])
    && TONES.has(v['tone'] as string) && (v['phase'] === undefined || isString(v['phase'])) && (v['field'] === undefined || isString(v['field']))
    && Array.isArray(v['children']) && v['children'].every((c) => isTreeItem(c, depth + 1));
}

function isNodeView(v: unknown): v is NodeView {
  if (!isRecord(v)) return false;
  return isString(v['name']) && isString(v['ref']) && typeof v['ready'] === 'boolean'
    && Array.isArray(v['taints']) && v['taints'].every(isString) && Array.isArray(v['pods']) && v['pods'].every(isString)
    && Array.isArray(v['resources']) && v['resources'].every((r) => isRecord(r) && isString(r['name']) && isString(r['requested']) && isString(r['allocatable']) && isNumber(r['percent']));
}

function isDecision(v: unknown): v is Decision {
  if (!isRecord(v)) return false;
  const cells = v['cells'];
  return isString(v['pod']) && (v['stage'] === 'Filter' || v['stage'] === 'Score')
    && Array.isArray(v['plugins']) && v['plugins'].every(isString) && Array.isArray(v['nodes']) && v['nodes'].every(isString)
    && isRecord(cells) && Object.values(cells).every((row) => isRecord(row) && Object.values(row).every((c) => isRecord(c) && isString(c['text']) && TONES.has(c['tone'] as string)))
    && (v['totals'] === undefined || (isRecord(v['totals']) && Object.values(v['totals']).every(isNumber)))
    && (v['chosen'] === undefined || isString(v['chosen']));
}

function isTimelineItem(v: unknown): v is TimelineItem {
  if (!isRecord(v)) return false;
  return isNumber(v['at']) && (v['seq'] === undefined || isNumber(v['seq'])) && (v['kind'] === 'phase' || v['kind'] === 'event')
    && isString(v['label']) && isString(v['object']) && isString(v['text']) && TONES.has(v['tone'] as string);
}

function isToldEvent(v: unknown): boolean {
  return isRecord(v) && isString(v['type']) && isString(v['object']) && isString(v['resourceVersion']) && isNumber(v['at']) && isNumber(v['deliveredAt']) && isString(v['text']);
}

function isInformerView(v: unknown): boolean {
  if (!isRecord(v)) return false;
  const told = v['told'];
  return isString(v['kind']) && isString(v['resource']) && isString(v['request']) && isString(v['resourceVersion']) && isString(v['text'])
    && ['timeoutSeconds', 'openedAt', 'watches', 'initialEvents', 'bookmarks'].every((k) => isNumber(v[k]))
    && isRecord(told) && ['ADDED', 'MODIFIED', 'DELETED'].every((k) => isNumber(told[k]))
    && (v['last'] === undefined || isToldEvent(v['last'])) && Array.isArray(v['pending']) && v['pending'].every(isToldEvent);
}

function isWatchesView(v: unknown): v is WatchesView {
  if (!isRecord(v)) return false;
  return isNumber(v['at']) && isString(v['text']) && isNumber(v['quietPrograms']) && Array.isArray(v['programs']) && v['programs'].every((p) => isRecord(p)
    && isString(p['watcher']) && isString(p['component']) && (p['node'] === undefined || isString(p['node'])) && isString(p['text'])
    && isNumber(p['quiet']) && Array.isArray(p['informers']) && p['informers'].every(isInformerView));
}

/** isStateView checks a value received from outside the page before it is used. */
export function isStateView(v: unknown): v is StateView {
  if (!isRecord(v)) return false;
  return v['version'] === STATE_VIEW_VERSION && isNumber(v['at']) && isNumber(v['seq'])
    && (v['phase'] === undefined || isString(v['phase'])) && (v['current'] === undefined || isString(v['current']))
    && Array.isArray(v['workloads']) && v['workloads'].every((w) => isTreeItem(w))
    && Array.isArray(v['nodes']) && v['nodes'].every(isNodeView)
    && (v['decision'] === undefined || isDecision(v['decision']))
    && Array.isArray(v['timeline']) && v['timeline'].every(isTimelineItem)
    && (v['watches'] === undefined || isWatchesView(v['watches']));
}
