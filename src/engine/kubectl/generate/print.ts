// How kubectl prints the object a command made: the `kind.group/name created` line, `-o name`, `-o yaml` and `-o json`.
// See staging/src/k8s.io/cli-runtime/pkg/printers/{name,json,yaml}.go and genericclioptions/name_flags.go (v0.36.3).
import type { KubeObject } from '../../api/types';
import { goYaml } from '../../console/yaml';
import { goJsonString } from '../last-applied';
import type { DryRunStrategy, OutputFormat } from './common';

/**
 * resourceWord is the lowercased GroupKind the name printer writes: `pod`, `deployment.apps`, `job.batch`
 * (printers/name.go: strings.ToLower(groupKind.String())).
 */
export function resourceWord(obj: KubeObject): string {
  const apiVersion = String(obj.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const kind = String(obj.kind ?? '').toLowerCase();
  return group ? `${kind}.${group}` : kind;
}

/** operationOf is the printer's operation: `created`, then ` (dry run)` or ` (server dry run)` (PrintFlagsWithDryRunStrategy). */
export function operationOf(verb: string, dryRun: DryRunStrategy): string {
  return dryRun === 'client' ? `${verb} (dry run)` : dryRun === 'server' ? `${verb} (server dry run)` : verb;
}

/**
 * printObject is what the command's printer writes for one object, without the final newline: the NamePrinter's
 * `pod/web created` (`-o name` drops the operation; an object without a name is `<unknown>`), the YAML printer's
 * sorted YAML, or the JSON printer's json.MarshalIndent with four spaces in the object's own key order (a typed
 * object's is its Go struct's; an `unstructured` one's keys are sorted). `index` separates YAML documents after the
 * first with `---`.
 */
export function printObject(obj: KubeObject, format: OutputFormat, operation: string, index = 0, unstructured = false): string {
  switch (format) {
    case '':
    case 'name': {
      const name = obj.metadata?.name || '<unknown>';
      return `${resourceWord(obj)}/${name}${format === '' ? ` ${operation}` : ''}`;
    }
    case 'yaml':
      return `${index > 0 ? '---\n' : ''}${goYaml(obj)}`.replace(/\n$/, '');
    case 'json':
      // An unstructured object (create -f) is a map to encoding/json: its keys come out sorted.
      return goJsonIndent(unstructured ? sortKeys(obj) : obj);
  }
}

/** goJson is json.Marshal of a value whose keys are in the order Go writes them: compact, Go's string escapes. */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${goJsonString(k)}:${goJson(v)}`).join(',')}}`;
}

/** goJsonIndent is json.MarshalIndent(value, "", "    "): empty objects and lists stay `{}` and `[]`. */
export function goJsonIndent(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${goJsonIndent(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${goJsonString(k)}: ${goJsonIndent(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return goJson(value);
}

/** sortKeys orders every map's keys as json.Marshal orders a map[string]interface{}'s. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
