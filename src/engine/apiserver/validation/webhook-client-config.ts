// A webhook's clientConfig as kube-apiserver checks it: ValidateWebhookURL (Go's url.Parse, then https, a host, no user
// information, fragment or query) and ValidateWebhookService (name, namespace, port, path segments).
// See staging/src/k8s.io/apiserver/pkg/util/webhook/validation.go (v0.36.3) and net/url/url.go (Go 1.26).
import { isIPv4, isIPv6 } from 'node:net';
import { goQuote } from '../decode-go';
import { child, type FieldError, invalidValue, required } from './field-errors';
import { isDNS1123Subdomain, isValidPortNum } from './names';

/** URL_FORM is the hint ValidateWebhookURL appends to its scheme, host and parse errors. */
const URL_FORM = '; desired format: https://host[/path]';

/** ParsedURL is the part of a Go url.URL ValidateWebhookURL reads. */
interface ParsedURL {
  scheme: string;
  host: string;
  /** user is Userinfo.String(), undefined when the URL has no user information. */
  user?: string;
  fragment: string;
  rawQuery: string;
}

// Why: net/url's shouldEscape for encodeHost: what a host may hold unescaped.
const HOST_UNESCAPED = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]$/;
// Why: net/url's validUserinfo.
const USERINFO_RE = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** GoURLError is a url.Error's text: `parse "<url>": <reason>`. */
class GoURLError extends Error {}

const escapeError = (s: string): string => `invalid URL escape ${goQuote(s)}`;

/** unescape is url.unescape's check: each % starts two hex digits; in a host, only non-ASCII bytes or %25, and host characters. */
function unescape(s: string, host: boolean): string {
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) throw new GoURLError(escapeError(s.slice(i, i + 3)));
      if (host && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') throw new GoURLError(escapeError(s.slice(i, i + 3)));
      i += 3;
      continue;
    }
    if (host && c.charCodeAt(0) < 0x80 && !HOST_UNESCAPED.test(c)) throw new GoURLError(`invalid character ${goQuote(c)} in host name`);
    i += 1;
  }
  return decodePercent(s);
}

function decodePercent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const validOptionalPort = (port: string): boolean => port === '' || /^:[0-9]*$/.test(port);

/** parseHost is url.parseHost: an IP literal in brackets, or host[:port] (the first colon for http(s), else the last). */
function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoURLError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoURLError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${goQuote(colonPort)} after host`);
    // Only an IPv6 address (a zone after %25) may stand in brackets: an IPv4 one is refused (netip's Is4).
    const literal = host.slice(1, close);
    const zone = literal.indexOf('%25');
    const address = unescape(zone >= 0 ? literal.slice(0, zone) : literal, true);
    if (isIPv4(address)) throw new GoURLError('invalid IP-literal');
    // netip.ParseAddr words each failure its own way; the engine gives its generic one.
    if (!isIPv6(address)) throw new GoURLError(`invalid host: ParseAddr(${goQuote(address)}): unable to parse IP`);
    return host;
  }
  const i = scheme === 'http' || scheme === 'https' ? host.indexOf(':') : host.lastIndexOf(':');
  if (i >= 0) {
    const colonPort = host.slice(i);
    if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${goQuote(colonPort)} after host`);
  }
  return unescape(host, true);
}

/**
 * goParseURL is url.Parse for what ValidateWebhookURL reads: the fragment cut off, control characters refused, the
 * scheme (lower-cased), the query, an opaque rest, and the authority's user information and host.
 */
function goParseURL(raw: string): ParsedURL {
  const hash = raw.indexOf('#');
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  const fragment = hash >= 0 ? raw.slice(hash + 1) : '';
  const fail = (at: string, e: unknown): never => {
    throw new GoURLError(`parse ${goQuote(at)}: ${e instanceof Error ? e.message : String(e)}`);
  };
  let parsed: ParsedURL = { scheme: '', host: '', fragment: '', rawQuery: '' };
  try {
    parsed = parseWithoutFragment(u);
  } catch (e) {
    fail(u, e);
  }
  if (hash < 0) return parsed;
  try {
    return { ...parsed, fragment: unescape(fragment, false) };
  } catch (e) {
    return fail(raw, e);
  }
}

function parseWithoutFragment(raw: string): ParsedURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoURLError('net/url: invalid control character in URL');
  const out: ParsedURL = { scheme: '', host: '', fragment: '', rawQuery: '' };
  if (raw === '*') return out;
  // getScheme: letters, then digits, +, - or . may follow; a colon ends it; anything else means no scheme.
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoURLError('missing protocol scheme');
      out.scheme = raw.slice(0, i).toLowerCase();
      rest = raw.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else if (rest.includes('?')) {
    out.rawQuery = rest.slice(rest.indexOf('?') + 1);
    rest = rest.slice(0, rest.indexOf('?'));
  }
  if (!rest.startsWith('/')) {
    if (out.scheme !== '') return out; // an opaque URL
    if ((rest.split('/')[0] ?? '').includes(':')) throw new GoURLError('first path segment in URL cannot contain colon');
  }
  if (rest.startsWith('//') && (out.scheme !== '' || !rest.startsWith('///'))) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    out.host = parseHost(out.scheme, at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!USERINFO_RE.test(userinfo)) throw new GoURLError('net/url: invalid userinfo');
      const [name, ...password] = userinfo.split(':');
      unescape(name ?? '', false);
      if (password.length) unescape(password.join(':'), false);
      out.user = userinfo;
    }
  }
  unescape(rest, false);
  return out;
}

/** validateWebhookURL is ValidateWebhookURL with forceHttps, as the webhook configurations call it. */
export function validateWebhookURL(path: string, url: string): FieldError[] {
  let u: ParsedURL;
  try {
    u = goParseURL(url);
  } catch (e) {
    return [required(path, `url must be a valid URL: ${e instanceof Error ? e.message : String(e)}${URL_FORM}`)];
  }
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalidValue(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host.length === 0) errs.push(invalidValue(path, u.host, `host must be specified${URL_FORM}`));
  if (u.user !== undefined) errs.push(invalidValue(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalidValue(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalidValue(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * validateWebhookService is ValidateWebhookService: name, namespace, a port in 1..65535, then each path segment a DNS
 * subdomain. The webhook validators pass the service's name and namespace in each other's places (its parameters are
 * namespace, then name), so a missing name is reported at `namespace` and a missing namespace at `name`.
 */
export function validateWebhookService(path: string, service: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const str = (k: string): string => (typeof service[k] === 'string' ? (service[k] as string) : '');
  if (str('namespace').length === 0) errs.push(required(child(path, 'name')));
  if (str('name').length === 0) errs.push(required(child(path, 'namespace')));
  // The port was defaulted to 443 (SetDefaults_ServiceReference); an int32, printed bare.
  const port = typeof service['port'] === 'number' ? service['port'] : 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalidValue(child(path, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  if (typeof service['path'] !== 'string') return errs;
  const urlPath = service['path'];
  const at = child(path, 'path');
  if (urlPath === '/' || urlPath.length === 0) return errs;
  if (urlPath === '//') return [...errs, invalidValue(at, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalidValue(at, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalidValue(at, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalidValue(at, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}
