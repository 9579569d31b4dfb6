// The timing of an informer's watch after it opens: the BOOKMARKs kube-apiserver's watch cache sends it about every
// minute, the end of the watch at its timeoutSeconds, and the reflector's next watch from the last resourceVersion it
// saw. Pure rules on virtual milliseconds; delivery.ts records them.

/**
 * BOOKMARK_FREQUENCY_MS is how often the watch cache sends a watcher a bookmark: defaultBookmarkFrequency.
 * See staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (v0.36.3).
 */
export const BOOKMARK_FREQUENCY_MS = 60_000;

/**
 * PRE_TIMEOUT_MS: the last bookmark is sent 2 s before the watch's deadline, so that the watcher resumes from a version
 * as close to the end as possible. See cacher/cache_watcher.go nextBookmarkTime (v0.36.3).
 */
export const PRE_TIMEOUT_MS = 2_000;

/**
 * DISPATCH_TICK_MS and DISPATCH_JITTER: the watch cache pops the watchers due for a bookmark on a timer of
 * wait.Jitter(time.Second, 0.25), in buckets of a whole second. See cacher/cacher.go dispatchEvents and
 * watcherBookmarkTimeBuckets (v0.36.3).
 */
export const DISPATCH_TICK_MS = 1_000;
export const DISPATCH_JITTER = 0.25;

/**
 * nextBookmarkTime is when the watch cache wants a watcher's next bookmark, asked at `now` (when the watcher is added or
 * was just sent one): a minute later, or 2 s before the deadline if that is sooner; none once that is past.
 * See cacher/cache_watcher.go nextBookmarkTime (v0.36.3). A reflector always sends timeoutSeconds, so a deadline is set.
 */
export function nextBookmarkTime(now: number, deadline: number): number | undefined {
  let heartbeat = now + BOOKMARK_FREQUENCY_MS;
  const preTimeout = deadline - PRE_TIMEOUT_MS;
  if (preTimeout < heartbeat) heartbeat = preTimeout;
  return heartbeat < now ? undefined : heartbeat;
}

/**
 * bookmarkSentAt is when the watch cache sends a bookmark wanted at `wanted`: the watcher sits in the bucket of the
 * whole second it falls in (counted from the cache's start, the run's start here; a bucket already popped puts it in
 * the next, `firstBucket`) and is popped at the first dispatch tick in or after that second. The ticks come
 * wait.Jitter(1s, 0.25) apart, so that tick falls in [bucket, bucket + 1.25 s); `random` (in [0, 1)) places it there.
 * See cacher/cacher.go addWatcherThreadUnsafe and popExpiredWatchersThreadUnsafe (v0.36.3): a bookmark comes within
 * (X-1 s, X+1.25 s) of the time X it was wanted.
 */
export function bookmarkSentAt(wanted: number, random: number, firstBucket = 0): number {
  const bucket = Math.max(Math.floor(wanted / DISPATCH_TICK_MS), firstBucket) * DISPATCH_TICK_MS;
  return bucket + Math.floor(random * DISPATCH_TICK_MS * (1 + DISPATCH_JITTER));
}

/** WatchTimeline is one open watch of an informer: when it opened, its deadline and its bookmarks so far. */
export interface WatchTimeline {
  openedAt: number;
  timeoutSeconds: number;
  /** deadline is when kube-apiserver ends the watch: openedAt + timeoutSeconds. */
  deadline: number;
  /** nextBookmark is when the next bookmark is sent; undefined when no more will be before the deadline. */
  nextBookmark: number | undefined;
  /** bookmarks counts the periodic bookmarks sent so far (the initial-events-end one of a watch-list aside). */
  bookmarks: number;
  /** lastBookmark is the last one sent: when, and at which resourceVersion. */
  lastBookmark?: { at: number; resourceVersion: string };
}

/**
 * openTimeline starts the timeline of a watch opened at `now`. The watch cache adds the watcher to its bookmark buckets
 * once it is set up: a watch-list's initial-events-end bookmark goes at once (recorded with the opening), a watch from
 * a resourceVersion waits for nothing; either way the next one is wanted a minute later (cacher.go Watch, v0.36.3).
 */
export function openTimeline(now: number, timeoutSeconds: number, random: () => number): WatchTimeline {
  const deadline = now + timeoutSeconds * 1000;
  const wanted = nextBookmarkTime(now, deadline);
  return { openedAt: now, timeoutSeconds, deadline, nextBookmark: wanted === undefined ? undefined : sentBefore(wanted, Math.floor(now / DISPATCH_TICK_MS), deadline, random()), bookmarks: 0 };
}

/**
 * advanceTimeline sends every bookmark due by `until` (at most the deadline), each at the resourceVersion `versionAt`
 * gives for its time, and wants the next one as the watch cache does once it has sent one.
 */
export function advanceTimeline(t: WatchTimeline, until: number, versionAt: (at: number) => string, random: () => number): void {
  const end = Math.min(until, t.deadline);
  while (t.nextBookmark !== undefined && t.nextBookmark <= end) {
    const at = t.nextBookmark;
    t.bookmarks++;
    t.lastBookmark = { at, resourceVersion: versionAt(at) };
    // Sent at its very pre-timeout instant, it has no later one (the watch cache's tick comes after that instant).
    const wanted = nextBookmarkTime(at, t.deadline);
    t.nextBookmark = wanted === undefined || wanted <= at ? undefined : sentBefore(wanted, Math.floor(at / DISPATCH_TICK_MS) + 1, t.deadline, random());
  }
}

/**
 * sentBefore places a wanted bookmark's sending, in a bucket not yet popped (the one of a bookmark just sent is gone:
 * startBucketID has moved past it), and only before the deadline (a closed watch gets none).
 */
function sentBefore(wanted: number, firstBucket: number, deadline: number, random: number): number | undefined {
  const at = bookmarkSentAt(wanted, random, firstBucket);
  return at < deadline ? at : undefined;
}
