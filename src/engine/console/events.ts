// The recorded events as the core/v1 Event objects kubectl lists and describes.
import { RESOURCES } from '../cluster/store';
import type { KubeEvent } from '../runtime/recorder';
import type { Simulation } from '../simulation';
import { since } from './duration';
import { DESCRIBE_TABWRITER, tabwrite } from './tabwriter';

/** CoreEvent is the part of a core/v1 Event that kubectl reads. */
export interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string; creationTimestamp: string };
  involvedObject: { apiVersion?: string; kind: string; namespace?: string; name: string; uid?: string; fieldPath?: string };
  reason: string;
  message: string;
  source: { component: string; host?: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: string;
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

/** iso is a time as metav1.Time writes it: RFC 3339 in whole seconds, UTC. */
const iso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * coreEvent turns a recorded event into the Event object the event recorder would have written. Its name is the
 * object's name and the hex UnixNano of its first occurrence (client-go tools/record/event.go makeEvent); the
 * event's place in the record stands in for the nanoseconds that tell apart events of the same millisecond.
 */
export function coreEvent(sim: Simulation, e: KubeEvent, index = sim.recorder.eventNumber(e)): CoreEvent {
  const [kind = '', a = '', b] = e.object.split('/');
  const namespaced = b !== undefined;
  const name = namespaced ? b : a;
  const epoch = sim.clock.epoch.getTime();
  const firstMs = epoch + Math.round((e.firstAt ?? e.at) * 1000);
  const lastMs = epoch + Math.round(e.at * 1000);
  const obj = sim.store.get(kind, namespaced ? a : undefined, name);
  const info = RESOURCES[kind];
  const apiVersion = obj?.apiVersion ?? (info ? (info.group ? `${info.group}/v1` : 'v1') : undefined);
  // Events about cluster-scoped objects (nodes) are written to the default namespace.
  const namespace = namespaced ? a : 'default';
  // A live cluster's Events carry the resourceVersion of their last write (etcd's revision, shared with the objects).
  const resourceVersion = sim.recorder.eventResourceVersion(e);
  // The fields in the order the Event is written (omitempty ones left out); a kubelet event about a container carries
  // its reference's fieldPath (spec.containers{app}).
  const involvedObject = {} as CoreEvent['involvedObject'];
  if (apiVersion) involvedObject.apiVersion = apiVersion;
  involvedObject.kind = kind;
  if (namespaced) involvedObject.namespace = a;
  involvedObject.name = name;
  if (obj?.metadata?.uid) involvedObject.uid = obj.metadata.uid;
  if (e.fieldPath) involvedObject.fieldPath = e.fieldPath;
  const metadata = { name: `${name}.${(BigInt(firstMs) * 1_000_000n + BigInt(Math.max(0, index))).toString(16)}`, namespace } as CoreEvent['metadata'];
  if (resourceVersion > 0) metadata.resourceVersion = String(resourceVersion);
  metadata.creationTimestamp = iso(firstMs);
  const source: CoreEvent['source'] = { component: e.source };
  if (e.host) source.host = e.host;
  return {
    apiVersion: 'v1', kind: 'Event', metadata, involvedObject, reason: e.reason, message: e.message, source,
    firstTimestamp: iso(firstMs), lastTimestamp: iso(lastMs), count: e.count, type: e.type, eventTime: null,
    reportingComponent: e.source, reportingInstance: e.host ?? '',
  };
}

/** listEvents lists the events as the API server would: in one namespace (or all), in key (name) order. */
export function listEvents(sim: Simulation, namespace: string | undefined): CoreEvent[] {
  // Sorted by namespace then name: one key each, NUL between them (below every character of a name).
  const keyed: { key: string; event: CoreEvent }[] = [];
  for (const e of sim.recorder.events) {
    const event = coreEvent(sim, e);
    if (namespace === undefined || event.metadata.namespace === namespace) keyed.push({ key: `${event.metadata.namespace}\0${event.metadata.name}`, event });
  }
  return keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)).map((k) => k.event);
}

/**
 * describeEvents writes the Events section of kubectl describe: sorted by last timestamp, Age from the first
 * timestamp, `<last> (xN over <first>)` for a repeated event, From the source component, and the message after the
 * involved object's fieldPath when it has one (`spec.containers{app}: Container created`, kubectl 1.35 and later).
 * See staging/src/k8s.io/kubectl/pkg/describe/describe.go (DescribeEvents, v0.36.0) and kubectl/pkg/util/event (SortableEvents).
 */
export function describeEvents(events: readonly CoreEvent[], nowMs: number): string {
  if (events.length === 0) return 'Events:\t<none>\n';
  const sorted = [...events].sort((x, y) => Date.parse(x.lastTimestamp) - Date.parse(y.lastTimestamp));
  let out = 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n';
  for (const e of sorted) {
    const first = since(e.firstTimestamp, nowMs);
    const interval = e.count > 1 ? `${since(e.lastTimestamp, nowMs)} (x${e.count} over ${first})` : first;
    const message = e.involvedObject.fieldPath ? `${e.involvedObject.fieldPath}: ${e.message.trim()}` : e.message.trim();
    out += `  ${e.type}\t${e.reason}\t${interval}\t${e.source.component || e.reportingComponent}\t${message}\n`;
  }
  return out;
}

/** eventsFor are the events whose involved object is the given one (kubectl describe's field selector). */
export function eventsFor(sim: Simulation, kind: string, namespace: string | undefined, name: string): CoreEvent[] {
  return listEvents(sim, undefined).filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name && (e.involvedObject.namespace ?? undefined) === namespace);
}

/**
 * withEvents finishes a description: with no events, `Events:\t<none>` joins the writer's last column block;
 * otherwise DescribeEvents flushes the tab writer first, so the events table is aligned on its own.
 */
export function withEvents(described: string, events: readonly CoreEvent[] | undefined, nowMs: number): string {
  if (!events) return tabwrite(described, DESCRIBE_TABWRITER);
  if (events.length === 0) return tabwrite(described + describeEvents(events, nowMs), DESCRIBE_TABWRITER);
  return tabwrite(described, DESCRIBE_TABWRITER) + tabwrite(describeEvents(events, nowMs), DESCRIBE_TABWRITER);
}
