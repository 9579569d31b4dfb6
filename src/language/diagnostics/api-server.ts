// What kube-apiserver itself would refuse in a document, whatever the cluster: the body it cannot decode (unknown
// fields, wrong types) and the validation errors, each with the server's own message. The engine's decoder,
// defaulting and validation do the work; this file only places their results.
import { convertFromV1 } from '../../engine/api/conversion';
import { nearestName, parseFieldPath } from '../../engine/api/fieldpath';
import { SCHEMA_TYPES } from '../../engine/api/schema/schema.generated';
import type { KubeObject } from '../../engine/api/types';
import { decodeObject } from '../../engine/apiserver/decode';
import { applyDefaults } from '../../engine/apiserver/defaulting';
import { prepareObjectForCreate } from '../../engine/apiserver/registry';
import { invalid } from '../../engine/apiserver/request';
import { toCauses, type FieldError } from '../../engine/apiserver/validation/field-errors';
import { validateServiceCreate } from '../../engine/apiserver/service-alloc';
import { validateObject } from '../../engine/apiserver/validation';
import type { SourceDocument } from '../../engine/cluster/inputs';
import { RESOURCES } from '../../engine/cluster/store';
import type { EngineContext } from '../../engine/context';
import { VirtualClock } from '../../engine/runtime/clock';
import { Random } from '../../engine/runtime/random';
import { lookup, rangeOfField } from '../ranges';
import { fieldAt, rootTypeId, structAt } from '../schema';
import { RULES } from '../settings';
import { DiagnosticSeverity, type Finding, insertInto, type QuickFix } from './finding';

/** ApiServerCheck is the result of the server-side checks: the findings, and the object as it would be stored. */
export interface ApiServerCheck {
  readonly findings: Finding[];
  /** decoded is the object after decoding and defaulting, when it decodes (unknown fields dropped). */
  readonly decoded?: KubeObject;
  /**
   * body is what the checks on the cluster run when the document decodes: the object as written, its unknown fields
   * dropped (as the API server drops them when a client asks it to ignore them), so that what admission and the
   * scheduler would say shows with the decoding and validation errors, not only once they are fixed.
   */
  readonly body?: KubeObject;
}

/** UNKNOWN_FIELD reads one strict-decoding error: `unknown field "spec.containers[0].imagee"`. */
const UNKNOWN_FIELD = /^unknown field "(.*)"$/;

/**
 * checkApiServer decodes the document as kube-apiserver decodes a create (fieldValidation=Strict, as kubectl sends
 * it), then defaults and validates it. A type error ends the checks, as it ends the request; unknown fields do not,
 * so that the validation errors behind them show at once.
 */
export function checkApiServer(doc: SourceDocument, apiVersionKind: string): ApiServerCheck {
  const object = doc.object;
  const lenient = decodeObject(object, { strict: false });
  if ('error' in lenient) {
    return { findings: [{ rule: RULES.decode, severity: DiagnosticSeverity.Error, message: lenient.error.message, range: rangeOfField(doc, lenient.field, 'value') }] };
  }
  const findings: Finding[] = [];
  // Only a body with unknown fields needs the strict decoding, for the server's own message.
  const strict = lenient.warnings.length ? decodeObject(object, { strict: true }) : undefined;
  if (strict && 'error' in strict) {
    // The server's message names every unknown field; each field gets it with its own name alone.
    const prefix = strict.error.message.slice(0, strict.error.message.indexOf('strict decoding error: ') + 'strict decoding error: '.length);
    for (const warning of lenient.warnings) {
      const path = UNKNOWN_FIELD.exec(warning)?.[1];
      findings.push({
        rule: RULES.decode, severity: DiagnosticSeverity.Error, message: lenient.warnings.length === 1 ? strict.error.message : `${prefix}${warning}`,
        range: rangeOfField(doc, path, 'key'), fixes: path ? renameFix(doc, apiVersionKind, path) : [],
      });
    }
  }
  const body = lenient.warnings.length ? structuredClone(lenient.object) : object;
  // The decoder returns a fresh object: conversion and defaulting may change it in place (a Pod's negative grace
  // period is 1 by the time it is validated: pkg/apis/core/v1/conversion.go, v1.36.3).
  convertFromV1(lenient.object);
  const defaulted = applyDefaults(lenient.object).object;
  const kind = String(object.kind);
  const namespaced = RESOURCES[kind]?.namespaced ?? true;
  if (namespaced && defaulted.metadata) defaulted.metadata.namespace ??= 'default';
  const prepared = prepareObjectForCreate(REGISTRY_CONTEXT, defaulted, undefined);
  const group = SCHEMA_TYPES[rootTypeId(apiVersionKind) ?? '']?.kind?.group ?? '';
  // A Service is validated as the registry leaves it: its cluster IPs and node ports allocated first (service-alloc.ts).
  for (const error of kind === 'Service' ? validateServiceCreate(prepared, []) : validateObject(prepared)) {
    const message = invalid(kind, group, prepared.metadata?.name ?? '', toCauses([error])).message;
    findings.push({ rule: RULES.validation, severity: DiagnosticSeverity.Error, message, range: rangeOfField(doc, error.field, partOf(error)), fixes: validationFixes(doc, apiVersionKind, error) });
  }
  return { findings, decoded: defaulted, body };
}

