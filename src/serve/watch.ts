// Watches as kube-apiserver streams them: one JSON watch event per line (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) on
// a chunked response, for the objects of one kind a list's namespace and selectors keep, from a resourceVersion on,
// served from each resource's watch cache. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go and
// storage/cacher (cacher.go Watch, cache_watcher.go convertToWatchEvent; bookmarks about every minute), v0.36.3.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import type { Store, WatchEventType } from '../engine/cluster/store';
import type { Millis } from '../engine/runtime/clock';
import type { Status } from '../engine/apiserver/request';
import { deprecationWarnings } from '../engine/apiserver/deprecation';
import { status, warningHeader } from './http';
import { onTheWire } from './secret-wire';
import { type ListFilter, matches } from './selectors';
import { type CachedChange, type TooOld, WatchCache } from './watch-cache';

/** INITIAL_EVENTS_END is metav1.InitialEventsAnnotationKey, the annotation of the BOOKMARK that ends a watch-list's initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

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
  /**
   * sendInitialEvents (after the WatchList defaults): true starts with every object that exists as ADDED, followed
   * with bookmarks by the initial-events-end BOOKMARK; false from "" or "0" starts from now. See cacher.go (Watch,
   * setInitialEventsEndBookmarkIfRequested) and watch_cache.go (getAllEventsSinceLocked), v0.36.3.
   */
  sendInitialEvents?: boolean;
  bookmarks: boolean;
  timeoutSeconds?: number;
  /** render turns an object into what the event carries (the object itself, or a Table row). */
  render: (obj: KubeObject) => unknown;
}

/** Watcher is one open watch: what it asked for, where it goes, and the resourceVersion after which it gets changes. */
export interface Watcher<R extends WatchFilter = WatchRequest> {
  req: R;
  res: ServerResponse;
  since: number;
}

/** WatchFilter is what decides which changes a watch sees: its namespace and selectors, and how objects show. */
export interface WatchFilter {
  namespace?: string;
  filter: ListFilter;
  render: (obj: KubeObject) => unknown;
}

/** WatchHub hears every change of the store, keeps it in its resource's watch cache and streams it to the watches it concerns. */
export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly caches = new Map<string, WatchCache>();
  /** listResourceVersion is where every cache starts: the store as it stood when serving began. */
  private readonly listResourceVersion: number;

  constructor(private readonly store: Store, private readonly now: () => Millis) {
    this.listResourceVersion = store.resourceVersion;
    store.watch((type, obj, old) => this.deliver(type, obj, old));
  }

  /**
   * open starts a watch on a response: from "" or "0", every object that exists as ADDED; from a resourceVersion the
   * cache still covers, each change after it as it was; from an older one, the 410 ERROR event and the end.
   */
  open(req: WatchRequest, res: ServerResponse): void {
    // A deprecated API's watch carries its warning too: the handler chain adds it before the stream's head is written.
    startStream(res, deprecationWarnings(req));
    const watcher: Watcher = { req, res, since: this.store.resourceVersion };
    const since = Number(req.resourceVersion);
    const fromNow = req.resourceVersion === '' || req.resourceVersion === '0' || !Number.isFinite(since);
    if (req.sendInitialEvents === true || (req.sendInitialEvents === undefined && fromNow)) {
      for (const obj of this.store.list(req.kind, req.namespace)) if (matches(req.filter, obj)) sendEvent(watcher, 'ADDED', obj);
      // A watch-list (initial events and bookmarks) learns where its initial events end from an annotated BOOKMARK.
      if (req.sendInitialEvents === true && req.bookmarks) writeEvent(watcher, { type: 'BOOKMARK', object: this.bookmark(req, { [INITIAL_EVENTS_END]: 'true' }) });
    } else if (fromNow) {
      // sendInitialEvents=false from "" or "0": the changes from now on, nothing before.
    } else {
      const changes = this.cacheOf(req.kind).since(since);
      if (!Array.isArray(changes)) return sendExpired(res, changes.expired);
      // Only changes after the resourceVersion asked for go out, also when it is newer than any yet.
      watcher.since = since;
      for (const change of changes) sendChange(watcher, change);
    }
    this.watchers.add(watcher);
    const timers: NodeJS.Timeout[] = [];
    if (req.bookmarks) {
      timers.push(setInterval(() => writeEvent(watcher, { type: 'BOOKMARK', object: this.bookmark(req) }), BOOKMARK_INTERVAL_MS));
    }
    endWith(watcher, req.timeoutSeconds, () => {
      this.watchers.delete(watcher);
      for (const t of timers) clearTimeout(t);
    });
  }

  /** bookmark is a BOOKMARK's object: the kind with only the current resourceVersion (and the annotations given). */
  private bookmark(req: WatchRequest, annotations?: Record<string, string>): unknown {
    return { kind: req.kind, apiVersion: req.apiVersion, metadata: { resourceVersion: String(this.store.resourceVersion), ...(annotations ? { annotations } : {}) } };
  }

  /** closeAll ends every watch (the server stops). */
  closeAll(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  /** history is the watch cache's changes of a kind after a resourceVersion, or its 410 (a list at an Exact revision). */
  history(kind: string, resourceVersion: number): CachedChange[] | TooOld {
    return this.cacheOf(kind).since(resourceVersion);
  }

  private cacheOf(kind: string): WatchCache {
    let cache = this.caches.get(kind);
    if (!cache) {
      cache = new WatchCache(this.listResourceVersion);
      this.caches.set(kind, cache);
    }
    return cache;
  }

  private deliver(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    // A delete is the object as it was, at the delete's resourceVersion (etcd's revision of the delete).
    const resourceVersion = type === 'DELETED' ? this.store.resourceVersion : Number(obj.metadata?.resourceVersion ?? this.store.resourceVersion);
    const change: CachedChange = { type, object: type === 'DELETED' ? atResourceVersion(obj, resourceVersion) : obj, prev: old, resourceVersion, at: this.now() };
    this.cacheOf(String(obj.kind)).add(change);
    for (const w of this.watchers) if (w.req.kind === obj.kind) sendChange(w, change);
  }
}

