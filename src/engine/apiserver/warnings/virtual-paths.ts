// The warnings for volumes whose files land on one another: two items of a ConfigMap, Secret or downward API volume
// (or of the sources of a projected one) on the same path or one under the other, and a projected source naming no
// volume type. See pkg/api/pod/warnings.go (warningsForOverlappingVirtualPaths, checkForOverlap), v1.36.3.
import { isObject } from '../../api/types';

type Rec = Record<string, unknown>;

/** PathAndSource is a file a volume writes and where it comes from (`"a" (ConfigMap "cm")`). */
interface PathAndSource {
  path: string;
  source: string;
}

const q = (s: string): string => JSON.stringify(s);
const shown = (ps: PathAndSource): string => (ps.source ? `${q(ps.path)} (${ps.source})` : q(ps.path));
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isObject) : []);
const pathsOf = (items: unknown, source: string): PathAndSource[] => list(items).map((i) => ({ path: str(i['path']), source }));

/** checkForOverlap lists the paths of `haystack` that `needle` is, or is under, or holds (by `/`, as the API server does). */
function checkForOverlap(haystack: PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return [];
  return haystack.filter((item) => item.path !== '' && ((item.path === needle.path && item.source === needle.source)
    || `${item.path}/`.startsWith(`${needle.path}/`) || `${needle.path}/`.startsWith(`${item.path}/`)));
}

/** overlapsIn is checkVolumeMappingForOverlap: each path against those before it, a trailing `/` trimmed. */
function overlapsIn(paths: PathAndSource[], all: PathAndSource[] = []): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const ps = { ...p, path: p.path.replace(/\/+$/, '') };
    for (const c of checkForOverlap(all, ps)) out.push(`${shown(ps)} with ${shown(c)}`);
    all.push(ps);
  }
  return out;
}

/** sourcePaths are the files one projected source writes (an empty source is reported by the caller). */
function sourcePaths(s: Rec): PathAndSource[] {
  const cm = s['configMap'], secret = s['secret'], down = s['downwardAPI'], token = s['serviceAccountToken'], ctb = s['clusterTrustBundle'], cert = s['podCertificate'];
  if (isObject(cm) && Array.isArray(cm['items'])) return pathsOf(cm['items'], `ConfigMap ${q(str(cm['name']))}`);
  if (isObject(secret) && Array.isArray(secret['items'])) return pathsOf(secret['items'], `Secret ${q(str(secret['name']))}`);
  if (isObject(down) && Array.isArray(down['items'])) return pathsOf(down['items'], 'DownwardAPI');
  if (isObject(token)) return [{ path: str(token['path']), source: 'ServiceAccountToken' }];
  if (isObject(ctb)) return [{ path: str(ctb['path']), source: `ClusterTrustBundle ${q(typeof ctb['name'] === 'string' ? ctb['name'] : str(ctb['signerName']))}` }];
  if (isObject(cert)) {
    return [['certificateChainPath', 'PodCertificate chain'], ['keyPath', 'PodCertificate key'], ['credentialBundlePath', 'PodCertificate credential bundle']]
      .filter(([k]) => str(cert[k!]) !== '').map(([k, source]) => ({ path: str(cert[k!]), source: source! }));
  }
  return [];
}

/** overlappingPathWarnings is warningsForOverlappingVirtualPaths over a pod spec's volumes. */
export function overlappingPathWarnings(volumes: unknown): string[] {
  const out: string[] = [];
  for (const v of list(volumes)) {
    const name = str(v['name']);
    const warn = (desc: string, body: string): string => `volume ${q(name)} (${desc}): overlapping paths: ${body}`;
    const cm = v['configMap'], secret = v['secret'], down = v['downwardAPI'], projected = v['projected'];
    if (isObject(cm) && Array.isArray(cm['items'])) out.push(...overlapsIn(pathsOf(cm['items'], '')).map((b) => warn(`ConfigMap ${q(str(cm['name']))}`, b)));
    if (isObject(secret) && Array.isArray(secret['items'])) out.push(...overlapsIn(pathsOf(secret['items'], '')).map((b) => warn(`Secret ${q(str(secret['secretName']))}`, b)));
    if (isObject(down) && Array.isArray(down['items'])) out.push(...overlapsIn(pathsOf(down['items'], '')).map((b) => warn('DownwardAPI', b)));
    if (!isObject(projected)) continue;
    const all: PathAndSource[] = [];
    for (const source of list(projected['sources'])) {
      // A source with no member set (the zero VolumeProjection) writes nothing.
      if (!Object.values(source).some((x) => x !== undefined && x !== null)) {
        out.push(`volume ${q(name)} (Projected) has no sources provided`);
        continue;
      }
      out.push(...overlapsIn(sourcePaths(source), all).map((b) => warn('Projected', b)));
    }
  }
  return out;
}
