// Watches as kube-apiserver streams them: one JSON watch event per line (ADDED, MODIFIED, DELETED, BOOKMARK) on a
// chunked response, for the objects of one kind a list's namespace and selectors keep, from a resourceVersion on.
// See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go and storage/cacher (bookmarks about every minute).
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import type { Store, WatchEventType } from '../engine/cluster/store';
import { type ListFilter, matches } from './selectors';

/** BOOKMARK_INTERVAL_MS is how often a watch that allows bookmarks gets one (the watch cache's, about a minute). */
const BOOKMARK_INTERVAL_MS = 60_000;

/** WatchRequest is one watch: the kind, the namespace (all when absent), the filter, and how the objects are shown. */
export interface WatchRequest {
  kind: string;
  apiVersion: string;
  namespace?: string;
  filter: ListFilter;
  /** resourceVersion: changes after it; "" or "0" start with every object that exists as ADDED. */
  resourceVersion: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  /** render turns an object into what the event carries (the object itself, or a Table row). */
  render: (obj: KubeObject) => unknown;
}

interface Watcher {
  req: WatchRequest;
  res: ServerResponse;
}

/** WatchHub hears every change of the store and streams it to the watches it concerns. */
export class WatchHub {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly store: Store) {
    store.watch((type, obj, old) => this.deliver(type, obj, old));
  }

  /** open starts a watch on a response: the initial events, then every change until the client goes or time is up. */
  open(req: WatchRequest, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    // The client waits for the head before it counts the watch as started: it goes now, not with the first event.
    res.flushHeaders();
    const watcher: Watcher = { req, res };
    const since = Number(req.resourceVersion);
    const all = req.resourceVersion === '' || req.resourceVersion === '0' || !Number.isFinite(since);
    for (const obj of this.store.list(req.kind, req.namespace)) {
      if (!matches(req.filter, obj)) continue;
      // A watch from a list's resourceVersion gets what changed since (the store keeps no history of deletions).
      if (all || Number(obj.metadata?.resourceVersion ?? 0) > since) this.send(watcher, 'ADDED', obj);
    }
    this.watchers.add(watcher);
    const timers: NodeJS.Timeout[] = [];
    if (req.bookmarks) {
      timers.push(setInterval(() => this.write(watcher, { type: 'BOOKMARK', object: { kind: req.kind, apiVersion: req.apiVersion, metadata: { resourceVersion: String(this.store.resourceVersion) } } }), BOOKMARK_INTERVAL_MS));
    }
    if (req.timeoutSeconds !== undefined && req.timeoutSeconds > 0) timers.push(setTimeout(() => res.end(), req.timeoutSeconds * 1000));
    const done = (): void => {
      this.watchers.delete(watcher);
      for (const t of timers) clearTimeout(t);
    };
    res.on('close', done);
    res.on('finish', done);
  }

  /** closeAll ends every watch (the server stops). */
  closeAll(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  private deliver(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    for (const w of this.watchers) {
      if (w.req.kind !== obj.kind) continue;
      if (w.req.namespace !== undefined && obj.metadata?.namespace !== w.req.namespace) continue;
      const now = matches(w.req.filter, obj);
      const before = old !== undefined && matches(w.req.filter, old);
      // An object that comes into the selection is ADDED to this watch, one that leaves it DELETED (the cacher's filter).
      if (type === 'DELETED') {
        if (now) this.send(w, 'DELETED', obj);
      } else if (now) this.send(w, type === 'ADDED' || !before ? 'ADDED' : 'MODIFIED', obj);
      else if (before) this.send(w, 'DELETED', obj);
    }
  }

  private send(w: Watcher, type: string, obj: KubeObject): void {
    this.write(w, { type, object: w.req.render(obj) });
  }

  private write(w: Watcher, event: unknown): void {
    if (w.res.destroyed || w.res.writableEnded) return;
    w.res.write(`${JSON.stringify(event)}\n`);
  }
}
