// The pod-template-hash: dump.ForHash of a defaulted template (go-spew's "%#v" of the Go structure) and its FNV-32a,
// per template, for the documentation's nginx template and the largest test template. Needs the compiled engine:
// `npx tsc -p tsconfig.test.json`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAllDocuments } from 'yaml';

const require = createRequire(import.meta.url);
const { defaultPodTemplate } = require('../out/src/engine/api/defaults.js');
const { dumpPodTemplateForHash } = require('../out/src/engine/api/go-dump.js');
const { computePodTemplateHash } = require('../out/src/engine/api/naming.js');

const cases = parseAllDocuments(readFileSync('test/fixtures/pod-template-hash/cases.yaml', 'utf8')).map((d) => d.toJS());
const templates = cases.map((c) => ({ name: c.name, template: defaultPodTemplate(c.template).object }));
const pick = (name) => templates.find((t) => t.name === name) ?? templates[0];
const largest = templates.reduce((a, b) => (dumpPodTemplateForHash(b.template).length > dumpPodTemplateForHash(a.template).length ? b : a));

for (const { name, template } of [pick('the nginx Deployment of the Kubernetes documentation'), largest]) {
  for (let i = 0; i < 200; i++) computePodTemplateHash(template); // warm up
  const runs = 2000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) computePodTemplateHash(template);
  const micros = Number(process.hrtime.bigint() - start) / 1e3 / runs;
  console.log(`pod-template-hash of "${name}" (${dumpPodTemplateForHash(template).length} characters dumped): ${micros.toFixed(1)} µs`);
}
