// Hover on a resource quantity under `requests:` or `limits:` (a container's, an overhead's, a claim's): the amount
// as Kubernetes reads it (parsed as resource.Quantity is, in cores or bytes) and what it means to that map.
import type { PathSegment } from '../engine/api/fieldpath';
import { parseQuantity, QuantityError } from '../engine/api/quantity';

/** QUANTITY_MAPS are the maps whose values are quantities a hover explains. */
const QUANTITY_MAPS = new Set(['requests', 'limits']);

/** isQuantityPath tells whether a path names one resource of a `requests` or `limits` map. */
export function isQuantityPath(path: readonly PathSegment[]): boolean {
  const parent = path[path.length - 2];
  return path.length >= 2 && typeof parent === 'string' && QUANTITY_MAPS.has(parent) && typeof path[path.length - 1] === 'string';
}

/** MEANING says, by map and resource, what the amount is to Kubernetes. */
function meaning(map: string, resource: string): string {
  if (map === 'requests') {
    if (resource === 'cpu') return 'What the scheduler reserves on the node for the container, and its CPU share (cgroup cpu.weight) under contention.';
    if (resource === 'memory') return 'What the scheduler reserves on the node for the container; a pod using more than it requests is among the first the kubelet evicts under memory pressure.';
    return 'What the scheduler reserves on the node for the container.';
  }
  if (resource === 'cpu') return 'The most CPU time the container gets (cgroup cpu.max): above it, it is throttled, not killed.';
  if (resource === 'memory') return 'The most memory the container may use (cgroup memory.max): above it, the kernel kills it (OOMKilled).';
  return 'The most of it the container may use.';
}

/** amountText reads a quantity in the unit of its resource: cores for cpu, bytes for memory and storage. */
function amountText(resource: string, text: string): string {
  const q = parseQuantity(text);
  if (resource === 'cpu') {
    const milli = q.milliValue();
    return `${milli / 1000} CPU (${milli.toLocaleString('en-US')} millicores)`;
  }
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource === 'storage' || resource.startsWith('hugepages-')) {
    const bytes = q.value();
    const mib = bytes / (1024 * 1024);
    return `${bytes.toLocaleString('en-US')} bytes${bytes >= 1024 * 1024 ? ` (${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB)` : ''}`;
  }
  return `${q.value().toLocaleString('en-US')}`;
}

/**
 * quantityHover is the first lines of the hover on `cpu: 250m` under requests or limits: the resource, which map,
 * the amount and what it means; a value that is not a quantity gets the API server's own parse error.
 */
export function quantityHover(path: readonly PathSegment[], valueText: string | undefined): string[] {
  const resource = String(path[path.length - 1]);
  const map = String(path[path.length - 2]);
  const which = map === 'requests' ? 'request' : 'limit';
  const raw = (valueText ?? '').replace(/\s+#.*$/, '').trim().replace(/^(['"])(.*)\1$/, '$2');
  const parts = [`**${resource}** ${which} \`resource.Quantity\``];
  if (raw !== '') {
    try {
      parts.push(`\`${raw}\` = ${amountText(resource, raw)}`);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      parts.push(`\`${raw}\` is not a quantity: ${err.message}`);
    }
  }
  parts.push(meaning(map, resource));
  return parts;
}
