// The image reference grammar kubectl run checks `--image` against: github.com/distribution/reference v0.6.0
// regexp.go (ReferenceRegexp), the version k8s.io/kubectl v0.36.3 builds with.

const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const optionalPort = '(?::[0-9]+)?';
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const host = `(?:${domainName}|${ipv6address})`;
const domainAndPort = `${host}${optionalPort}`;
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePat = `(?:${domainAndPort}/)?${remoteName}`;

/** REFERENCE is ReferenceRegexp: name, then an optional `:tag`, then an optional `@digest`, anchored. */
const REFERENCE = new RegExp(`^(${namePat})(?::(${tag}))?(?:@(${digest}))?$`);

/** ERR_REFERENCE_INVALID_FORMAT is reference.ErrReferenceInvalidFormat's text. */
export const ERR_REFERENCE_INVALID_FORMAT = 'invalid reference format';

/**
 * isValidReference is `reference.ReferenceRegexp.MatchString(image)`. kubectl run refuses an image that does not
 * match: `Invalid image name "NGINX": invalid reference format`. (Go's RE2 never backtracks; this expression's alternatives
 * are told apart by the next character, so V8's backtracking stays linear on long input too.)
 */
export function isValidReference(image: string): boolean {
  return REFERENCE.test(image);
}
