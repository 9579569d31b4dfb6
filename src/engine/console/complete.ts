// Completions for the debug console: commands, subcommands, flags, kinds, object names, etcd keys, and the
// fields and JSONPath segments of an expression, shaped as DAP CompletionItems.
import type { Pod } from '../api/types';
import type { Simulation } from '../simulation';
import { keyOf } from '../cluster/store';
import { splitWords, type Word } from './args';
import { ROOTS, type RootName, rootValue, schemaProperties, scopePod, splitRoot, typeAfter } from './expression';
import { evalNode, type Value } from './jsonpath/evaluate';
import { type JsonPathNode, parseAction } from './jsonpath/parser';
import { OUTPUT_FORMATS } from './get';
import { allResources, resolveResource } from './resources';

/** ConsoleCompletion is a DAP CompletionItem: `start` is 1-based like DAP's default columns; `length` is what it replaces. */
export interface ConsoleCompletion {
  label: string;
  text?: string;
  start?: number;
  length?: number;
  type?: string;
}

const ROOT_TYPES: Readonly<Record<RootName, string>> = { pod: '#core.v1.Pod', node: '#core.v1.Node', events: '[]#core.v1.Event' };
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'bind', 'escalate', 'use', '*'];
const FLAGS: Readonly<Record<string, readonly string[]>> = {
  get: ['-n', '--namespace', '-A', '--all-namespaces', '-o', '--output', '--show-labels', '--sort-by'],
  describe: ['-n', '--namespace'],
  delete: ['-n', '--namespace', '--grace-period', '--force', '--now'],
  drain: ['--ignore-daemonsets', '--delete-emptydir-data', '--force', '--disable-eviction', '--grace-period', '--timeout', '--skip-wait-for-delete-timeout', '--pod-selector'],
  'can-i': ['-n', '--namespace', '-A', '--all-namespaces', '--as', '--as-group', '--subresource', '-q', '--quiet'],
  etcdctl: ['--prefix', '--keys-only', '--print-value-only', '--count-only', '--limit'],
};

/**
 * completeConsole proposes completions for `text` with the cursor at `column` (1-based, as DAP's
 * columnsStartAt1 default). Each item replaces `length` characters from `start` (also 1-based) with `text`.
 */
export function completeConsole(sim: Simulation, text: string, column: number, scope?: { podRef?: string }): ConsoleCompletion[] {
  try {
    const cursor = Math.max(0, Math.min(text.length, column - 1));
    const prefix = text.slice(0, cursor);
    const words = splitWords(prefix);
    const endsInBlank = prefix === '' || /\s$/.test(prefix);
    const current: Word = endsInBlank ? { text: '', start: cursor, end: cursor } : words.pop()!;
    const before = words.map((w) => w.text);
    const items = (labels: readonly string[], type: string): ConsoleCompletion[] => [...new Set(labels)]
      .filter((l) => l.startsWith(current.text) && l !== '')
      .map((l) => ({ label: l, text: l, start: current.start + 1, length: current.text.length, type }));

    if (before.length === 0) {
      // An expression is read as typed: its quotes belong to JSONPath, not to a shell.
      const raw: Word = { text: prefix.slice(current.start), start: current.start, end: cursor };
      if (/[.[{]/.test(raw.text) || /^[$@]/.test(raw.text)) return completeExpression(sim, scopePod(sim, scope?.podRef), raw);
      return [...items(['kubectl', 'etcdctl', 'dig', 'help'], 'keyword'), ...items([...ROOTS], 'variable'), ...items(schemaProperties('#core.v1.Pod') ?? [], 'property')];
    }
    if (before[0] === 'etcdctl') {
      if (before.length === 1) return items(['get'], 'function');
      if (current.text.startsWith('-')) return items(FLAGS.etcdctl!, 'keyword');
      return etcdKeys(sim, current);
    }
    if (before[0] !== 'kubectl') return [];
    if (before.length === 1) return items(['get', 'describe', 'auth', 'delete', 'cordon', 'uncordon', 'drain'], 'function');
    const sub = before[1]!;
    if (sub === 'auth' && before.length === 2) return items(['can-i'], 'function');
    const command = sub === 'auth' ? 'can-i' : sub;
    const args = sub === 'auth' ? before.slice(3) : before.slice(2);
    const previous = before.at(-1) ?? '';
    if (previous === '-n' || previous === '--namespace') return items(sim.store.list('Namespace').map((n) => n.metadata?.name ?? ''), 'value');
    if (previous === '-o' || previous === '--output') return items(OUTPUT_FORMATS, 'value');
    if (previous === '--as') return items(['system:anonymous', 'kubernetes-admin', ...sim.store.list('ServiceAccount').map((s) => `system:serviceaccount:${s.metadata?.namespace}:${s.metadata?.name}`)], 'value');
    if (current.text.startsWith('-')) return items(FLAGS[command] ?? [], 'keyword');
    const positional = positionalArgs(args);
    // kubectl cordon, uncordon and drain take a node.
    if (command === 'cordon' || command === 'uncordon' || command === 'drain') return positional.length === 0 ? items(sim.store.list('Node').map((n) => n.metadata?.name ?? ''), 'value') : [];
    const resourceNames = (kinds?: readonly string[]) => allResources().filter((r) => !kinds || kinds.includes(r.kind)).map((r) => r.resource);
    if (command === 'can-i') {
      if (positional.length === 0) return items(VERBS, 'value');
      if (positional.length === 1) return items(resourceNames(), 'class');
      return [];
    }
    if (command !== 'get' && command !== 'describe' && command !== 'delete') return [];
    if (positional.length === 0) return items(resourceNames(command === 'describe' ? ['Pod', 'Node'] : command === 'delete' ? ['Pod'] : undefined), 'class');
    if (command === 'delete' && positional.length > 1) return [];
    const r = resolveResource(positional[0]!);
    if (!r) return [];
    const ns = namespaceOf(args);
    const names = r.kind === 'Event' ? [] : sim.store.list(r.kind, r.namespaced ? ns : undefined).map((o) => o.metadata?.name ?? '');
    return items(names, 'reference');
  } catch {
    return [];
  }
}

/** positionalArgs drops flags and their values from words after the subcommand. */
function positionalArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['-n', '--namespace', '-o', '--output', '--as', '--as-group', '--subresource', '--limit', '--sort-by', '--grace-period'].includes(a)) i++;
    else if (!a.startsWith('-')) out.push(a);
  }
  return out;
}

function namespaceOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '-n' || a === '--namespace') && args[i + 1]) return args[i + 1]!;
    const m = /^(?:-n=?|--namespace=)(.+)$/.exec(a);
    if (m) return m[1]!;
  }
  return 'default';
}

/** etcdKeys proposes keys one path segment at a time. */
function etcdKeys(sim: Simulation, current: Word): ConsoleCompletion[] {
  const keys = sim.store.all().map((o) => keyOf(o)).filter((k) => k.startsWith(current.text));
  const next = new Set<string>();
  for (const k of keys) {
    const slash = k.indexOf('/', current.text.length + (current.text.endsWith('/') ? 0 : 1));
    next.add(slash < 0 ? k : k.slice(0, slash + 1));
  }
  if (current.text === '') next.add('/registry/');
  return [...next].sort().slice(0, 200).map((k) => ({ label: k, text: k, start: current.start + 1, length: current.text.length, type: k.endsWith('/') ? 'module' : 'file' }));
}

/** completeExpression proposes the fields (or list selectors) that may follow the expression's last complete segment. */
function completeExpression(sim: Simulation, pod: Pod | undefined, current: Word): ConsoleCompletion[] {
  const braced = current.text.startsWith('{');
  const body = braced ? current.text.slice(1) : current.text;
  const offset = current.start + (braced ? 1 : 0);
  const cut = lastSegmentStart(body);
  if (cut < 0) return [];
  const base = body.slice(0, cut);
  const partial = body.slice(cut + (body[cut] === '.' ? 1 : 0));
  const { root, path } = braced ? { root: 'pod' as RootName, path: base } : splitRoot(base);
  let nodes: JsonPathNode[] = [];
  let values: Value[] = [];
  try {
    nodes = parseAction(path).nodes;
    values = [rootValue(sim, pod, root)];
    for (const n of nodes) values = evalNode(values, n, { allowMissingKeys: true });
  } catch {
    values = [];
  }
  const start = offset + cut + (body[cut] === '.' ? 1 : 0) + 1;
  if (partial.startsWith('[')) {
    const lists = values.filter(Array.isArray) as unknown[][];
    const selectors = ['[*]', ...(lists[0]?.map((_, i) => `[${i}]`) ?? [])];
    for (const item of lists[0] ?? []) {
      const t = (item as { type?: unknown; name?: unknown } | null);
      if (typeof t?.type === 'string') selectors.push(`[?(@.type=="${t.type}")]`);
      else if (typeof t?.name === 'string') selectors.push(`[?(@.name=="${t.name}")]`);
    }
    return [...new Set(selectors)].filter((s) => s.startsWith(partial)).map((s) => ({ label: s, text: s, start, length: partial.length, type: 'value' }));
  }
  const type = typeAfter(ROOT_TYPES[root], nodes);
  const fields = new Set<string>(schemaProperties(type) ?? []);
  for (const v of values) if (v && typeof v === 'object' && !Array.isArray(v)) for (const k of Object.keys(v)) fields.add(k);
  return [...fields].filter((f) => f.startsWith(partial)).sort().map((f) => ({ label: f, text: f, start, length: partial.length, type: 'property' }));
}

/** lastSegmentStart finds the last `.` or `[` outside brackets and quotes: where the segment being typed begins. */
function lastSegmentStart(body: string): number {
  let depth = 0;
  let quote = '';
  let last = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      if (c === quote && body[i - 1] !== '\\') quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[') {
      if (depth === 0) last = i;
      depth++;
    } else if (c === ']') {
      depth = Math.max(0, depth - 1);
    } else if (c === '.' && depth === 0) {
      last = i;
    }
  }
  return last;
}
