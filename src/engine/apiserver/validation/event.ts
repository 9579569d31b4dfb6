// core/v1 Event validation on create and update: ValidateEventCreate with the request's group version v1, which is
// legacyValidateEvent alone (the strict rules are for events.k8s.io/v1 and newer), then the generic ObjectMeta check
// BeforeCreate runs after the strategy's (ValidateObjectMetaAccessor with path segment names), since Event's own
// validation leaves the metadata alone. See pkg/apis/core/validation/events.go and pkg/registry/core/event/strategy.go
// (k8s.io/kubernetes v1.36.3), staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (v0.36.3).
import { isObject, type KubeObject } from '../../api/types';
import { type FieldError, invalidValue, required } from './field-errors';
import { pathSegmentName, validateObjectMeta } from './metadata';
import { byteLength, isDNS1123Subdomain, isQualifiedName } from './names';

// ReportingInstanceLengthLimit, ActionLengthLimit, ReasonLengthLimit and NoteLengthLimit (events.go).
const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;
/** REPORTING_CONTROLLER_FIELD is the path legacyValidateEvent names ReportingController by at v1: its v1 JSON name. */
const REPORTING_CONTROLLER_FIELD = 'reportingComponent';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * validateEvent is the Event strategy's Validate at v1: legacyValidateEvent; when that passes, BeforeCreate's own
 * ValidateObjectMetaAccessor (a name that is a path segment, a namespace, labels, annotations, ...).
 */
export function validateEvent(event: KubeObject): FieldError[] {
  const errs = legacyValidateEvent(event);
  return errs.length ? errs : validateObjectMeta(event, true, pathSegmentName);
}

/**
 * legacyValidateEvent is legacyValidateEvent with requestVersion v1. An Event without eventTime (the old kind) must
 * agree with its involvedObject's namespace (an empty one allows the event in "" or default); one with eventTime may
 * leave the involvedObject's namespace empty only in default or kube-system, and needs reportingComponent (a qualified
 * name), reportingInstance, action and reason within their byte limits, and a message of at most 1024 bytes. The
 * event's namespace is a DNS subdomain in any case. Length errors show "" as the value, as Go passes it.
 */
function legacyValidateEvent(event: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata?.namespace ?? '';
  const involved = isObject(event['involvedObject']) ? event['involvedObject'] : {};
  const involvedNamespace = str(involved['namespace']);
  const mismatch = () => invalidValue('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(event['eventTime'])) {
    if (involvedNamespace.length === 0) {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace.length === 0 && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    const controller = str(event[REPORTING_CONTROLLER_FIELD]);
    if (controller.length === 0) errs.push(required(REPORTING_CONTROLLER_FIELD));
    errs.push(...isQualifiedName(controller).map((msg) => invalidValue(REPORTING_CONTROLLER_FIELD, controller, msg)));
    errs.push(...requiredWithin(str(event['reportingInstance']), 'reportingInstance', REPORTING_INSTANCE_LENGTH_LIMIT));
    errs.push(...requiredWithin(str(event['action']), 'action', ACTION_LENGTH_LIMIT));
    errs.push(...requiredWithin(str(event['reason']), 'reason', REASON_LENGTH_LIMIT));
    if (byteLength(str(event['message'])) > NOTE_LENGTH_LIMIT) errs.push(atMost('message', NOTE_LENGTH_LIMIT));
  }
  errs.push(...isDNS1123Subdomain(namespace).map((msg) => invalidValue('namespace', namespace, msg)));
  return errs;
}

/** ZERO_TIME is Go's time.Time{} (0001-01-01T00:00:00Z) in milliseconds since the epoch. */
const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** isZeroTime: a metav1.MicroTime that decodes to the zero time: absent, null, or 0001-01-01T00:00:00Z written out. */
function isZeroTime(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && Date.parse(value) === ZERO_TIME);
}

/** requiredWithin: `Required value` when empty, `Invalid value: "": can have at most N characters` past the limit. */
function requiredWithin(value: string, path: string, limit: number): FieldError[] {
  if (value.length === 0) return [required(path)];
  return byteLength(value) > limit ? [atMost(path, limit)] : [];
}

const atMost = (path: string, limit: number): FieldError => invalidValue(path, '', `can have at most ${limit} characters`);
