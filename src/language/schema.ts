// The generated Kubernetes API schema as the editor services read it: the type at a field path, the keys a struct
// allows, and how a type reads to a person (`[]Container`, `map[string]string`, `integer (int32)`).
import { type PathSegment } from '../engine/api/fieldpath';
import { SCHEMA_KINDS, SCHEMA_TYPES, type SchemaProperty, type SchemaType } from '../engine/api/schema/schema.generated';

/** FieldInfo is what the schema says of one field: its property, the struct it belongs to and the field's own type. */
export interface FieldInfo {
  /** name is the field's key; parent the struct that declares it. */
  readonly name: string;
  readonly parent: SchemaType;
  readonly parentId: string;
  readonly property: SchemaProperty;
  /** required tells whether the parent lists the field as required. */
  readonly required: boolean;
}

/** rootTypeId is the type of a kind (`apps/v1/Deployment` → apps.v1.Deployment), or undefined for kinds not in the schema. */
export function rootTypeId(apiVersionKind: string): string | undefined {
  return SCHEMA_KINDS[apiVersionKind];
}

/** typeAt resolves the type expression at a path below a root type (`#core.v1.Container`, `[]string`, `quantity`). */
export function typeAt(rootId: string, path: readonly PathSegment[]): string | undefined {
  let expr: string | undefined = `#${rootId}`;
  for (const segment of path) {
    if (expr === undefined) return undefined;
    expr = step(expr, segment);
  }
  return expr;
}

/** step goes one segment down a type expression: an index into a list, a key into a map or a struct. */
function step(expr: string, segment: PathSegment): string | undefined {
  if (expr.startsWith('[]')) return typeof segment === 'number' ? expr.slice(2) : undefined;
  if (expr.startsWith('{}')) return typeof segment === 'string' ? expr.slice(2) : undefined;
  if (expr.startsWith('#') && typeof segment === 'string') return SCHEMA_TYPES[expr.slice(1)]?.properties[segment]?.type;
  return undefined;
}

/** fieldAt describes the last field of a path (a key of a struct), or undefined when the schema has no such field. */
export function fieldAt(rootId: string, path: readonly PathSegment[]): FieldInfo | undefined {
  const last = path.length - 1;
  const name = path[last];
  if (typeof name !== 'string') return undefined;
  const parentExpr = typeAt(rootId, path.slice(0, last));
  if (!parentExpr?.startsWith('#')) return undefined;
  const parentId = parentExpr.slice(1);
  const parent = SCHEMA_TYPES[parentId];
  const property = parent?.properties[name];
  if (!parent || !property) return undefined;
  return { name, parent, parentId, property, required: parent.required?.includes(name) ?? false };
}

/** structAt is the struct type at a path (the object whose keys a person types there), if it is one. */
export function structAt(rootId: string, path: readonly PathSegment[]): { id: string; type: SchemaType } | undefined {
  const expr = typeAt(rootId, path);
  if (!expr?.startsWith('#')) return undefined;
  const type = SCHEMA_TYPES[expr.slice(1)];
  return type ? { id: expr.slice(1), type } : undefined;
}

/** readableType writes a type expression as the API reference does: `[]Container`, `map[string]string`, `Quantity`. */
export function readableType(expr: string, property?: SchemaProperty): string {
  if (expr.startsWith('[]')) return `[]${readableType(expr.slice(2))}`;
  if (expr.startsWith('{}')) return `map[string]${readableType(expr.slice(2))}`;
  if (expr.startsWith('#')) return SCHEMA_TYPES[expr.slice(1)]?.go.replace(/^v1\./, '') ?? expr.slice(1);
  const named = property?.go && !property.go.startsWith('[]') && !property.go.startsWith('map[') ? ` (${property.go.replace(/^v1\./, '')})` : '';
  switch (expr) {
    case 'int32': case 'int64': return `integer (${expr})${named}`;
    case 'number': return 'number (float64)';
    case 'bytes': return 'string (base64)';
    case 'quantity': return 'Quantity (string or number: 500m, 1Gi)';
    case 'int-or-string': return 'IntOrString (integer or string)';
    case 'time': return 'Time (RFC 3339 string)';
    case 'micro-time': return 'MicroTime (RFC 3339 string with microseconds)';
    case 'raw': return 'any JSON value';
    default: return `${expr}${named}`;
  }
}

/** isScalar tells whether a type expression holds a single value (not a struct, list or map). */
export function isScalar(expr: string): boolean {
  return !expr.startsWith('#') && !expr.startsWith('[]') && !expr.startsWith('{}') && expr !== 'raw';
}

/** apiVersionKinds lists every `apiVersion` and `kind` pair the schema knows, for completion. */
export function apiVersionKinds(): { apiVersion: string; kind: string }[] {
  return Object.keys(SCHEMA_KINDS).map((key) => {
    const slash = key.lastIndexOf('/');
    return { apiVersion: key.slice(0, slash), kind: key.slice(slash + 1) };
  });
}
