// The ReplicaSet controller's expectations: after it asks for N creations (or deletions of given pods) it waits until
// its informer has seen them before it creates or deletes again, so a sync that runs while the last one's requests
// are still under way does not ask twice. Expectations older than five minutes count as met.
// See pkg/controller/controller_utils.go (ControllerExpectations, UIDTrackingControllerExpectations, ExpectationsTimeout).
import type { Millis, VirtualClock } from '../runtime/clock';

/** EXPECTATIONS_TIMEOUT_MS is ExpectationsTimeout: after it, expectations not yet met no longer hold a sync back. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

/** Expectation is one controller's outstanding creations and the pods whose deletion it waits to see. */
interface Expectation {
  add: number;
  deletions: Set<string>;
  at: Millis;
}

/** ControllerExpectations keeps the expectations of each controller by its key (`namespace/name`). */
export class ControllerExpectations {
  private readonly records = new Map<string, Expectation>();

  constructor(private readonly clock: VirtualClock) {}

  /** satisfied is SatisfiedExpectations: no record, all creations and deletions seen, or the record has expired. */
  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    if (r.add <= 0 && r.deletions.size === 0) return true;
    return this.clock.now - r.at > EXPECTATIONS_TIMEOUT_MS;
  }

  /** expectCreations is ExpectCreations: the next `count` pod additions are this controller's. */
  expectCreations(key: string, count: number): void {
    this.records.set(key, { add: count, deletions: new Set(), at: this.clock.now });
  }

  /** expectDeletions is UIDTrackingControllerExpectations.ExpectDeletions: these pods (by namespace/name) are to go. */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.records.set(key, { add: 0, deletions: new Set(podKeys), at: this.clock.now });
  }

  /** creationObserved is CreationObserved: one expected creation seen (or one that will never come). */
  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.add--;
  }

  /** deletionObserved is DeletionObserved: the pod's deletion seen (or one that will never come). */
  deletionObserved(key: string, podKey: string): void {
    this.records.get(key)?.deletions.delete(podKey);
  }

  /** forget is DeleteExpectations, when the controller itself is deleted. */
  forget(key: string): void {
    this.records.delete(key);
  }
}
