// The history a watch of Events resumes from. kube-apiserver keeps no watch cache for Events (their cache size is 0),
// so their watches are etcd's: every revision since the last compaction, which kube-apiserver requests every 5
// minutes up to the revision it saw 5 minutes before. A watch from before that gets 410 Expired.
// See pkg/kubeapiserver/default_storage_factory_builder.go (DefaultWatchCacheSizes, v1.36.3),
// staging/src/k8s.io/apiserver/pkg/storage/etcd3/compact.go, errors.go (interpretWatchError) and
// storage/storagebackend/config.go (DefaultCompactInterval), v0.36.3.
import type { Millis } from '../engine/runtime/clock';
import type { CachedChange, TooOld } from './watch-cache';

/** COMPACT_INTERVAL_MS is DefaultCompactInterval (--etcd-compaction-interval): 5 minutes. */
export const COMPACT_INTERVAL_MS = 5 * 60_000;

/** WATCH_TOO_OLD is etcd3's message for a watch from a compacted revision (interpretWatchError). */
export const WATCH_TOO_OLD = 'The resourceVersion for the provided watch is too old.';

/** EtcdHistory is the changes of one resource since etcd's last compaction, oldest first. */
export class EtcdHistory {
  private log: CachedChange[] = [];
  private head = 0;
  private compactRevision = 0;
  /** noted is the revision the compactor saw at its last tick: the next tick compacts up to it. */
  private noted = 0;
  private nextTick: Millis;

  /** The history starts at `revision`: what came before it is gone, as compacted (etcd had long been running). */
  constructor(start: Millis, revision: number) {
    this.nextTick = start + COMPACT_INTERVAL_MS;
    this.compactRevision = revision;
  }

  /** compacted is the revision etcd has compacted up to: a read at an older one is gone. */
  get compacted(): number {
    return this.compactRevision;
  }

  /** size is how many changes are kept. */
  get size(): number {
    return this.log.length - this.head;
  }

  /**
   * tick runs the compactor's ticks due by `now`, `revision` being the revision at that moment: each compacts to the
   * revision of the tick before (the first only notes one). Call it before each write with the revision before it.
   */
  tick(now: Millis, revision: number): void {
    while (now >= this.nextTick) {
      if (this.noted > 0) this.compact(this.noted);
      this.noted = revision;
      this.nextTick += COMPACT_INTERVAL_MS;
    }
  }

  /** add keeps a change (O(1)). */
  add(change: CachedChange): void {
    this.log.push(change);
  }

  /**
   * since is the changes after a resourceVersion, or the 410 of one etcd has compacted away: the watch starts at the
   * revision after it, which must not be older than the compacted revision.
   */
  since(resourceVersion: number): CachedChange[] | TooOld {
    if (resourceVersion + 1 < this.compactRevision) return { expired: WATCH_TOO_OLD };
    let lo = this.head;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.log[mid]!.resourceVersion > resourceVersion) hi = mid;
      else lo = mid + 1;
    }
    return this.log.slice(lo);
  }

  /** compact forgets the changes before a revision; the kept array is copied only once half of it is gone. */
  private compact(revision: number): void {
    this.compactRevision = Math.max(this.compactRevision, revision);
    while (this.head < this.log.length && this.log[this.head]!.resourceVersion < this.compactRevision) this.head++;
    if (this.head > this.log.length / 2) {
      this.log = this.log.slice(this.head);
      this.head = 0;
    }
  }
}
