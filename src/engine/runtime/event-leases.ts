// The leases that make Events expire: kube-apiserver stores each Event with a TTL (--event-ttl, 1h by default), which
// etcd keeps as a lease the Event's key is attached to; writes close together share one lease.
// See pkg/registry/core/event/storage/storage.go (TTLFunc: the TTL on every create and update, v1.36.3) and
// staging/src/k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go (GetLease, v0.36.3).
import type { Millis } from './clock';

/** LEASE_REUSE_SECONDS is defaultLeaseReuseDurationSeconds: the longest a lease is handed out again. */
export const LEASE_REUSE_SECONDS = 60;
/** LEASE_REUSE_PERCENT is the lease manager's leaseReuseDurationPercent: at most 5% of the TTL. */
export const LEASE_REUSE_PERCENT = 0.05;
/** LEASE_MAX_OBJECTS is defaultLeaseMaxObjectCount: how many writes one lease takes before a new one is granted. */
export const LEASE_MAX_OBJECTS = 1000;

/** Lease is one etcd lease: when it expires and the Events (by their record number) still attached to it. */
export interface Lease {
  id: number;
  expiresAt: Millis;
  members: Set<number>;
}

/**
 * LeaseManager is the etcd3 store's leaseManager: a write that needs a TTL reuses the last lease granted while that
 * one expires between TTL and TTL plus the reuse duration from now (min(5% of the TTL, 60 s)) and has taken fewer
 * than 1000 writes; otherwise it gets a new lease of the TTL plus the reuse duration. So an Event goes between TTL
 * and TTL + 60 s after its last write.
 */
export class LeaseManager {
  private prev: Lease | undefined;
  private attached = 0;
  private nextId = 1;

  /** ttlSeconds is the TTL as the registry hands it to storage: whole seconds (uint64(EventTTL.Seconds())). */
  constructor(readonly ttlSeconds: number) {}

  /** grant is GetLease: the lease a write at `now` is attached to, and whether it is a new one (to be revoked in time). */
  grant(now: Millis): { lease: Lease; granted: boolean } {
    const ttl = this.ttlSeconds;
    const reuse = Math.min(Math.trunc(LEASE_REUSE_PERCENT * ttl), LEASE_REUSE_SECONDS);
    const prev = this.prev;
    // Every write counts against the lease, whether it gets it or not.
    this.attached++;
    if (prev && now + ttl * 1000 < prev.expiresAt && now + (ttl + reuse) * 1000 > prev.expiresAt && this.attached <= LEASE_MAX_OBJECTS) {
      return { lease: prev, granted: false };
    }
    const lease: Lease = { id: this.nextId++, expiresAt: now + (ttl + reuse) * 1000, members: new Set() };
    this.prev = lease;
    this.attached = 1;
    return { lease, granted: true };
  }
}