/** REGISTRY_CONTEXT is what the registry's preparation reads: a clock and randomness for the uid and creation time. */
const REGISTRY_CONTEXT = { clock: new VirtualClock(), rng: new Random(1) } as unknown as EngineContext;

/** partOf places a validation error: a missing field on its parent's key, a forbidden one on its key, else the value. */
function partOf(error: FieldError): 'key' | 'value' {
  return error.type === 'FieldValueForbidden' || error.type === 'FieldValueRequired' ? 'key' : 'value';
}

/** renameFix offers the field of the same struct nearest to a misspelt one. */
function renameFix(doc: SourceDocument, apiVersionKind: string, path: string): QuickFix[] {
  const root = rootTypeId(apiVersionKind);
  const key = doc.fields.get(path)?.key;
  if (!root || !key) return [];
  let segments;
  try {
    segments = parseFieldPath(path);
  } catch {
    return [];
  }
  const name = segments[segments.length - 1];
  if (typeof name !== 'string') return [];
  const candidates = Object.keys(structAt(root, segments.slice(0, -1))?.type.properties ?? {});
  const best = nearestName(name, candidates);
  return best ? [{ title: `Rename "${name}" to "${best}"`, edits: [{ range: key, newText: best }] }] : [];
}

/** validationFixes offers: a lowercase name for an invalid one, a missing required field added. */
function validationFixes(doc: SourceDocument, apiVersionKind: string, error: FieldError): QuickFix[] {
  if (error.type === 'FieldValueInvalid' && /(^|\.)metadata\.name$/.test(error.field) && /lowercase/.test(error.body)) {
    const field = doc.fields.get(error.field);
    const name = field ? String(lookup(doc.object, parseFieldPath(error.field)) ?? '') : '';
    const fixed = name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
    if (field && fixed && fixed !== name) return [{ title: `Change the name to "${fixed}"`, edits: [{ range: field.value, newText: fixed }] }];
  }
  if (error.type === 'FieldValueRequired') {
    let segments;
    try {
      segments = parseFieldPath(error.field);
    } catch {
      return [];
    }
    const name = segments[segments.length - 1];
    const root = rootTypeId(apiVersionKind);
    if (typeof name !== 'string' || !root || doc.fields.has(error.field)) return [];
    const info = fieldAt(root, segments);
    const parentPath = error.field.slice(0, error.field.length - name.length - 1);
    const value = !info ? '""' : info.property.type.startsWith('[]') ? '[]' : info.property.type.startsWith('#') || info.property.type.startsWith('{}') ? '{}' : '""';
    const edit = insertInto(doc, parentPath, [`${name}: ${value}`]);
    if (edit) return [{ title: `Add the required field "${name}"`, edits: [edit] }];
  }
  return [];
}
