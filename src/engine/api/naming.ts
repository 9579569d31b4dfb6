// Object names the controllers and the API server make: the pod-template-hash of a Deployment's template,
// the ReplicaSet named after it, and generateName's random suffix (names.SimpleNameGenerator).
import { NAME_ALPHABET, type Random } from '../runtime/random';
import { dumpPodTemplateForHash } from './go-dump';
import type { PodTemplateSpec } from './types';

/** POD_TEMPLATE_HASH_LABEL is the label the Deployment controller puts on its ReplicaSets and their pods (apps.DefaultDeploymentUniqueLabelKey). */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** MAX_NAME_LENGTH is the longest object name a generated name may reach (names.maxNameLength). */
export const MAX_NAME_LENGTH = 63;

/** RANDOM_SUFFIX_LENGTH is how many random characters generateName appends (names.randomLength). */
export const RANDOM_SUFFIX_LENGTH = 5;

/** MAX_GENERATED_NAME_LENGTH is how much of the base generateName keeps: 63 - 5 (names.MaxGeneratedNameLength). */
export const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_SUFFIX_LENGTH;

/** fnv32a is the 32-bit FNV-1a hash of some bytes (Go's hash/fnv New32a), as an unsigned integer. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * fnv32 is the 32-bit FNV-1 hash of some bytes (Go's hash/fnv New32: multiply, then xor), as an unsigned integer.
 * HashControllerRevision uses this one, not FNV-1a (pkg/controller/history/controller_history.go, v1.36.3).
 */
export function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (const byte of bytes) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}

/**
 * safeEncodeString maps every character of s into the name alphabet by its code modulo the alphabet's
 * length, as k8s.io/apimachinery/pkg/util/rand.SafeEncodeString does, so hashes cannot spell words.
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += NAME_ALPHABET[ch.codePointAt(0)! % NAME_ALPHABET.length];
  return out;
}

/** canonicalJSON prints a JSON value with object keys sorted at every level and no whitespace. */
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJSON(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * computePodTemplateHash is the pod-template-hash of a template as stored, as pkg/controller/controller_utils.go
 * ComputeHash makes it: FNV-32a over dump.ForHash(template) (see go-dump.ts), then the collision count (if
 * any) written as 8 little-endian bytes (a uint32 and four zero bytes), then SafeEncodeString of the decimal hash.
 */
export function computePodTemplateHash(template: PodTemplateSpec, collisionCount?: number): string {
  let hash = fnv32a(new TextEncoder().encode(dumpPodTemplateForHash(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}

/** replicaSetName is the name the Deployment controller gives a new ReplicaSet: `<deployment>-<pod-template-hash>`. */
export function replicaSetName(deploymentName: string, podTemplateHash: string): string {
  return `${deploymentName}-${podTemplateHash}`;
}

/**
 * podGenerateName is the generateName a controller puts on the pods it creates, as getPodsPrefix in
 * pkg/controller/controller_utils.go does: `<controller>-`, or the bare controller name when that prefix
 * would not be a valid pod name prefix.
 */
export function podGenerateName(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return isValidNamePrefix(prefix) ? prefix : controllerName;
}

// ValidatePodName(prefix, true): a DNS-1123 subdomain once the trailing dash is masked (maskTrailingDash).
function isValidNamePrefix(prefix: string): boolean {
  const masked = prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -1)}a` : prefix;
  return masked.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(masked);
}

/**
 * generateName makes a name from a generateName base as names.SimpleNameGenerator does: the base cut to
 * 58 characters, then 5 random characters of the name alphabet.
 */
export function generateName(base: string, rng: Random): string {
  const kept = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  return `${kept}${rng.string(RANDOM_SUFFIX_LENGTH)}`;
}
