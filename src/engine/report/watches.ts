// The watches of a run as they stand at one of its steps, for the state trees of every front (the debugger's Watches
// scope, the state tree panel): each program's informers, the watch request each has open, what each has been told
// and what its handlers have yet to get. Read from the `watch` entries of the trace (--watches), folded once as the
// run goes; a step behind the fold (a rewind) folds again from the start.
import type { TraceEntry } from '../runtime/recorder';

/** WatchEventCounts are the watch events an informer has been told since it opened, by type. */
export interface WatchEventCounts {
  ADDED: number;
  MODIFIED: number;
  DELETED: number;
}

/** ToldEvent is one watch event told to an informer: the change, its resourceVersion, when, and when its handlers get it. */
export interface ToldEvent {
  type: string;
  object: string;
  resourceVersion: string;
  /** at is the virtual second of the change; deliveredAt when the program's handlers get it (later with a Behavior delay). */
  at: number;
  deliveredAt: number;
  text: string;
}

/** InformerView is one reflector as it stands: its open watch request, what it has been told, what is still due. */
export interface InformerView {
  kind: string;
  /** resource is the collection's name (`pods`), as the program's informer watches it. */
  resource: string;
  /** request is the open watch: `GET /api/v1/pods?...&timeoutSeconds=524&watch=true`. */
  request: string;
  /** resourceVersion is the last one the reflector saw: a change it was told of, or a BOOKMARK. */
  resourceVersion: string;
  timeoutSeconds: number;
  /** openedAt is when the open watch was sent; watches counts the requests so far (the first and each re-watch). */
  openedAt: number;
  watches: number;
  /** initialEvents are the ADDED events the first request streamed; bookmarks those of the watches that ended. */
  initialEvents: number;
  bookmarks: number;
  told: WatchEventCounts;
  last?: ToldEvent;
  /** pending are the events told but not yet handed to the program's handlers (a Behavior's informer delay). */
  pending: ToldEvent[];
  /** text is the informer in one line: `pods: 1 ADDED, 2 MODIFIED; last MODIFIED Pod/default/web ...`. */
  text: string;
}

/** WatchProgramView is one program's informers: `kube-scheduler`, `kubelet worker-1`. */
export interface WatchProgramView {
  watcher: string;
  component: string;
  node?: string;
  informers: InformerView[];
  /** quiet counts the program's informers left out of `informers` (a busy-only view): told nothing since they opened. */
  quiet: number;
  /** text sums the program up: `3 watches, 2 events told, 1 pending`. */
  text: string;
}

/** WatchesView is the programs' watches at one step of a run that records them. */
export interface WatchesView {
  /** at is the virtual second of the step the view stands at. */
  at: number;
  programs: WatchProgramView[];
  /** quietPrograms counts the programs left out of `programs` (a busy-only view): none of their informers told anything. */
  quietPrograms: number;
  text: string;
}

/** Tally is one informer as the fold has it: the view's counts, and what the view is made from. */
interface Tally extends Pick<InformerView, 'kind' | 'resourceVersion' | 'timeoutSeconds' | 'openedAt' | 'watches' | 'initialEvents' | 'bookmarks' | 'told' | 'last'> {
  /** index is its place in the order the programs start their informers. */
  index: number;
  watcher: string;
  component: string;
  node?: string;
  url: string;
  /** delayed are the told events whose delivery was later than their change, kept until they are behind the fold. */
  delayed: ToldEvent[];
}

/** ProgramTally is one program as the fold has it: its informers' keys in start order, and the events they were told. */
interface ProgramTally {
  keys: string[];
  told: number;
}

/**
 * WatchFold folds a trace's `watch` entries as far as one entry; it only goes on, never back. It keeps apart the
 * informers told anything (busy) and those holding deliveries, so a step costs what changed, not every informer.
 */
class WatchFold {
  /** next is the seq of the next entry to fold. */
  next = 0;
  at = 0;
  toldTotal = 0;
  readonly informers = new Map<string, Tally>();
  readonly programs = new Map<string, ProgramTally>();
  readonly busy = new Set<Tally>();
  private readonly holding = new Set<Tally>();

