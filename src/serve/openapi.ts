// OpenAPI v3 as kube-apiserver serves it to kubectl: /openapi/v3 lists each group version's document with a hash,
// /openapi/v3/<group-version> is the document (its paths, with the fieldValidation parameter kubectl looks for before
// it asks the server to validate, and the schemas kubectl's apply and explain read). The documents come from the 1.36
// specification (scripts/generate-openapi.mjs). See staging/src/k8s.io/kube-openapi/pkg/handler3.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** OpenApiV3 holds the documents by group-version path (`api/v1`, `apis/apps/v1`), each as its JSON text and hash. */
export class OpenApiV3 {
  private constructor(private readonly docs: ReadonlyMap<string, { json: string; hash: string }>) {}

  /** load reads the documents from the first of `candidates` that exists (beside the bundle, or in the sources). */
  static load(candidates: readonly string[] = defaultCandidates()): OpenApiV3 {
    const file = candidates.find((c) => existsSync(c));
    if (!file) return new OpenApiV3(new Map());
    const parsed = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { documents: Record<string, unknown> };
    const docs = new Map<string, { json: string; hash: string }>();
    for (const [gv, doc] of Object.entries(parsed.documents)) {
      const json = JSON.stringify(doc);
      docs.set(gv, { json, hash: createHash('sha512').update(json).digest('hex').slice(0, 128).toUpperCase() });
    }
    return new OpenApiV3(docs);
  }

  /** root is /openapi/v3: every document's server-relative URL with its hash. */
  root(): object {
    return { paths: Object.fromEntries([...this.docs].map(([gv, d]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${d.hash}` }])) };
  }

  /** document is the JSON text of a group version's document (`api/v1`), if served. */
  document(gv: string): string | undefined {
    return this.docs.get(gv)?.json;
  }
}

function defaultCandidates(): string[] {
  // dist/cli.js has it beside it; the compiled sources (out/src/serve) find it in src/serve/openapi.
  return [join(__dirname, 'openapi-v3.json.gz'), join(__dirname, '..', '..', '..', 'src', 'serve', 'openapi', 'v3.json.gz'), join(__dirname, 'openapi', 'v3.json.gz')];
}
