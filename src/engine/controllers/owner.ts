// Owner references as the controllers set them, and the lookups the garbage collector and controllers share.
import type { KubeObject, OwnerReference } from '../api/types';

/** controllerRef builds the controller owner reference of an object, blockOwnerDeletion set as controllers do. */
export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: String(owner.apiVersion), kind: String(owner.kind), name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true,
  };
}

/** ownedBy tells whether an object names an owner by uid. */
export function ownedBy(obj: KubeObject, ownerUid: string | undefined): boolean {
  return !!ownerUid && (obj.metadata?.ownerReferences ?? []).some((r) => r.uid === ownerUid);
}

/** controllerOf returns an object's controller reference, if it has one. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller);
}

/** deploymentOf names the Deployment that controls a ReplicaSet, if any. */
export function deploymentOf(rs: KubeObject): string | undefined {
  return (rs.metadata?.ownerReferences ?? []).find((o) => o.controller && o.kind === 'Deployment')?.name;
}
