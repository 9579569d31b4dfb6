// Image references as the kubelet parses them before any pull: the docker reference grammar of
// github.com/distribution/reference v0.6.0 (the version k8s.io/kubernetes v1.36.3 requires in go.mod): regexp.go
// (the grammar), normalize.go (ParseNormalizedNamed, splitDockerDomain), reference.go (Parse and its errors), and the
// digest check of github.com/opencontainers/go-digest v1.0.0 (digest.go Validate, algorithm.go). The kubelet wraps the
// error in pkg/util/parsers/parsers.go (ParseImageName) and pkg/kubelet/images/image_manager.go (applyDefaultImageTag,
// EnsureImageExists). The API server does not check any of this: pkg/apis/core/validation/validation.go only requires
// an image and, for a pod, no leading or trailing whitespace.
import { goQuote } from '../apiserver/decode-go';
import { BoundedCache } from '../runtime/bounded-cache';

/** ParsedImage is a normalized named reference: `docker.io` + `library/nginx`, its tag and digest (either may be absent). */
export interface ParsedImage {
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
}

// regexp.go: the grammar, each piece as the Go source builds it.
const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const optionalPort = '(?::[0-9]+)?';
const tagPat = '[\\w][\\w.-]{0,127}';
const digestPat = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';
const identifier = '([a-f0-9]{64})';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const host = `(?:${domainName}|${ipv6address})`;
const domainAndPort = host + optionalPort;
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePat = `(?:${domainAndPort}/)?${remoteName}`;
const referenceRegexp = new RegExp(`^(${namePat})(?::(${tagPat}))?(?:@(${digestPat}))?$`);
const anchoredNameRegexp = new RegExp(`^(?:(${domainAndPort})/)?(${remoteName})$`);
const anchoredIdentifierRegexp = new RegExp(`^${identifier}$`);

/** REPOSITORY_NAME_TOTAL_LENGTH_MAX bounds the path of a repository name (reference.go RepositoryNameTotalLengthMax). */
const REPOSITORY_NAME_TOTAL_LENGTH_MAX = 255;

// normalize.go: Docker Hub's names.
const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library/';

// go-digest algorithm.go: the algorithms the kubelet links in (parsers.go imports crypto/sha256 and crypto/sha512),
// each with the length of its lower-case hex encoding.
const DIGEST_ALGORITHMS: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
// go-digest digest.go DigestRegexpAnchored.
const goDigestRegexp = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

/** splitDockerDomain splits a name into its domain and remote name, Docker Hub's when the first part is no domain. */
function splitDockerDomain(name: string): [string, string] {
  const slash = name.indexOf('/');
  if (slash < 0) return [DEFAULT_DOMAIN, OFFICIAL_REPO_PREFIX + name];
  const maybeDomain = name.slice(0, slash);
  const maybeRemote = name.slice(slash + 1);
  let domain: string;
  let remote: string;
  if (maybeDomain === 'localhost') [domain, remote] = [maybeDomain, maybeRemote];
  else if (maybeDomain === LEGACY_DEFAULT_DOMAIN) [domain, remote] = [DEFAULT_DOMAIN, maybeRemote];
  else if (/[.:]/.test(maybeDomain)) [domain, remote] = [maybeDomain, maybeRemote];
  // An upper-case first part is taken for a domain: namespaces are lower case.
  else if (maybeDomain.toLowerCase() !== maybeDomain) [domain, remote] = [maybeDomain, maybeRemote];
  else [domain, remote] = [DEFAULT_DOMAIN, name];
  if (domain === DEFAULT_DOMAIN && !remote.includes('/')) remote = OFFICIAL_REPO_PREFIX + remote;
  return [domain, remote];
}

/** validateDigest is go-digest's Digest.Validate, with its error texts. */
function validateDigest(d: string): string | undefined {
  const i = d.indexOf(':');
  if (i <= 0 || i + 1 === d.length) return 'invalid checksum digest format';
  const algorithm = d.slice(0, i);
  const encoded = d.slice(i + 1);
  const size = DIGEST_ALGORITHMS[algorithm];
  if (size === undefined) return goDigestRegexp.test(d) ? 'unsupported digest algorithm' : 'invalid checksum digest format';
  if (encoded.length !== size) return 'invalid checksum digest length';
  return /^[a-f0-9]+$/.test(encoded) ? undefined : 'invalid checksum digest format';
}

