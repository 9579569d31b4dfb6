// StatefulPodControl: the StatefulSet controller's writes of pods and claims, and the events it records for them.
// See pkg/controller/statefulset/stateful_pod_control.go (CreateStatefulPod, UpdateStatefulPod, DeleteStatefulPod,
// createPersistentVolumeClaims, createMissingPersistentVolumeClaims, recordPodEvent, recordClaimEvent) at kubernetes v1.36.3.
import type { KubeObject, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import { asObject } from './pods';
import { updatePodClaimForRetentionPolicy } from './statefulset-claims';
import { ordinalOf, type StatefulSet, statefulClaims } from './statefulset-identity';

/** STATEFULSET_CONTROLLER is the source of its events (EventSource{Component: "statefulset-controller"}) and its service account. */
export const STATEFULSET_CONTROLLER = 'statefulset-controller';

const PHASE = 'controllers.statefulset' as const;

/** setRef is the trace and event reference of a set: `StatefulSet/<namespace>/<name>`. */
export function setRef(set: StatefulSet): string {
  return `StatefulSet/${set.metadata?.namespace}/${set.metadata?.name}`;
}

/** title is cases.Title(language.English) of the one-word verbs the controller uses. */
const title = (verb: string): string => verb.charAt(0).toUpperCase() + verb.slice(1);

/**
 * recordPodEvent: Normal Successful<Verb> "<Verb> Pod <pod> in StatefulSet <set> successful", or Warning
 * Failed<Verb> "<Verb> Pod <pod> in StatefulSet <set> failed error: <err>". The verb is title-cased in the message too
 * (cases.Title since 1.2x; older releases wrote it in lower case), as the reference cluster v1.36.3 prints it.
 */
export function recordPodEvent(ctx: EngineContext, verb: string, set: StatefulSet, pod: Pod, error?: string): void {
  const pod_ = pod.metadata?.name ?? '';
  const name = set.metadata?.name ?? '';
  if (error === undefined) ctx.recorder.event({ type: 'Normal', reason: `Successful${title(verb)}`, object: setRef(set), source: STATEFULSET_CONTROLLER, message: `${title(verb)} Pod ${pod_} in StatefulSet ${name} successful` });
  else ctx.recorder.event({ type: 'Warning', reason: `Failed${title(verb)}`, object: setRef(set), source: STATEFULSET_CONTROLLER, message: `${title(verb)} Pod ${pod_} in StatefulSet ${name} failed error: ${error}` });
}

/**
 * recordClaimEvent: Normal Successful<Verb> "<Verb> Claim <claim> Pod <pod> in StatefulSet <set> success", or Warning
 * Failed<Verb> "<Verb> Claim <claim> for Pod <pod> in StatefulSet <set> failed error: <err>" (the wordings differ).
 */
function recordClaimEvent(ctx: EngineContext, verb: string, set: StatefulSet, pod: Pod, claim: string, error?: string): void {
  const pod_ = pod.metadata?.name ?? '';
  const name = set.metadata?.name ?? '';
  if (error === undefined) ctx.recorder.event({ type: 'Normal', reason: `Successful${title(verb)}`, object: setRef(set), source: STATEFULSET_CONTROLLER, message: `${title(verb)} Claim ${claim} Pod ${pod_} in StatefulSet ${name} success` });
  else ctx.recorder.event({ type: 'Warning', reason: `Failed${title(verb)}`, object: setRef(set), source: STATEFULSET_CONTROLLER, message: `${title(verb)} Claim ${claim} for Pod ${pod_} in StatefulSet ${name} failed error: ${error}` });
}

/** aggregate is utilerrors.NewAggregate(errs).Error(): one message alone, several as "[a, b]". */
function aggregate(errors: string[]): string | undefined {
  if (errors.length === 0) return undefined;
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/**
 * createClaims is createPersistentVolumeClaims: each claim of the pod that does not exist is created (event
 * SuccessfulCreate, or FailedCreate unless it already exists); one being deleted is an error. Returns the aggregate.
 */
export function* createClaims(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<string | undefined> {
  const errors: string[] = [];
  for (const { claim } of statefulClaims(set, ordinalOf(pod))) {
    const name = claim.metadata?.name ?? '';
    const existing = ctx.store.get<KubeObject>('PersistentVolumeClaim', claim.metadata?.namespace, name);
    if (existing) {
      if (existing.metadata?.deletionTimestamp) errors.push(`pvc ${name} is being deleted`);
      continue;
    }
    const out = yield* client.create(claim, setRef(set));
    if (out.ok) {
      recordClaimEvent(ctx, 'create', set, pod, name);
      yield { phase: PHASE, object: setRef(set), field: 'spec.volumeClaimTemplates', step: { kind: 'object', name }, result: `created PersistentVolumeClaim ${name} for pod ${pod.metadata?.name}, before the pod`, detail: { claim: name, pod: pod.metadata?.name } };
      continue;
    }
    errors.push(`failed to create PVC ${name}: ${out.error.message}`);
    // An AlreadyExists (the informer had not seen it yet) records no event.
    if (out.error.status.reason !== 'AlreadyExists') recordClaimEvent(ctx, 'create', set, pod, name, out.error.message);
    yield { phase: PHASE, object: setRef(set), field: 'spec.volumeClaimTemplates', step: { kind: 'object', name }, result: `failed to create PVC ${name}: ${out.error.message}`, detail: { status: out.error.status }, outcome: 'failed' };
  }
  return aggregate(errors);
}

/**
 * createStatefulPod is CreateStatefulPod: the claims first (a failure is the pod's FailedCreate), then the pod;
 * an AlreadyExists is returned without an event. Returns the error, if any.
 */
export function* createStatefulPod(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<string | undefined> {
  const name = pod.metadata?.name ?? '';
  const claimError = yield* createClaims(ctx, client, set, pod);
  if (claimError !== undefined) {
    recordPodEvent(ctx, 'create', set, pod, claimError);
    return claimError;
  }
  const out = yield* client.create(asObject(pod), setRef(set));
  if (!out.ok && out.error.status.reason === 'AlreadyExists') {
    yield { phase: PHASE, object: setRef(set), step: { kind: 'object', name }, result: `pod ${name} already exists: no event, the sync fails and is retried`, detail: { status: out.error.status }, outcome: 'failed' };
    return out.error.message;
  }
  // UpdatePodClaimForRetentionPolicy: the claims' owner references as the retention policy asks, before the event.
  const policyError = yield* updatePodClaimForRetentionPolicy(ctx, client, set, pod);
  if (policyError !== undefined) {
    recordPodEvent(ctx, 'update', set, pod, policyError);
    return policyError;
  }
  recordPodEvent(ctx, 'create', set, pod, out.ok ? undefined : out.error.message);
  if (out.ok) {
    yield { phase: PHASE, object: setRef(set), step: { kind: 'object', name }, result: `created pod ${name} (hostname ${name}${set.spec?.serviceName ? `, subdomain ${set.spec.serviceName}` : ''})`, detail: { pod: name } };
    return undefined;
  }
  yield { phase: PHASE, object: setRef(set), step: { kind: 'object', name }, result: `Create Pod ${name} in StatefulSet ${set.metadata?.name} failed error: ${out.error.message}`, detail: { status: out.error.status }, outcome: 'failed' };
  return out.error.message;
}

/**
 * createMissingClaims is createMissingPersistentVolumeClaims: the claims of a Pending pod, then their owner references
 * for the retention policy (its error is the pod's FailedUpdate).
 */
export function* createMissingClaims(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<string | undefined> {
  const error = yield* createClaims(ctx, client, set, pod);
  if (error !== undefined) return error;
  const policyError = yield* updatePodClaimForRetentionPolicy(ctx, client, set, pod);
  if (policyError !== undefined) recordPodEvent(ctx, 'update', set, pod, policyError);
  return policyError;
}

/**
 * updateStatefulPodClaims is UpdateStatefulPod when only the claims' owner references are out of step with the
 * retention policy: the claims are updated, then the pod (unchanged, so nothing is written), and the update event.
 */
export function* updateStatefulPodClaims(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<string | undefined> {
  const error = yield* updatePodClaimForRetentionPolicy(ctx, client, set, pod);
  if (error !== undefined) {
    recordPodEvent(ctx, 'update', set, pod, error);
    return error;
  }
  const out = yield* client.update(asObject(pod), setRef(set));
  recordPodEvent(ctx, 'update', set, pod, out.ok ? undefined : out.error.message);
  return out.ok ? undefined : out.error.message;
}

/** deleteStatefulPod is DeleteStatefulPod: a NotFound counts as deleted; events SuccessfulDelete / FailedDelete. */
export function* deleteStatefulPod(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod, why: string): Steps<string | undefined> {
  const name = pod.metadata?.name ?? '';
  yield { phase: PHASE, object: setRef(set), step: { kind: 'object', name }, result: `deleting pod ${name}: ${why}`, detail: { pod: name } };
  const out = yield* client.delete(asObject(pod), {}, setRef(set));
  if (!out.ok && out.error.status.code !== 404) {
    recordPodEvent(ctx, 'delete', set, pod, out.error.message);
    return out.error.message;
  }
  recordPodEvent(ctx, 'delete', set, pod);
  return undefined;
}
