// Listers: the plugins' read-only view of cluster objects, as kube-scheduler's informers give it (PVCs, PDBs, Services...).
import type { KubeObject } from '../../api/types';

/** Listers reads the cluster's objects by kind, as the scheduler's shared informer factory does. */
export interface Listers {
  /** list returns the objects of a kind, in one namespace or all. */
  list<T = KubeObject>(kind: string, namespace?: string): T[];
  /** get returns one object of a kind. */
  get<T = KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined;
}

/** EMPTY_LISTERS is a cluster with no objects besides the nodes and pods of the snapshot. */
export const EMPTY_LISTERS: Listers = { list: () => [], get: () => undefined };

/** listersOf builds Listers over a fixed set of objects (tests, benchmarks). */
export function listersOf(objects: readonly KubeObject[]): Listers {
  const inNs = (o: KubeObject, ns?: string) => ns === undefined || o.metadata?.namespace === ns;
  return {
    list: <T>(kind: string, namespace?: string) => objects.filter((o) => o.kind === kind && inNs(o, namespace)) as T[],
    get: <T>(kind: string, namespace: string | undefined, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata?.name === name && (namespace === undefined || o.metadata?.namespace === namespace)) as T | undefined,
  };
}
