// `kubectl get`: tables, -o wide|name|json|yaml|jsonpath=..., over the simulation's store and events.
import { StatusError, notFound } from '../apiserver/request';
import type { KubeObject } from '../api/types';
import { checkErr } from '../kubectl/errors';
import type { Simulation } from '../simulation';
import { FlagError, lastFlag, parseFlags, type FlagSpec } from './args';
import { checkAccess, credentialsOf, requestUser } from './auth';
import { listEvents } from './events';
import { goJson } from './format';
import { goYaml } from './yaml';
import { JsonPathError } from './jsonpath/parser';
import { executeTemplate } from './jsonpath/evaluate';
import { nameOf, resolveResource, type ResourceInfo } from './resources';
import { GET_TABWRITER, tabwrite } from './tabwriter';
import { printTable } from './tables';

/** GET_FLAGS are the flags of `kubectl get` the console understands. */
export const GET_FLAGS: FlagSpec = {
  values: ['namespace', 'output', 'sort-by'], booleans: ['all-namespaces', 'show-labels'], short: { n: 'namespace', o: 'output', A: 'all-namespaces' },
};

/** OUTPUT_FORMATS are the -o values the console prints. */
export const OUTPUT_FORMATS = ['wide', 'name', 'json', 'yaml', 'jsonpath='];

