// Groups the differences of the `fields` family into families — the same kind of difference, whatever field or
// value it was found with — and prints them by count, with the fields each was found at and one example.

/** template turns a message into its family's form: the pod's name, list indexes, values and numbers left out. */
export function template(message) {
  return String(message ?? '')
    .replace(/Pod "f-\d+"/g, 'Pod "NAME"')
    .replace(/\[\d+\]/g, '[i]')
    .replace(/(Invalid value|Unsupported value|Duplicate value|Not found): ("(?:[^"\\]|\\.)*"|[^:,\]]+)/g, '$1: V')
    .replace(/\b\d+\b/g, 'N');
}

/** familyOf names the kind of one case's first difference. */
export function familyOf(result) {
  const diffs = result.components.fields ?? [];
  const d = diffs[0];
  if (!d) return undefined;
  const rejected = (s) => !String(s).startsWith('2');
  if (d.field === 'code') {
    if (!rejected(d.engine)) return `engine accepts, reference refuses: ${template(d.reference)}`;
    if (!rejected(d.reference)) return `engine refuses, reference accepts: ${template(d.engine)}`;
    return `codes differ: engine ${template(d.engine)} | reference ${template(d.reference)}`;
  }
  if (d.field === 'message' || d.field.startsWith('causes') || d.field === 'reason') {
    const m = diffs.find((x) => x.field === 'message') ?? d;
    return `messages differ: engine ${template(m.engine)} | reference ${template(m.reference)}`;
  }
  if (d.field.startsWith('warnings')) return `warnings differ: engine ${template(JSON.stringify(d.engine))} | reference ${template(JSON.stringify(d.reference))}`;
  return `stored object differs at ${template(d.field)}`;
}

/** summarize groups the differing results by family, the largest first. */
export function summarize(results) {
  const families = new Map();
  for (const r of results) {
    const key = familyOf(r);
    if (!key) continue;
    const f = families.get(key) ?? { family: key, count: 0, fields: new Set(), examples: [] };
    f.count++;
    f.fields.add(`${r.field} (${r.variant})`);
    if (f.examples.length < 2) f.examples.push({ case: r.case, differences: r.components.fields });
    families.set(key, f);
  }
  return [...families.values()].sort((a, b) => b.count - a.count || a.family.localeCompare(b.family)).map((f) => ({ ...f, fields: [...f.fields] }));
}

/** printFields prints the family's counts and its difference families. */
export function printFields(results) {
  const differ = results.filter((r) => (r.components.fields ?? []).length);
  console.log(`\nfields: ${results.length} cases, ${results.length - differ.length} agree, ${differ.length} differ`);
  const show = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  for (const f of summarize(results)) {
    console.log(`\n# ${f.count} × ${f.family}`);
    console.log(`    at: ${f.fields.slice(0, 8).join(', ')}${f.fields.length > 8 ? `, … (${f.fields.length} in all)` : ''}`);
    const ex = f.examples[0];
    for (const d of ex.differences.slice(0, 3)) console.log(`    e.g. ${ex.case} | ${d.field}\n      engine:    ${show(d.engine)}\n      reference: ${show(d.reference)}`);
  }
}
