// The client-side rate limit of kube-controller-manager's clients. Each controller has a clientset of its own (with
// --use-service-account-credentials, ClientBuilder.ClientOrDie(name)), and client-go gives each clientset one token
// bucket (kubernetes/clientset.go NewForConfigAndClient: flowcontrol.NewTokenBucketRateLimiter(QPS, Burst), client-go
// v0.36.3) at the manager's --kube-api-qps 20 and --kube-api-burst 30 (cmd/kube-controller-manager/app/options,
// v1.36.3), or what a ClusterProfile's controllerManager sets. A request that finds the bucket empty waits before it is
// sent (rest/request.go tryThrottleWithInfo): a ReplicaSet of 1,000 replicas has its first 15 pods (and their Events)
// created at once and the others at 20 requests a second.
import { CONTROLLER_MANAGER_DEFAULTS, type ControllerManagerFlags } from '../cluster/inputs';
import type { Millis } from '../runtime/clock';
import { goDuration } from '../runtime/durations';
import type { PhaseName } from '../runtime/phases';
import { sleep, type Steps } from '../runtime/step';

/** KUBE_API_QPS and KUBE_API_BURST are kube-controller-manager's --kube-api-qps and --kube-api-burst defaults. */
export const KUBE_API_QPS = CONTROLLER_MANAGER_DEFAULTS.kubeAPIQPS;
export const KUBE_API_BURST = CONTROLLER_MANAGER_DEFAULTS.kubeAPIBurst;

/**
 * DEFAULT_QPS and DEFAULT_BURST are client-go's rest.DefaultQPS and DefaultBurst (rest/config.go, v0.36.3): with
 * --kube-api-qps 0 the clientset has no limiter of its own, and each API group's client makes one of these.
 */
const DEFAULT_QPS = 5;
const DEFAULT_BURST = 10;

/** LONG_THROTTLE_MS is longThrottleLatency: a longer wait is logged (rest/request.go, client-go v0.36.3). */
const LONG_THROTTLE_MS = 50;

/** THROTTLE_REASON is the reason client-go logs for a wait on its own rate limiter. */
const THROTTLE_REASON = 'client-side throttling, not priority and fairness';

/**
 * TokenBucket is golang.org/x/time/rate's Limiter as Wait uses it: `burst` tokens to start with, `qps` more each
 * second up to `burst`; a request takes one, and when none is left it reserves the next and waits for it.
 */
export class TokenBucket {
  private tokens: number;
  private last: Millis;

  constructor(readonly qps: number, readonly burst: number, now: Millis) {
    this.tokens = burst;
    this.last = now;
  }

  /** reserve takes a token at `now` and returns how long the request waits for it (0 when one was there). */
  reserve(now: Millis): Millis {
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }
}

/**
 * ClientThrottle holds each controller client's bucket for one run, by the controller's service account: one bucket
 * per clientset (NewForConfigAndClient's shared limiter when the QPS is above 0); with a QPS of 0, one per API group's
 * client at client-go's defaults (RESTClientForConfigAndClient); with a QPS below 0, none.
 */
export class ClientThrottle {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly qps: number;
  private readonly burst: number;

  constructor(private readonly now: () => Millis, private readonly flags: ControllerManagerFlags = CONTROLLER_MANAGER_DEFAULTS) {
    const perGroup = flags.kubeAPIQPS === 0;
    this.qps = perGroup ? DEFAULT_QPS : flags.kubeAPIQPS;
    this.burst = perGroup && flags.kubeAPIBurst === 0 ? DEFAULT_BURST : flags.kubeAPIBurst;
  }

  /** bucket is the limiter a request to `path` goes through, or none. */
  private bucket(serviceAccount: string, path: string): TokenBucket | undefined {
    if (this.flags.kubeAPIQPS < 0) return undefined;
    const key = this.flags.kubeAPIQPS === 0 ? `${serviceAccount} ${groupVersionOf(path)}` : serviceAccount;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = new TokenBucket(this.qps, this.burst, this.now())));
    return bucket;
  }

  /**
   * spend takes a token for a request the controller does not wait for: an Event its broadcaster sends through the
   * same client (record.EventSinkImpl over the controller's clientset, its core/v1 Events client), which its later
   * requests then wait for.
   */
  spend(serviceAccount: string): void {
    this.bucket(serviceAccount, '/api/v1/events')?.reserve(this.now());
  }

  /**
   * wait is what a controller's request does before it is sent: take a token from its client's bucket, and when it had
   * to reserve one, say so and wait for it.
   */
  *wait(serviceAccount: string, phase: PhaseName, ref: string | undefined, verb: string, path: string): Steps<void> {
    const delay = this.bucket(serviceAccount, path)?.reserve(this.now()) ?? 0;
    if (delay <= 0) return;
    const why = this.flags.kubeAPIQPS === 0
      ? `client-go's defaults for its ${groupVersionOf(path)} client, as --kube-api-qps is 0`
      : '--kube-api-qps, --kube-api-burst';
    yield {
      phase, ...(ref ? { object: ref } : {}),
      result: `${serviceAccount}'s client waits ${goDuration(delay)} before it sends ${verb} ${path}: its rate limiter allows ${this.qps} requests a second after a burst of ${this.burst} (${why})`,
      detail: {
        delay: goDuration(delay), reason: THROTTLE_REASON, verb, path, qps: this.qps, burst: this.burst,
        // client-go logs a wait longer than longThrottleLatency at V(3) (and one over a second at V(2), throttled).
        ...(delay > LONG_THROTTLE_MS ? { logged: 'Waited before sending request' } : {}),
      },
      outcome: 'waiting',
    };
    yield* sleep(delay);
  }
}

/** groupVersionOf is the API group and version a request's path is for: `v1` of /api/v1/..., `apps/v1` of /apis/apps/v1/... */
function groupVersionOf(path: string): string {
  const parts = path.split('?')[0]!.split('/');
  return parts[1] === 'api' ? (parts[2] ?? '') : `${parts[2] ?? ''}/${parts[3] ?? ''}`;
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
