// The Events the recorder keeps, as the API server's storage holds them: each under its record number (what tells
// apart two Events of one object and millisecond), written with a resourceVersion, and, on a live cluster, gone once
// the lease of its last write expires (--event-ttl). Fronts read them in record order, or hear each change.
import type { Millis } from './clock';
import { type Lease, LeaseManager } from './event-leases';
import type { Logged } from './event-correlator';

/** EventChangeType is how an Event changed: recorded, counted up (the recorder's patch), or gone with its lease. */
export type EventChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** EventChange is one write of an Event: its record number and the resourceVersion of the write (0 when unnumbered). */
export interface EventChange<E> {
  type: EventChangeType;
  event: E;
  no: number;
  resourceVersion: number;
}

/** EventTtl is what makes kept Events expire: the TTL, a way to run something later, and the revision counter. */
export interface EventTtl {
  /** ttlSeconds is the TTL in whole seconds; 0 keeps Events for ever (the etcd3 store attaches no lease). */
  ttlSeconds: number;
  /** schedule runs `run` `delay` virtual milliseconds from now. */
  schedule(delay: Millis, run: () => void): void;
  /** revision is the next resourceVersion (etcd's revision, shared with the objects). */
  revision(): number;
}

/** LiveRecord is what a live cluster keeps beside an Event: the resourceVersion of its last write, its lease, the logger's record. */
interface LiveRecord<E> {
  resourceVersion: number;
  lease?: Lease;
  logged: Logged<E>;
}

/** CHANGES_KEPT is how many of the latest changes changedSince can still hand out (a reader polls far more often). */
const CHANGES_KEPT = 16_384;

/**
 * KeptEvents holds the recorder's Events by record number, in the order they were first recorded. A run keeps only
 * the Events (an Event's number is its place); a live cluster's Events also carry a revision and a lease each.
 */
export class KeptEvents<E extends { at: number; object: string; firstAt?: number }> {
  /** byNo holds each Event at its record number; one that expired leaves a hole until a repeat brings it back. */
  private readonly byNo: (E | undefined)[] = [];
  private holes = false;
  private list: E[] | undefined;
  /** changes are the record numbers of the writes, one per write; changes[0] is write number changesBase. */
  private changes: number[] = [];
  private changesBase = 0;
  private readonly listeners = new Set<(change: EventChange<E>) => void>();
  private ttl: EventTtl | undefined;
  private leases: LeaseManager | undefined;
  /** live and noOf are kept on a live cluster only (expireAfter): the revisions and leases, an Event's number. */
  private readonly live = new Map<number, LiveRecord<E>>();
  private noOf: WeakMap<E, number> | undefined;

  constructor(private readonly now: () => Millis) {}

  /** events are the kept Events in the order they were first recorded. */
  get events(): readonly E[] {
    if (!this.holes) return this.byNo as E[];
    this.list ??= this.byNo.filter((e): e is E => e !== undefined);
    return this.list;
  }

  /** numberOf is an Event's record number; -1 for one not kept. */
  numberOf(event: E): number {
    return this.noOf ? this.noOf.get(event) ?? -1 : this.byNo.indexOf(event);
  }

  /** resourceVersionOf is the resourceVersion of an Event's last write; 0 when the Events are not numbered so. */
  resourceVersionOf(event: E): number {
    const no = this.noOf?.get(event);
    return no === undefined ? 0 : this.live.get(no)?.resourceVersion ?? 0;
  }

  /** expireAfter makes Events expire `ttl.ttlSeconds` after their last write, and numbers their writes with revisions. */
  expireAfter(ttl: EventTtl): void {
    this.ttl = ttl;
    this.leases = ttl.ttlSeconds > 0 ? new LeaseManager(ttl.ttlSeconds) : undefined;
    this.noOf ??= new WeakMap(this.byNo.flatMap((e, no) => (e === undefined ? [] : [[e, no] as [E, number]])));
  }

