// client-go's client-side rate limit, as every component's clientset has one: a token bucket of `burst` tokens refilled
// at `qps` a second, which a request that finds it empty waits for before it is sent (rest/request.go
// tryThrottleWithInfo, client-go v0.36.3). A QPS above 0 gives the clientset one bucket for all its requests
// (kubernetes/clientset.go NewForConfigAndClient: flowcontrol.NewTokenBucketRateLimiter); 0 gives each API group's
// client its own at rest.DefaultQPS 5 and DefaultBurst 10 (a burst of 0 standing for 10: rest/config.go
// RESTClientForConfigAndClient); below 0, none.
import type { Millis } from './clock';
import { goDuration } from './durations';
import type { PhaseName } from './phases';
import { sleep, type Steps } from './step';

/** DEFAULT_QPS and DEFAULT_BURST are client-go's rest.DefaultQPS and DefaultBurst. */
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

  /** available is how many whole tokens the bucket holds at `now`, without taking any. */
  available(now: Millis): number {
    this.refill(now);
    return Math.floor(this.tokens + 1e-9);
  }

  /** reserve takes a token at `now` and returns how long the request waits for it (0 when one was there). */
  reserve(now: Millis): Millis {
    this.refill(now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  /** refill adds the tokens earned since the last request, up to the burst. */
  private refill(now: Millis): void {
    if (now <= this.last) return;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
  }
}

/** ClientSettings are a clientset's rate limit as its component's configuration gives it, and the names it gives them. */
export interface ClientSettings {
  qps: number;
  burst: number;
  /** flags name the settings as the component's users set them: `--kube-api-qps, --kube-api-burst`. */
  flags: string;
}

/** ClientLimiter is one clientset's rate limiter (or one per API group's client, or none): see the file's comment. */
export class ClientLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly qps: number;
  private readonly burst: number;

  constructor(private readonly now: () => Millis, private readonly settings: ClientSettings) {
    const perGroup = settings.qps === 0;
    this.qps = perGroup ? DEFAULT_QPS : settings.qps;
    this.burst = perGroup && settings.burst === 0 ? DEFAULT_BURST : settings.burst;
  }

  /** bucket is the limiter a request to `path` goes through, or none. */
  private bucket(path: string): TokenBucket | undefined {
    if (this.settings.qps < 0) return undefined;
    const key = this.settings.qps === 0 ? groupVersionOf(path) : '';
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = new TokenBucket(this.qps, this.burst, this.now())));
    return bucket;
  }

  /** canSend tells whether `n` requests to `path` would go at once, none of them waiting. */
  canSend(n: number, path: string): boolean {
    const bucket = this.bucket(path);
    return !bucket || bucket.available(this.now()) >= n;
  }

  /** spend takes a token for a request its sender does not wait for (an Event a broadcaster sends): later ones wait for it. */
  spend(path: string): void {
    this.bucket(path)?.reserve(this.now());
  }

  /**
   * wait is what a request does before it is sent: take a token, and when it had to reserve one, say so (as `client`'s
   * wait, in `phase`) and wait for it.
   */
  *wait(client: string, phase: PhaseName, ref: string | undefined, verb: string, path: string): Steps<void> {
    const delay = this.bucket(path)?.reserve(this.now()) ?? 0;
    if (delay <= 0) return;
    const why = this.settings.qps === 0 ? `client-go's defaults for its ${groupVersionOf(path)} client, as ${this.settings.flags.split(',')[0]} is 0` : this.settings.flags;
    yield {
      phase, ...(ref ? { object: ref } : {}),
      result: `${client}'s client waits ${goDuration(delay)} before it sends ${verb} ${path}: its rate limiter allows ${this.qps} requests a second after a burst of ${this.burst} (${why})`,
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
