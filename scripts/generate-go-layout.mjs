// Generates src/engine/api/go-layout.ts: the Go struct layouts of a core/v1 PodTemplateSpec and every type it
// reaches (field order, Go field names, Go types, JSON names), read from the Kubernetes Go sources. The
// pod-template-hash prints every field of these structs in declaration order, which the OpenAPI
// specification does not record. The result is checked against ../shared/kubernetes-api/swagger.json:
// every JSON property the specification lists must be a Go field, and every Go field a property.
//
// Usage: node scripts/generate-go-layout.mjs <kubernetes source root> [commit]
// The root holds staging/src/k8s.io/{api,apimachinery} (a kubernetes/kubernetes checkout), or k8s.io/... (a GOPATH src).
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [root, commit = 'unknown'] = process.argv.slice(2);
if (!root) {
  console.error('usage: node scripts/generate-go-layout.mjs <kubernetes source root> [commit]');
  process.exit(2);
}
const base = existsSync(join(root, 'staging/src/k8s.io')) ? join(root, 'staging/src') : root;

// Each package: where it sits, the key its types get here, and the names its files import others by.
const PACKAGES = [
  { key: 'core/v1', dir: 'k8s.io/api/core/v1', imports: { metav1: 'meta/v1', resource: 'resource', types: 'types', intstr: 'intstr' } },
  { key: 'meta/v1', dir: 'k8s.io/apimachinery/pkg/apis/meta/v1', imports: { types: 'types', resource: 'resource', intstr: 'intstr' } },
  { key: 'types', dir: 'k8s.io/apimachinery/pkg/types', imports: {} },
  { key: 'intstr', dir: 'k8s.io/apimachinery/pkg/util/intstr', imports: {} },
];
// Types whose value the hash printer builds itself (their JSON is not their layout); see SPECIAL in go-dump.ts.
const SPECIAL = new Set(['resource.Quantity', 'meta/v1.Time', 'intstr.IntOrString', 'meta/v1.FieldsV1']);
const BUILTIN = new Set(['string', 'bool', 'byte', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']);

/** stripComments removes // and /* comments outside string, rune and raw-string literals. */
function stripComments(src) {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === '`' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += c !== '`' && src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && src[i + 1] === '*') {
      i = src.indexOf('*/', i + 2) + 1;
    } else out += c;
  }
  return out;
}

/** qualify writes a Go type expression with package keys: Probe → core/v1.Probe, metav1.Time → meta/v1.Time. */
function qualify(expr, pkg) {
  expr = expr.trim();
  if (expr.startsWith('*')) return `*${qualify(expr.slice(1), pkg)}`;
  if (expr.startsWith('[]')) return `[]${qualify(expr.slice(2), pkg)}`;
  if (expr.startsWith('map[')) {
    const close = expr.indexOf(']');
    return `map[${qualify(expr.slice(4, close), pkg)}]${qualify(expr.slice(close + 1), pkg)}`;
  }
  if (BUILTIN.has(expr)) return expr;
  const dot = expr.indexOf('.');
  if (dot < 0) return `${pkg.key}.${expr}`;
  const alias = expr.slice(0, dot);
  const target = pkg.imports[alias];
  if (!target) return expr; // another package's type (time.Duration, ...): kept as written
  return `${target}.${expr.slice(dot + 1)}`;
}

