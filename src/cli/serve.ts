// `pod-lifecycle serve`: the engine behind an HTTPS Kubernetes API on 127.0.0.1, with its own CA and the kubeconfig
// it writes, for a real kubectl or client library. Virtual time follows the wall clock times --speed.
import { loadClusterFiles } from '../engine/cluster/files';
import { InputError } from '../engine/cluster/inputs';
import { parseGoDuration } from '../engine/runtime/durations';
import { readInputFile } from '../host/read-file';
import { LiveCluster } from '../serve/live-cluster';
import type { ServePki } from '../serve/pki';
import { type Served, serveCluster, trustServePki } from '../serve/serving';

/** SERVE_USAGE is the synopsis of serve. */
export const SERVE_USAGE = 'Usage: pod-lifecycle serve [--cluster FILE]... [--behavior FILE] [--port N] [--speed X] [--kubeconfig-out FILE] [--seed N] [--event-ttl DURATION]';

/** ServeArgs are serve's flags. */
export interface ServeArgs {
  clusters: string[];
  behavior?: string;
  port: number;
  speed: number;
  kubeconfigOut?: string;
  seed?: number;
  /** eventTtlSeconds is --event-ttl in whole seconds, as kube-apiserver hands it to the Event registry (default 1h). */
  eventTtlSeconds?: number;
}

/** parseServeArgs reads serve's flags; a bad one throws an Error whose message is the usage error. */
export function parseServeArgs(argv: readonly string[]): ServeArgs | 'help' {
  const args: ServeArgs = { clusters: [], port: 0, speed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new Error(`flag needs an argument: ${flag}`);
      return v;
    };
    const number = (min: number, max: number): number => {
      const text = value();
      const n = Number(text);
      if (!Number.isFinite(n) || n < min || n > max) throw new Error(`invalid value "${text}" for ${flag}: a number from ${min} to ${max}`);
      return n;
    };
    switch (flag) {
      case '--cluster': args.clusters.push(value()); break;
      case '--behavior': args.behavior = value(); break;
      case '--port': args.port = Math.trunc(number(0, 65535)); break;
      case '--speed': args.speed = number(0.001, 1000); break;
      case '--kubeconfig-out': args.kubeconfigOut = value(); break;
      case '--seed': args.seed = Math.trunc(number(0, 2 ** 31)); break;
      case '--event-ttl': args.eventTtlSeconds = eventTtl(value()); break;
      default: throw new Error(arg.startsWith('-') ? `unknown flag: ${flag}` : `serve takes no argument: "${arg}"`);
    }
  }
  return args;
}

/**
 * eventTtl reads --event-ttl as pflag's DurationVar does (Go's time.ParseDuration: `1h0m0s`, `90m`, `30s`) and turns it
 * into whole seconds, as kube-apiserver hands it to the Event registry: uint64(c.EventTTL.Seconds()) in
 * pkg/registry/core/rest/storage_core.go; the flag in pkg/controlplane/apiserver/options/options.go (v1.36.3).
 * A negative one is refused.
 */
function eventTtl(text: string): number {
  const parsed = parseGoDuration(text);
  if ('error' in parsed) throw new Error(`invalid argument "${text}" for "--event-ttl" flag: ${parsed.error}`);
  if (parsed.ms < 0) throw new Error(`invalid argument "${text}" for "--event-ttl" flag: the TTL cannot be negative`);
  return Math.trunc(parsed.ms / 1000);
}

/** runServe starts serving; it resolves with the exit code once the server stops (SIGINT, SIGTERM). */
export async function runServe(argv: readonly string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  let args: ServeArgs;
  try {
    const parsed = parseServeArgs(argv);
    if (parsed === 'help') {
      out(`${SERVE_USAGE}\n`);
      return 0;
    }
    args = parsed;
  } catch (e) {
    err(`error: ${(e as Error).message}\n${SERVE_USAGE}\n`);
    return 2;
  }
  let cluster: LiveCluster;
  let pki: ServePki;
  try {
    const inputs = loadClusterFiles({ clusters: args.clusters, ...(args.behavior ? { behavior: args.behavior } : {}) }, (p) => readInputFile(p));
    pki = trustServePki(inputs);
    cluster = LiveCluster.start(inputs, { speed: args.speed, ...(args.seed !== undefined ? { seed: args.seed } : {}), ...(args.eventTtlSeconds !== undefined ? { eventTtlSeconds: args.eventTtlSeconds } : {}) });
  } catch (e) {
    if (e instanceof InputError) {
      err(`error: ${e.message.replace(/\n/g, ' ')}\n`);
      return 2;
    }
    throw e;
  }
  let served: Served;
  try {
    served = await serveCluster(cluster, pki, { port: args.port, ...(args.kubeconfigOut ? { kubeconfigOut: args.kubeconfigOut } : {}) });
  } catch (e) {
    err(`error: cannot listen on 127.0.0.1:${args.port}: ${(e as Error).message}\n`);
    cluster.close();
    return 1;
  }
  out(`Serving the simulated cluster (Kubernetes v1.36) on ${served.url}${args.speed !== 1 ? ` at ${args.speed}× speed` : ''}\n`);
  out(`export KUBECONFIG=${served.kubeconfigFile}\n`);
  out(`Contexts: ${served.contexts.join(', ')}\n`);
  return new Promise<number>((resolve) => {
    const stop = (): void => void served.close().then(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
