// What a write's query says to the field manager: who manages the fields (the fieldManager parameter, else the
// User-Agent's program), and for a server-side apply (application/apply-patch+yaml) the validated PatchOptions and
// the configuration, YAML or JSON. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go
// (managerOrUserAgent, prefixFromUserAgent), handlers/patch.go (PatchResource, applyPatcher) and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidatePatchOptions), v0.36.3.
import type { IncomingMessage } from 'node:http';
import { parseDocument } from 'yaml';
import { goQuote } from '../engine/api/labels-validation';
import { isObject } from '../engine/api/types';
import { goYamlTags } from '../engine/cluster/go-yaml';
import { badRequest, StatusError, type StatusCause } from '../engine/apiserver/request';
import type { UpdateOptions } from '../engine/apiserver/update';
import { readBody } from './http';

/** APPLY_PATCH_TYPE is types.ApplyYAMLPatchType, the media type of a server-side apply. */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** FIELD_MANAGER_MAX_LENGTH is validation.FieldManagerMaxLength. */
const FIELD_MANAGER_MAX_LENGTH = 128;

/** isPrint approximates Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** prefixFromUserAgent is the User-Agent up to its first `/`, without unprintable characters, at most 128 bytes. */
export function prefixFromUserAgent(userAgent: string): string {
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!isPrint(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out;
}

/** WRITES are the methods whose requests the field manager records (create, update, patch). */
const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * managerOf is a write's manager as managerOrUserAgent finds it, the fieldManager parameter or the User-Agent's
 * program, as the request's `fieldManager`; nothing for a read.
 */
export function managerOf(req: IncomingMessage, url: URL): { fieldManager?: string } {
  if (!WRITES.has(req.method ?? '')) return {};
  return { fieldManager: url.searchParams.get('fieldManager') || prefixFromUserAgent(String(req.headers['user-agent'] ?? '')) };
}

/** optionsInvalid is errors.NewInvalid of a write's options (PatchOptions.meta.k8s.io) with no name: a 422 listing the causes. */
function optionsInvalid(kind: string, causes: StatusCause[]): StatusError {
  const list = causes.map((c) => `${c.field}: ${c.message}`);
  const message = `${kind}.meta.k8s.io "" is invalid: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', details: { group: 'meta.k8s.io', kind, causes }, code: 422 });
}

/**
 * validatePatchOptions is ValidatePatchOptions: an apply needs a fieldManager, other patches take no force; a
 * fieldManager is at most 128 bytes of printable characters.
 */
export function validatePatchOptions(url: URL, apply: boolean): void {
  const q = url.searchParams;
  const causes: StatusCause[] = [];
  if (apply && !q.get('fieldManager')) causes.push({ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' });
  if (!apply && q.has('force')) causes.push({ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' });
  causes.push(...fieldManagerErrors(q.get('fieldManager') ?? ''));
  if (causes.length) throw optionsInvalid('PatchOptions', causes);
}

/**
 * validateWriteOptions is ValidateCreateOptions or ValidateUpdateOptions on the fieldManager: a POST's or PUT's 422
 * of CreateOptions or UpdateOptions. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{create,update}.go.
 */
export function validateWriteOptions(url: URL, kind: 'CreateOptions' | 'UpdateOptions'): void {
  const causes = fieldManagerErrors(url.searchParams.get('fieldManager') ?? '');
  if (causes.length) throw optionsInvalid(kind, causes);
}

/** fieldManagerErrors is ValidateFieldManager: at most 128 bytes, every character printable. */
function fieldManagerErrors(fieldManager: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) {
    causes.push({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes`, field: 'fieldManager' });
  }
  [...fieldManager].forEach((ch, i) => {
    if (isPrint(ch)) return;
    const cp = ch.codePointAt(0) ?? 0;
    const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${goQuote(fieldManager)}: invalid character ${hex} (at position ${i})`, field: 'fieldManager' });
  });
  return causes;
}

/** parseBool is strconv.ParseBool, as the query's force is decoded; anything else is false here. */
function parseBool(v: string | null): boolean {
  return v !== null && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/**
 * readApply reads a server-side apply: its options validated, its body decoded as YAML (JSON is YAML) into an object.
 * A body that does not decode is the applyPatcher's 400 `error decoding YAML: ...`.
 */
export async function readApply(req: IncomingMessage, url: URL): Promise<UpdateOptions> {
  validatePatchOptions(url, true);
  const body = (await readBody(req)).toString('utf8');
  // The server reads the YAML with sigs.k8s.io/yaml (go-yaml v2): YAML 1.1 scalars as go-yaml resolves them.
  const doc = parseDocument(body, { version: '1.1', customTags: goYamlTags, uniqueKeys: false, prettyErrors: false });
  const error = doc.errors[0];
  // go-yaml's own wording of a syntax error is not reproduced: the line is, the words are the yaml library's.
  if (error) throw badRequest(`error decoding YAML: error converting YAML to JSON: yaml: line ${error.linePos?.[0].line ?? 1}: ${error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`);
  const config: unknown = doc.toJS({ maxAliasCount: 100 });
  if (config !== null && config !== undefined && !isObject(config)) {
    const goType = Array.isArray(config) ? 'array' : typeof config === 'boolean' ? 'bool' : typeof config;
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`);
  }
  return { patch: config ?? {}, apply: { force: parseBool(url.searchParams.get('force')) } };
}
