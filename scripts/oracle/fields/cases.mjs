// The manifest variants: for each field the walk of the specification found, a few values — a valid one, the wrong
// JSON type, empty, out of range or of the wrong format (names, quantities, ports, enums), null, absent when
// required — each written into a Pod that is valid but for it. Seeded and deterministic: the same seed and limit
// give the same cases, in the same order.
import { shortName } from './spec.mjs';
import { minimalOf, validSample } from './values.mjs';

/** ABSENT marks a variant that leaves the field out. */
const ABSENT = Symbol('absent');
const BAD_NAME = 'Not_Valid!';

/** variantsOf lists a field's variants as `[id, value]`. */
export function variantsOf(definitions, field) {
  const { shape } = field;
  const valid = validSample(definitions, field);
  const out = valid === undefined ? [] : [['valid', valid]];
  const int32 = shape.format === 'int32';
  switch (shape.kind) {
    case 'string':
      out.push(['wrong-type', 5], ['empty', ''], ['invalid', field.enum ? 'Bogus' : BAD_NAME]);
      if (/name$|^hostname$|^subdomain$|^key$/i.test(field.prop) && !field.enum) out.push(['too-long', 'a'.repeat(254)]);
      break;
    case 'integer': case 'number':
      out.push(['wrong-type', '1'], ['zero', 0], ['negative', -1]);
      if (int32) out.push(['int32-max', 2147483647], ['too-big', 2147483648]);
      break;
    case 'boolean': out.push(['false', false], ['wrong-type', 'true']); break;
    case 'quantity': out.push(['wrong-type', true], ['empty', ''], ['negative', '-1'], ['milli', '100m'], ['invalid', '1.5.5']); break;
    case 'intOrString': out.push(['name', 'http'], ['empty', ''], ['negative', -1], ['too-big', 70000], ['invalid', BAD_NAME], ['wrong-type', true]); break;
    case 'time': out.push(['invalid', 'yesterday'], ['wrong-type', 5]); break;
    case 'object': out.push(['wrong-type', 'x'], ['empty', {}]); break;
    case 'array': {
      out.push(['wrong-type', 'x'], ['empty', []]);
      const item = shape.items;
      if (item.kind === 'object' && valid) out.push(['duplicate', [...valid, ...structuredClone(valid)]]);
      else if (item.kind === 'string') out.push(['bad-element', ['']]);
      else if (item.kind === 'integer') out.push(['bad-element', [-1]]);
      break;
    }
    case 'map':
      out.push(['wrong-type', ['x']], ['empty', {}]);
      if (shape.values.kind === 'quantity') out.push(['bad-key', { bogus: '1' }], ['negative', { cpu: '-1' }], ['bad-value', { cpu: 'lots' }]);
      else out.push(['bad-key', { [BAD_NAME]: 'v' }]);
      break;
    default: return [];
  }
  out.push(['null', null]);
  if (field.required || isInMinimal(definitions, field)) out.push(['absent', ABSENT]);
  return out;
}

/** isInMinimal tells a field the smallest object of its definition sets (so leaving it out is a variant too). */
function isInMinimal(definitions, field) {
  const owner = field.owners.at(-1);
  if (!owner || owner[0] === 1) return field.prop === 'containers';
  const obj = minimalOf(definitions, owner[1], undefined, listKeyAt(field.path, owner[0]));
  return Object.hasOwn(obj, field.prop);
}

/** listKeyAt is the list an object at a path length sits in (`containers` for spec.containers[0]), or its key. */
function listKeyAt(path, length) {
  return typeof path[length - 1] === 'number' ? path[length - 2] : path[length - 1];
}

/**
 * podFor writes a Pod named `name` that is valid but for `value` at the field's path: each object on the way is the
 * smallest valid one of its definition; a mount or a claim the path uses gets its volume or claim in the spec.
 */
export function podFor(definitions, field, value, name) {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [minimalOf(definitions, 'io.k8s.api.core.v1.Container', undefined, 'containers')] } };
  const { path } = field;
  const owners = new Map(field.owners);
  let node = pod;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    const length = i + 1;
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      node[key] = typeof path[i + 1] === 'number' ? [] : minimalOf(definitions, owners.get(length) ?? '', path[i + 1], listKeyAt(path, length));
    }
    node = node[key];
  }
  const last = path.at(-1);
  if (value === ABSENT) delete node[last];
  else node[last] = structuredClone(value);
  addNeeds(pod, field);
  return pod;
}

/** addNeeds gives a pod what the field's path refers to elsewhere in the spec: the volume `vol` of a mount, a claim. */
function addNeeds(pod, field) {
  const keys = new Set(field.path.filter((p) => typeof p === 'string'));
  const spec = pod.spec;
  if (keys.has('volumes') || keys.has('resourceClaims')) return;
  if (keys.has('volumeDevices')) spec.volumes = [{ name: 'vol', persistentVolumeClaim: { claimName: 'claim' } }];
  else if (keys.has('volumeMounts') || keys.has('fileKeyRef')) spec.volumes = [{ name: 'vol', emptyDir: {} }];
  if (keys.has('claims')) spec.resourceClaims = [{ name: 'rc', resourceClaimName: 'claim' }];
}

/** mulberry32 is a small seeded generator: the cases a limit keeps depend on the seed only. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * fieldCases builds every case (`{ label, field, variant, pod }`), in the walk's order; with `limit`, a seeded
 * sample of that many, still in that order. Pods are named `f-<n>` by their place in the full list.
 */
export function fieldCases(definitions, fields, { seed = 1, limit } = {}) {
  const all = [];
  for (const field of fields) {
    for (const [variant, value] of variantsOf(definitions, field)) {
      const name = `f-${all.length + 1}`;
      all.push({ label: `fields ${field.label} ${variant}`, field: field.label, type: shortName(field.def), variant, pod: podFor(definitions, field, value, name) });
    }
  }
  if (!limit || limit >= all.length) return all;
  const rand = mulberry32(seed);
  const order = all.map((c, i) => [rand(), i]).sort((a, b) => a[0] - b[0]).slice(0, limit).map(([, i]) => i).sort((a, b) => a - b);
  return order.map((i) => all[i]);
}
