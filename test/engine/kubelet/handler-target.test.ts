// Where probes and lifecycle hooks connect (pkg/probe/util.go, pkg/probe/http/request.go) and the handler runner's
// error messages (pkg/kubelet/lifecycle/handlers.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from '../../../src/engine/api/types';
import { hookFailure } from '../../../src/engine/kubelet/containers';
import { httpGetURL, resolveContainerPort, type HTTPGetAction } from '../../../src/engine/kubelet/handler-target';

const spec: Container = { name: 'app', ports: [{ name: 'http', containerPort: 8080 }] };

const ports: { name: string; port: number | string; want: ReturnType<typeof resolveContainerPort> }[] = [
  { name: 'a number is the port', port: 80, want: { ok: true, port: 80 } },
  { name: 'a name is the container port of that name', port: 'http', want: { ok: true, port: 8080 } },
  { name: 'a number written as a string is read as a number', port: '9090', want: { ok: true, port: 9090 } },
  { name: 'an unknown name is strconv.Atoi\'s error', port: 'admin', want: { ok: false, error: 'strconv.Atoi: parsing "admin": invalid syntax' } },
  { name: 'a number out of range is an invalid port number', port: '70000', want: { ok: false, error: 'invalid port number: 70000' } },
];
for (const c of ports) test(`resolving a port: ${c.name}`, () => assert.deepEqual(resolveContainerPort(c.port, spec), c.want));

const urls: { name: string; action: HTTPGetAction; want: string }[] = [
  { name: 'the pod IP and the resolved port with an absolute path', action: { path: '/healthz', port: 'http' }, want: 'http://10.244.1.5:8080/healthz' },
  { name: 'a relative path gets a leading slash', action: { path: 'healthz', port: 80 }, want: 'http://10.244.1.5:80/healthz' },
  { name: 'an empty path stays empty', action: { path: '', port: 80 }, want: 'http://10.244.1.5:80' },
  { name: 'the scheme is lower-cased and the handler\'s host wins', action: { path: '/', port: 443, scheme: 'HTTPS', host: '10.0.0.9' }, want: 'https://10.0.0.9:443/' },
  { name: 'an IPv6 host is bracketed', action: { path: '/', port: 80, host: 'fd00::1' }, want: 'http://[fd00::1]:80/' },
];
for (const c of urls) {
  test(`an httpGet URL: ${c.name}`, () => {
    const got = httpGetURL(c.action, spec, '10.244.1.5');
    assert.equal(got.ok ? got.url : got.error, c.want);
  });
}

const hooks: { name: string; hook: Parameters<typeof hookFailure>[0]; want: string }[] = [
  {
    name: 'an exec hook prints its command as a Go slice and the CRI client\'s exit error',
    hook: { exec: { command: ['sh', '-c', 'exit 1'] } },
    want: 'Exec lifecycle hook ([sh -c exit 1]) for Container "app" in Pod "web_default(u1)" failed - error: command \'sh -c exit 1\' exited with 1: , message: ""',
  },
  {
    name: 'an httpGet hook prints its path and Go\'s url.Error for the refused connection',
    hook: { httpGet: { path: 'warm', port: 'http' } },
    want: 'HTTP lifecycle hook (warm) for Container "app" in Pod "web_default(u1)" failed - error: Get "http://10.244.1.5:8080/warm": dial tcp 10.244.1.5:8080: connect: connection refused',
  },
];
for (const c of hooks) test(`a hook failure: ${c.name}`, () => assert.equal(hookFailure(c.hook, 'app', 'web_default(u1)', '10.244.1.5', spec), c.want));
