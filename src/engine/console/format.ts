// JSON as kubectl prints objects it read as unstructured maps: keys sorted, Go's escaping.

/** sortKeys copies a JSON value with every object's keys in sorted order, as Go's encoding/json writes maps. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** goEscape applies encoding/json's HTML-safe escaping to serialized JSON: <, >, & and U+2028/U+2029. */
function goEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** goJson is json.Marshal (indent '') or json.MarshalIndent(v, "", indent) of an unstructured value. */
export function goJson(value: unknown, indent = ''): string {
  return goEscape(JSON.stringify(sortKeys(value), null, indent || undefined) ?? 'null');
}
