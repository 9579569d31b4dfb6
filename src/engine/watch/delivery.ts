// How a stored change reaches the programs when a run shows its watches or delays an informer: the `watch` entries
// (who is told what, through which request, when) and the delivery itself, at once or that much virtual time later.
import { refOf, type KubeObject } from '../api/types';
import { INFORMER_COMPONENTS, type Behavior, type InformerComponent } from '../cluster/inputs';
import type { WatchEventType } from '../cluster/store';
import { type Components, deliver, deliverTo } from '../components';
import type { EngineContext } from '../context';
import { Random } from '../runtime/random';
import type { TraceInput } from '../runtime/recorder';
import { isBatch, isSleep, type Steps } from '../runtime/step';
import { collectionPath, type Informer, informersOf, queryEscape, watchListUrl, watchTimeoutSeconds, watchUrl } from './informers';
import { advanceTimeline, openTimeline, type WatchTimeline } from './rewatch';

/** InformerState is what one informer has open and has seen: its watch request and the last resourceVersion. */
interface InformerState {
  informer: Informer;
  url: string;
  resourceVersion: string;
  /** timeline is the open watch's deadline and bookmarks (watches on, once the informers have opened). */
  timeline?: WatchTimeline;
}

/** newer is the later of two resourceVersions (etcd revisions, compared as numbers). */
const newer = (a: string, b: string) => (Number(b) > Number(a) ? b : a);

/** delaysOf reads the Behavior's informer delays in virtual milliseconds; undefined when none is set. */
function delaysOf(behavior: Behavior): Partial<Record<InformerComponent, number>> | undefined {
  const out: Partial<Record<InformerComponent, number>> = {};
  let any = false;
  for (const component of INFORMER_COMPONENTS) {
    const seconds = behavior.informers?.[component]?.delaySeconds ?? 0;
    if (seconds > 0) {
      out[component] = seconds * 1000;
      any = true;
    }
  }
  return any ? out : undefined;
}

/**
 * startInformers makes the delivery of a run that shows its watches or delays an informer; undefined otherwise, when
 * the store's changes go to the programs through deliver() as they always did.
 */
export function startInformers(ctx: EngineContext, components: Components, options: { watches?: boolean; seed?: number }, runSeconds: () => number): InformerDelivery | undefined {
  const delays = delaysOf(ctx.behavior);
  if (!options.watches && !delays) return undefined;
  const seed = options.seed ?? 1;
  return new InformerDelivery(ctx, components, delays, options.watches === true, new Random(seed + 0x5741), runSeconds, new Random(seed + 0x424b));
}

/** InformerDelivery delivers the store's changes to the programs, records them as `watch` entries (watches on), or both. */
export class InformerDelivery {
  private readonly byKind = new Map<string, InformerState[]>();
  /** states are every informer's, in the order the programs start them. */
  private readonly states: InformerState[] = [];
  private readonly pending: TraceInput[] = [];
  private recording = false;

  constructor(
    private readonly ctx: EngineContext, private readonly components: Components,
    private readonly delays: Partial<Record<InformerComponent, number>> | undefined, private readonly watches: boolean,
    private readonly random: Random, private readonly runSeconds: () => number,
    /** cacheRandom places the watch cache's bookmark ticks (kube-apiserver's own randomness, apart from the reflectors'). */
    private readonly cacheRandom: Random,
  ) {
    for (const informer of informersOf([...components.kubelets.keys()])) {
      const list = this.byKind.get(informer.kind) ?? [];
      const state = { informer, url: '', resourceVersion: '' };
      list.push(state);
      this.states.push(state);
      this.byKind.set(informer.kind, list);
    }
  }

  /** start begins recording (watches on): the informers' first requests are the run's first entries. */
  start(): void {
    if (!this.watches) return;
    this.recording = true;
    this.ctx.schedule(0, 'informers: watch', () => this.open());
  }

  /** inFlight counts the delayed deliveries not yet made. */
  private inFlight = 0;

  /** delivering tells whether a delayed change has yet to reach a program: a deletion is not over before it has. */
  get delivering(): boolean {
    return this.inFlight > 0;
  }

  /** onChange is the store's listener: it notes the change (watches on) and delivers it. */
  onChange(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    if (this.recording) {
      // The bookmarks this kind's watchers were sent before this change carry the version before it.
      this.catchUp(obj.kind ?? '', this.ctx.clock.now);
      this.kindVersions.set(obj.kind ?? '', String(this.ctx.store.resourceVersion));
      this.note(type, obj, old);
    }
    const delays = this.delays;
    if (!delays) {
      deliver(this.components, type, obj, old);
      return;
    }
    for (const component of INFORMER_COMPONENTS) {
      const delay = delays[component];
      if (delay === undefined) {
        deliverTo(this.components, component, type, obj, old);
        continue;
      }
      // Each program's changes come in the order they happened: one delay per program, a queue that keeps order.
      const node = component === 'kubelet' ? (obj as { spec?: { nodeName?: string } }).spec?.nodeName : undefined;
      if (component === 'kubelet' && (obj.kind !== 'Pod' || !node)) continue;
      const self = this;
      this.inFlight++;
      // Labelled `informer: ...`, not `kubelet NODE: ...`: a stopped kubelet's handler drops the change itself.
      this.ctx.schedule(delay, `informer: ${node ? `kubelet ${node}` : component}`, function* () {
        self.inFlight--;
        deliverTo(self.components, component, type, obj, old);
      });
    }
  }

