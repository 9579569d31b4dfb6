// The shapes of a metav1.Table as kube-apiserver returns it (as=Table;v=v1;g=meta.k8s.io), and of one kind's printer.
// See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go (Table, TableColumnDefinition, TableRow).
import type { KubeObject } from '../api/types';
import { DOC, type DocKey } from './docs';

/** TableColumnDefinition is metav1.TableColumnDefinition; priority 0 columns print by default, 1 only with -o wide. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** TableCell is one cell as JSON carries it: a string, an int64 as a number, a bool, or null. */
export type TableCell = string | number | boolean | null;

/** TableRowCondition is metav1.TableRowCondition (printPod's Completed row condition). */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** PartialObjectMetadata is what a row carries for includeObject=Metadata: the object's metadata alone. */
export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: NonNullable<KubeObject['metadata']>;
}

/** TableRow is metav1.TableRow: the cells, the row's conditions when any, and the object as includeObject asks. */
export interface TableRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  object: KubeObject | PartialObjectMetadata | null;
}

/** ListMeta is the Table's metadata: the list's resourceVersion (omitted when empty, as Go's omitempty does). */
export interface ListMeta {
  resourceVersion?: string;
}

/** Table is metav1.Table as kube-apiserver 1.36 serializes it. */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[] | null;
}

/** PrintedRow is what one printer function gives for an object: its cells (always the wide ones) and conditions. */
export interface PrintedRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
}

/** PrintHandler is one TableHandler of printers.go AddHandlers: the kind's columns and its print function. */
export interface PrintHandler {
  columns: readonly TableColumnDefinition[];
  print: (obj: KubeObject, nowMs: number) => PrintedRow;
}

/** ColumnSpec is a column as printers.go writes it: name, type, and a description or the DOC key it comes from. */
export interface ColumnSpec {
  name: string;
  type?: 'string' | 'integer' | 'boolean' | 'date';
  format?: string;
  doc?: DocKey;
  description?: string;
  priority?: 1;
}

/** columns turns printers.go's column literals into TableColumnDefinitions (missing fields are Go's zero values). */
export function columns(...specs: ColumnSpec[]): TableColumnDefinition[] {
  return specs.map((s) => ({
    name: s.name, type: s.type ?? 'string', format: s.format ?? '', description: s.doc ? DOC[s.doc] : s.description ?? '', priority: s.priority ?? 0,
  }));
}

/** NAME_COLUMN is the first column of nearly every printer: {Name: "Name", Type: "string", Format: "name"}. */
export const NAME_COLUMN: ColumnSpec = { name: 'Name', format: 'name', doc: 'metav1.ObjectMeta.name' };
/** AGE_COLUMN is {Name: "Age", Type: "string", Description: ObjectMeta creationTimestamp}. */
export const AGE_COLUMN: ColumnSpec = { name: 'Age', doc: 'metav1.ObjectMeta.creationTimestamp' };
/** CONTAINERS_COLUMN and IMAGES_COLUMN are the wide columns of the workload printers. */
export const CONTAINERS_COLUMN: ColumnSpec = { name: 'Containers', priority: 1, description: 'Names of each container in the template.' };
/** IMAGES_COLUMN: see CONTAINERS_COLUMN. */
export const IMAGES_COLUMN: ColumnSpec = { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' };