/** parse is reference.go Parse for the normalized string: the grammar, then the length of the path and the digest. */
function parse(s: string): ParsedImage | { error: string } {
  const m = referenceRegexp.exec(s);
  if (!m) {
    if (s === '') return { error: 'repository name must have at least one component' };
    if (referenceRegexp.test(s.toLowerCase())) return { error: 'repository name must be lowercase' };
    return { error: 'invalid reference format' };
  }
  const name = anchoredNameRegexp.exec(m[1]!);
  const domain = name?.[1] ?? '';
  const path = name ? name[2]! : m[1]!;
  if (path.length > REPOSITORY_NAME_TOTAL_LENGTH_MAX) return { error: `repository name must not be more than ${REPOSITORY_NAME_TOTAL_LENGTH_MAX} characters` };
  if (m[3] !== undefined && m[3] !== '') {
    const error = validateDigest(m[3]);
    if (error) return { error };
  }
  return { domain, path, ...(m[2] ? { tag: m[2] } : {}), ...(m[3] ? { digest: m[3] } : {}) };
}

/**
 * parseNormalizedNamed is ParseNormalizedNamed: `nginx` is `docker.io/library/nginx`, a first part with a dot or a
 * colon (or `localhost`, or upper case) is a registry. Returns the reference, or the library's error text.
 */
export function parseNormalizedNamed(s: string): Readonly<ParsedImage> | Readonly<{ error: string }> {
  // Every container start reads its image: a cluster's few images are parsed once each.
  return PARSED.get(s, parseOnce);
}

/** PARSED are the images parsed lately. */
const PARSED = new BoundedCache<string, Readonly<ParsedImage> | Readonly<{ error: string }>>(1024);

function parseOnce(s: string): Readonly<ParsedImage> | Readonly<{ error: string }> {
  return Object.freeze(parseNamed(s));
}

function parseNamed(s: string): ParsedImage | { error: string } {
  if (anchoredIdentifierRegexp.test(s)) return { error: `invalid repository name (${s}), cannot specify 64-byte hexadecimal strings` };
  const [domain, remainder] = splitDockerDomain(s);
  const colon = remainder.indexOf(':');
  const remote = colon > -1 ? remainder.slice(0, colon) : remainder;
  if (remote.toLowerCase() !== remote) return { error: `invalid reference format: repository name (${remote}) must be lowercase` };
  return parse(`${domain}/${remainder}`);
}

/**
 * imageNameError is the kubelet's error for an image it cannot parse, as applyDefaultImageTag returns it through
 * ParseImageName: `couldn't parse image name "nginx::1.25": invalid reference format`; undefined for a valid one.
 */
export function imageNameError(image: string): string | undefined {
  const parsed = parseNormalizedNamed(image);
  return 'error' in parsed ? `couldn't parse image name ${goQuote(image)}: ${parsed.error}` : undefined;
}

/**
 * invalidImageNameMessage is the message of the Warning InspectFailed event and of the container's waiting state
 * InvalidImageName: `Failed to apply default image tag "<image>": <error>` (image_manager.go EnsureImageExists).
 */
export function invalidImageNameMessage(image: string, error: string): string {
  return `Failed to apply default image tag ${goQuote(image)}: ${error}`;
}

/**
 * normalizedImage is the reference the container runtime reports for an image: the full name with the tag `latest`
 * when neither tag nor digest is given (TagNameOnly); the image as written when it cannot be parsed.
 */
export function normalizedImage(image: string): string {
  const parsed = parseNormalizedNamed(image);
  if ('error' in parsed) return image;
  const tag = parsed.tag ?? (parsed.digest ? undefined : 'latest');
  return `${parsed.domain}/${parsed.path}${tag ? `:${tag}` : ''}${parsed.digest ? `@${parsed.digest}` : ''}`;
}
