// kubectl's disk cache of discovery, shared by every kubectl of a run as the one ~/.kube/cache of a machine is: the
// first kubectl writes it, a later one reads it while it is fresh (6 hours) and sends no discovery request. See
// staging/src/k8s.io/cli-runtime/pkg/genericclioptions/config_flags.go (ToDiscoveryClient: ~/.kube/cache/discovery/
// <host_port>, ~/.kube/cache/http, time.Duration(6*time.Hour); computeDiscoverCacheDir) at v0.36.3 (unchanged since
// v0.36.0) and staging/src/k8s.io/client-go/discovery/cached/disk/cached_discovery.go (getCachedFile) at v0.36.3.
import type { ApiServer, CheckOutcome } from '../apiserver/server';
import type { Millis } from '../runtime/clock';
import { API_SERVER_URL } from './http';

/** DISCOVERY_TTL_MS is the cache's time to live: ToDiscoveryClient's 6 hours. */
export const DISCOVERY_TTL_MS = 6 * 60 * 60 * 1000;

/** DISCOVERY_TTL_TEXT is the time to live as the trace says it. */
export const DISCOVERY_TTL_TEXT = '6h';

/**
 * discoveryCacheDir is computeDiscoverCacheDir: the host without its scheme, each character other than letters,
 * digits, `_`, `/`, `.` and parentheses replaced by `_` (`192.168.49.2_6443`), under ~/.kube/cache/discovery.
 */
export function discoveryCacheDir(host: string): string {
  const schemeless = host.replace('https://', '').replace('http://', '');
  return `~/.kube/cache/discovery/${schemeless.replace(/[^(\w/.)]/g, '_')}`;
}

/** DISCOVERY_CACHE_DIR is the cache directory of the simulated API server's address. */
export const DISCOVERY_CACHE_DIR = discoveryCacheDir(API_SERVER_URL);

/** CachedDiscovery is what the cache holds: when it was written, the answer it stands for, the files written. */
export interface CachedDiscovery {
  at: Millis;
  outcome: CheckOutcome;
  files: string[];
}

/** DiscoveryCache is the disk cache of one server's discovery: empty until a kubectl writes it. */
export interface DiscoveryCache {
  written?: CachedDiscovery;
}

const caches = new WeakMap<ApiServer, DiscoveryCache>();

/** discoveryCache is the disk cache of the run's server (one per server, as one per host:port on disk). */
export function discoveryCache(api: ApiServer): DiscoveryCache {
  let cache = caches.get(api);
  if (!cache) caches.set(api, (cache = {}));
  return cache;
}

/** fresh is getCachedFile's check: a file is used unless now is after its modification time plus the TTL. */
export function fresh(written: CachedDiscovery, now: Millis): boolean {
  return !(now > written.at + DISCOVERY_TTL_MS);
}