/** parseStruct reads a struct body's fields: [Go name, type, JSON key ('' for an inline embedded field, '-' for none)]. */
function parseStruct(body, pkg, typeName) {
  const fields = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const tagMatch = /`([^`]*)`\s*$/.exec(line);
    const decl = (tagMatch ? line.slice(0, tagMatch.index) : line).trim();
    const json = tagMatch ? /json:"([^"]*)"/.exec(tagMatch[1])?.[1] : undefined;
    const parts = decl.split(/\s+/);
    let names;
    let type;
    if (parts.length === 1) {
      // Embedded: the field is named after its type.
      type = parts[0];
      names = [type.replace(/^\*/, '').split('.').pop()];
    } else {
      type = parts.slice(1).join(' ');
      names = parts[0].split(',').map((n) => n.trim()).filter(Boolean);
      if (parts[0].endsWith(',')) throw new Error(`${typeName}: multi-name field lines are not supported: ${line}`);
    }
    const jsonName = json === undefined ? undefined : json.split(',')[0];
    for (const name of names) {
      // encoding/json: no tag means the Go name; an embedded struct without a name is inlined.
      const key = jsonName === '-' ? '-' : jsonName || (parts.length === 1 ? '' : name);
      fields.push([name, qualify(type, pkg), key]);
    }
  }
  return fields;
}

/** parsePackage returns every top-level type declaration of a package's .go files (tests and generated files left out). */
function parsePackage(pkg) {
  const dir = join(base, pkg.dir);
  const types = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_generated') && !f.startsWith('generated'))) {
    const src = stripComments(readFileSync(join(dir, file), 'utf8'));
    const re = /^type\s+(\w+)\s+(=\s*)?([^\n{]*?)(\{)?\s*$/gm;
    let m;
    while ((m = re.exec(src))) {
      const [, name, alias, head, brace] = m;
      const key = `${pkg.key}.${name}`;
      if (brace && head.trim() === 'struct') {
        let depth = 1;
        let i = re.lastIndex;
        const start = src.indexOf('{', m.index) + 1;
        for (i = start; depth > 0; i++) depth += src[i] === '{' ? 1 : src[i] === '}' ? -1 : 0;
        try {
          types[key] = { kind: 'struct', fields: parseStruct(src.slice(start, i - 1), pkg, key) };
        } catch (err) {
          types[key] = { kind: 'unparsed', error: String(err) };
        }
        re.lastIndex = i;
      } else if (!brace) {
        types[key] = { kind: alias ? 'alias' : 'named', underlying: qualify(head, pkg) };
      }
    }
  }
  return types;
}

const all = Object.assign({}, ...PACKAGES.map(parsePackage));
const resolve = (expr) => {
  if (expr.startsWith('*')) return `*${resolve(expr.slice(1))}`;
  if (expr.startsWith('[]')) return `[]${resolve(expr.slice(2))}`;
  if (expr.startsWith('map[')) {
    const close = expr.indexOf(']');
    return `map[${resolve(expr.slice(4, close))}]${resolve(expr.slice(close + 1))}`;
  }
  return all[expr]?.kind === 'alias' ? resolve(all[expr].underlying) : expr;
};

// Walk from PodTemplateSpec; collect the reachable layouts.
const layouts = {};
const queue = ['core/v1.PodTemplateSpec'];
const named = (expr) => expr.replace(/^(\*|\[\])+/, '').replace(/^map\[[^\]]*\]/, (k) => (queue.push(k.slice(4, -1)), ''));
while (queue.length) {
  let expr = named(resolve(queue.shift()));
  if (expr.startsWith('map[') || expr.startsWith('*') || expr.startsWith('[]')) {
    queue.push(expr);
    continue;
  }
  if (BUILTIN.has(expr) || layouts[expr] || SPECIAL.has(expr)) continue;
  const t = all[expr];
  if (!t) throw new Error(`no declaration of ${expr}`);
  if (t.kind === 'unparsed') throw new Error(`${expr}: ${t.error}`);
  if (t.kind === 'struct') {
    const fields = t.fields.map(([n, type, key]) => [n, resolve(type), key]);
    layouts[expr] = { kind: 'struct', fields };
    for (const [, type] of fields) queue.push(type);
  } else {
    layouts[expr] = { kind: 'named', underlying: resolve(t.underlying) };
    queue.push(layouts[expr].underlying);
  }
}

// Check against the OpenAPI specification: the same JSON properties, type by type.
const swagger = JSON.parse(readFileSync(join(here, '../../shared/kubernetes-api/swagger.json'), 'utf8')).definitions;
const definitionOf = (key) => key.replace(/^core\/v1\./, 'io.k8s.api.core.v1.').replace(/^meta\/v1\./, 'io.k8s.apimachinery.pkg.apis.meta.v1.');
const jsonKeys = (key) => layouts[key].fields.flatMap(([, type, json]) => (json === '' ? jsonKeys(type.replace(/^\*/, '')) : json === '-' ? [] : [json]));
const problems = [];
for (const key of Object.keys(layouts)) {
  const def = swagger[definitionOf(key)];
  if (layouts[key].kind !== 'struct' || !def) continue;
  const go = new Set(jsonKeys(key));
  const spec = new Set(Object.keys(def.properties ?? {}));
  for (const p of spec) if (!go.has(p)) problems.push(`${key}: the specification has "${p}", the Go source has no such field`);
  for (const p of go) if (!spec.has(p)) problems.push(`${key}: the Go source has "${p}", the specification does not`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

const body = Object.keys(layouts).sort().map((key) => {
  const t = layouts[key];
  if (t.kind === 'named') return `  '${key}': { kind: 'named', underlying: '${t.underlying}' },`;
  const fields = t.fields.map(([n, type, json]) => `    ['${n}', '${type}', '${json}'],`).join('\n');
  return `  '${key}': { kind: 'struct', fields: [\n${fields}\n  ] },`;
}).join('\n');

writeFileSync(join(here, '../src/engine/api/go-layout.ts'), `// Code generated by scripts/generate-go-layout.mjs from the Kubernetes 1.36 Go sources; do not edit.
// Source: k8s.io/api/core/v1/types.go and k8s.io/apimachinery/pkg/{apis/meta/v1,types,util/intstr} (${commit}),
// checked field by field against the Kubernetes 1.36 OpenAPI specification.
//
// The data below is derived from the Kubernetes source code: Copyright The Kubernetes Authors,
// licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).

/** GoField is one field of a Go struct: its Go name, its type, and its JSON key ('' inline, '-' none). */
export type GoField = readonly [name: string, type: string, json: string];

/** GoLayout is a Go type: a struct's fields in declaration order, or a named type's underlying type. */
export type GoLayout = { readonly kind: 'struct'; readonly fields: readonly GoField[] } | { readonly kind: 'named'; readonly underlying: string };

/**
 * GO_TYPES holds every type a core/v1 PodTemplateSpec reaches, keyed by package and name (core/v1.PodSpec,
 * meta/v1.ObjectMeta). Types are written the same way: *core/v1.Probe, []core/v1.Container, map[string]string.
 */
export const GO_TYPES: Readonly<Record<string, GoLayout>> = {
${body}
};
`);
console.log(`wrote ${Object.keys(layouts).length} types to src/engine/api/go-layout.ts`);
