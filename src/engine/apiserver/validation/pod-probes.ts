// Probes and lifecycle hooks: exactly one handler, its fields, the probe timings and the sleep action's bounds.
// See pkg/apis/core/validation/validation.go (validateProbe, validateHandler, validateLifecycle, validateSleepAction).
import type { Lifecycle, LifecycleHandler, Probe } from '../../api/types';
import { asJSON, child, type FieldError, forbidden, invalidValue, notSupported, required } from './field-errors';
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from './names';

const NEGATIVE = 'must be greater than or equal to 0';
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];

/** ProbeKind names a container's probe field. */
export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** Handler is commonHandler: the actions a probe or a lifecycle hook may hold, in the order they are checked. */
interface Handler {
  exec?: { command?: string[] } | undefined;
  httpGet?: Probe['httpGet'];
  tcpSocket?: Probe['tcpSocket'];
  grpc?: Probe['grpc'];
  sleep?: LifecycleHandler['sleep'];
}

/** validatePortNumOrName is ValidatePortNumOrName: a number is a port number, a string an IANA_SVC_NAME. */
export function validatePortNumOrName(port: number | string | undefined, path: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((msg) => invalidValue(path, port, msg));
  const n = port ?? 0;
  return isValidPortNum(n).map((msg) => invalidValue(path, n, msg));
}

function validateHTTPGet(http: NonNullable<Handler['httpGet']>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!http.path) errs.push(required(child(path, 'path')));
  errs.push(...validatePortNumOrName(http.port, child(path, 'port')));
  const scheme = http.scheme ?? '';
  if (!HTTP_SCHEMES.includes(scheme)) errs.push(notSupported(child(path, 'scheme'), asJSON(scheme), HTTP_SCHEMES));
  for (const header of http.httpHeaders ?? []) {
    errs.push(...isHTTPHeaderName(header.name ?? '').map((msg) => invalidValue(child(path, 'httpHeaders'), header.name ?? '', msg)));
  }
  return errs;
}

/**
 * validateSleep is validateSleepAction with AllowPodLifecycleSleepActionZeroValue (GA in 1.34): 0 to the grace period.
 * No grace period (itself invalid) means no check.
 */
function validateSleep(seconds: number, gracePeriod: number | undefined, path: string): FieldError[] {
  if (gracePeriod === undefined || (seconds >= 0 && seconds <= gracePeriod)) return [];
  return [invalidValue(path, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
}

/** validateHandler is validateHandler: the first action set is checked, any further one is forbidden, none is required. */
function validateHandler(handler: Handler, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  const one = (name: keyof Handler, check: () => FieldError[]): void => {
    if (handler[name] === undefined || handler[name] === null) return;
    if (handlers > 0) {
      errs.push(forbidden(child(path, name), 'may not specify more than 1 handler type'));
      return;
    }
    handlers++;
    errs.push(...check());
  };
  one('exec', () => ((handler.exec?.command ?? []).length === 0 ? [required(child(path, 'exec', 'command'))] : []));
  one('httpGet', () => validateHTTPGet(handler.httpGet!, child(path, 'httpGet')));
  one('tcpSocket', () => validatePortNumOrName(handler.tcpSocket!.port, child(path, 'tcpSocket', 'port')));
  one('grpc', () => validatePortNumOrName(handler.grpc!.port ?? 0, child(path, 'grpc', 'port')));
  one('sleep', () => validateSleep(handler.sleep!.seconds ?? 0, gracePeriod, child(path, 'sleep')));
  if (handlers === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

/** validateProbe is validateProbe: the handler (no sleep), then the timings and thresholds, then the probe's grace period. */
function validateProbe(probe: Probe, gracePeriod: number | undefined, path: string): FieldError[] {
  const handler: Handler = { exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc };
  const errs = validateHandler(handler, gracePeriod, path);
  for (const name of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const value = probe[name] ?? 0;
    if (value < 0) errs.push(invalidValue(child(path, name), value, NEGATIVE));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (grace !== undefined && grace !== null && grace <= 0) errs.push(invalidValue(child(path, 'terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  return errs;
}

/**
 * validateContainerProbe is validateLivenessProbe, validateReadinessProbe or validateStartupProbe: the probe, then
 * successThreshold 1 for liveness and startup, and no grace period for readiness.
 */
export function validateContainerProbe(kind: ProbeKind, probe: Probe | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!probe) return [];
  const errs = validateProbe(probe, gracePeriod, path);
  if (kind === 'readinessProbe') {
    const grace = probe.terminationGracePeriodSeconds;
    if (grace !== undefined && grace !== null) errs.push(invalidValue(child(path, 'terminationGracePeriodSeconds'), grace, 'must not be set for readinessProbes'));
  } else if ((probe.successThreshold ?? 0) !== 1) {
    errs.push(invalidValue(child(path, 'successThreshold'), probe.successThreshold ?? 0, 'must be 1'));
  }
  return errs;
}

/** validateLifecycle is validateLifecycle: postStart, then preStop, each a handler (exec, httpGet, tcpSocket or sleep). */
export function validateLifecycle(lifecycle: Lifecycle, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = lifecycle[hook];
    if (!h) continue;
    errs.push(...validateHandler({ exec: h.exec, httpGet: h.httpGet, tcpSocket: h.tcpSocket, sleep: h.sleep }, gracePeriod, child(path, hook)));
  }
  return errs;
}
