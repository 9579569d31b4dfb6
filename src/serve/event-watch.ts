// Watches of core/v1 Events. The engine's Events live in its recorder, not the store: each one recorded is ADDED to
// the watches it concerns, each one counted up again (the event recorder's patch) MODIFIED, and each one whose TTL
// ran out DELETED, as etcd deletes the keys of an expired lease. A watch resumes from etcd's history (Events have no
// watch cache). See staging/src/k8s.io/client-go/tools/record/event.go (recordToSink, v0.36.3) and event-history.ts.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import { coreEvent, listEvents } from '../engine/console/events';
import type { EventChange, KubeEvent } from '../engine/runtime/recorder';
import type { Simulation } from '../engine/simulation';
import { EtcdHistory } from './event-history';
import { matches } from './selectors';
import type { CachedChange, TooOld } from './watch-cache';
import { atResourceVersion, endWith, sendChange, sendEvent, sendExpired, startStream, type Watcher, type WatchFilter } from './watch';

/** EventWatchRequest is one watch of events: the namespace (all when absent), the filter and how events show. */
export interface EventWatchRequest extends WatchFilter {
  /**
   * resourceVersion: "" or "0" starts with every existing event as ADDED; a list's resourceVersion (eventsResourceVersion)
   * with what was recorded, counted up or expired since that list.
   */
  resourceVersion: string;
  timeoutSeconds?: number;
}

/** eventsResourceVersion is the resourceVersion of an Event list: etcd's current revision, which a watch resumes from. */
export function eventsResourceVersion(sim: Simulation): string {
  return String(sim.store.resourceVersion);
}

/** EventWatchHub hears the recorder's Event writes, keeps them in etcd's history and streams them to the open event watches. */
export class EventWatchHub {
  private readonly watchers = new Set<Watcher<EventWatchRequest>>();
  private readonly history: EtcdHistory;
  private readonly unsubscribe: () => void;
  /** listed is the last list of Events read and its namespace, dropped at the next Event write. */
  private listed: { namespace: string | undefined; objects: KubeObject[] } | undefined;

  constructor(private readonly sim: Simulation) {
    this.history = new EtcdHistory(sim.virtualNow, sim.store.resourceVersion);
    // The compactor notes etcd's revision as it stands at each of its ticks: every write, of any kind, moves it.
    sim.store.watch(() => this.history.tick(sim.virtualNow, sim.store.resourceVersion - 1));
    this.unsubscribe = sim.recorder.onEventChange((change) => this.deliver(change));
  }

  /** open starts a watch on a response. */
  open(req: EventWatchRequest, res: ServerResponse): void {
    startStream(res);
    const store = this.sim.store;
    const watcher: Watcher<EventWatchRequest> = { req, res, since: store.resourceVersion };
    const since = Number(req.resourceVersion);
    if (req.resourceVersion === '' || req.resourceVersion === '0' || !Number.isInteger(since)) {
      for (const obj of this.list(req.namespace)) {
        if (matches(req.filter, obj)) sendEvent(watcher, 'ADDED', obj);
      }
    } else {
      this.history.tick(this.sim.virtualNow, store.resourceVersion);
      const changes = this.history.since(since);
      if (!Array.isArray(changes)) return sendExpired(res, changes.expired);
      watcher.since = since;
      for (const change of changes) sendChange(watcher, change);
    }
    this.watchers.add(watcher);
    endWith(watcher, req.timeoutSeconds, () => this.watchers.delete(watcher));
  }

  /**
   * list is the Events of a namespace (or all) as they are now, in key order: the list read last until an Event is
   * written (recorded, counted up or expired), so that a list read page by page is made once, not once per page. Each
   * Event's involved object is as it was when the list was made: an Event's reference does not follow the object.
   */
  list(namespace: string | undefined): KubeObject[] {
    const kept = this.listed;
    if (kept && kept.namespace === namespace) return kept.objects;
    const objects = listEvents(this.sim, namespace) as unknown as KubeObject[];
    this.listed = { namespace, objects };
    return objects;
  }

  /** compactedRevision is the revision etcd has compacted up to by now (its compactor is one for every resource). */
  compactedRevision(): number {
    this.history.tick(this.sim.virtualNow, this.sim.store.resourceVersion);
    return this.history.compacted;
  }

  /** changesSince is etcd's Event changes after a revision, or the 410 of a compacted one (a continued list of Events reads it). */
  changesSince(resourceVersion: number): CachedChange[] | TooOld {
    this.history.tick(this.sim.virtualNow, this.sim.store.resourceVersion);
    return this.history.since(resourceVersion);
  }

  /** closeAll ends every watch (the server stops) and stops hearing the recorder. */
  closeAll(): void {
    this.unsubscribe();
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  /** deliver keeps one Event write in the history and sends it to the watches it concerns. */
  private deliver(c: EventChange<KubeEvent>): void {
    this.listed = undefined;
    this.history.tick(this.sim.virtualNow, c.resourceVersion - 1);
    const object = coreEvent(this.sim, c.event, c.no) as unknown as KubeObject;
    // An Event's selectable fields never change once written: it was in a watch's selection before a write if it is now.
    const change: CachedChange = c.type === 'DELETED'
      ? { type: 'DELETED', object: atResourceVersion(object, c.resourceVersion), prev: object, resourceVersion: c.resourceVersion, at: this.sim.virtualNow }
      : { type: c.type, object, prev: c.type === 'MODIFIED' ? object : undefined, resourceVersion: c.resourceVersion, at: this.sim.virtualNow };
    this.history.add(change);
    for (const w of this.watchers) sendChange(w, change);
  }
}
