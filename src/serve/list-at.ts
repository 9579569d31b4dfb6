// Which state a list or a get reads, as the watch cache decides from its resourceVersion and resourceVersionMatch:
// the latest state once the cache has reached the resourceVersion (waiting up to 3 s for it, then 504), or for
// Exact the state as it was at that revision, rebuilt from the cache's window of changes, else 410.
// See staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator.go (GetList, Get), delegator/interface.go
// (ShouldDelegateList) and watch_cache.go (waitUntilFreshAndList, waitAndListExactRV, waitUntilFreshAndBlock), v0.36.3.
// A continued list reads the state at its token's revision the same way (list-paging.ts cuts the page).
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../engine/api/types';
import { badRequest, StatusError } from '../engine/apiserver/request';
import type { Store } from '../engine/cluster/store';
import { listEvents } from '../engine/console/events';
import { eventsResourceVersion } from './event-watch';
import { EXACT, type ListOptions, listResourceVersionError, listTooOld, parseResourceVersion, storageInvalidError, tooLargeResourceVersion } from './list-options';
import { type ContinueToken, continueTooOld, decodeContinue } from './list-paging';
import { sendErrorEvent, startStream } from './watch';
import type { CachedChange, TooOld } from './watch-cache';

/** BLOCK_TIMEOUT_MS is the watch cache's blockTimeout: how long a read waits for a resourceVersion it has not reached. */
export const BLOCK_TIMEOUT_MS = 3_000;

/** Freshness is what a read needs to wait for the store: its revision, and a way to hear it advance. */
export interface Freshness {
  store: Store;
  /** onAdvance calls the listener after the cluster has run steps; it returns the unsubscribe. */
  onAdvance: (listener: () => void) => () => void;
  /**
   * compacted is the revision etcd has compacted up to: the cacher drops its snapshots before it (compactor.go, at
   * its next 15 s poll; here at once), so a list at an older revision goes to etcd, which has lost it too.
   */
  compacted?: () => number;
}

/**
 * waitUntilFresh is waitUntilFreshAndBlock: it resolves at once when the store has reached the resourceVersion, or
 * as soon as it does within 3 s; past that it rejects with the 504 Too large resource version.
 */
