// What a ReplicaSet's sync counts of its pods, kept up to date from the pod informer's events, so a sync costs what
// changed since the last one rather than a walk of every pod: the active, ready and terminating pods it controls, those
// whose labels still match its selector and those fully labeled as its template. This is the engine's index for the
// same counts replica_set.go computes from its lister on every sync (claimPods, calculateStatus).
import { matchesLabelSelector } from '../api/labels';
import type { Labels } from '../api/labels';
import type { KubeObject, Pod, ReplicaSet } from '../api/types';
import { keyOf, type Store, type WatchEventType } from '../cluster/store';
import { controllerOf } from './owner';
import { isPodActive, isPodReady, isPodTerminal } from './pods';

/** PodFacts is one controlled pod as the counts see it; `matches` and `full` wait for the ReplicaSet to be read. */
interface PodFacts {
  active: boolean;
  ready: boolean;
  terminating: boolean;
  labels: Labels | undefined;
  matches?: boolean;
  full?: boolean;
}

/** Tally is one ReplicaSet's counts. */
class Tally {
  readonly pods = new Map<string, PodFacts>();
  active = 0;
  ready = 0;
  terminating = 0;
  fullyLabeled = 0;
  /** mismatched are the active pods it controls whose labels no longer match its selector: the ones to release. */
  readonly mismatched = new Set<string>();
  /** pending are the pods changed since the last read, whose selector and template match is still to be checked. */
  readonly pending = new Set<string>();
  templateKey: string | undefined;
}

/** ReplicaSetCounts are a ReplicaSet's counts as its sync reads them. */
export interface ReplicaSetCounts {
  /** active are the pods it controls that are neither terminal nor being deleted. */
  active: number;
  /** ready are the active ones whose Ready condition is True. */
  ready: number;
  /** fullyLabeled are the active ones with every label of its template. */
  fullyLabeled: number;
  /** terminating are the pods being deleted that are not yet Succeeded or Failed. */
  terminating: number;
  /** mismatched are the keys of the active pods it controls whose labels no longer match its selector. */
  mismatched: ReadonlySet<string>;
}

/** ReplicaSetTallies keeps the counts of every ReplicaSet that has been synced. */
export class ReplicaSetTallies {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly store: Store) {}

  /** onPod is the pod informer's handler: the pod's old version leaves its controller's counts, the new one joins. */
  onPod(type: WatchEventType, pod: Pod, old: Pod | undefined): void {
    const key = keyOf(pod);
    const before = old && type !== 'ADDED' ? controllerOf(old as unknown as KubeObject)?.uid : undefined;
    const now = type === 'DELETED' ? undefined : controllerOf(pod as unknown as KubeObject)?.uid;
    const was = before ? this.tallies.get(before) : undefined;
    if (was) forget(was, key);
    if (now) {
      const tally = this.tallies.get(now);
      if (tally) learn(tally, key, pod);
    }
  }

  /** drop forgets a deleted ReplicaSet's counts. */
  drop(uid: string): void {
    this.tallies.delete(uid);
  }

  /** counts are the ReplicaSet's counts now; the first read lists its pods once, later ones take only what changed. */
  counts(rs: ReplicaSet): ReplicaSetCounts {
    const uid = rs.metadata?.uid ?? '';
    let tally = this.tallies.get(uid);
    if (!tally) {
      tally = new Tally();
      for (const pod of this.store.byIndex<Pod>('controller', uid, 'Pod')) learn(tally, keyOf(pod), pod);
      this.tallies.set(uid, tally);
    }
    settle(tally, rs);
    return tally;
  }
}

function factsOf(pod: Pod): PodFacts {
  const active = isPodActive(pod);
  return { active, ready: active && isPodReady(pod), terminating: !!pod.metadata?.deletionTimestamp && !isPodTerminal(pod), labels: pod.metadata?.labels };
}

function learn(tally: Tally, key: string, pod: Pod): void {
  forget(tally, key);
  const facts = factsOf(pod);
  tally.pods.set(key, facts);
  if (facts.active) tally.active++;
  if (facts.ready) tally.ready++;
  if (facts.terminating) tally.terminating++;
  tally.pending.add(key);
}

function forget(tally: Tally, key: string): void {
  const facts = tally.pods.get(key);
  if (!facts) return;
  if (facts.active) tally.active--;
  if (facts.ready) tally.ready--;
  if (facts.terminating) tally.terminating--;
  if (facts.active && facts.full) tally.fullyLabeled--;
  tally.mismatched.delete(key);
  tally.pending.delete(key);
  tally.pods.delete(key);
}

/** settle checks the changed pods against the ReplicaSet's selector and template, and all of them when the template's labels changed. */
function settle(tally: Tally, rs: ReplicaSet): void {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const templateKey = JSON.stringify(Object.entries(templateLabels).sort());
  if (templateKey !== tally.templateKey) {
    tally.templateKey = templateKey;
    tally.fullyLabeled = 0;
    for (const facts of tally.pods.values()) {
      facts.full = fullyLabeled(facts.labels, templateLabels);
      if (facts.active && facts.full) tally.fullyLabeled++;
    }
  }
  for (const key of tally.pending) {
    const facts = tally.pods.get(key)!;
    if (facts.full === undefined) {
      facts.full = fullyLabeled(facts.labels, templateLabels);
      if (facts.active && facts.full) tally.fullyLabeled++;
    }
    facts.matches = matchesLabelSelector(rs.spec?.selector, facts.labels);
    if (facts.active && !facts.matches) tally.mismatched.add(key);
  }
  tally.pending.clear();
}

function fullyLabeled(labels: Labels | undefined, template: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(template)) if (labels?.[k] !== v) return false;
  return true;
}
