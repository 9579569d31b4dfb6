// Probes and lifecycle hooks (validateProbe, validateHandler, validateLifecycle, validateSleepAction) from
// pkg/apis/core/validation/validation.go; cases echo TestValidateProbe, TestValidateHandler and the sleep action cases
// of TestValidateLifecycle. Probes are defaulted first (timeouts, periods and thresholds set when zero).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePod, podErrors } from './builders';

const c0 = 'spec.containers[0]';
const RANGE = 'must be between 1 and 65535, inclusive';

const cases = [
  { name: 'A probe with one handler is valid', pod: makePod().withContainer({ livenessProbe: { httpGet: { port: 8080 } } }), want: [] },
  {
    name: 'A probe needs a handler',
    pod: makePod().withContainer({ livenessProbe: { periodSeconds: 5 } }),
    want: [`${c0}.livenessProbe: Required value: must specify a handler type`],
  },
  {
    name: 'A second handler is forbidden; the first is still checked',
    pod: makePod().withContainer({ readinessProbe: { exec: { command: [] }, httpGet: { port: 80 } } }),
    want: [`${c0}.readinessProbe.exec.command: Required value`, `${c0}.readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type`],
  },
  {
    name: 'An httpGet port is a number in range or an IANA name, and the scheme HTTP or HTTPS',
    pod: makePod().withContainer({ livenessProbe: { httpGet: { port: 0, scheme: 'FTP' } }, readinessProbe: { httpGet: { port: 'HTTP' } } }),
    want: [
      `${c0}.livenessProbe.httpGet.port: Invalid value: 0: ${RANGE}`,
      `${c0}.livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`,
      `${c0}.readinessProbe.httpGet.port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      `${c0}.readinessProbe.httpGet.port: Invalid value: "HTTP": must contain at least one letter (a-z)`,
    ],
  },
  {
    name: 'An HTTP header name must be a token, reported at httpHeaders',
    pod: makePod().withContainer({ readinessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'Bad Header', value: 'x' }] } } }),
    want: [`${c0}.readinessProbe.httpGet.httpHeaders: Invalid value: "Bad Header": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`],
  },
  {
    name: 'A gRPC port must be in range',
    pod: makePod().withContainer({ startupProbe: { grpc: { port: 70000 } } }),
    want: [`${c0}.startupProbe.grpc.port: Invalid value: 70000: ${RANGE}`],
  },
  // validateProbe: ValidateNonnegativeField for timings (0 is defaulted away, negatives stay).
  {
    name: 'Negative timings and thresholds must be greater than or equal to 0',
    pod: makePod().withContainer({ readinessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: -1, periodSeconds: -5, failureThreshold: -1 } }),
    want: [
      `${c0}.readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
      `${c0}.readinessProbe.periodSeconds: Invalid value: -5: must be greater than or equal to 0`,
      `${c0}.readinessProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0`,
    ],
  },
  // validateLivenessProbe / validateStartupProbe: successThreshold must be 1.
  {
    name: 'Liveness and startup probes need successThreshold 1; readiness may have more',
    pod: makePod().withContainer({ livenessProbe: { tcpSocket: { port: 80 }, successThreshold: 2 }, startupProbe: { tcpSocket: { port: 80 }, successThreshold: 3 }, readinessProbe: { tcpSocket: { port: 80 }, successThreshold: 3 } }),
    want: [`${c0}.livenessProbe.successThreshold: Invalid value: 2: must be 1`, `${c0}.startupProbe.successThreshold: Invalid value: 3: must be 1`],
  },
  // validateReadinessProbe and validateProbe: the probe-level grace period.
  {
    name: 'A readiness probe may not set terminationGracePeriodSeconds; a liveness one needs it above 0',
    pod: makePod().withContainer({ readinessProbe: { tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 10 }, livenessProbe: { tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 0 } }),
    want: [
      `${c0}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`,
      `${c0}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`,
    ],
  },
  // validateLifecycle: postStart then preStop, each a handler; sleep with AllowPodLifecycleSleepActionZeroValue.
  {
    name: 'A hook needs a handler and a sleep within the grace period (zero allowed)',
    pod: makePod().withContainer({ lifecycle: { postStart: {}, preStop: { sleep: { seconds: 40 } } } }),
    want: [
      `${c0}.lifecycle.postStart: Required value: must specify a handler type`,
      `${c0}.lifecycle.preStop.sleep: Invalid value: 40: must be non-negative and less than terminationGracePeriodSeconds (30)`,
    ],
  },
  { name: 'A zero sleep is allowed since 1.34', pod: makePod().withContainer({ lifecycle: { preStop: { sleep: { seconds: 0 } } } }), want: [] },
  {
    name: 'A sleep is measured against the pod grace period and is one handler among four',
    pod: makePod().withSpec({ terminationGracePeriodSeconds: 5 }).withContainer({ lifecycle: { preStop: { exec: { command: ['drain'] }, sleep: { seconds: -1 } } } }),
    want: [`${c0}.lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type`],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
