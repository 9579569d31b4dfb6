// The generators' parameter readers: label specs, KEY=VALUE pairs, environment variable names, and Go's map order.
// See staging/src/k8s.io/kubectl/pkg/generate/generate.go (ParseLabels), pkg/cmd/util/helpers.go (ParsePairs) and
// staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsEnvVarName), v0.36.3.
import type { KubeObject } from '../../api/types';
import { LAST_APPLIED } from '../last-applied';
import { plainError } from './common';
import { goJson } from './print';

/** parseLabels is generate.ParseLabels: `k=v,k2=v2`, each with exactly one `=` and a key. */
export function parseLabels(spec: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) throw plainError(`unexpected label spec: ${part}`);
    if (kv[0]!.length === 0) throw plainError('unexpected empty label key');
    labels[kv[0]!] = kv[1]!;
  }
  return labels;
}

/** parsePairs is cmdutil.ParsePairs without removal: KEY=VALUE, split at the first `=`; the bad ones listed together. */
export function parsePairs(pairs: string[], pairType: string): Record<string, string> {
  const out: Record<string, string> = {};
  const invalid: string[] = [];
  for (const pair of pairs) {
    if (pair.includes('=') && pair[0] !== '=') {
      const eq = pair.indexOf('=');
      out[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else {
      invalid.push(pair);
    }
  }
  if (invalid.length > 0) throw plainError(`invalid ${pairType} format: ${invalid.join(', ')}`);
  return out;
}

/** ENV_VAR_NAME is envVarNameFmt, `[-._a-zA-Z][-._a-zA-Z0-9]*`. */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** envVarNameProblems is validation.IsEnvVarName: the format, and no `.`, `..` or `..` prefix. */
export function envVarNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (!ENV_VAR_NAME.test(name)) problems.push('format');
  if (name === '.' || name === '..' || name.startsWith('..')) problems.push('chdir');
  return problems;
}

/** sortedMap is a Go map as encoding/json writes it: keys in byte order. */
export function sortedMap(map: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(map).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = map[key]!;
  return out;
}

/**
 * withTypedLastApplied is --save-config on a generated object (util.CreateOrUpdateAnnotation): the object encoded as
 * kubectl's JSON encoder writes a Go struct (its own field order, a trailing newline), the annotation itself left
 * out, becomes the last-applied-configuration annotation. See staging/src/k8s.io/kubectl/pkg/util/apply.go (v0.36.3).
 */
export function withTypedLastApplied(obj: KubeObject): KubeObject {
  const { [LAST_APPLIED]: _old, ...annotations } = obj.metadata?.annotations ?? {};
  const meta = { ...obj.metadata };
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  const encoded = `${goJson({ ...obj, metadata: meta })}\n`;
  return { ...obj, metadata: placeAnnotations(meta, sortedMap({ ...annotations, [LAST_APPLIED]: encoded })) };
}

/** placeAnnotations puts annotations where ObjectMeta has them: after labels, before ownerReferences. */
function placeAnnotations(meta: NonNullable<KubeObject['metadata']>, annotations: Record<string, string>): NonNullable<KubeObject['metadata']> {
  const { ownerReferences, finalizers, ...head } = meta as Record<string, unknown>;
  return { ...head, annotations, ...(ownerReferences !== undefined ? { ownerReferences } : {}), ...(finalizers !== undefined ? { finalizers } : {}) } as NonNullable<KubeObject['metadata']>;
}

/** withMetaNamespace sets metadata.namespace where ObjectMeta writes it: after name and generateName (meta.SetNamespace). */
export function withMetaNamespace(obj: KubeObject, namespace: string): KubeObject {
  const { name, generateName, namespace: _old, ...rest } = (obj.metadata ?? {}) as Record<string, unknown>;
  const meta = { ...(name !== undefined ? { name } : {}), ...(generateName !== undefined ? { generateName } : {}), namespace, ...rest };
  return { ...obj, metadata: meta as NonNullable<KubeObject['metadata']> };
}
