// The client-side rate limit of kube-controller-manager's clients. Each controller has a clientset of its own (with
// --use-service-account-credentials, ClientBuilder.ClientOrDie(name)), and client-go gives each clientset one token
// bucket (kubernetes/clientset.go NewForConfigAndClient: flowcontrol.NewTokenBucketRateLimiter(QPS, Burst), client-go
// v0.36.3) at the manager's --kube-api-qps 20 and --kube-api-burst 30 (cmd/kube-controller-manager/app/options,
// v1.36.3), or what a ClusterProfile's controllerManager sets. A request that finds the bucket empty waits before it is
// sent (rest/request.go tryThrottleWithInfo): a ReplicaSet of 1,000 replicas has its first 15 pods (and their Events)
// created at once and the others at 20 requests a second.
import { CONTROLLER_MANAGER_DEFAULTS, type ControllerManagerFlags } from '../cluster/inputs';
import type { Millis } from '../runtime/clock';
import { ClientLimiter } from '../runtime/client-rate-limit';
import type { PhaseName } from '../runtime/phases';
import type { Steps } from '../runtime/step';

/** KUBE_API_QPS and KUBE_API_BURST are kube-controller-manager's --kube-api-qps and --kube-api-burst defaults. */
export const KUBE_API_QPS = CONTROLLER_MANAGER_DEFAULTS.kubeAPIQPS;
export const KUBE_API_BURST = CONTROLLER_MANAGER_DEFAULTS.kubeAPIBurst;

/** ClientThrottle holds each controller's clientset's limiter for one run, by the controller's service account. */
export class ClientThrottle {
  private readonly limiters = new Map<string, ClientLimiter>();

  constructor(private readonly now: () => Millis, private readonly flags: ControllerManagerFlags = CONTROLLER_MANAGER_DEFAULTS) {}

  private limiter(serviceAccount: string): ClientLimiter {
    let limiter = this.limiters.get(serviceAccount);
    if (!limiter) {
      limiter = new ClientLimiter(this.now, { qps: this.flags.kubeAPIQPS, burst: this.flags.kubeAPIBurst, flags: '--kube-api-qps, --kube-api-burst' });
      this.limiters.set(serviceAccount, limiter);
    }
    return limiter;
  }

  /**
   * spend takes a token for a request the controller does not wait for: an Event its broadcaster sends through the
   * same client (record.EventSinkImpl over the controller's clientset, its core/v1 Events client), which its later
   * requests then wait for.
   */
  spend(serviceAccount: string): void {
    this.limiter(serviceAccount).spend('/api/v1/events');
  }

  /** wait is what a controller's request does before it is sent: its client's limiter's wait, if any. */
  wait(serviceAccount: string, phase: PhaseName, ref: string | undefined, verb: string, path: string): Steps<void> {
    return this.limiter(serviceAccount).wait(serviceAccount, phase, ref, verb, path);
  }
}

/**
 * EVENT_SOURCES are the event sources of the controllers whose requests are limited, with the service account each
 * acts as: their broadcasters send Events through the controller's own client.
 */
const EVENT_SOURCES: ReadonlyMap<string, string> = new Map([
  ['replicaset-controller', 'replicaset-controller'], ['replication-controller', 'replication-controller'],
  ['deployment-controller', 'deployment-controller'], ['daemonset-controller', 'daemon-set-controller'],
  ['job-controller', 'job-controller'], ['statefulset-controller', 'statefulset-controller'], ['cronjob-controller', 'cronjob-controller'],
]);

/** THROTTLES are the runs' controller client limiters, by the API server the clients send to (one per run). */
const THROTTLES = new WeakMap<object, ClientThrottle>();

/** throttleOf is the controller clients' limiter of the run whose API server this is (limitClients made it). */
export function throttleOf(api: { now(): Millis }): ClientThrottle {
  let throttle = THROTTLES.get(api);
  if (!throttle) THROTTLES.set(api, (throttle = new ClientThrottle(() => api.now())));
  return throttle;
}

/**
 * limitClients sets the controllers' clients' limits from kube-controller-manager's flags, before any controller has
 * sent a request, and has each controller's Event writes spend a token of its client's bucket, as kube-controller-manager
 * builds each controller's broadcaster over its own clientset.
 */
export function limitClients(api: { now(): Millis }, flags: ControllerManagerFlags | undefined, recorder: { onEventWrite(listener: (source: string) => void): void }): void {
  const throttle = new ClientThrottle(() => api.now(), flags);
  THROTTLES.set(api, throttle);
  recorder.onEventWrite((source) => {
    const account = EVENT_SOURCES.get(source);
    if (account !== undefined) throttle.spend(account);
  });
}
