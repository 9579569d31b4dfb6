// The probers' outputs by handler, the probe defaults, and the back-off arithmetic of flowcontrol.Backoff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Probe } from '../../../src/engine/api/types';
import { probeError, probeFailure, probeTimeout, probeTimings } from '../../../src/engine/kubelet/probes';
import { hasExpired, isInBackOffSince, isInBackOffSinceUpdate, nextBackoff } from '../../../src/engine/kubelet/restarts';

const spec = { name: 'app', ports: [{ name: 'http', containerPort: 8080 }] };
const outputs: { name: string; probe: Probe; failure: string; timeout: string }[] = [
  // pkg/probe/http/http.go: "HTTP probe failed with statuscode: %d"; a timeout is the client's error for the URL.
  { name: 'httpGet', probe: { httpGet: { path: '/healthz', port: 'http' } }, failure: 'HTTP probe failed with statuscode: 500', timeout: 'Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' },
  // pkg/probe/tcp/tcp.go: the dialer's error.
  { name: 'tcpSocket', probe: { tcpSocket: { port: 5432 } }, failure: 'dial tcp 10.244.1.5:5432: connect: connection refused', timeout: 'dial tcp 10.244.1.5:5432: i/o timeout' },
  // pkg/probe/grpc/grpc.go: "service unhealthy (responded with %q)" and "timeout: health rpc did not complete within %v".
  { name: 'grpc', probe: { grpc: { port: 9090 }, timeoutSeconds: 3 }, failure: 'service unhealthy (responded with "NOT_SERVING")', timeout: 'timeout: health rpc did not complete within 3s' },
  { name: 'grpc with a timeout over a minute', probe: { grpc: { port: 9090 }, timeoutSeconds: 90 }, failure: 'service unhealthy (responded with "NOT_SERVING")', timeout: 'timeout: health rpc did not complete within 1m30s' },
  // pkg/probe/exec/exec.go: the command's output (none here); on a timeout the error of the CRI client
  // (staging/src/k8s.io/cri-client/pkg/remote_runtime.go): "%w: %q timed out after %s" with ErrCommandTimedOut.
  { name: 'exec', probe: { exec: { command: ['cat', '/tmp/ready'] } }, failure: '', timeout: 'command timed out: "cat /tmp/ready" timed out after 1s' },
  { name: 'exec with quotes in its command', probe: { exec: { command: ['sh', '-c', 'test "$(cat /tmp/ready)" = ok'] }, timeoutSeconds: 5 }, failure: '', timeout: 'command timed out: "sh -c test \\"$(cat /tmp/ready)\\" = ok" timed out after 5s' },
  // pkg/probe/http/request.go formatURL: url.URL.String puts a slash before a relative path.
  { name: 'httpGet with a relative path and HTTPS', probe: { httpGet: { path: 'ready', port: 8443, scheme: 'HTTPS' } }, failure: 'HTTP probe failed with statuscode: 500', timeout: 'Get "https://10.244.1.5:8443/ready": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' },
];
for (const o of outputs) {
  test(`a failing ${o.name} probe reports the prober's output`, () => {
    assert.equal(probeFailure(o.probe, '10.244.1.5', spec), o.failure);
    assert.equal(probeTimeout(o.probe, '10.244.1.5', spec), o.timeout);
  });
}

// pkg/probe/util.go ResolveContainerPort: a name not among the container's ports is read with strconv.Atoi.
const errors: { name: string; probe: Probe; want: string | undefined }[] = [
  { name: 'an httpGet probe on a named port the container has resolves', probe: { httpGet: { path: '/', port: 'http' } }, want: undefined },
  { name: 'an httpGet probe on a named port the container lacks errs with strconv.Atoi\'s error', probe: { httpGet: { path: '/', port: 'metrics' } }, want: 'strconv.Atoi: parsing "metrics": invalid syntax' },
  { name: 'a tcpSocket probe on a named port the container lacks errs too', probe: { tcpSocket: { port: 'db' } }, want: 'strconv.Atoi: parsing "db": invalid syntax' },
  { name: 'a port number written as a string resolves', probe: { tcpSocket: { port: '5432' } }, want: undefined },
  { name: 'an exec probe has no port to resolve', probe: { exec: { command: ['true'] } }, want: undefined },
];
for (const c of errors) test(c.name, () => assert.equal(probeError(c.probe, spec), c.want));

test('probe timings default as the API defaults them (SetDefaults_Probe)', () => {
  assert.deepEqual(probeTimings({}), { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, initialDelaySeconds: 0 });
  assert.deepEqual(probeTimings({ periodSeconds: 2, failureThreshold: 30 }), { timeoutSeconds: 1, periodSeconds: 2, successThreshold: 1, failureThreshold: 30, initialDelaySeconds: 0 });
});

// k8s.io/client-go/util/flowcontrol/backoff.go with the kubelet's 10 s and 300 s (pkg/kubelet/kubelet.go).
const backoffCases: { name: string; run: () => unknown; want: unknown }[] = [
  { name: 'a first Next starts at 10 s', run: () => nextBackoff(undefined, 0, 5_000), want: { ms: 10_000, lastUpdate: 5_000 } },
  { name: 'Next doubles the delay', run: () => nextBackoff({ ms: 40_000, lastUpdate: 0 }, 10_000, 20_000), want: { ms: 80_000, lastUpdate: 20_000 } },
  { name: 'Next stops at 300 s', run: () => nextBackoff({ ms: 160_000, lastUpdate: 0 }, 10_000, 20_000), want: { ms: 300_000, lastUpdate: 20_000 } },
  { name: 'an entry last updated more than 600 s before the exit has expired', run: () => hasExpired({ ms: 300_000, lastUpdate: 0 }, 600_001), want: true },
  { name: 'Next on an expired entry starts again at 10 s', run: () => nextBackoff({ ms: 300_000, lastUpdate: 0 }, 700_000, 700_000), want: { ms: 10_000, lastUpdate: 700_000 } },
  { name: 'in back-off while less than the delay passed since the exit', run: () => isInBackOffSince({ ms: 20_000, lastUpdate: 0 }, 5_000, 24_999), want: true },
  { name: 'out of back-off once the delay passed since the exit', run: () => isInBackOffSince({ ms: 20_000, lastUpdate: 0 }, 5_000, 25_000), want: false },
  { name: 'no entry, no back-off', run: () => isInBackOffSince(undefined, 0, 0), want: false },
  { name: 'an image pull is in back-off for the delay since the last failed pull', run: () => isInBackOffSinceUpdate({ ms: 10_000, lastUpdate: 2_000 }, 11_999), want: true },
];
for (const c of backoffCases) test(`back-off: ${c.name}`, () => assert.deepEqual(c.run(), c.want));
