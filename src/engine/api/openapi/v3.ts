// OpenAPI v3 as kube-apiserver serves it: /openapi/v3 lists each group version's document with a hash,
// /openapi/v3/<group-version> is the document (its paths, with the fieldValidation parameter kubectl looks for before
// it asks the server to validate, and the schemas kubectl's apply and explain read). The documents come from the 1.36
// specification (scripts/generate-openapi.mjs), gzipped beside the bundle and read only when a document is asked for;
// the index and the hashes need no reading (hashes.ts). serve answers them; kubectl's -v=8 log shows them.
// See k8s.io/kube-openapi pkg/handler3/handler.go (HandleDiscovery, HandleGroupVersion, computeETag).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { goJson } from '../go-json';
import { OPENAPI_V3_HASHES } from './hashes';

/** OpenApiV3Root is /openapi/v3: each document's server-relative URL, with its hash. */
export interface OpenApiV3Root {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** rootOf is the index of documents given by group-version path and hash, in that order. */
function rootOf(hashes: Iterable<readonly [string, string]>): OpenApiV3Root {
  return { paths: Object.fromEntries([...hashes].map(([gv, hash]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` }])) };
}

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
  root(): OpenApiV3Root {
    return rootOf([...this.docs].map(([gv, d]) => [gv, d.hash] as const));
  }

  /** hashes are the documents' group-version paths and hashes, in the index's order. */
  hashes(): [gv: string, hash: string][] {
    return [...this.docs].map(([gv, d]) => [gv, d.hash]);
  }

  /** document is the JSON text of a group version's document (`api/v1`), if served. */
  document(gv: string): string | undefined {
    return this.docs.get(gv)?.json;
  }
}

function defaultCandidates(): string[] {
  // A bundle in dist/ has it beside it; the compiled sources (out/src/engine/api/openapi) find it in the sources.
  return [join(__dirname, 'openapi-v3.json.gz'), join(__dirname, '..', '..', '..', '..', '..', 'src', 'engine', 'api', 'openapi', 'v3.json.gz'), join(__dirname, 'v3.json.gz')];
}

/** openApiV3Hash is the hash of a group version's document (`api/v1`), as its URL in the index carries it. */
export function openApiV3Hash(gv: string): string | undefined {
  return OPENAPI_V3_HASHES.find(([path]) => path === gv)?.[1];
}

let rootText: { json: string; etag: string } | undefined;

/**
 * openApiV3Index is /openapi/v3 as sent (the JSON serve writes) and its ETag, computeETag of those bytes, built from
 * the hashes alone.
 */
export function openApiV3Index(): { json: string; etag: string } {
  if (!rootText) {
    const json = goJson(rootOf(OPENAPI_V3_HASHES));
    rootText = { json, etag: createHash('sha512').update(json).digest('hex').toUpperCase() };
  }
  return rootText;
}

let shared: OpenApiV3 | undefined;

/** openApiV3Document is a group version's document as sent, read from the documents at its first use. */
export function openApiV3Document(gv: string): string | undefined {
  shared ??= OpenApiV3.load();
  return shared.document(gv);
}
