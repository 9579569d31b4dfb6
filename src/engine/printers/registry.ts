// kube-apiserver's TableConvertor: AddHandlers' printers by kind, rest's default table for other kinds, row objects by includeObject.
// See pkg/printers/tablegenerator.go, pkg/printers/storage/storage.go, apiserver's registry/rest/table.go and endpoints/handlers/response.go (asTable).
import type { KubeObject } from '../api/types';
import { parseGoInt64 } from '../api/quantity-format';
import { ADMISSION_NODE_PRINTERS } from './admission-node';
import { CLUSTER_PRINTERS } from './cluster';
import { CORE_PRINTERS } from './core';
import { NETWORK_STORAGE_PRINTERS } from './network-storage';
import { WORKLOAD_PRINTERS } from './workloads';
import { columns, NAME_COLUMN, type PartialObjectMetadata, type PrintHandler, type Table, type TableRow } from './types';

/** IncludeObject is metav1.IncludeObjectPolicy: what each row carries of its object (kubectl get asks for Metadata). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** TableOptions are the request's: ?includeObject= (default Metadata), TableOptions.NoHeaders, and the list's resourceVersion. */
export interface TableOptions {
  includeObject?: IncludeObject;
  noHeaders?: boolean;
  /** resourceVersion is the list's (a single object's for a get); the Table's metadata omits it when empty. */
  resourceVersion?: string;
}

/** PRINTERS are printers.go AddHandlers' handlers, by kind, for the kinds the engine serves. */
const PRINTERS: Readonly<Record<string, PrintHandler>> = {
  ...CORE_PRINTERS, ...NETWORK_STORAGE_PRINTERS, ...WORKLOAD_PRINTERS, ...CLUSTER_PRINTERS, ...ADMISSION_NODE_PRINTERS,
};

/** RESOURCE_KINDS maps each printed resource's plural to its kind, so that tableFor takes either. */
const RESOURCE_KINDS: Readonly<Record<string, string>> = Object.fromEntries(
  [...Object.keys(PRINTERS), 'LimitRange', 'Role', 'ClusterRole', 'CSIStorageCapacity'].map((kind) => [pluralOf(kind), kind]),
);

/** pluralOf is the resource of a printed kind: lowercased, `-y` to `-ies`, `-s`/`-ss` to `-ses`, Endpoints as is. */
function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower === 'endpoints') return lower;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  if (lower.endsWith('s')) return `${lower}es`;
  return `${lower}s`;
}

/** DEFAULT_COLUMNS are rest.defaultTableConvertor's: NAME and CREATED AT (a date). */
const DEFAULT_COLUMNS = columns(NAME_COLUMN, { name: 'Created At', type: 'date', doc: 'metav1.ObjectMeta.creationTimestamp' });

/** rfc3339 is `Time.UTC().Format(time.RFC3339)`: whole seconds, Z; the zero time for an absent timestamp. */
function rfc3339(timestamp: string | undefined | null): string {
  const t = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(t) ? '0001-01-01T00:00:00Z' : new Date(t).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * ROUND_TRIP_ANNOTATIONS are the annotations a version's conversion to the internal object turns into fields and
 * removes (`when` says if it does for this value): the PartialObjectMetadata of a row is the internal object's
 * metadata, so it lacks them. See pkg/apis/apps/v1/conversion.go (Convert_v1_DaemonSet_To_apps_DaemonSet,
 * Convert_v1_Deployment_To_apps_Deployment) and pkg/apis/autoscaling/helpers.go (DropRoundTripHorizontalPodAutoscalerAnnotations).
 */
const ROUND_TRIP_ANNOTATIONS: Readonly<Record<string, readonly { key: string; when: (value: string) => boolean }[]>> = {
  DaemonSet: [{ key: 'deprecated.daemonset.template.generation', when: (v) => parseGoInt64(v) !== undefined }],
  Deployment: [{ key: 'deprecated.deployment.rollback.to', when: (v) => v !== '' }],
  HorizontalPodAutoscaler: ['metrics', 'behavior', 'scale-down-tolerance', 'scale-up-tolerance', 'current-metrics', 'conditions']
    .map((k) => ({ key: `autoscaling.alpha.kubernetes.io/${k}`, when: () => true })),
};

/** internalMetadata is the metadata of the object as the printers see it (internal version): see ROUND_TRIP_ANNOTATIONS. */
function internalMetadata(obj: KubeObject, kind: string): NonNullable<KubeObject['metadata']> {
  const metadata = obj.metadata ?? {};
  const annotations = metadata.annotations;
  const dropped = (ROUND_TRIP_ANNOTATIONS[kind] ?? []).filter((a) => annotations && Object.hasOwn(annotations, a.key) && a.when(annotations[a.key]!));
  if (!annotations || dropped.length === 0) return metadata;
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !dropped.some((a) => a.key === k)));
  const { annotations: _, ...rest } = metadata;
  // An empty map is omitted (omitempty), as one that was never there.
  return Object.keys(kept).length > 0 ? { ...rest, annotations: kept } : rest;
}

/** rowObject is asTable's: the object (Object), its PartialObjectMetadata (Metadata, the default) or none. */
function rowObject(obj: KubeObject, kind: string, includeObject: IncludeObject): TableRow['object'] {
  if (includeObject === 'None') return null;
  if (includeObject === 'Object') return obj;
  const partial: PartialObjectMetadata = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: internalMetadata(obj, kind) };
  return partial;
}

/** kindOf resolves tableFor's first argument: a kind (`Pod`) or a resource (`pods`, `deployments.apps`). */
function kindOf(resourceOrKind: string): string {
  if (Object.hasOwn(PRINTERS, resourceOrKind)) return resourceOrKind;
  const resource = resourceOrKind.split('.')[0]!.toLowerCase();
  return Object.hasOwn(RESOURCE_KINDS, resource) ? RESOURCE_KINDS[resource]! : resourceOrKind;
}

/**
 * tableFor is the Table kube-apiserver 1.36 returns for a list (or a get) of `objects` of one resource, given as its
 * kind or its plural, at wall-clock `nowMs`: a kind of AddHandlers prints every column, the wide ones too
 * (TableConvertor generates with Wide: true; kubectl shows priority 1 only for -o wide), and the rows come from its
 * print function; any other kind gets rest's default NAME and CREATED AT. NoHeaders leaves the column definitions null.
 */
export function tableFor(resourceOrKind: string, objects: readonly KubeObject[], nowMs: number, options: TableOptions = {}): Table {
  const includeObject = options.includeObject ?? 'Metadata';
  const kind = kindOf(resourceOrKind);
  const handler = PRINTERS[kind];
  let rows: TableRow[] | null;
  if (handler) {
    // printXList: make([]metav1.TableRow, 0, len(list.Items)), so an empty list has rows [].
    rows = objects.map((o) => {
      const printed = handler.print(o, nowMs);
      return { cells: printed.cells, ...(printed.conditions ? { conditions: printed.conditions } : {}), object: rowObject(o, kind, includeObject) };
    });
  } else {
    // defaultTableConvertor appends to a nil slice: no objects, rows null.
    rows = objects.length === 0 ? null : objects.map((o) => ({ cells: [o.metadata?.name ?? '', rfc3339(o.metadata?.creationTimestamp)], object: rowObject(o, kind, includeObject) }));
  }
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1',
    metadata: options.resourceVersion ? { resourceVersion: options.resourceVersion } : {},
    columnDefinitions: options.noHeaders ? null : (handler?.columns ?? DEFAULT_COLUMNS).map((c) => ({ ...c })),
    rows,
  };
}
