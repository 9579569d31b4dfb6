// The resourceVersion parameters of a list, a watch and a get as kube-apiserver 1.36 reads them: ListOptions
// validation (resourceVersionMatch, sendInitialEvents), resourceVersion parsing, and the errors each path answers with.
// See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go (listOpts) and pkg/storage (v0.36.3).
import { goQuote } from '../engine/apiserver/decode-go';
import { badRequest, invalid, type Status, StatusError } from '../engine/apiserver/request';
import { asJSON, type FieldError, forbidden, invalidValue, notSupported, toCauses } from '../engine/apiserver/validation/field-errors';

/** EXACT and NOT_OLDER_THAN are metav1.ResourceVersionMatchExact and ResourceVersionMatchNotOlderThan. */
export const EXACT = 'Exact';
export const NOT_OLDER_THAN = 'NotOlderThan';

/** ListOptions are the query parameters of a list or watch that decide which state it reads. */
export interface ListOptions {
  watch: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  /** sendInitialEvents is undefined when the query does not carry it (a nil *bool). */
  sendInitialEvents?: boolean;
  continue: string;
  allowWatchBookmarks: boolean;
}

/** listOptionsOf reads the ListOptions of a query (watch as `true` or `1`, as the query decoder's bool). */
export function listOptionsOf(q: URLSearchParams): ListOptions {
  const bool = (v: string | null): boolean => v === 'true' || v === '1';
  const sendInitialEvents = q.get('sendInitialEvents');
  return {
    watch: bool(q.get('watch')),
    resourceVersion: q.get('resourceVersion') ?? '',
    resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
    ...(sendInitialEvents !== null ? { sendInitialEvents: bool(sendInitialEvents) } : {}),
    continue: q.get('continue') ?? '',
    allowWatchBookmarks: bool(q.get('allowWatchBookmarks')),
  };
}

/**
 * defaultedListOptions is SetListOptionsDefaults with the WatchList gate on (beta, on by default since 1.34): a watch
 * from "" or "0" that sets neither sendInitialEvents nor resourceVersionMatch gets sendInitialEvents=true and
 * NotOlderThan. See staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/defaults.go (v0.36.3).
 */
export function defaultedListOptions(o: ListOptions): ListOptions {
  if (o.sendInitialEvents !== undefined || o.resourceVersionMatch !== '') return o;
  if (o.watch && (o.resourceVersion === '' || o.resourceVersion === '0')) return { ...o, sendInitialEvents: true, resourceVersionMatch: NOT_OLDER_THAN };
  return o;
}

/**
 * validateListOptions is ValidateListOptions with the WatchList gate on, its errors the 422 of
 * `errors.NewInvalid(ListOptions.meta.k8s.io, "", errs)`. See staging/src/k8s.io/apimachinery/pkg/apis/meta/
 * internalversion/validation/validation.go and apiserver/pkg/endpoints/handlers/get.go (listOpts), v0.36.3.
 */
export function validateListOptions(o: ListOptions): void {
  const errs = o.watch ? watchErrors(o) : listErrors(o);
  if (errs.length === 0) return;
  const { message, details } = invalid('ListOptions', 'meta.k8s.io', '', toCauses(errs)).status;
  // StatusDetails.Name is omitempty: the ListOptions' empty name is not written.
  const { name: _name, ...unnamed } = details ?? {};
  throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', details: unnamed, code: 422 });
}

function listErrors(o: ListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (match !== '') {
    if (o.resourceVersion === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    // The value is a metav1.ResourceVersionMatch, a named string: ErrorBody prints it with json.Marshal.
    if (match !== EXACT && match !== NOT_OLDER_THAN) errs.push(notSupported('resourceVersionMatch', asJSON(match), [EXACT, NOT_OLDER_THAN, '']));
    if (match === EXACT && o.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

function watchErrors(o: ListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
    errs.push(forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
  }
  if (match !== '') {
    if (o.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== NOT_OLDER_THAN) errs.push(notSupported('resourceVersionMatch', asJSON(match), [NOT_OLDER_THAN]));
    if (o.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/** MAX_UINT64 is the largest resourceVersion strconv.ParseUint takes. */
const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * parseResourceVersion is APIObjectVersioner.ParseResourceVersion: "" and "0" are 0; anything else must be a
 * base-10 uint64, or it is the field error `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc":
 * invalid syntax` (or `value out of range`). See staging/src/k8s.io/apiserver/pkg/storage/api_object_versioner.go
 * and Go's strconv.ParseUint (a sign, an underscore or any non-digit is a syntax error; overflow stops the scan).
 */
export function parseResourceVersion(resourceVersion: string): bigint | FieldError {
  if (resourceVersion === '' || resourceVersion === '0') return 0n;
  let n = 0n;
  for (const c of resourceVersion) {
    if (c < '0' || c > '9') return parseError(resourceVersion, 'invalid syntax');
    n = n * 10n + BigInt(c.charCodeAt(0) - 48);
    if (n > MAX_UINT64) return parseError(resourceVersion, 'value out of range');
  }
  return n;
}

function parseError(resourceVersion: string, why: string): FieldError {
  return invalidValue('resourceVersion', resourceVersion, `strconv.ParseUint: parsing ${goQuote(resourceVersion)}: ${why}`);
}

/**
 * listResourceVersionError is the 400 a list with an unparsable resourceVersion gets from storage.ValidateListOptions:
 * `invalid resource version: resourceVersion: Invalid value: ...`. See staging/src/k8s.io/apiserver/pkg/storage/interfaces.go.
 */
export function listResourceVersionError(e: FieldError): StatusError {
  return badRequest(`invalid resource version: ${e.field}: ${e.body}`);
}

/**
 * storageInvalidError is what a watch or a get with an unparsable resourceVersion answers: the cacher returns the
 * storage.InvalidError as it is (nothing calls InterpretWatchError, and InterpretGetError lets it through), so
 * ErrorToAPIStatus makes it a 500 whose reason is empty (omitted) and whose message is the error's text, sent before
 * any watch stream starts. See staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (Watch, Get) and
 * endpoints/handlers/responsewriters/status.go (ErrorToAPIStatus), v0.36.3.
 */
export function storageInvalidError(e: FieldError): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${e.field}: ${e.body}`, code: 500 };
  return new StatusError(status);
}

/** RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS is the watch cache's resourceVersionTooHighRetrySeconds. */
const RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS = 1;

/**
 * tooLargeResourceVersion is storage.NewTooLargeResourceVersionError as the watch cache sends it after waiting 3 s
 * for a resourceVersion it has not reached: 504 Timeout, `Timeout: Too large resource version: 99, current: 57`, a
 * ResourceVersionTooLarge cause and a retry after 1 s; etcd's validateMinimumResourceVersion answers the same at once,
 * without a retry. See staging/src/k8s.io/apiserver/pkg/storage/errors.go,
 * cacher/watch_cache.go (waitUntilFreshAndBlock) and etcd3/store.go (validateMinimumResourceVersion), v0.36.3.
 */
export function tooLargeResourceVersion(minimum: bigint, current: number, retryAfterSeconds = RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Timeout: Too large resource version: ${minimum}, current: ${current}`, reason: 'Timeout',
    // RetryAfterSeconds is omitempty: etcd's own check (retry 0) writes none.
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) }, code: 504,
  });
}

/**
 * listTooOld is the 410 of an Exact list at a revision etcd has compacted: `The resourceVersion for the provided list
 * is too old.` See staging/src/k8s.io/apiserver/pkg/storage/etcd3/errors.go (interpretListError), v0.36.3.
 */
export function listTooOld(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410 });
}
