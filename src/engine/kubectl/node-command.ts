// `kubectl cordon NODE`, `kubectl uncordon NODE` and `kubectl drain NODE [flags]` as commands a run is given (the CLI's
// --then-drain, the Debug Console): their flags with kubectl's defaults and pflag's parsing errors, and the command line
// they stand for. See staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (NewDrainCmdOptions, NewCmdDrain, Complete)
// at v0.36.3.
import { parseSelector, SelectorError } from '../api/labels';
import { goDuration, parseGoDuration } from '../runtime/durations';

/** DrainFlags are drain.Helper's options as `kubectl drain` sets them. */
export interface DrainFlags {
  force: boolean;
  ignoreDaemonSets: boolean;
  deleteEmptyDirData: boolean;
  disableEviction: boolean;
  /** gracePeriodSeconds is --grace-period: -1 (the default) leaves each pod's own. */
  gracePeriodSeconds: number;
  /** timeoutMs is --timeout: 0 (the default) waits without end. */
  timeoutMs: number;
  /** skipWaitForDeleteTimeoutSeconds is --skip-wait-for-delete-timeout: 0 (the default) never skips. */
  skipWaitForDeleteTimeoutSeconds: number;
  /** podSelector is --pod-selector: '' selects every pod of the node. */
  podSelector: string;
}

/** DEFAULT_DRAIN_FLAGS are NewDrainCmdOptions' defaults: GracePeriodSeconds -1, everything else off or zero. */
export const DEFAULT_DRAIN_FLAGS: Readonly<DrainFlags> = Object.freeze({
  force: false, ignoreDaemonSets: false, deleteEmptyDirData: false, disableEviction: false,
  gracePeriodSeconds: -1, timeoutMs: 0, skipWaitForDeleteTimeoutSeconds: 0, podSelector: '',
});

/** NodeCommand is one kubectl command on a node. */
export type NodeCommand = { verb: 'cordon' | 'uncordon'; node: string } | { verb: 'drain'; node: string; flags: DrainFlags };

/** NODE_VERBS are the kubectl commands a run can be given on a node. */
export const NODE_VERBS = ['cordon', 'uncordon', 'drain'] as const;

/** BOOLEAN_FLAGS and VALUE_FLAGS are drain's flags by name (cordon and uncordon take none of them). */
export const BOOLEAN_DRAIN_FLAGS = ['force', 'ignore-daemonsets', 'delete-emptydir-data', 'disable-eviction'] as const;
export const VALUE_DRAIN_FLAGS = ['grace-period', 'timeout', 'skip-wait-for-delete-timeout', 'pod-selector'] as const;

const pflagError = (value: string, flag: string, err: string) => `invalid argument ${JSON.stringify(value)} for ${JSON.stringify(`--${flag}`)} flag: ${err}`;

/** parseGoInt is strconv.ParseInt (base 10, 64 bits) as pflag's int flag reads it; the error pflag wraps otherwise. */
function parseGoInt(value: string, flag: string): number | string {
  if (!/^[+-]?\d+$/.test(value)) return pflagError(value, flag, `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) return pflagError(value, flag, `strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return n;
}

/** parseGoBool is strconv.ParseBool: 1, t, T, TRUE, true, True and their false forms. */
function parseGoBool(value: string, flag: string): boolean | string {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return pflagError(value, flag, `strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/**
 * setDrainFlag sets one flag as pflag parses it, or returns kubectl's error without its `error: ` prefix: an unknown
 * flag (`unknown flag: --cascade`) or a value of the wrong form. A boolean given no value is true.
 */
export function setDrainFlag(flags: DrainFlags, name: string, value: string | undefined): string | undefined {
  switch (name) {
    case 'force': case 'ignore-daemonsets': case 'delete-emptydir-data': case 'disable-eviction': {
      const b = parseGoBool(value ?? 'true', name);
      if (typeof b === 'string') return b;
      if (name === 'force') flags.force = b;
      else if (name === 'ignore-daemonsets') flags.ignoreDaemonSets = b;
      else if (name === 'delete-emptydir-data') flags.deleteEmptyDirData = b;
      else flags.disableEviction = b;
      return undefined;
    }
    case 'grace-period': case 'skip-wait-for-delete-timeout': {
      if (value === undefined) return `flag needs an argument: --${name}`;
      const n = parseGoInt(value, name);
      if (typeof n === 'string') return n;
      if (name === 'grace-period') flags.gracePeriodSeconds = n;
      else flags.skipWaitForDeleteTimeoutSeconds = n;
      return undefined;
    }
    case 'timeout': {
      if (value === undefined) return `flag needs an argument: --${name}`;
      const d = parseGoDuration(value);
      if ('error' in d) return pflagError(value, name, d.error);
      flags.timeoutMs = d.ms;
      return undefined;
    }
    case 'pod-selector': {
      if (value === undefined) return `flag needs an argument: --${name}`;
      // drain.go Complete: labels.Parse, with its own error.
      try {
        parseSelector(value);
      } catch (err) {
        if (err instanceof SelectorError) return '--pod-selector=<pod_selector> must be a valid label selector';
        throw err;
      }
      flags.podSelector = value;
      return undefined;
    }
    default:
      return `unknown flag: --${name}`;
  }
}

/** commandLine is the kubectl command line a command stands for, its flags as given (not their defaults). */
export function commandLine(c: NodeCommand): string {
  if (c.verb !== 'drain') return `kubectl ${c.verb} ${c.node}`;
  const f = c.flags;
  const d = DEFAULT_DRAIN_FLAGS;
  const parts = [`kubectl drain ${c.node}`];
  if (f.ignoreDaemonSets) parts.push('--ignore-daemonsets');
  if (f.deleteEmptyDirData) parts.push('--delete-emptydir-data');
  if (f.force) parts.push('--force');
  if (f.disableEviction) parts.push('--disable-eviction');
  if (f.gracePeriodSeconds !== d.gracePeriodSeconds) parts.push(`--grace-period=${f.gracePeriodSeconds}`);
  if (f.timeoutMs !== d.timeoutMs) parts.push(`--timeout=${goDuration(f.timeoutMs)}`);
  if (f.skipWaitForDeleteTimeoutSeconds !== d.skipWaitForDeleteTimeoutSeconds) parts.push(`--skip-wait-for-delete-timeout=${f.skipWaitForDeleteTimeoutSeconds}`);
  if (f.podSelector) parts.push(`--pod-selector=${f.podSelector}`);
  return parts.join(' ');
}
