// Kubernetes Events as a live cluster returns them (core/v1 Event objects, read through kubectl) turned into the
// diagnosis' events: the involved object as `Pod/ns/name` or `Node/name`, the last occurrence in seconds since an epoch.
import type { KubeObject, Pod } from '../api/types';
import type { DiagnosisEvent } from './pod-view';

/** CoreEvent is the part of a core/v1 Event the diagnosis reads. */
interface CoreEvent {
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; fieldPath?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string };
  reportingComponent?: string;
  metadata?: { creationTimestamp?: string };
}

/** eventInstant is when an Event last happened: lastTimestamp, the series' last observation, eventTime, or its creation. */
export function eventInstant(e: KubeObject): number | undefined {
  const c = e as unknown as CoreEvent;
  const ts = c.lastTimestamp ?? c.series?.lastObservedTime ?? c.eventTime ?? c.firstTimestamp ?? c.metadata?.creationTimestamp;
  const ms = ts ? Date.parse(ts) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

function refOfInvolved(o: NonNullable<CoreEvent['involvedObject']>): string {
  return o.kind === 'Node' ? `Node/${o.name ?? ''}` : `${o.kind ?? ''}/${o.namespace ?? 'default'}/${o.name ?? ''}`;
}

/**
 * liveEvents turns the Events about the pod (its uid, or its name when the event carries no uid) and about its node
 * into diagnosis events, `at` in seconds since `epochMs`, oldest first.
 */
export function liveEvents(events: readonly KubeObject[], pod: Pod, epochMs: number): DiagnosisEvent[] {
  const uid = pod.metadata?.uid;
  const out: { e: DiagnosisEvent; ms: number }[] = [];
  for (const raw of events) {
    const c = raw as unknown as CoreEvent;
    const o = c.involvedObject;
    if (!o) continue;
    const aboutPod = o.kind === 'Pod' && o.name === pod.metadata?.name && (o.namespace ?? 'default') === (pod.metadata?.namespace ?? 'default')
      && (!o.uid || !uid || o.uid === uid);
    const aboutNode = o.kind === 'Node' && o.name !== undefined && o.name === pod.spec?.nodeName;
    if (!aboutPod && !aboutNode) continue;
    const ms = eventInstant(raw) ?? epochMs;
    const count = c.series?.count ?? c.count;
    const source = c.source?.component || c.reportingComponent;
    out.push({
      ms,
      e: {
        at: (ms - epochMs) / 1000, type: c.type ?? 'Normal', reason: c.reason ?? '', object: refOfInvolved(o), message: c.message ?? '',
        ...(o.fieldPath ? { fieldPath: o.fieldPath } : {}), ...(source ? { source } : {}), ...(count && count > 1 ? { count } : {}),
      },
    });
  }
  return out.sort((a, b) => a.ms - b.ms).map((x) => x.e);
}