  upTo(trace: readonly TraceEntry[], seq: number): void {
    // A recorder with a sink keeps only its latest entries: trace[0] is then not entry 0.
    const base = trace[0]?.seq ?? 0;
    for (let i = Math.max(0, this.next - base); i < trace.length && trace[i]!.seq <= seq; i++) {
      const e = trace[i]!;
      this.next = e.seq + 1;
      this.at = e.at;
      if (e.phase === 'watch' && e.step?.kind === 'watcher') this.fold(e);
    }
    // Deliveries due by now have been made: they leave the pending list.
    for (const t of this.holding) {
      t.delayed = t.delayed.filter((d) => d.deliveredAt > this.at);
      if (t.delayed.length === 0) this.holding.delete(t);
    }
  }

  private fold(e: TraceEntry): void {
    const d = e.detail;
    const watcher = String(d['watcher'] ?? e.step!.name);
    const kind = String(d['kind'] ?? '');
    const key = `${watcher}\u0000${kind}`;
    if (!e.object && d['initialEvents'] !== undefined) {
      // The informer's first request: a watch-list that streams the initial state.
      const url = String(d['url'] ?? '');
      const program = this.programs.get(watcher) ?? { keys: [], told: 0 };
      if (!this.informers.has(key)) program.keys.push(key);
      this.programs.set(watcher, program);
      this.informers.set(key, {
        index: this.informers.get(key)?.index ?? this.informers.size, watcher, component: String(d['component'] ?? ''), ...(typeof d['node'] === 'string' ? { node: d['node'] } : {}), kind, url,
        resourceVersion: String(d['resourceVersion'] ?? ''), timeoutSeconds: timeoutOf(url), openedAt: e.at, watches: 1,
        initialEvents: Number(d['initialEvents'] ?? 0), bookmarks: 0, told: { ADDED: 0, MODIFIED: 0, DELETED: 0 }, delayed: [],
      });
      return;
    }
    const t = this.informers.get(key);
    if (!t) return;
    if (!e.object && d['ended'] !== undefined) {
      // The watch ended at its timeoutSeconds; the reflector watches again from its last resourceVersion.
      t.url = String(d['url'] ?? t.url);
      t.resourceVersion = String(d['resourceVersion'] ?? t.resourceVersion);
      t.timeoutSeconds = Number(d['timeoutSeconds'] ?? timeoutOf(t.url));
      t.openedAt = Number(d['endedAt'] ?? e.at);
      t.watches++;
      t.bookmarks += Number(d['bookmarks'] ?? 0);
      return;
    }
    const type = String(d['type'] ?? '');
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
    t.told[type]++;
    this.toldTotal++;
    this.programs.get(watcher)!.told++;
    this.busy.add(t);
    const resourceVersion = String(d['resourceVersion'] ?? '');
    if (Number(resourceVersion) > Number(t.resourceVersion)) t.resourceVersion = resourceVersion;
    const deliveredAt = Number(d['deliveredAt'] ?? e.at);
    const told: ToldEvent = { type, object: e.object ?? '', resourceVersion, at: e.at, deliveredAt, text: '' };
    told.text = toldText(told);
    t.last = told;
    if (deliveredAt > e.at) {
      t.delayed.push(told);
      this.holding.add(t);
    }
  }
}

/** timeoutOf reads a watch request's timeoutSeconds. */
function timeoutOf(url: string): number {
  return Number(/[?&]timeoutSeconds=(\d+)/.exec(url)?.[1] ?? 0);
}

/** seconds prints a virtual time as the timeline does: `2s`, `2.5s`. */
const seconds = (s: number) => `${Math.round(s * 1000) / 1000}s`;

/** toldText is one told event: `MODIFIED Pod/default/web at resourceVersion 1184, at 2s (handled at 4s)`. */
function toldText(t: ToldEvent): string {
  return `${t.type} ${t.object} at resourceVersion ${t.resourceVersion}, at ${seconds(t.at)}${t.deliveredAt > t.at ? ` (handled at ${seconds(t.deliveredAt)})` : ''}`;
}

