// LimitRange validation on create: ValidateLimitRange of pkg/apis/core/validation/validation.go, as
// pkg/registry/core/limitrange/strategy.go (Validate) runs it, k8s.io/kubernetes v1.36.3. Go walks the resource maps
// (and the set of their keys) in random order; this walks them as written.
import { quantityOf, type Quantity } from '../../api/quantity';
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, key, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isQualifiedName, nameIsDNSSubdomain } from './names';
import { isOvercommitAllowed, validateContainerResourceName, validateResourceName } from './pod-resources';

type Rec = Record<string, unknown>;

/** STANDARD_LIMIT_TYPES is helper.standardLimitRangeTypes. */
const STANDARD_LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
/** MAX_MILLI_VALUE is resource.MaxMilliValue: the largest value whose milli-value fits an int64. */
const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

/** validateLimitRange is ValidateLimitRange: the metadata (a DNS subdomain name), then each item of spec.limits. */
export function validateLimitRange(limitRange: KubeObject): FieldError[] {
  const errs = validateObjectMeta(limitRange, true, nameIsDNSSubdomain);
  const spec = isObject(limitRange['spec']) ? limitRange['spec'] : {};
  const types = new Set<string>();
  (Array.isArray(spec['limits']) ? spec['limits'] : []).forEach((item: unknown, i) => {
    errs.push(...validateLimitRangeItem(isObject(item) ? item : {}, index('spec.limits', i), types));
  });
  return errs;
}

/** quantities reads a resource list: its names and parsed quantities, in the order written. */
function quantities(value: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(isObject(value) ? value : {})) {
    const q = quantityOf(raw);
    if (q) out.set(name, q);
  }
  return out;
}

/** validateLimitRangeTypeName is validateLimitRangeTypeName: a qualified name, standard when it has no domain. */
function validateLimitRangeTypeName(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((msg) => invalidValue(path, asJSON(type), msg));
  if (errs.length) return errs;
  if (!type.includes('/') && !STANDARD_LIMIT_TYPES.includes(type)) return [invalidValue(path, asJSON(type), 'must be a standard limit type or fully qualified')];
  return [];
}

/** validateLimitRangeItem is the loop body of ValidateLimitRange for one item. */
function validateLimitRangeItem(limit: Rec, path: string, types: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof limit['type'] === 'string' ? limit['type'] : '';
  errs.push(...validateLimitRangeTypeName(type, child(path, 'type')));
  if (types.has(type)) errs.push(duplicate(child(path, 'type'), asJSON(type)));
  types.add(type);
  // validateLimitRangeResourceName: container resource names for Pod and Container items, any resource name otherwise.
  const nameRule = type === 'Pod' || type === 'Container' ? validateContainerResourceName : validateResourceName;
  const keys = new Set<string>();
  const read = (field: string): Map<string, Quantity> => {
    const values = quantities(limit[field]);
    for (const name of values.keys()) {
      errs.push(...nameRule(name, key(child(path, field), name)));
      keys.add(name);
    }
    return values;
  };
  const max = read('max');
  const min = read('min');
  let defaults = new Map<string, Quantity>();
  let defaultRequests = new Map<string, Quantity>();
  if (type === 'Pod') {
    if (quantities(limit['default']).size > 0) errs.push(forbidden(child(path, 'default'), "may not be specified when `type` is 'Pod'"));
    if (quantities(limit['defaultRequest']).size > 0) errs.push(forbidden(child(path, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    defaults = read('default');
    defaultRequests = read('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errs.push(required(child(path, 'limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const ratios = read('maxLimitRequestRatio');
  for (const name of keys) errs.push(...compareLimits(name, path, { min, max, defaults, defaultRequests, ratios }));
  return errs;
}

interface ItemQuantities {
  min: Map<string, Quantity>;
  max: Map<string, Quantity>;
  defaults: Map<string, Quantity>;
  defaultRequests: Map<string, Quantity>;
  ratios: Map<string, Quantity>;
}

/** compareLimits is ValidateLimitRange's checks of one resource: min ≤ defaultRequest ≤ default ≤ max, and the ratio. */
function compareLimits(name: string, path: string, q: ItemQuantities): FieldError[] {
  const errs: FieldError[] = [];
  const min = q.min.get(name), max = q.max.get(name), def = q.defaults.get(name), defReq = q.defaultRequests.get(name), ratio = q.ratios.get(name);
  // A resource.Quantity bad value prints as json.Marshal writes it: its canonical string, quoted.
  const shown = (v: Quantity) => asJSON(v.toString());
  const at = (field: string) => key(child(path, field), name);
  if (min && max && min.cmp(max) > 0) errs.push(invalidValue(at('min'), shown(min), `min value ${min} is greater than max value ${max}`));
  if (defReq && min && min.cmp(defReq) > 0) errs.push(invalidValue(at('defaultRequest'), shown(defReq), `min value ${min} is greater than default request value ${defReq}`));
  if (defReq && max && defReq.cmp(max) > 0) errs.push(invalidValue(at('defaultRequest'), shown(defReq), `default request value ${defReq} is greater than max value ${max}`));
  if (defReq && def && defReq.cmp(def) > 0) errs.push(invalidValue(at('defaultRequest'), shown(defReq), `default request value ${defReq} is greater than default limit value ${def}`));
  if (def && min && min.cmp(def) > 0) errs.push(invalidValue(at('default'), shown(min), `min value ${min} is greater than default value ${def}`));
  if (def && max && def.cmp(max) > 0) errs.push(invalidValue(at('default'), shown(max), `default value ${def} is greater than max value ${max}`));
  if (ratio && ratio.cmp(quantityOf(1)!) < 0) errs.push(invalidValue(at('maxLimitRequestRatio'), shown(ratio), `ratio ${ratio} is less than 1`));
  if (ratio && min && max) {
    let ratioValue = Number(ratio.scaledValue(0));
    let minValue = min.scaledValue(0);
    let maxValue = max.scaledValue(0);
    if (ratio.scaledValue(0) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
      ratioValue = Number(ratio.scaledValue(-3)) / 1000;
      minValue = min.scaledValue(-3);
      maxValue = max.scaledValue(-3);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit) errs.push(invalidValue(at('maxLimitRequestRatio'), shown(ratio), `ratio ${ratio} is greater than max/min = ${goFloatF(limit)}`));
  }
  // Resources that may not be overcommitted (hugepages, extended ones) need default == defaultRequest when both are set.
  if (!isOvercommitAllowed(name) && def && defReq && def.cmp(defReq) !== 0) {
    errs.push(invalidValue(at('defaultRequest'), shown(defReq), `default value ${def} must equal to defaultRequest value ${defReq} in ${name}`));
  }
  return errs;
}

/** goFloatF is fmt's %f: six decimals, and +Inf, -Inf or NaN as Go spells them. */
function goFloatF(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  return x.toFixed(6);
}