export function waitUntilFresh(fresh: Freshness, resourceVersion: bigint): Promise<void> {
  const reached = (): boolean => BigInt(fresh.store.resourceVersion) >= resourceVersion;
  if (reached()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = fresh.onAdvance(() => {
      if (!reached()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
    const timer = setTimeout(() => {
      stop();
      if (reached()) resolve();
      else reject(tooLargeResourceVersion(resourceVersion, fresh.store.resourceVersion));
    }, BLOCK_TIMEOUT_MS);
  });
}

/** ListAt is what a list reads: its objects (before selectors), the resourceVersion the list carries, and where a continued list goes on. */
export interface ListAt {
  objects: KubeObject[];
  resourceVersion: string;
  /** start is the continue token's key (the page starts there), "" for a first page. */
  start: string;
}

/** History is a resource's changes after a revision, or the 410 of one before what is kept. */
export type History = (rv: number) => CachedChange[] | TooOld;

/**
 * listAt reads a list of one kind as the cacher serves it. An unparsable resourceVersion is the 400 of
 * storage.ValidateListOptions. Exact (and, as the legacy rule has it, a limit with a resourceVersion other than "0")
 * waits until fresh and answers the state at that revision with that resourceVersion, from the watch cache's window
 * (`history` is its changes after the revision, or its 410); before the window, etcd's 410 of a compacted revision.
 * Otherwise a resourceVersion other than "" and "0" waits until fresh, and the list is the latest state.
 */
export async function listAt(fresh: Freshness, kind: string, namespace: string | undefined, o: ListOptions, limit: number, history: History): Promise<ListAt> {
  if (o.continue !== '') return continuedAt(fresh, kind, namespace, o, history);
  const parsed = parseResourceVersion(o.resourceVersion);
  if (typeof parsed !== 'bigint') throw listResourceVersionError(parsed);
  const exact = o.resourceVersionMatch === EXACT || (o.resourceVersionMatch === '' && o.continue === '' && limit > 0 && parsed > 0n);
  if (parsed > 0n) await waitUntilFresh(fresh, parsed);
  const store = fresh.store;
  if (!exact) return { objects: store.list(kind, namespace), resourceVersion: String(store.resourceVersion), start: '' };
  const changes = atRevision(fresh, Number(parsed), history);
  // The cacher delegates a revision older than its snapshots to etcd, whose history it outlives only by compaction.
  if (!Array.isArray(changes)) throw listTooOld();
  return { objects: stateBefore(store.list(kind, namespace), changes, namespace), resourceVersion: String(parsed), start: '' };
}

/** atRevision is the changes after a revision the window still has snapshots of (not compacted away), or its 410. */
function atRevision(fresh: Freshness, resourceVersion: number, history: History): CachedChange[] | TooOld {
  return resourceVersion < (fresh.compacted?.() ?? 0) ? { expired: 'compacted' } : history(resourceVersion);
}

/**
 * continueTokenOf is storage.ValidateListOptions for a continued list: the token decoded (its 400s), then the 400 of a
 * resourceVersion other than "" and "0" beside it. See staging/src/k8s.io/apiserver/pkg/storage/interfaces.go (v0.36.3).
 */
function continueTokenOf(o: ListOptions): ContinueToken {
  const token = decodeContinue(o.continue);
  if (o.resourceVersion !== '' && o.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  return token;
}

/**
 * continuedAt reads a continued list as storage.ValidateListOptions and the watch cache do: a token that does not
 * decode is a 400, as is one sent with a resourceVersion other than "" and "0"; a token's revision is waited for
 * (up to 3 s, then 504) and its state rebuilt from the window (the snapshot at that revision), the list carrying that
 * resourceVersion; before the window etcd's 410 with a token to go on at the latest revision; a token of revision -1
 * (that 410's) goes on in the latest state. See storage/interfaces.go (ValidateListOptions), cacher/watch_cache.go
 * (waitUntilFreshAndList: Continue) and etcd3/errors.go (handleCompactedErrorForPaging), v0.36.3.
 */
async function continuedAt(fresh: Freshness, kind: string, namespace: string | undefined, o: ListOptions, history: History): Promise<ListAt> {
  const token = continueTokenOf(o);
  const store = fresh.store;
  if (token.resourceVersion < 0n) return { objects: store.list(kind, namespace), resourceVersion: String(store.resourceVersion), start: token.start };
  await waitUntilFresh(fresh, token.resourceVersion);
  const changes = atRevision(fresh, Number(token.resourceVersion), history);
  if (!Array.isArray(changes)) throw continueTooOld(token.start);
  return { objects: stateBefore(store.list(kind, namespace), changes, namespace), resourceVersion: String(token.resourceVersion), start: token.start };
}

/**
 * eventsAt reads a list of Events, which have no watch cache and are read from etcd (the recorders here): an
 * unparsable resourceVersion is the same 400, a revision etcd has not reached its 504 at once (etcd3/store.go
 * validateMinimumResourceVersion); any other reads the Events as they are now. A continued list reads them at its
 * token's revision from etcd's history (`history`), or gets the 410 of a compacted one. `listed` reads the Events of
 * now (the event hub keeps them while etcd's revision stands, for the pages of one list).
 */
export function eventsAt(sim: Parameters<typeof listEvents>[0] & Parameters<typeof eventsResourceVersion>[0], namespace: string | undefined, o: ListOptions, history: History,
  listed: (namespace: string | undefined) => KubeObject[] = (ns) => listEvents(sim, ns) as unknown as KubeObject[]): ListAt {
  const now = (): KubeObject[] => listed(namespace);
  if (o.continue === '') {
    etcdResourceVersionError(sim.store, o.resourceVersion);
    return { objects: now(), resourceVersion: eventsResourceVersion(sim), start: '' };
  }
  const token = continueTokenOf(o);
  if (token.resourceVersion < 0n) return { objects: now(), resourceVersion: eventsResourceVersion(sim), start: token.start };
  const changes = history(Number(token.resourceVersion));
  if (!Array.isArray(changes)) throw continueTooOld(token.start);
  return { objects: stateBefore(now(), changes, namespace), resourceVersion: String(token.resourceVersion), start: token.start };
}

/**
 * etcdResourceVersionError is what etcd's store answers a read of a resource without a watch cache (an Event) for its
 * resourceVersion: 400 `invalid resource version: ...` for one that does not parse, 504 without a retry for one
 * newer than its revision. See staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (Get, validateMinimumResourceVersion).
 */
export function etcdResourceVersionError(store: Store, resourceVersion: string): void {
  const parsed = parseResourceVersion(resourceVersion);
  if (typeof parsed !== 'bigint') throw listResourceVersionError(parsed);
  if (parsed > BigInt(store.resourceVersion)) throw tooLargeResourceVersion(parsed, store.resourceVersion, 0);
}

/**
 * stateBefore undoes `changes` (oldest first) on the current objects: the state just before the first of them, in no
 * particular order (the page is cut in key order: list-paging.ts). No change since: the current objects themselves.
 */
function stateBefore(current: KubeObject[], changes: CachedChange[], namespace: string | undefined): KubeObject[] {
  if (changes.length === 0) return current;
  const byKey = new Map<string, KubeObject>(current.map((o) => [keyOf(o), o]));
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    const key = keyOf(change.object);
    if (change.type === 'ADDED' || change.prev === undefined) byKey.delete(key);
    else byKey.set(key, change.prev);
  }
  return [...byKey.values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
}

/** keyOf is an object's key in the store's order: namespace, then name. */
function keyOf(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

/**
 * getResourceVersionError is what a get's resourceVersion answers before the object: an unparsable one is the
 * cacher's 500 (storage.InvalidError), one the store has not reached waits up to 3 s, then 504; "" and any other
 * read the latest object. It tells whether it waited (the object is then read again). See staging/src/k8s.io/apiserver/pkg/storage/cacher/delegator.go (Get) and
 * registry/generic/registry/store.go (Get, InterpretGetError), v0.36.3.
 */
export async function getResourceVersionError(fresh: Freshness, resourceVersion: string): Promise<boolean> {
  const parsed = parseResourceVersion(resourceVersion);
  if (typeof parsed !== 'bigint') throw storageInvalidError(parsed);
  const behind = BigInt(fresh.store.resourceVersion) < parsed;
  if (behind) await waitUntilFresh(fresh, parsed);
  return behind;
}

/**
 * watchResourceVersionReady checks a watch's resourceVersion before it starts: one that does not parse is the 500 of
 * cacher.Watch, thrown before any stream; a watch-list (sendInitialEvents=true) from one the store has not reached
 * waits up to 3 s for it (waitUntilWatchCacheFreshAndForceAllEvents), then gets 200 and the 504 as its ERROR event
 * (newErrWatcher), and it tells that the watch has ended. See staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go.
 */
export async function watchResourceVersionReady(fresh: Freshness, o: ListOptions, res: ServerResponse): Promise<boolean> {
  const parsed = parseResourceVersion(o.resourceVersion);
  if (typeof parsed !== 'bigint') throw storageInvalidError(parsed);
  if (o.sendInitialEvents !== true || parsed === 0n) return true;
  try {
    await waitUntilFresh(fresh, parsed);
    return true;
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    startStream(res);
    sendErrorEvent(res, e.status);
    return false;
  }
}
