// The client-side rate limit of kube-controller-manager's clients. Each controller has a clientset of its own (with
// --use-service-account-credentials, ClientBuilder.ClientOrDie(name)), and client-go gives each clientset one token
// bucket (kubernetes/clientset.go NewForConfigAndClient: flowcontrol.NewTokenBucketRateLimiter(QPS, Burst), client-go
// v0.36.3) at the manager's --kube-api-qps 20 and --kube-api-burst 30 (cmd/kube-controller-manager/app/options,
// v1.36.3). A request that finds the bucket empty waits before it is sent (rest/request.go tryThrottleWithInfo): a
// ReplicaSet of 1,000 replicas has its first 30 pods created at once and the others at 20 a second.
import type { Millis } from '../runtime/clock';
import { goDuration } from '../runtime/durations';
import type { PhaseName } from '../runtime/phases';
import { sleep, type Steps } from '../runtime/step';

/** KUBE_API_QPS and KUBE_API_BURST are kube-controller-manager's --kube-api-qps and --kube-api-burst defaults. */
export const KUBE_API_QPS = 20;
export const KUBE_API_BURST = 30;

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

/** ClientThrottle holds each controller client's bucket for one run, by the controller's service account. */
export class ClientThrottle {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly now: () => Millis, private readonly qps = KUBE_API_QPS, private readonly burst = KUBE_API_BURST) {}

  private bucket(serviceAccount: string): TokenBucket {
    let bucket = this.buckets.get(serviceAccount);
    if (!bucket) this.buckets.set(serviceAccount, (bucket = new TokenBucket(this.qps, this.burst, this.now())));
    return bucket;
  }

  /**
   * spend takes a token for a request the controller does not wait for: an Event its broadcaster sends through the
   * same client (record.EventSinkImpl over the controller's clientset), which its later requests then wait for.
   */
  spend(serviceAccount: string): void {
    this.bucket(serviceAccount).reserve(this.now());
  }

  /**
   * wait is what a controller's request does before it is sent: take a token from its client's bucket, and when it had
   * to reserve one, say so and wait for it.
   */
  *wait(serviceAccount: string, phase: PhaseName, ref: string | undefined, verb: string, path: string): Steps<void> {
    const delay = this.bucket(serviceAccount).reserve(this.now());
    if (delay <= 0) return;
    yield {
      phase, ...(ref ? { object: ref } : {}),
      result: `${serviceAccount}'s client waits ${goDuration(delay)} before it sends ${verb} ${path}: its rate limiter allows ${this.qps} requests a second after a burst of ${this.burst} (--kube-api-qps, --kube-api-burst)`,
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

/** throttleOf is the controller clients' limiter of the run whose API server this is. */
export function throttleOf(api: { now(): Millis }): ClientThrottle {
  let throttle = THROTTLES.get(api);
  if (!throttle) THROTTLES.set(api, (throttle = new ClientThrottle(() => api.now())));
  return throttle;
}

/**
 * limitEventWrites has each controller's Event writes spend a token of its client's bucket, as kube-controller-manager
 * builds each controller's broadcaster over its own clientset.
 */
export function limitEventWrites(api: { now(): Millis }, recorder: { onEventWrite(listener: (source: string) => void): void }): void {
  const throttle = throttleOf(api);
  recorder.onEventWrite((source) => {
    const account = EVENT_SOURCES.get(source);
    if (account !== undefined) throttle.spend(account);
  });
}
