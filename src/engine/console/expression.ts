// Console expressions over the paused state: field paths on the pod (`status.phase`), the objects pod, node and
// events, and kubectl's JSONPath, braced or bare; unknown fields are named with a suggestion, never thrown.
import { SCHEMA_TYPES } from '../api/schema/schema.generated';
import type { KubeObject, Pod } from '../api/types';
import type { Simulation } from '../simulation';
import { coreEvent } from './events';
import { evalNode, executeTemplate, type Value } from './jsonpath/evaluate';
import { type JsonPathNode, JsonPathError, type ListNode, parseAction } from './jsonpath/parser';

/** ROOTS are the names an expression may start with. */
export const ROOTS = ['pod', 'node', 'events'] as const;

/** RootName is one of ROOTS. */
export type RootName = (typeof ROOTS)[number];

/** ROOT_TYPES are the schema types of the roots; events are a list of core/v1 Events. */
const ROOT_TYPES: Readonly<Record<RootName, string>> = { pod: '#core.v1.Pod', node: '#core.v1.Node', events: '[]#core.v1.Event' };

/** ConsoleError is an error the console shows as its answer. */
export class ConsoleError extends Error {}

/** scopePod finds the pod a `Pod/namespace/name` reference names, else the workload's first pod, else the first pod in default. */
export function scopePod(sim: Simulation, podRef?: string): Pod | undefined {
  const [kind, ns, name] = podRef?.split('/') ?? [];
  if (kind === 'Pod' && ns && name) return sim.store.get<Pod>('Pod', ns, name);
  return sim.pods()[0] ?? sim.store.list<Pod>('Pod', 'default')[0];
}

/** rootValue is the value of a root for the current pod. */
export function rootValue(sim: Simulation, pod: Pod | undefined, root: RootName): Value {
  if (root === 'events') return sim.recorder.events.map((e) => coreEvent(sim, e));
  if (!pod) throw new ConsoleError('there is no pod yet: the manifest has not been applied, or it made none');
  if (root === 'pod') return pod;
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw new ConsoleError(`pod ${pod.metadata?.namespace}/${pod.metadata?.name} is not bound to a node yet`);
  const node = sim.store.get<KubeObject>('Node', undefined, nodeName);
  if (!node) throw new ConsoleError(`node ${nodeName} of pod ${pod.metadata?.name} is not in the store`);
  return node;
}

/** splitRoot separates an expression's root from its path: `pod.status` → pod + `.status`; `status` → pod + `.status`. */
export function splitRoot(text: string): { root: RootName; path: string; offset: number } {
  const m = /^(pod|node|events)(?=$|[.[])/.exec(text);
  if (m) return { root: m[1] as RootName, path: text.slice(m[1]!.length), offset: m[1]!.length };
  const lead = /^[$@]/.test(text) ? 1 : 0;
  const rest = text.slice(lead);
  return rest.startsWith('.') || rest.startsWith('[') || rest === '' ? { root: 'pod', path: rest, offset: lead } : { root: 'pod', path: `.${rest}`, offset: lead - 1 };
}

/** schemaProperties lists the fields of a schema type (`#core.v1.PodStatus`), or undefined for maps and scalars. */
export function schemaProperties(type: string | undefined): string[] | undefined {
  if (!type?.startsWith('#')) return undefined;
  return Object.keys(SCHEMA_TYPES[type.slice(1)]?.properties ?? {});
}

/** typeAfter follows a schema type through the nodes of a path; undefined once it cannot tell. */
export function typeAfter(type: string | undefined, nodes: readonly JsonPathNode[]): string | undefined {
  let t = type;
  for (const n of nodes) {
    if (!t) return undefined;
    if (n.type === 'field') {
      if (t.startsWith('{}')) t = t.slice(2);
      else if (t.startsWith('#')) t = SCHEMA_TYPES[t.slice(1)]?.properties[n.name]?.type;
      else t = undefined;
    } else if (n.type === 'array' || n.type === 'filter' || (n.type === 'wildcard' && t.startsWith('[]'))) {
      t = t.startsWith('[]') ? t.slice(2) : undefined;
    } else if (n.type === 'wildcard' && t.startsWith('{}')) {
      t = t.slice(2);
    } else {
      t = undefined;
    }
  }
  return t;
}

/** suggest finds the closest name to a mistyped one (edit distance at most a third of its length, at least 1). */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = c.toLowerCase() === name.toLowerCase() ? 0 : distance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** formatValues prints results: strings as they are, other scalars as JSON, objects and lists as indented JSON. */
export function formatValues(values: readonly Value[]): string {
  const scalar = values.every((v) => v === null || typeof v !== 'object');
  const text = (v: Value) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? 'null');
  return values.map(text).join(scalar ? ' ' : '\n');
}

/**
 * evaluateExpression evaluates an expression for a pod. A braced template (`{.status.phase}`) runs as kubectl
 * -o jsonpath runs it (missing keys print nothing). A bare path is strict: a field the object's schema does
 * not have is an error naming where it was looked for, with a suggestion.
 */
export function evaluateExpression(sim: Simulation, pod: Pod | undefined, text: string): string {
  if (text.startsWith('{')) {
    try {
      return executeTemplate(text, rootValue(sim, pod, 'pod'));
    } catch (e) {
      if (e instanceof JsonPathError) throw new ConsoleError(e.message);
      throw e;
    }
  }
  const { root, path } = splitRoot(text);
  let list: ListNode;
  try {
    list = parseAction(path);
  } catch (e) {
    if (e instanceof JsonPathError) throw new ConsoleError(`cannot parse ${JSON.stringify(text)}: ${e.message}`);
    throw e;
  }
  let values: Value[] = [rootValue(sim, pod, root)];
  const where = (i: number) => `${root}${path.slice(0, list.nodes[i]?.start ?? path.length)}`;
  for (let i = 0; i < list.nodes.length; i++) {
    const node = list.nodes[i]!;
    const type = typeAfter(ROOT_TYPES[root], list.nodes.slice(0, i));
    // After `..` the values are of every shape: a field is looked up where it exists, as JSONPath does.
    const descended = list.nodes.slice(0, i).some((n) => n.type === 'recursive');
    if (node.type === 'field' && !descended) {
      for (const v of values) {
        if (v !== null && v !== undefined && (typeof v !== 'object' || Array.isArray(v))) {
          throw new ConsoleError(`${where(i)} is ${Array.isArray(v) ? 'a list' : `a ${typeof v}`}, it has no field ${JSON.stringify(node.name)}${Array.isArray(v) ? '; index it first, e.g. [0] or [*]' : ''}`);
        }
      }
    }
    try {
      values = evalNode(values, node, {
        allowMissingKeys: true,
        missingField: (map, field) => {
          if (descended) return;
          const known = schemaProperties(type);
          if (known === undefined || known.includes(field.name)) return;
          const hint = suggest(field.name, [...new Set([...known, ...Object.keys(map)])]);
          throw new ConsoleError(`unknown field ${JSON.stringify(field.name)} in ${where(i)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}`);
        },
      });
    } catch (e) {
      if (e instanceof JsonPathError) throw new ConsoleError(`${e.message} in ${where(i)}`);
      throw e;
    }
  }
  return formatValues(values);
}
