// DefaultStorageClass: a PersistentVolumeClaim that names no storage class gets the cluster's default one.
import type { PersistentVolumeClaim } from '../../api/types';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { AdmissionPlugin } from './plugin';

/** DEFAULT_CLASS_ANNOTATIONS mark the default StorageClass when set to "true" (storageutil.IsDefaultAnnotation). */
const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];
/** BETA_STORAGE_CLASS_ANNOTATION names a claim's class the old way (core.BetaStorageClassAnnotation). */
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/**
 * defaultClass is volumeutil.GetDefaultClass: of the classes marked default, the newest (creationTimestamp), ties
 * broken by name; none when no class is marked.
 */
export function defaultClass(classes: readonly StorageClass[]): StorageClass | undefined {
  const marked = classes.filter((c) => DEFAULT_CLASS_ANNOTATIONS.some((k) => c.metadata?.annotations?.[k] === 'true'));
  const time = (c: StorageClass): number => Date.parse(c.metadata?.creationTimestamp ?? '') || 0;
  return [...marked].sort((x, y) => time(y) - time(x) || ((x.metadata?.name ?? '') < (y.metadata?.name ?? '') ? -1 : 1))[0];
}

/**
 * defaultStorageClass sets spec.storageClassName of a new claim that has no class (neither the field, even "",
 * nor the beta annotation) to the default StorageClass; with no default it leaves the claim alone.
 * See plugin/pkg/admission/storage/storageclass/setdefault/admission.go.
 */
export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  source: 'plugin/pkg/admission/storage/storageclass/setdefault/admission.go',
  handles: (a) => a.resource === 'persistentvolumeclaims' && a.group === '' && a.subresource === '' && a.operation === 'CREATE',
  admit(a, ctx) {
    const pvc = a.object as PersistentVolumeClaim;
    const named = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? pvc.spec?.storageClassName;
    if (named !== undefined && named !== null) return { note: `the claim asks for class "${named}"`, detail: { storageClassName: named } };
    const def = defaultClass(ctx.store.list<StorageClass>('StorageClass'));
    const detail = { storageClassName: null, defaultClass: def?.metadata?.name ?? null };
    if (!def?.metadata?.name) return { note: 'no default StorageClass: the claim keeps no class', detail };
    a.object = { ...a.object, spec: { ...pvc.spec, storageClassName: def.metadata.name } };
    return { changes: ['spec.storageClassName'], note: `default StorageClass "${def.metadata.name}"`, detail };
  },
};