  /** onChange calls `listener` with each write from here on; it returns the unsubscribe. */
  onChange(listener: (change: EventChange<E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * add keeps a newly recorded Event. One whose earlier Event expired while the logger still remembered it comes back
   * under the same number (the event recorder's patch finds it gone and creates it again, with its name).
   */
  add(event: E, logged: Logged<E>): void {
    const again = logged.expired;
    delete logged.expired;
    const no = again ? again.no : this.byNo.length;
    this.byNo[no] = event;
    if (again) this.list = undefined;
    logged.event = event;
    logged.index = no;
    if (this.ttl) {
      this.noOf!.set(event, no);
      this.live.set(no, { resourceVersion: 0, logged });
    }
    this.write(no, event, 'ADDED');
  }

  /** touch notes a write of the kept Event of a number (counted up, its message or time changed). */
  touch(no: number): void {
    const event = this.byNo[no];
    if (event !== undefined) this.write(no, event, 'MODIFIED');
  }

  /**
   * changedSince returns the Events recorded or counted up since a cursor (the ones still kept), each once, in record
   * order, with the cursor to pass next time. A cursor more than CHANGES_KEPT writes behind starts at the oldest kept.
   */
  changedSince(cursor: number): { changed: { no: number; event: E }[]; cursor: number } {
    const from = Math.max(0, cursor - this.changesBase);
    const numbers = [...new Set(this.changes.slice(from))].sort((a, b) => a - b);
    const changed: { no: number; event: E }[] = [];
    for (const no of numbers) {
      const event = this.byNo[no];
      if (event !== undefined) changed.push({ no, event });
    }
    return { changed, cursor: this.changesBase + this.changes.length };
  }

  /** clear forgets every Event (the cluster's warm-up): the numbers start again. */
  clear(): void {
    this.byNo.length = 0;
    this.holes = false;
    this.list = undefined;
    this.live.clear();
    if (this.noOf) this.noOf = new WeakMap();
    this.changes = [];
    this.changesBase = 0;
  }

  /** write numbers a write, attaches the Event to a lease when they expire, and tells the listeners. */
  private write(no: number, event: E, type: EventChangeType): void {
    this.changes.push(no);
    if (this.changes.length >= 2 * CHANGES_KEPT) {
      this.changes = this.changes.slice(CHANGES_KEPT);
      this.changesBase += CHANGES_KEPT;
    }
    const ttl = this.ttl;
    const record = ttl ? this.live.get(no) : undefined;
    if (ttl && record) {
      record.resourceVersion = ttl.revision();
      if (this.leases) {
        const { lease, granted } = this.leases.grant(this.now());
        if (record.lease !== lease) {
          record.lease?.members.delete(no);
          lease.members.add(no);
          record.lease = lease;
        }
        if (granted) ttl.schedule(Math.max(0, lease.expiresAt - this.now()), () => this.revoke(lease));
      }
    }
    if (this.listeners.size > 0) this.tell({ type, event, no, resourceVersion: record?.resourceVersion ?? 0 });
  }

  /**
   * revoke is etcd revoking an expired lease: one transaction deletes every key still attached to it, in key order
   * (the namespace, then the name: the involved object's name and the first time), all at one revision.
   */
  private revoke(lease: Lease): void {
    if (lease.members.size === 0) return;
    const gone = [...lease.members].flatMap((no) => {
      const event = this.byNo[no];
      return event === undefined ? [] : [{ no, event }];
    });
    lease.members.clear();
    gone.sort(byKey);
    const resourceVersion = this.ttl?.revision() ?? 0;
    for (const { no, event } of gone) {
      this.byNo[no] = undefined;
      this.noOf?.delete(event);
      const logged = this.live.get(no)?.logged;
      this.live.delete(no);
      // The logger still counts the key; its next repeat creates the Event again under its old name and first time.
      if (logged && logged.event === event) {
        delete logged.event;
        logged.expired = { no, firstAt: event.firstAt ?? event.at };
      }
    }
    this.holes = true;
    this.list = undefined;
    for (const { no, event } of gone) this.tell({ type: 'DELETED', event, no, resourceVersion });
  }

  private tell(change: EventChange<E>): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** byKey orders Events as their etcd keys: namespace, then name (`<object>.<hex of first time and number>`). */
function byKey<E extends { at: number; object: string; firstAt?: number }>(a: { no: number; event: E }, b: { no: number; event: E }): number {
  const [ka, kb] = [keyParts(a.event.object), keyParts(b.event.object)];
  return cmp(ka.namespace, kb.namespace) || cmp(`${ka.name}.`, `${kb.name}.`)
    || (a.event.firstAt ?? a.event.at) - (b.event.firstAt ?? b.event.at) || a.no - b.no;
}

/** keyParts are the namespace an Event about an object is written to (default for a cluster-scoped one) and the object's name. */
function keyParts(ref: string): { namespace: string; name: string } {
  const [, a = '', b] = ref.split('/');
  return b === undefined ? { namespace: 'default', name: a } : { namespace: a, name: b };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
