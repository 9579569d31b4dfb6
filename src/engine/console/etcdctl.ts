// `etcdctl get` over the simulated etcd: keys in byte order, each key then its value, as etcdctl's simple printer.
// See etcd's etcdctl/ctlv3/command/printer_simple.go (Get, printKV) and get_command.go.
import type { Simulation } from '../simulation';
import { keyOf } from '../cluster/store';
import { FlagError, parseFlags, type FlagSpec } from './args';
import type { CommandResult } from './get';

/** ETCDCTL_GET_FLAGS are the flags of `etcdctl get` the console understands. */
export const ETCDCTL_GET_FLAGS: FlagSpec = { values: ['limit'], booleans: ['prefix', 'keys-only', 'print-value-only', 'count-only'], short: {} };


/**
 * etcdctlGet runs `etcdctl get KEY [--prefix] [--keys-only] [--print-value-only] [--limit N]`. The real
 * kube-apiserver stores built-in kinds as protobuf; the simulated store holds objects, so values print as JSON,
 * the encoding kube-apiserver uses for custom resources. With --keys-only etcd returns empty values, and the
 * printer still writes the value's (empty) line.
 */
export function etcdctlGet(sim: Simulation, words: readonly string[]): CommandResult {
  let parsed;
  try {
    parsed = parseFlags(words, ETCDCTL_GET_FLAGS);
  } catch (e) {
    if (e instanceof FlagError) return { error: `Error: ${e.message}` };
    throw e;
  }
  const [key, rangeEnd] = parsed.args;
  if (key === undefined || parsed.args.length > 2) return { error: 'Error: get command needs one argument as key and an optional argument as range_end' };
  const has = (f: string) => parsed.flags.get(f)?.at(-1) === 'true';
  const limit = Number(parsed.flags.get('limit')?.at(-1) ?? 0);
  let kvs = sim.store.all().map((o) => ({ key: keyOf(o), value: JSON.stringify(o) }));
  // etcd orders keys by their bytes; the store's keys are ASCII.
  kvs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  kvs = kvs.filter((kv) => (has('prefix') ? kv.key.startsWith(key) : rangeEnd !== undefined ? kv.key >= key && kv.key < rangeEnd : kv.key === key));
  if (has('count-only')) return { output: String(kvs.length) };
  if (limit > 0) kvs = kvs.slice(0, limit);
  const lines: string[] = [];
  for (const kv of kvs) {
    if (!has('print-value-only')) lines.push(kv.key);
    lines.push(has('keys-only') ? '' : kv.value);
  }
  return { output: lines.join('\n') };
}