/** KUBECTL_FORMATS are kubectl get's -o formats, as its error lists them (cli-runtime/pkg/genericclioptions/print_flags.go AllowedFormats). */
const KUBECTL_FORMATS = ['custom-columns', 'custom-columns-file', 'go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'name', 'template', 'templatefile', 'wide', 'yaml'];

/** CommandResult is a command's printed text, or kubectl's error line. */
export type CommandResult = { output: string } | { error: string };

/** nowMs is the wall-clock time of the virtual now, in milliseconds. */
export function nowMs(sim: Simulation): number {
  return sim.clock.epoch.getTime() + sim.clock.now;
}

/** objectsOf lists the stored objects of a resource (events come from the recorder). */
export function objectsOf(sim: Simulation, r: ResourceInfo, namespace: string | undefined): KubeObject[] {
  if (r.kind === 'Event') return listEvents(sim, namespace) as unknown as KubeObject[];
  return sim.store.list(r.kind, r.namespaced ? namespace : undefined);
}

/** KindResult is what a get found of one resource type: its objects, and the NotFound or Forbidden lines of its names. */
interface KindResult {
  r: ResourceInfo;
  objects: KubeObject[];
  errors: string[];
}

/**
 * kubectlGet runs `kubectl get` with the words after `get`. A comma-separated list of types (`deploy,rs,pods`) is
 * got type by type, as kubectl's resource builder visits them (kubectl/pkg/cmd/get/get.go at v0.36.3, Run).
 */
export function kubectlGet(sim: Simulation, words: readonly string[]): CommandResult {
  let parsed;
  try {
    parsed = parseFlags(words, GET_FLAGS);
  } catch (e) {
    if (e instanceof FlagError) return { error: `error: ${e.message}` };
    throw e;
  }
  const [resourceArg, ...names] = parsed.args;
  if (!resourceArg) return { error: 'error: You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.' };
  const types: ResourceInfo[] = [];
  for (const arg of resourceArg.split(',').filter((a) => a !== '')) {
    const r = resolveResource(arg);
    if (!r) return { error: `error: the server doesn't have a resource type "${arg}"` };
    types.push(r);
  }
  if (types.length === 0) return { error: 'error: You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.' };
  const all = lastFlag(parsed, 'all-namespaces') === 'true' && names.length === 0;
  const output = lastFlag(parsed, 'output') ?? '';
  if (output && !OUTPUT_FORMATS.some((f) => (f.endsWith('=') ? output.startsWith(f) : output === f))) {
    const format = output.split('=')[0]!;
    // kubectl knows these formats; the console does not print them.
    if (KUBECTL_FORMATS.includes(format)) return { error: `error: the console prints -o wide, name, json, yaml and jsonpath=TEMPLATE, not -o ${format}` };
    return { error: `error: unable to match a printer suitable for the output format "${output}", allowed formats are: ${KUBECTL_FORMATS.join(',')}` };
  }
  const user = requestUser(sim, credentialsOf(sim));
  if (user instanceof StatusError) return { error: checkErr(user) };
  const sortBy = lastFlag(parsed, 'sort-by');
  const found: KindResult[] = [];
  for (const r of types) {
    const namespace = all || !r.namespaced ? undefined : lastFlag(parsed, 'namespace') ?? 'default';
    const got = names.length > 0 ? getNamed(sim, user, r, namespace, names) : listAll(sim, user, r, namespace, sortBy);
    if ('error' in got) return got;
    found.push(got);
  }
  const showLabels = lastFlag(parsed, 'show-labels') === 'true';
  const errors = found.flatMap((f) => f.errors);
  const objects = found.flatMap((f) => f.objects);
  if (found.length === 1 && names.length === 0 && objects.length === 0 && (output === '' || output === 'wide' || output === 'name')) {
    const namespace = all || !found[0]!.r.namespaced ? undefined : lastFlag(parsed, 'namespace') ?? 'default';
    return { output: namespace ? `No resources found in ${namespace} namespace.` : 'No resources found' };
  }
  if (errors.length > 0 && objects.length === 0) return { error: errors.join('\n') };
  let printed: CommandResult;
  if (output === '' || output === 'wide') {
    printed = printTables(sim, found, output === 'wide', all, showLabels);
    if ('output' in printed && printed.output === '' && errors.length === 0) {
      // Nothing of any type: kubectl says so once (get.go: "No resources found in %s namespace.").
      const namespaced = !all && found.every((f) => f.r.namespaced);
      return { output: namespaced ? `No resources found in ${lastFlag(parsed, 'namespace') ?? 'default'} namespace.` : 'No resources found' };
    }
  } else {
    printed = render(found.length === 1 ? found[0]!.r : undefined, objects, output, names.length === 1 && found.length === 1);
  }
  return 'error' in printed ? printed : { output: [printed.output, ...errors].filter((s) => s !== '').join('\n') };
}

/** getNamed gets each name of one type; what is missing or forbidden becomes kubectl's error line. */
function getNamed(sim: Simulation, user: Exclude<ReturnType<typeof requestUser>, StatusError>, r: ResourceInfo, namespace: string | undefined, names: readonly string[]): KindResult {
  const objects: KubeObject[] = [];
  const errors: string[] = [];
  for (const name of names) {
    const denied = checkAccess(sim, user, 'get', r, namespace ?? '', name);
    if (denied) {
      errors.push(checkErr(denied));
      continue;
    }
    const obj = objectsOf(sim, r, namespace).find((o) => o.metadata?.name === name);
    if (obj) objects.push(obj);
    else errors.push(checkErr(notFound(r.resource, r.group, name)));
  }
  return { r, objects, errors };
}

/** listAll lists one type (a refused list is the command's error), sorted by --sort-by when given. */
function listAll(sim: Simulation, user: Exclude<ReturnType<typeof requestUser>, StatusError>, r: ResourceInfo, namespace: string | undefined, sortBy: string | undefined): KindResult | { error: string } {
  const denied = checkAccess(sim, user, 'list', r, namespace ?? '');
  if (denied) return { error: checkErr(denied) };
  let objects = objectsOf(sim, r, namespace);
  if (sortBy) {
    const sorted = sortObjects(objects, sortBy);
    if ('error' in sorted) return sorted;
    objects = sorted.objects;
  }
  return { r, objects, errors: [] };
}

/**
 * printTables prints each type's table, as kubectl's human-readable printer does: a table per type with its own
 * column widths, a blank line between them, and (when the objects are of more than one kind) each NAME prefixed with
 * its kind and group, `deployment.apps/web` (get.go multipleGVKsRequested, separatorWriterWrapper;
 * cli-runtime/pkg/printers/tableprinter.go at v0.36.3, WithKind).
 */
function printTables(sim: Simulation, found: readonly KindResult[], wide: boolean, all: boolean, showLabels: boolean): CommandResult {
  const withKind = new Set(found.filter((f) => f.objects.length > 0).map((f) => f.r.kind)).size > 1;
  const tables: string[] = [];
  for (const { r, objects } of found) {
    if (objects.length === 0) continue;
    const table = printTable(r.kind, objects, nowMs(sim), wide);
    const withNs = all && r.namespaced;
    const nameColumn = table.header.indexOf('NAME');
    const header = [...(withNs ? ['NAMESPACE'] : []), ...table.header, ...(showLabels ? ['LABELS'] : [])];
    const rows = table.rows.map((row, i) => {
      const labels = Object.entries(objects[i]?.metadata?.labels ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(',') || '<none>';
      const cells = withKind && nameColumn >= 0 ? row.map((c, j) => (j === nameColumn ? nameOf(r, c) : c)) : row;
      return [...(withNs ? [objects[i]?.metadata?.namespace ?? ''] : []), ...cells, ...(showLabels ? [labels] : [])];
    });
    tables.push(tabwrite([header, ...rows].map((cells) => cells.join('\t')).join('\n'), GET_TABWRITER));
  }
  return { output: tables.join('\n\n') };
}

/** render prints objects in a machine format; `single` is a get of one name (the object itself, not a List). */
function render(r: ResourceInfo | undefined, objects: KubeObject[], output: string, single: boolean): CommandResult {
  const data: unknown = single ? objects[0] : { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
  if (output === 'json') return { output: goJson(data, '    ') };
  if (output === 'yaml') return { output: goYaml(data).replace(/\n$/, '') };
  if (output === 'name') return { output: objects.map((o) => nameOf(r ?? resourceOfObject(o), o.metadata?.name ?? '')).join('\n') };
  const template = output.slice('jsonpath='.length);
  try {
    return { output: executeTemplate(template, data) };
  } catch (e) {
    if (!(e instanceof JsonPathError)) throw e;
    return { error: jsonPathError(template, e) };
  }
}

/** resourceOfObject is the resource an object is stored as, for `-o name` over several types. */
function resourceOfObject(o: KubeObject): ResourceInfo {
  return resolveResource(String(o.kind)) ?? { kind: String(o.kind), resource: String(o.kind).toLowerCase(), group: '', namespaced: true };
}

/**
 * jsonPathError is how kubectl reports a template it cannot parse (`error parsing jsonpath <tmpl>, <err>`) or run
 * (`error executing jsonpath "<tmpl>": Error executing template: <err>. ...`); the Go dump of the object that
 * follows the latter is left out. See cli-runtime/pkg/genericclioptions/jsonpath_flags.go and printers/jsonpath.go.
 */
export function jsonPathError(template: string, e: JsonPathError): string {
  if (e.executing) {
    return `error: error executing jsonpath ${JSON.stringify(template)}: Error executing template: ${e.message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template}`;
  }
  return `error: error parsing jsonpath ${template}, ${e.message}`;
}

/**
 * sortObjects is --sort-by: the field is read from each item with a relaxed JSONPath (`.lastTimestamp` or
 * `{.lastTimestamp}`); numbers compare as numbers, everything else as text (RFC 3339 times sort as text);
 * items without the field come first. See staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go.
 */
function sortObjects(objects: KubeObject[], field: string): { objects: KubeObject[] } | { error: string } {
  const template = field.startsWith('{') ? field : `{${field.startsWith('.') ? field : `.${field}`}}`;
  const keys: (string | number | undefined)[] = [];
  try {
    for (const o of objects) {
      const out = executeTemplate(template, o);
      keys.push(out === '' ? undefined : /^-?\d+(\.\d+)?$/.test(out) ? Number(out) : out);
    }
  } catch (e) {
    if (e instanceof JsonPathError) return { error: jsonPathError(template, e) };
    throw e;
  }
  if (objects.length > 0 && keys.every((k) => k === undefined)) return { error: `error: couldn't find any field with path "${template}" in the list of objects` };
  const order = objects.map((o, i) => ({ o, k: keys[i] }));
  order.sort((a, b) => {
    if (a.k === b.k) return 0;
    if (a.k === undefined) return -1;
    if (b.k === undefined) return 1;
    return typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : String(a.k) < String(b.k) ? -1 : 1;
  });
  return { objects: order.map((x) => x.o) };
}
