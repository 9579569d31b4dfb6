// Where a probe or a lifecycle hook connects: the container port a handler names, and the URL of an httpGet
// handler, as the kubelet builds them. See pkg/probe/util.go and pkg/probe/http/request.go.
import type { Container, Probe } from '../api/types';
import { goQuote } from '../apiserver/decode-go';

/** HTTPGetAction is an httpGet handler of a probe or a lifecycle hook. */
export type HTTPGetAction = NonNullable<Probe['httpGet']>;

/** PortResult is a resolved port number, or the error the kubelet gets for a port it cannot resolve. */
export type PortResult = { ok: true; port: number } | { ok: false; error: string };

/**
 * resolveContainerPort is probe.ResolveContainerPort: a number is the port; a name is looked up in the container's
 * ports, then read as a number written as a string; a name that is neither gives strconv.Atoi's error, and a
 * number outside 1-65535 "invalid port number". See pkg/probe/util.go (ResolveContainerPort, findPortByName).
 */
export function resolveContainerPort(port: number | string | undefined, spec: Container): PortResult {
  let n: number;
  if (typeof port === 'number') n = port;
  else {
    const name = port ?? '';
    const named = (spec.ports ?? []).find((p) => p.name === name);
    if (named) n = named.containerPort;
    else if (/^[+-]?\d+$/.test(name)) n = Number(name);
    else return { ok: false, error: `strconv.Atoi: parsing ${goQuote(name)}: invalid syntax` };
  }
  return n > 0 && n < 65536 ? { ok: true, port: n } : { ok: false, error: `invalid port number: ${n}` };
}

/** joinHostPort is net.JoinHostPort: an IPv6 host in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** URLResult is an httpGet handler's URL, or the error that keeps the kubelet from building its request. */
export type URLResult = { ok: true; url: string; address: string } | { ok: false; error: string };

/**
 * httpGetURL is the URL NewRequestForHTTPGetAction requests: the scheme lower-cased (http by default), the handler's
 * host or else the pod IP, the resolved port, and the path as url.URL.String writes it (a path without a leading
 * slash gets one, an empty path none). See pkg/probe/http/request.go (NewRequestForHTTPGetAction, formatURL).
 */
export function httpGetURL(action: HTTPGetAction, spec: Container, podIP: string): URLResult {
  const port = resolveContainerPort(action.port, spec);
  if (!port.ok) return port;
  const scheme = (action.scheme ?? '').toLowerCase() || 'http';
  const address = joinHostPort(action.host || podIP, port.port);
  const path = action.path ?? '';
  return { ok: true, url: `${scheme}://${address}${path === '' || path.startsWith('/') ? path : `/${path}`}`, address };
}