  /**
   * wrap runs a task so that the `watch` entries of the changes it makes follow the entry that ends the stretch they
   * were made in (`etcd.persist`, then who is told of it), or come before it waits or ends.
   */
  wrap(task: Steps<void>): Steps<void> {
    return this.recording ? this.flushing(task) : task;
  }

  private *flushing(task: Steps<void>): Steps<void> {
    for (;;) {
      const r = task.next();
      // A batch's entries were made with nothing written between them: the changes before it follow its first.
      const first = r.done || isSleep(r.value) ? undefined : isBatch(r.value) ? r.value[0] : r.value;
      if (first) yield first;
      while (this.pending.length > 0) yield this.pending.shift()!;
      if (r.done) return;
      if (isSleep(r.value)) yield r.value;
      else if (isBatch(r.value) && r.value.length > 1) yield r.value.slice(1);
    }
  }

  /** open records each informer's first request, with what it streams (the objects it selects) and its bookmark. */
  private *open(): Steps<void> {
    const revision = String(this.ctx.store.resourceVersion);
    const states = this.states;
    // Each resource's watch cache starts at the version the informers list at; its bookmarks carry its latest change.
    this.openRevision = revision;
    yield { phase: 'watch', result: `the informers of ${new Set(states.map((s) => s.informer.watcher.name)).size} programs open ${states.length} watches at resourceVersion ${revision}`, detail: { resourceVersion: revision, watches: states.length } };
    for (const state of states) {
      const i = state.informer;
      const count = this.ctx.store.list(i.kind).filter(i.selects).length;
      const timeoutSeconds = watchTimeoutSeconds(() => this.random.float64());
      state.url = watchListUrl(i, timeoutSeconds);
      state.resourceVersion = revision;
      state.timeline = openTimeline(this.ctx.clock.now, timeoutSeconds, this.cacheFloat);
      yield {
        phase: 'watch', step: { kind: 'watcher', name: i.watcher.name },
        result: `${i.watcher.name} watches ${collectionPath(i.kind).split('/').at(-1)}: GET ${state.url}: ${count} initial ADDED event${count === 1 ? '' : 's'}, then a BOOKMARK at resourceVersion ${revision}`,
        detail: {
          watcher: i.watcher.name, component: i.watcher.component, ...(i.watcher.node ? { node: i.watcher.node } : {}), kind: i.kind, url: state.url,
          initialEvents: count, resourceVersion: revision, listFallback: `${i.path}?${listQuery(i)}`, source: i.source,
        },
      };
    }
    this.nextEnd = this.earliestDeadline();
  }

  /** openRevision is the version the informers opened at: each watch cache's version until its kind changes. */
  private openRevision = '';
  /** kindVersions is each kind's latest change: the version its watch cache's bookmarks carry. */
  private readonly kindVersions = new Map<string, string>();
  /** nextEnd is when the next open watch reaches its deadline. */
  private nextEnd: number | undefined;
  private readonly cacheFloat = () => this.cacheRandom.float64();

  /**
   * rewatchDue hands the simulation the next watch end before `before` (the next task's time), to run at that time:
   * kube-apiserver ends watches at their timeoutSeconds and the reflectors watch again. Asked between tasks, never
   * queued, so the ends of watches neither keep a run going nor end it: they are recorded up to its last task.
   */
  rewatchDue(before: number): { at: number; steps: Steps<void> } | undefined {
    const at = this.nextEnd;
    if (!this.recording || at === undefined || at >= before) return undefined;
    return { at, steps: this.rewatch(at) };
  }

  private earliestDeadline(): number | undefined {
    let min: number | undefined;
    for (const s of this.states) if (s.timeline && (min === undefined || s.timeline.deadline < min)) min = s.timeline.deadline;
    return min;
  }

  /** catchUp sends a kind's watchers the bookmarks due by `until`, at the kind's latest version. */
  private catchUp(kind: string, until: number): void {
    const version = this.kindVersions.get(kind) ?? this.openRevision;
    for (const state of this.byKind.get(kind) ?? []) {
      if (!state.timeline) continue;
      advanceTimeline(state.timeline, until, () => version, this.cacheFloat);
      // handleWatch: a BOOKMARK's resourceVersion becomes the reflector's last synced one (reflector.go, v0.36.3).
      if (state.timeline.lastBookmark) state.resourceVersion = newer(state.resourceVersion, state.timeline.lastBookmark.resourceVersion);
    }
  }