/** countsText prints the counts by type: `1 ADDED, 2 MODIFIED`, or `none`. */
export function countsText(told: WatchEventCounts): string {
  const parts = (['ADDED', 'MODIFIED', 'DELETED'] as const).filter((k) => told[k] > 0).map((k) => `${told[k]} ${k}`);
  return parts.length ? parts.join(', ') : 'none';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function informerView(t: Tally, at: number): InformerView {
  const resource = t.url.split('?')[0]!.split('/').at(-1) ?? t.kind;
  const pending = t.delayed.filter((d) => d.deliveredAt > at);
  const total = t.told.ADDED + t.told.MODIFIED + t.told.DELETED;
  const told = total ? `${countsText(t.told)}; last ${t.last!.text}` : `no event since ${t.initialEvents} initial ADDED event${t.initialEvents === 1 ? '' : 's'}`;
  const due = pending.length ? `; ${pending.length} pending, next handled at ${seconds(pending[0]!.deliveredAt)}` : '';
  return {
    kind: t.kind, resource, request: `GET ${t.url}`, resourceVersion: t.resourceVersion, timeoutSeconds: t.timeoutSeconds,
    openedAt: t.openedAt, watches: t.watches, initialEvents: t.initialEvents, bookmarks: t.bookmarks, told: { ...t.told },
    ...(t.last ? { last: t.last } : {}), pending, text: `${resource}: ${told}${due}`,
  };
}

/**
 * folds keeps one fold per trace (a run's recorder; a rewound run has a new one), so each step folds only the entries
 * since the last. A recorder that hands its older entries to a sink keeps the fold of those it held when asked.
 */
const folds = new WeakMap<readonly TraceEntry[], WatchFold>();

/** WatchesDetail is how much a view lists: every informer, or only those told anything (the others counted). */
export type WatchesDetail = 'all' | 'busy';

/**
 * watchesAt is the run's watches right after the entry `seq` (the last entry by default); undefined when the trace
 * records no watch by then (a run without --watches, or a step before the informers opened). A `busy` view lists
 * only the informers told anything since they opened and costs what they are; `all` lists every informer.
 */
export function watchesAt(trace: readonly TraceEntry[], seq = trace.length - 1, detail: WatchesDetail = 'all'): WatchesView | undefined {
  let fold = folds.get(trace);
  if (!fold) folds.set(trace, (fold = new WatchFold()));
  // A step behind the fold (a frame lower in the stack) gets a fold of its own; the run's goes on from where it is.
  if (fold.next > seq + 1) fold = new WatchFold();
  fold.upTo(trace, seq);
  if (fold.informers.size === 0) return undefined;
  const at = fold.at;
  const listed = detail === 'all' ? [...fold.informers.values()] : [...fold.busy].sort((a, b) => a.index - b.index);
  const views = new Map<string, WatchProgramView>();
  let pending = 0;
  for (const t of listed) {
    let p = views.get(t.watcher);
    if (!p) views.set(t.watcher, (p = { watcher: t.watcher, component: t.component, ...(t.node ? { node: t.node } : {}), informers: [], quiet: 0, text: '' }));
    const view = informerView(t, at);
    pending += view.pending.length;
    p.informers.push(view);
  }
  // Programs in the order they started their informers.
  const programs = [...views.values()].sort((a, b) => firstIndex(fold, a.watcher) - firstIndex(fold, b.watcher));
  for (const p of programs) {
    const program = fold.programs.get(p.watcher)!;
    const due = p.informers.reduce((s, i) => s + i.pending.length, 0);
    p.quiet = program.keys.length - p.informers.length;
    p.text = `${plural(program.keys.length, 'watch', 'watches')}, ${plural(program.told, 'event')} told${due ? `, ${due} pending` : ''}`;
  }
  return {
    at, programs, quietPrograms: fold.programs.size - programs.length,
    text: `${plural(fold.informers.size, 'watch', 'watches')} of ${plural(fold.programs.size, 'program')}, ${plural(fold.toldTotal, 'event')} told${pending ? `, ${pending} pending` : ''}`,
  };
}

/** firstIndex is the start-order place of a program's first informer. */
function firstIndex(fold: WatchFold, watcher: string): number {
  return fold.informers.get(fold.programs.get(watcher)!.keys[0]!)!.index;
}
