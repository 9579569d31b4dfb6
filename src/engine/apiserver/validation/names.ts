// Name and value rules with the exact messages of apimachinery's validation: RFC 1123 names, ports, IDs, env var
// names, config keys, IPs. See staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go and ip.go.
import { isIPv6 } from 'node:net';
import { isLabelKey, isLabelValue } from '../../api/labels-validation';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1123_LABEL_UNDERSCORE = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_UNDERSCORE = `${DNS1123_LABEL_UNDERSCORE}(\\.${DNS1123_LABEL_UNDERSCORE})*`;
const subdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const labelRe = new RegExp(`^${DNS1123_LABEL}$`);
const subdomainUnderscoreRe = new RegExp(`^${DNS1123_SUBDOMAIN_UNDERSCORE}$`);

/** DNS1123_LABEL_MAX_LENGTH is DNS1123LabelMaxLength. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
/** DNS1123_SUBDOMAIN_MAX_LENGTH is DNS1123SubdomainMaxLength. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const PORT_NAME_MAX_LENGTH = 15;
const MIN_PORT = 1;
const MAX_PORT = 65535;
// math.MaxInt32: minUserID..maxUserID and minGroupID..maxGroupID (k8s.io/apimachinery/pkg/util/validation/validation.go, v0.36.3).
const MAX_ID = 2147483647;

/** byteLength is Go's len() of a string: its UTF-8 length. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** maxLenError is MaxLenError: `must be no more than 63 characters`. */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;

/** inclusiveRangeError is InclusiveRangeError: `must be between 1 and 65535, inclusive`. */
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** regexError is RegexError: the message, then `(e.g. 'a',  or 'b', regex used for validation is '...')`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** isDNS1123Subdomain returns the problems of a name that must be a lowercase RFC 1123 subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!subdomainRe.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN, 'example.com'));
  }
  return errs;
}

/** isDNS1123SubdomainWithUnderscore is IsDNS1123SubdomainWithUnderscore, used for relaxed DNS search domains. */
export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!subdomainUnderscoreRe.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_UNDERSCORE, 'example.com'));
  }
  return errs;
}

/**
 * isDNS1123Label returns the problems of a name that must be a lowercase RFC 1123 label. A valid subdomain that is
 * not a label (it has dots) gets `must not contain dots` instead of the regex message.
 */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!labelRe.test(value)) {
    if (subdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL, 'my-name', '123-abc'));
  }
  return errs;
}

/**
 * nameIsDNSSubdomain is apimachinery's NameIsDNSSubdomain: with prefix (a generateName), a trailing dash is masked
 * first, as maskTrailingDash does (it drops the last two bytes and appends "a").
 * See staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go.
 */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  return isDNS1123Subdomain(masked);
}

/** isQualifiedName is IsQualifiedName (content.IsLabelKey): an optional DNS subdomain prefix and a name. */
export const isQualifiedName = (value: string): string[] => isLabelKey(value);

/** isValidLabelValue is IsValidLabelValue (content.IsLabelValue). */
export const isValidLabelValue = (value: string): string[] => isLabelValue(value);

/** isValidPortNum is IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= MIN_PORT && port <= MAX_PORT ? [] : [inclusiveRangeError(MIN_PORT, MAX_PORT)];
}

/** isValidPortName is IsValidPortName: an IANA_SVC_NAME (at most 15 of [-a-z0-9], a letter, no `--`, no edge dash). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > PORT_NAME_MAX_LENGTH) errs.push(maxLenError(PORT_NAME_MAX_LENGTH));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** isValidUserID is IsValidUserID: 0..2147483647. */
export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** isValidGroupID is IsValidGroupID: 0..2147483647. */
export const isValidGroupID = isValidUserID;

/** isRelaxedEnvVarName is IsRelaxedEnvVarName: printable ASCII other than '=' (the rule since 1.34). */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name must be non-empty');
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c > 0x7f || c < 0x20 || c === 0x7f || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

const CONFIG_MAP_KEY = '[-._a-zA-Z0-9]+';

/** isConfigMapKey is IsConfigMapKey: at most 253 of [-._a-zA-Z0-9], not `.`, `..` or starting with `..`. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!new RegExp(`^${CONFIG_MAP_KEY}$`).test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

const HTTP_HEADER_NAME = '[-A-Za-z0-9]+';

/** isHTTPHeaderName is IsHTTPHeaderName. */
export function isHTTPHeaderName(value: string): string[] {
  if (new RegExp(`^${HTTP_HEADER_NAME}$`).test(value)) return [];
  return [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME, 'X-Header-Name')];
}

/** IP_ERROR is IsValidIP's message. */
export const IP_ERROR = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/**
 * isValidIP tells whether k8s.io/utils/net.ParseIPSloppy accepts a value: IPv4 may have leading zeros (read as
 * decimal); IPv6 as Go's net.ParseIP reads it (no zone).
 */
export function isValidIP(value: string): boolean {
  if (/^[0-9]+(\.[0-9]+){3}$/.test(value)) return value.split('.').every((part) => Number(part) <= 255);
  return !value.includes('%') && isIPv6(value);
}
