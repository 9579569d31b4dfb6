// Watches of core/v1 Events. The engine's events live in its recorder, not the store: each one recorded is ADDED to
// the watches it concerns, each one counted up again (a repeat, count+1) MODIFIED, as the event recorder's create and
// patch would show on a real watch. See staging/src/k8s.io/client-go/tools/record/event.go (recordToSink).
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import { coreEvent, listEvents } from '../engine/console/events';
import type { Simulation } from '../engine/simulation';
import { type ListFilter, matches } from './selectors';

/** EventWatchRequest is one watch of events: the namespace (all when absent), the filter and how events show. */
export interface EventWatchRequest {
  namespace?: string;
  filter: ListFilter;
  /**
   * resourceVersion: "" or "0" starts with every existing event as ADDED; a list's resourceVersion (eventsResourceVersion)
   * with what was recorded or counted up since that list.
   */
  resourceVersion: string;
  timeoutSeconds?: number;
  render: (obj: KubeObject) => unknown;
}

interface Watcher {
  req: EventWatchRequest;
  res: ServerResponse;
}

/** eventsResourceVersion is the resourceVersion of an Event list: the recorder's change cursor, which a watch resumes from. */
export function eventsResourceVersion(sim: Simulation): string {
  return String(sim.recorder.changedSince(Number.MAX_SAFE_INTEGER).cursor);
}

/** EventWatchHub streams the recorder's new and repeated events to the open event watches. */
export class EventWatchHub {
  private readonly watchers = new Set<Watcher>();
  private cursor: number;
  private known: number;

  constructor(private readonly sim: Simulation) {
    this.cursor = sim.recorder.changedSince(Number.MAX_SAFE_INTEGER).cursor;
    this.known = sim.recorder.events.length;
  }

  /** open starts a watch on a response. */
  open(req: EventWatchRequest, res: ServerResponse): void {
    this.poll();
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const watcher: Watcher = { req, res };
    const since = Number(req.resourceVersion);
    if (req.resourceVersion === '' || req.resourceVersion === '0' || !Number.isInteger(since)) {
      for (const e of listEvents(this.sim, req.namespace)) this.send(watcher, 'ADDED', e as unknown as KubeObject);
    } else {
      // What changed since the list: an event seen once was recorded since, one counted up again was modified.
      const events = this.sim.recorder.events;
      for (const i of this.sim.recorder.changedSince(since).indices) {
        const e = events[i];
        if (e) this.send(watcher, e.count > 1 ? 'MODIFIED' : 'ADDED', coreEvent(this.sim, e, i) as unknown as KubeObject);
      }
    }
    this.watchers.add(watcher);
    const timer = req.timeoutSeconds ? setTimeout(() => res.end(), req.timeoutSeconds * 1000) : undefined;
    const done = (): void => {
      this.watchers.delete(watcher);
      if (timer) clearTimeout(timer);
    };
    res.on('close', done);
    res.on('finish', done);
  }

  /** poll sends what the recorder recorded or counted up since the last poll. */
  poll(): void {
    const { indices, cursor } = this.sim.recorder.changedSince(this.cursor);
    this.cursor = cursor;
    const events = this.sim.recorder.events;
    for (const i of indices) {
      const e = events[i];
      if (!e) continue;
      const obj = coreEvent(this.sim, e, i) as unknown as KubeObject;
      for (const w of this.watchers) this.send(w, i >= this.known ? 'ADDED' : 'MODIFIED', obj);
    }
    this.known = events.length;
  }

  /** closeAll ends every watch (the server stops). */
  closeAll(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  private send(w: Watcher, type: 'ADDED' | 'MODIFIED', obj: KubeObject): void {
    if (w.req.namespace !== undefined && obj.metadata?.namespace !== w.req.namespace) return;
    if (!matches(w.req.filter, obj)) return;
    if (w.res.destroyed || w.res.writableEnded) return;
    w.res.write(`${JSON.stringify({ type, object: w.req.render(obj) })}\n`);
  }
}