  /**
   * rewatch records the watches that end at `at`: kube-apiserver closes each at its timeoutSeconds, after its last
   * BOOKMARK (2 s before), and its reflector's watch loop, the watch having ended without error, opens a plain watch
   * (not a watch-list: that is only the first request of ListAndWatch) from the last resourceVersion it saw, with a new
   * timeoutSeconds and allowWatchBookmarks=true. See staging/src/k8s.io/client-go/tools/cache/reflector.go watch and
   * handleWatch (v0.36.3). The bookmarks of a watch are counted on its end's sub-step, not recorded one by one: a run
   * of virtual hours records a sub-step per watch (every 5 to 10 minutes per informer), not one per minute.
   */
  private *rewatch(at: number): Steps<void> {
    const ending = this.states.filter((s) => s.timeline?.deadline === at);
    for (const kind of new Set(ending.map((s) => s.informer.kind))) this.catchUp(kind, at);
    const steps: TraceInput[] = [];
    for (const state of ending) {
      const i = state.informer;
      const t = state.timeline!;
      const ended = state.url;
      const timeoutSeconds = watchTimeoutSeconds(() => this.random.float64());
      state.url = watchUrl(i, state.resourceVersion, timeoutSeconds);
      state.timeline = openTimeline(at, timeoutSeconds, this.cacheFloat);
      const last = t.lastBookmark;
      steps.push({
        phase: 'watch', step: { kind: 'watcher', name: i.watcher.name },
        result: `${i.watcher.name}'s watch of ${collectionPath(i.kind).split('/').at(-1)} ends after ${t.timeoutSeconds}s, its timeoutSeconds (${t.bookmarks} BOOKMARK${t.bookmarks === 1 ? '' : 's'}${last ? `, the last at resourceVersion ${last.resourceVersion}` : ''}): it watches again from resourceVersion ${state.resourceVersion}: GET ${state.url}`,
        detail: {
          watcher: i.watcher.name, component: i.watcher.component, ...(i.watcher.node ? { node: i.watcher.node } : {}), kind: i.kind,
          ended, openedAt: t.openedAt / 1000, endedAt: at / 1000, bookmarks: t.bookmarks,
          ...(last ? { lastBookmark: { at: last.at / 1000, resourceVersion: last.resourceVersion } } : {}),
          resourceVersion: state.resourceVersion, url: state.url, timeoutSeconds, source: i.source,
        },
      });
    }
    this.nextEnd = this.earliestDeadline();
    const one = ending.length === 1;
    yield {
      phase: 'watch',
      result: one
        ? '1 watch reaches its timeoutSeconds and kube-apiserver ends it; its reflector watches again from the last resourceVersion it saw'
        : `${ending.length} watches reach their timeoutSeconds and kube-apiserver ends them; their reflectors watch again from the last resourceVersion each saw`,
      detail: { watches: ending.length, at: at / 1000 },
    };
    yield* steps;
  }

  /** note builds the `watch` entries of one change: the change, then one sub-step per watcher that sees it. */
  private note(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const ref = refOf(obj);
    const revision = String(this.ctx.store.resourceVersion);
    const told: TraceInput[] = [];
    for (const state of this.byKind.get(obj.kind ?? '') ?? []) {
      const i = state.informer;
      const was = type === 'ADDED' ? false : i.selects(old ?? obj);
      const is = type === 'DELETED' ? false : i.selects(obj);
      // As the watch cache filters: entering the selection is ADDED, leaving it DELETED.
      const seen: WatchEventType | undefined = was && is ? 'MODIFIED' : is ? 'ADDED' : was ? 'DELETED' : undefined;
      if (!seen) continue;
      state.resourceVersion = newer(state.resourceVersion, revision);
      const delay = this.delays?.[i.watcher.component] ?? 0;
      const deliveredAt = Math.round((this.runSeconds() + delay / 1000) * 1000) / 1000;
      told.push({
        phase: 'watch', object: ref, step: { kind: 'watcher', name: i.watcher.name },
        result: `${i.watcher.name} sees ${seen} on ${state.url || collectionPath(i.kind)}, delivered ${delay === 0 ? 'at once' : `${delay / 1000}s later, at ${deliveredAt}s`}`,
        detail: {
          watcher: i.watcher.name, component: i.watcher.component, ...(i.watcher.node ? { node: i.watcher.node } : {}), kind: i.kind, type: seen,
          url: state.url, resourceVersion: revision, delaySeconds: delay / 1000, deliveredAt,
        },
      });
    }
    this.pending.push({
      phase: 'watch', object: ref, result: `${type} ${ref} at resourceVersion ${revision}`,
      detail: { type, resourceVersion: revision, watchers: told.map((t) => t.step!.name) },
    }, ...told);
  }
}

/** listQuery is the LIST a reflector falls back to when the server cannot stream: resourceVersion=0, pages of 500 (tools/pager). */
function listQuery(i: Informer): string {
  const params: Record<string, string> = { limit: '500', resourceVersion: '0' };
  if (i.fieldSelector) params['fieldSelector'] = i.fieldSelector;
  if (i.labelSelector) params['labelSelector'] = i.labelSelector;
  return Object.keys(params).sort().map((k) => `${k}=${queryEscape(params[k]!)}`).join('&');
}
