// The cacher's watch cache of one resource: a sliding window of its latest changes, each with the object as it was
// then and the one before, from which a watch resumes at a resourceVersion. Its capacity follows the real rule: 100
// changes to start, doubled while every change it holds is fresher than 75 s, halved when the latest quarter is older.
// See staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (updateCache, resizeCacheLocked,
// getAllEventsSinceLocked) and cacher.go (DefaultEventFreshDuration), v0.36.3.
import type { KubeObject } from '../engine/api/types';
import type { WatchEventType } from '../engine/cluster/store';
import type { Millis } from '../engine/runtime/clock';

/** LOWER_BOUND_CAPACITY is defaultLowerBoundCapacity: the window's first and smallest size. */
export const LOWER_BOUND_CAPACITY = 100;
/** UPPER_BOUND_CAPACITY is defaultUpperBoundCapacity: the largest window (with the default fresh duration). */
export const UPPER_BOUND_CAPACITY = 100 * 1024;
/** EVENT_FRESH_MS is DefaultEventFreshDuration: the bookmark frequency (1 min) plus 15 s. */
export const EVENT_FRESH_MS = 75_000;

/** CachedChange is one change of the window: watchCacheEvent's type, objects, resourceVersion and record time. */
export interface CachedChange {
  type: WatchEventType;
  /** object is the object as the change left it (a deleted one as it was, at the delete's resourceVersion). */
  object: KubeObject;
  /** prev is the object before the change, which decides what a filtered watch sees (the cacher's PrevObject). */
  prev: KubeObject | undefined;
  resourceVersion: number;
  at: Millis;
}

/** TooOld is the error of a watch from before the window: 410 Expired, as the cacher sends it in an ERROR event. */
export interface TooOld {
  expired: string;
}

/**
 * WatchCache is one resource's window: a ring of its changes, O(1) per change, resized by the cacher's rule. The
 * store behind it was listed at `listResourceVersion` (when serving began), and nothing older is known.
 */
export class WatchCache {
  private capacity = LOWER_BOUND_CAPACITY;
  private ring: (CachedChange | undefined)[] = new Array<CachedChange | undefined>(LOWER_BOUND_CAPACITY);
  private startIndex = 0;
  private endIndex = 0;
  /** removedEventSinceRelist tells whether a change has left the window since the list it started from. */
  private removedEventSinceRelist = false;

  constructor(private readonly listResourceVersion: number) {}

  /** size is how many changes the window holds; currentCapacity how many it may before it resizes or drops one. */
  get size(): number {
    return this.endIndex - this.startIndex;
  }

  get currentCapacity(): number {
    return this.capacity;
  }

  /** add is updateCache: the window grows or shrinks as the rule says, then drops its oldest change if full. */
  add(change: CachedChange): void {
    this.resize(change.at);
    if (this.full()) {
      this.ring[this.startIndex % this.capacity] = undefined;
      this.startIndex++;
      this.removedEventSinceRelist = true;
    }
    this.ring[this.endIndex % this.capacity] = change;
    this.endIndex++;
  }

  /**
   * since is getAllEventsSinceLocked for a resourceVersion other than 0: the changes after it, oldest first, or the
   * 410 of one older than the window, `too old resource version: RV (OLDEST-1)`. A resourceVersion newer than the
   * latest gets no change (the watch waits for later ones).
   */
  since(resourceVersion: number): CachedChange[] | TooOld {
    const size = this.size;
    const oldest = !this.removedEventSinceRelist ? this.listResourceVersion + 1 : size > 0 ? this.at(0).resourceVersion : this.listResourceVersion + 1;
    if (resourceVersion < oldest - 1) return { expired: `too old resource version: ${resourceVersion} (${oldest - 1})` };
    // A binary search for the first change after the resourceVersion, as sort.Search.
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).resourceVersion > resourceVersion) hi = mid;
      else lo = mid + 1;
    }
    const out: CachedChange[] = [];
    for (let i = lo; i < size; i++) out.push(this.at(i));
    return out;
  }

  private at(i: number): CachedChange {
    return this.ring[(this.startIndex + i) % this.capacity]!;
  }

  private full(): boolean {
    return this.endIndex === this.startIndex + this.capacity;
  }

  /**
   * resize is resizeCacheLocked: a full window whose oldest change is fresher than 75 s doubles (up to 102400); one
   * whose latest quarter began more than 75 s ago halves (down to 100), keeping its latest changes.
   */
  private resize(now: Millis): void {
    if (!this.full()) return;
    if (now - this.at(0).at < EVENT_FRESH_MS) {
      const capacity = Math.min(this.capacity * 2, UPPER_BOUND_CAPACITY);
      if (capacity > this.capacity) this.resizeTo(capacity);
      return;
    }
    const quarter = this.ring[(this.endIndex - Math.trunc(this.capacity / 4)) % this.capacity]!;
    if (now - quarter.at > EVENT_FRESH_MS) {
      const capacity = Math.max(Math.trunc(this.capacity / 2), LOWER_BOUND_CAPACITY);
      if (capacity < this.capacity) this.resizeTo(capacity);
    }
  }

  /** resizeTo is doCacheResizeLocked: a new ring of the capacity with the latest changes that fit. */
  private resizeTo(capacity: number): void {
    const ring = new Array<CachedChange | undefined>(capacity);
    if (capacity < this.capacity) this.startIndex = this.endIndex - capacity;
    for (let i = this.startIndex; i < this.endIndex; i++) ring[i % capacity] = this.ring[i % this.capacity];
    this.ring = ring;
    this.capacity = capacity;
  }
}