/**
 * startStream answers a watch: 200 and a chunked JSON stream, its head sent at once (the client counts the watch started
 * then), with the request's warnings.
 */
export function startStream(res: ServerResponse, warnings: readonly string[] = []): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private', ...warningHeader(warnings) });
  res.flushHeaders();
}

/**
 * sendExpired ends a watch with the ERROR event of a resourceVersion too old: the Status of a 410 Expired, which the
 * cacher (newErrWatcher) sends after a 200, not as the response's status.
 */
export function sendExpired(res: ServerResponse, message: string): void {
  sendErrorEvent(res, status(410, 'Expired', message));
}

/** sendErrorEvent ends a watch with an ERROR event carrying a Status (the cacher's errWatcher, after the 200). */
export function sendErrorEvent(res: ServerResponse, s: Status): void {
  if (!res.destroyed && !res.writableEnded) res.end(`${JSON.stringify({ type: 'ERROR', object: s })}\n`);
}

/** endWith ends a watch after its timeout, and calls `done` once it has ended, however. */
export function endWith(watcher: Watcher<WatchFilter>, timeoutSeconds: number | undefined, done: () => void): void {
  const timer = timeoutSeconds !== undefined && timeoutSeconds > 0 ? setTimeout(() => watcher.res.end(), timeoutSeconds * 1000) : undefined;
  const end = (): void => {
    if (timer) clearTimeout(timer);
    done();
  };
  watcher.res.on('close', end);
  watcher.res.on('finish', end);
}

/**
 * sendChange is convertToWatchEvent: a change after the watch's resourceVersion goes out as ADDED when its object
 * came into the watch's selection, MODIFIED when it stays in, DELETED (the object as it was, at the change's
 * resourceVersion) when it left it or is gone; nothing when neither the object nor the one before was in it.
 */
export function sendChange(w: Watcher<WatchFilter>, change: CachedChange): void {
  if (change.resourceVersion <= w.since) return;
  const now = change.type !== 'DELETED' && selected(w.req, change.object);
  const before = change.prev !== undefined && selected(w.req, change.prev);
  if (now) sendEvent(w, before ? 'MODIFIED' : 'ADDED', change.object);
  else if (before) sendEvent(w, 'DELETED', change.type === 'DELETED' ? change.object : atResourceVersion(change.prev!, change.resourceVersion));
}

function selected(req: WatchFilter, obj: KubeObject): boolean {
  return (req.namespace === undefined || obj.metadata?.namespace === req.namespace) && matches(req.filter, obj);
}

/** atResourceVersion is an object shown at another resourceVersion (a delete's): its metadata copied, nothing else. */
export function atResourceVersion(obj: KubeObject, resourceVersion: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(resourceVersion) } } as KubeObject;
}

export function sendEvent(w: Watcher<WatchFilter>, type: string, obj: KubeObject): void {
  writeEvent(w, { type, object: onTheWire(w.req.render(obj)) });
}

function writeEvent(w: Watcher<WatchFilter>, event: unknown): void {
  if (w.res.destroyed || w.res.writableEnded) return;
  w.res.write(`${JSON.stringify(event)}\n`);
}
