// One component's event correlator, as client-go's EventCorrelator: the aggregator, the logger and the spam filter,
// each an LRU cache of maxLruCacheEntries keys. See staging/src/k8s.io/client-go/tools/record/events_cache.go (v0.36.0).
import type { Millis } from './clock';

/** LRU_CACHE_ENTRIES is maxLruCacheEntries: how many keys each cache of a correlator remembers. */
export const LRU_CACHE_ENTRIES = 4096;
/** AGGREGATE_MAX_EVENTS is defaultAggregateMaxEvents: the distinct messages of one reason before they are combined. */
export const AGGREGATE_MAX_EVENTS = 10;
/** AGGREGATE_INTERVAL_MS is defaultAggregateIntervalInSeconds (600): a longer quiet spell starts the count again. */
export const AGGREGATE_INTERVAL_MS = 600_000;
/** EVENT_SPAM_BURST is how many events a source may send about one object at once (defaultSpamBurst). */
export const EVENT_SPAM_BURST = 25;
/** EVENT_SPAM_QPS is the refill of that budget: one event every 5 minutes (defaultSpamQPS). */
export const EVENT_SPAM_QPS = 1 / 300;

/**
 * keyOf is a cache key: a 53-bit hash of the key's parts (cyrb53), not the joined string. A key of the logger holds the
 * event's message; thousands of pods' keys as strings cost more than their events. Each cache holds at most 4096 keys,
 * so two of them sharing a hash is a chance of about 1 in 10^9 per cache.
 */
export function keyOf(parts: readonly string[]): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    // A separator keeps ("ab", "c") apart from ("a", "bc").
    h1 = Math.imul(h1 ^ 0xffff, 2654435761);
    h2 = Math.imul(h2 ^ 0xffff, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Lru is golang-lru's Cache as the correlator uses it: a read or a write makes a key the newest, and a write past the
 * size forgets the oldest. A Map keeps its keys in insertion order: the first is the oldest.
 */
class Lru<V> {
  private readonly map = new Map<number, V>();

  get(key: number): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: number, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > LRU_CACHE_ENTRIES) this.map.delete(this.map.keys().next().value!);
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }
}

/** Logged is the logger's record of one event key: how often it was seen, and the Event it made with its place. */
export interface Logged<E> {
  observed: number;
  event?: E;
  index: number;
  /** expired is the record number and first time of its Event once that expired (its TTL): a repeat brings it back. */
  expired?: { no: number; firstAt: number };
}

/** Aggregate is the aggregator's record of one key: the distinct messages (one kept as itself), and the last time. */
interface Aggregate {
  messages: string | Set<string>;
  last: Millis;
}

/** EventCorrelator is one component's correlator: the logger, the aggregator and the spam filter. */
export class EventCorrelator<E> {
  private readonly logger = new Lru<Logged<E>>();
  private readonly aggregates = new Lru<Aggregate>();
  private readonly spam = new Lru<{ tokens: number; at: Millis }>();

  /** observe is eventObserve: the logger counts every repeat of the key it still remembers. */
  observe(key: number): Logged<E> {
    const logged = this.logger.get(key) ?? { observed: 0, index: -1 };
    logged.observed++;
    this.logger.set(key, logged);
    return logged;
  }

  /**
   * aggregate is EventAggregate's record of one aggregate key: the distinct messages seen since the last gap of more
   * than 10 minutes. At 10 of them the event is aggregated, and one message leaves the set (PopAny: Go picks any;
   * here the oldest), so every new message after it is aggregated too.
   */
  aggregate(key: number, message: string, now: Millis): boolean {
    let record = this.aggregates.get(key);
    if (!record || now - record.last > AGGREGATE_INTERVAL_MS) record = { messages: message, last: now };
    else if (typeof record.messages === 'string') {
      if (record.messages !== message) record.messages = new Set([record.messages, message]);
    } else record.messages.add(message);
    record.last = now;
    this.aggregates.set(key, record);
    if (typeof record.messages === 'string' || record.messages.size < AGGREGATE_MAX_EVENTS) return false;
    record.messages.delete(record.messages.values().next().value as string);
    return true;
  }

  /** tryAccept takes a token from the source and object's bucket: 25 to start, refilled at one per 300 s. */
  tryAccept(key: number, now: Millis): boolean {
    const bucket = this.spam.get(key) ?? { tokens: EVENT_SPAM_BURST, at: now };
    bucket.tokens = Math.min(EVENT_SPAM_BURST, bucket.tokens + ((now - bucket.at) / 1000) * EVENT_SPAM_QPS);
    bucket.at = now;
    this.spam.set(key, bucket);
    if (bucket.tokens < 1 - 1e-9) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** forgetEvents drops the logger's links to Events that are gone; its counts, like the spam budgets, stay. */
  forgetEvents(): void {
    for (const logged of this.logger.values()) {
      delete logged.event;
      delete logged.expired;
    }
  }
}
