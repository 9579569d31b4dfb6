// Generates src/engine/api/openapi/v3.json.gz (and hashes.ts, each document's hash): the OpenAPI v3 documents `serve` answers at /openapi/v3/<group-version>, one per
// group version it serves, converted from the Kubernetes 1.36 OpenAPI v2 specification (../shared/kubernetes-api/
// swagger.json): each document holds the group version's paths (operations with their parameters and
// x-kubernetes-* extensions) and the schemas they reach (types, properties, required fields, enums, defaults and the
// x-kubernetes-* patch and list extensions kubectl reads; descriptions kept, for kubectl explain).
// Usage: node scripts/generate-openapi.mjs [swagger.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = process.argv[2] ?? join(here, '../../shared/kubernetes-api/swagger.json');
const swagger = JSON.parse(readFileSync(source, 'utf8'));
// The group versions served (src/engine/api/discovery/served.ts VERSIONS).
const SERVED = ['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis/autoscaling/v2', 'apis/autoscaling/v1', 'apis/policy/v1', 'apis/discovery.k8s.io/v1', 'apis/rbac.authorization.k8s.io/v1',
  'apis/scheduling.k8s.io/v1', 'apis/node.k8s.io/v1', 'apis/storage.k8s.io/v1', 'apis/admissionregistration.k8s.io/v1', 'apis/authorization.k8s.io/v1'];

const ref = (r) => r.replace('#/definitions/', '#/components/schemas/');

/** convertSchema turns a v2 schema into a v3 one: $refs to components, everything else as it is. */
function convertSchema(s, reached) {
  if (Array.isArray(s)) return s.map((x) => convertSchema(x, reached));
  if (!s || typeof s !== 'object') return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref') {
      reached.add(v.replace('#/definitions/', ''));
      out[k] = ref(v);
    } else out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, convertSchema(ps, reached)])) : convertSchema(v, reached);
  }
  return out;
}

/** convertParameter turns a v2 parameter (or a $ref to a global one) into a v3 one. */
function convertParameter(p, reached) {
  const param = p.$ref ? swagger.parameters[p.$ref.replace('#/parameters/', '')] : p;
  if (param.in === 'body') return undefined;
  const { type, uniqueItems: _u, ...rest } = param;
  return { ...rest, schema: { type: type ?? 'string', ...(param.uniqueItems ? { uniqueItems: true } : {}) } };
}

const documents = {};
for (const gv of SERVED) {
  const reached = new Set();
  const paths = {};
  for (const [path, item] of Object.entries(swagger.paths)) {
    if (!path.startsWith(`/${gv}/`)) continue;
    const outItem = {};
    const shared = (item.parameters ?? []).map((p) => convertParameter(p, reached)).filter(Boolean);
    if (shared.length) outItem.parameters = shared;
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const { parameters = [], responses = {}, consumes = [], produces: _p, schemes: _s, ...rest } = op;
      const body = parameters.map((p) => (p.$ref ? swagger.parameters[p.$ref.replace('#/parameters/', '')] : p)).find((p) => p.in === 'body');
      outItem[method] = {
        ...rest,
        parameters: parameters.map((p) => convertParameter(p, reached)).filter(Boolean),
        ...(body ? { requestBody: { content: Object.fromEntries((consumes.length ? consumes : ['*/*']).map((c) => [c, { schema: convertSchema(body.schema, reached) }])), required: true } } : {}),
        responses: Object.fromEntries(Object.entries(responses).map(([code, r]) => [code, { description: r.description ?? '', ...(r.schema ? { content: { 'application/json': { schema: convertSchema(r.schema, reached) } } } : {}) }])),
      };
    }
    paths[path] = outItem;
  }
  // The schemas the paths reach, and those they reach in turn.
  const schemas = {};
  const queue = [...reached];
  while (queue.length) {
    const name = queue.pop();
    if (schemas[name] || !swagger.definitions[name]) continue;
    const more = new Set();
    schemas[name] = convertSchema(swagger.definitions[name], more);
    for (const m of more) if (!schemas[m]) queue.push(m);
  }
  documents[gv] = { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.36.0' }, paths, components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) } };
}
const out = join(here, '../src/engine/api/openapi/v3.json.gz');
// Gzipped (about a tenth of its 4 MB): read only when serve starts or a kubectl -v=8 log shows a document.
const json = `${JSON.stringify({ license: 'Apache-2.0, Copyright The Kubernetes Authors: generated from the Kubernetes v1.36 OpenAPI specification by scripts/generate-openapi.mjs', documents })}\n`;
writeFileSync(out, gzipSync(json, { level: 9 }));
// Each document's hash (kube-openapi's computeETag of its JSON), so that the index needs no reading of the documents.
const hashes = Object.entries(documents).map(([gv, doc]) => `  ['${gv}', '${createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase()}'],`);
const hashesFile = join(here, '../src/engine/api/openapi/hashes.ts');
const hashesHead = readFileSync(hashesFile, 'utf8').split('\n');
const opening = hashesHead.findIndex((line) => line.startsWith('export const OPENAPI_V3_HASHES'));
writeFileSync(hashesFile, [...hashesHead.slice(0, opening + 1), ...hashes, '];', ''].join('\n'));
console.log(`wrote ${out} and ${hashesFile}: ${Object.keys(documents).length} group versions`);
