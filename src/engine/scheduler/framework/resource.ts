// Resource amounts as the scheduler counts them: milli-CPU, bytes, pod slots and scalar (extended) resources.
// See pkg/scheduler/framework/types.go (Resource) and pkg/scheduler/util/utils.go (IsScalarResourceName).

/** ResourceList maps a resource name to an amount in milli-units (1 cpu = 1000, 1 byte = 1000), keeping which names are set. */
export type ResourceList = Map<string, number>;

/** ResourceName lists the resource names the scheduler treats natively. */
export const ResourceName = {
  CPU: 'cpu',
  Memory: 'memory',
  EphemeralStorage: 'ephemeral-storage',
  Pods: 'pods',
} as const;

/** MILLI is the factor between an amount and its milli-units. */
export const MILLI = 1000;

/** Resource is a node's or a pod's amounts in the units the scheduler compares: milli-CPU, bytes, counts. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** allowedPodNumber is the node's `pods` allocatable. */
  allowedPodNumber: number;
  /** scalar holds extended resources, hugepages and attachable volumes, in insertion order. */
  scalar: Map<string, number>;
}

/** newResource returns an empty Resource. */
export function newResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: new Map() };
}

/** valueOf turns milli-units into the unit the scheduler keeps: milli for cpu, whole units rounded up otherwise (Quantity.Value). */
export function valueOf(name: string, milli: number): number {
  return name === ResourceName.CPU ? milli : Math.ceil(milli / MILLI);
}

/** addList adds a ResourceList to a Resource, as Resource.Add does. */
export function addList(r: Resource, list: ResourceList): void {
  for (const [name, milli] of list) {
    switch (name) {
      case ResourceName.CPU: r.milliCPU += milli; break;
      case ResourceName.Memory: r.memory += valueOf(name, milli); break;
      case ResourceName.Pods: r.allowedPodNumber += valueOf(name, milli); break;
      case ResourceName.EphemeralStorage: r.ephemeralStorage += valueOf(name, milli); break;
      default:
        if (isScalarResourceName(name)) r.scalar.set(name, (r.scalar.get(name) ?? 0) + valueOf(name, milli));
    }
  }
}

/** setMaxList raises each amount of a Resource to the ResourceList's, as Resource.SetMaxResource does. */
export function setMaxList(r: Resource, list: ResourceList): void {
  for (const [name, milli] of list) {
    switch (name) {
      case ResourceName.Memory: r.memory = Math.max(r.memory, valueOf(name, milli)); break;
      case ResourceName.CPU: r.milliCPU = Math.max(r.milliCPU, milli); break;
      case ResourceName.EphemeralStorage: r.ephemeralStorage = Math.max(r.ephemeralStorage, valueOf(name, milli)); break;
      default:
        if (isScalarResourceName(name)) r.scalar.set(name, Math.max(r.scalar.get(name) ?? 0, valueOf(name, milli)));
    }
  }
}

/** addResource adds (sign 1) or subtracts (sign -1) one Resource to another, as NodeInfo.update does for a pod. */
export function addResource(r: Resource, other: Resource, sign: 1 | -1): void {
  r.milliCPU += sign * other.milliCPU;
  r.memory += sign * other.memory;
  r.ephemeralStorage += sign * other.ephemeralStorage;
  for (const [name, v] of other.scalar) r.scalar.set(name, (r.scalar.get(name) ?? 0) + sign * v);
}

const QUALIFIED_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** isScalarResourceName tells extended, hugepages, prefixed native and attachable-volume resources. See pkg/scheduler/util/utils.go. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith('hugepages-') || name.includes('kubernetes.io/') || name.startsWith('attachable-volumes-');
}

/** isExtendedResourceName tells a resource outside the kubernetes.io domain, e.g. nvidia.com/gpu. See pkg/apis/core/v1/helper/helpers.go. */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`);
}

function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return false;
  }
  return QUALIFIED_NAME.test(name);
}
