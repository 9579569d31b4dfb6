// What kubectl's RESTMapper makes of a resource argument: `pods`, `pod`, `po`, `Pod`, `deployments.apps`.
import { RESOURCES } from '../cluster/store';

/** ResourceInfo is one resource kubectl knows: its kind, plural, group and scope. */
export interface ResourceInfo {
  kind: string;
  resource: string;
  group: string;
  namespaced: boolean;
}

/**
 * SHORT_NAMES are the short names the API server's discovery advertises for the built-in resources.
 * See the ShortNames of each registry's REST storage (pkg/registry/.../storage/storage.go).
 */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  pods: ['po'], nodes: ['no'], namespaces: ['ns'], serviceaccounts: ['sa'], services: ['svc'], endpoints: ['ep'],
  configmaps: ['cm'], resourcequotas: ['quota'], limitranges: ['limits'], persistentvolumes: ['pv'],
  persistentvolumeclaims: ['pvc'], events: ['ev'], deployments: ['deploy'], replicasets: ['rs'], statefulsets: ['sts'],
  daemonsets: ['ds'], cronjobs: ['cj'], priorityclasses: ['pc'], storageclasses: ['sc'], poddisruptionbudgets: ['pdb'],
};

/** allResources lists every resource of the simulated API server. */
export function allResources(): ResourceInfo[] {
  return Object.entries(RESOURCES).map(([kind, r]) => ({ kind, resource: r.resource, group: r.group, namespaced: r.namespaced }));
}

/** resourceNames are the words a resource may be typed as: plural, singular, short names. */
export function resourceNames(r: ResourceInfo): string[] {
  return [r.resource, r.kind.toLowerCase(), ...(SHORT_NAMES[r.resource] ?? [])];
}

/** resolveResource maps an argument to a resource as the RESTMapper does (case-insensitive, `name.group` allowed). */
export function resolveResource(arg: string): ResourceInfo | undefined {
  const lower = arg.toLowerCase();
  const dot = lower.indexOf('.');
  const name = dot < 0 ? lower : lower.slice(0, dot);
  const group = dot < 0 ? undefined : lower.slice(dot + 1);
  return allResources().find((r) => resourceNames(r).includes(name) && (group === undefined || r.group === group || `${r.group}`.startsWith(`${group}`)));
}

/** qualifiedResource is `pods`, or `deployments.apps` for a resource of a named group, as errors name it. */
export function qualifiedResource(r: ResourceInfo): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** nameOf is the `-o name` form: `pod/web`, `deployment.apps/web`. */
export function nameOf(r: ResourceInfo, name: string): string {
  return `${r.kind.toLowerCase()}${r.group ? `.${r.group}` : ''}/${name}`;
}
