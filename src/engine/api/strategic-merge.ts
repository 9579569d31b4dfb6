// Strategic merge patches of built-in kinds: the three-way patch kubectl apply computes and the merge the API
// server applies. See staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateThreeWayMergePatch,
// StrategicMergePatch) and the patchMergeKey / patchStrategy tags of staging/src/k8s.io/api/core/v1/types.go.

/** JsonMap is a decoded JSON object. */
export type JsonMap = Record<string, unknown>;

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * mergeKeyOf is the patchMergeKey of a list field, by its name and the name of the field holding it; undefined
 * for a list that is replaced whole (atomic). Tags from staging/src/k8s.io/api/core/v1/types.go, apps/v1,
 * admissionregistration/v1 and storage/v1.
 */
export function mergeKeyOf(field: string, parent: string): string | undefined {
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers': case 'env': case 'volumes': case 'imagePullSecrets':
    case 'resourceClaims': case 'schedulingGates':
      return 'name';
    // admissionregistration/v1 webhooks, matchConditions and variables; storage/v1 CSINodeSpec.drivers (k8s.io/api v0.36.3).
    case 'webhooks': case 'matchConditions': case 'variables':
      return 'name';
    case 'drivers': return parent === 'spec' ? 'name' : undefined;
    case 'volumeMounts': return 'mountPath';
    case 'volumeDevices': return 'devicePath';
    case 'hostAliases': return 'ip';
    case 'conditions': return 'type';
    case 'ownerReferences': return 'uid';
    case 'topologySpreadConstraints': return 'topologyKey';
    // ContainerPort merges by containerPort; ServicePort by port.
    case 'ports': return parent === 'spec' ? 'port' : 'containerPort';
    default: return undefined;
  }
}

const SET_ORDER = '$setElementOrder/';

/** RETAIN_KEYS are the map fields tagged patchStrategy:"retainKeys" that kubectl's patches here touch (apps/v1 DeploymentStrategy). */
const RETAIN_KEYS = new Set(['strategy', 'updateStrategy']);

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/**
 * createThreeWayMergePatch computes the patch kubectl apply sends: changes from `current` (the live object) to
 * `modified` (the new configuration), plus deletions of fields that were in `original` (the last-applied
 * configuration) and are not in `modified`. Fields set by others (in current only) are left alone.
 */
export function createThreeWayMergePatch(original: JsonMap | undefined, modified: JsonMap, current: JsonMap): JsonMap {
  return diffMaps(original ?? {}, modified, current, '');
}

function diffMaps(original: JsonMap, modified: JsonMap, current: JsonMap, parent: string): JsonMap {
  const patch: JsonMap = {};
  for (const key of Object.keys(original)) {
    if (!(key in modified)) patch[key] = null;
  }
  for (const [key, want] of Object.entries(modified)) {
    const have = current[key];
    const orig = original[key];
    if (isMap(want) && isMap(have)) {
      const sub = diffMaps(isMap(orig) ? orig : {}, want, have, key);
      // patchStrategy retainKeys (DeploymentStrategy, ...): the patch lists the keys to keep.
      if (Object.keys(sub).length && RETAIN_KEYS.has(key)) sub['$retainKeys'] = Object.keys(want).sort();
      if (Object.keys(sub).length) patch[key] = sub;
      continue;
    }
    const mergeKey = mergeKeyOf(key, parent);
    if (mergeKey && Array.isArray(want) && Array.isArray(have) && want.every(isMap) && have.every(isMap)) {
      const sub = diffKeyedList(key, mergeKey, Array.isArray(orig) ? orig.filter(isMap) : [], want, have, patch);
      if (sub) patch[key] = sub;
      continue;
    }
    if (!equal(want, have)) patch[key] = want;
  }
  return patch;
}

function diffKeyedList(field: string, mergeKey: string, original: JsonMap[], modified: JsonMap[], current: JsonMap[], into: JsonMap): unknown[] | undefined {
  const items: unknown[] = [];
  const keyOf = (m: JsonMap) => JSON.stringify(m[mergeKey]);
  for (const o of original) {
    if (!modified.some((m) => keyOf(m) === keyOf(o))) items.push({ $patch: 'delete', [mergeKey]: o[mergeKey] });
  }
  for (const m of modified) {
    const c = current.find((x) => keyOf(x) === keyOf(m));
    const o = original.find((x) => keyOf(x) === keyOf(m));
    if (!c) {
      items.push(m);
      continue;
    }
    const sub = diffMaps(o ?? {}, m, c, field);
    if (Object.keys(sub).length) items.push({ ...sub, [mergeKey]: m[mergeKey] });
  }
  const order = modified.map((m) => m[mergeKey]);
  const currentOrder = current.map((c) => c[mergeKey]).filter((k) => order.some((o) => equal(o, k)));
  if (items.length === 0 && equal(order, currentOrder)) return undefined;
  into[`${SET_ORDER}${field}`] = order.map((k) => ({ [mergeKey]: k }));
  return items.length ? items : undefined;
}

/** applyStrategicMergePatch merges a strategic merge patch into an object, as the API server's PATCH handler does. */
export function applyStrategicMergePatch(target: JsonMap, patch: JsonMap): JsonMap {
  return mergeMap(target, patch, '');
}

function mergeMap(target: JsonMap, patch: JsonMap, parent: string): JsonMap {
  const out: JsonMap = { ...target };
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(SET_ORDER) || key === '$retainKeys') continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const mergeKey = mergeKeyOf(key, parent);
    if (isMap(value) && isMap(out[key])) out[key] = mergeMap(out[key] as JsonMap, value, key);
    else if (mergeKey && Array.isArray(value)) out[key] = mergeKeyedList(Array.isArray(out[key]) ? (out[key] as unknown[]).filter(isMap) : [], value, mergeKey, key, patch[`${SET_ORDER}${key}`]);
    else out[key] = value;
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER) || key.slice(SET_ORDER.length) in patch) continue;
    const field = key.slice(SET_ORDER.length);
    const mergeKey = mergeKeyOf(field, parent);
    if (mergeKey && Array.isArray(out[field])) out[field] = mergeKeyedList((out[field] as unknown[]).filter(isMap), [], mergeKey, field, order);
  }
  return out;
}

function mergeKeyedList(target: JsonMap[], patch: unknown[], mergeKey: string, field: string, order: unknown): JsonMap[] {
  let out = [...target];
  const same = (a: JsonMap, b: JsonMap) => equal(a[mergeKey], b[mergeKey]);
  for (const item of patch.filter(isMap)) {
    if (item['$patch'] === 'delete') {
      out = out.filter((x) => !same(x, item));
      continue;
    }
    const i = out.findIndex((x) => same(x, item));
    if (i >= 0) out[i] = mergeMap(out[i]!, item, field);
    else out.push(item);
  }
  if (Array.isArray(order)) {
    // $setElementOrder puts the listed elements in its order; elements it does not list keep their place after them.
    const rank = (x: JsonMap) => {
      const r = order.findIndex((o) => isMap(o) && equal(o[mergeKey], x[mergeKey]));
      return r < 0 ? order.length : r;
    };
    out = out.map((x, i) => ({ x, i })).sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i).map((e) => e.x);
  }
  return out;
}
