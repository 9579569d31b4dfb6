// The table printers of admission configuration, runtime classes and CSI objects: Mutating/ValidatingWebhookConfiguration,
// ValidatingAdmissionPolicy(Binding), RuntimeClass, CSINode, CSIDriver, VolumeAttachment. See pkg/printers/internalversion/printers.go.
import type { KubeObject, LabelSelector } from '../api/types';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from 'kubernetes-types/admissionregistration/v1';
import type { RuntimeClass } from 'kubernetes-types/node/v1';
import type { CSIDriver, CSINode, VolumeAttachment } from 'kubernetes-types/storage/v1';
import { translateTimestampSince } from './format';
import { AGE_COLUMN, columns, NAME_COLUMN, type PrintHandler } from './types';

const name = (o: KubeObject) => o.metadata?.name ?? '';
const age = (o: KubeObject, nowMs: number) => translateTimestampSince(o.metadata?.creationTimestamp, nowMs);

/** WEBHOOK_CONFIGURATION is printMutatingWebhook and printValidatingWebhook: the number of webhooks. */
const WEBHOOK_CONFIGURATION: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Webhooks', type: 'integer', description: 'Webhooks indicates the number of webhooks registered in this configuration' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), ((o as { webhooks?: unknown[] }).webhooks ?? []).length, age(o, nowMs)] }),
};

/** printValidatingAdmissionPolicy: PARAMKIND `apiVersion/kind`, `<unset>` without one. */
const VALIDATING_ADMISSION_POLICY: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Validations', type: 'integer', description: 'Validations indicates the number of validation rules defined in this configuration' },
    { name: 'ParamKind', description: 'ParamKind specifies the kind of resources used to parameterize this policy' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const spec = (o as unknown as ValidatingAdmissionPolicy).spec;
    const paramKind = spec?.paramKind ? `${spec.paramKind.apiVersion ?? ''}/${spec.paramKind.kind ?? ''}` : '<unset>';
    return { cells: [name(o), (spec?.validations ?? []).length, paramKind, age(o, nowMs)] };
  },
};

/**
 * labelSelectorGoString is metav1.LabelSelector's generated String():
 * `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[a b],},},}`.
 * See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go.
 */
function labelSelectorGoString(s: LabelSelector): string {
  const expressions = (s.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  const labels = Object.keys(s.matchLabels ?? {}).sort().map((k) => `${k}: ${s.matchLabels![k]},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** printValidatingAdmissionPolicyBinding: PARAMREF `namespace/name` (the namespace `*` when unset), or its selector. */
const VALIDATING_ADMISSION_POLICY_BINDING: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'PolicyName', description: 'PolicyName indicates the policy definition which the policy binding binded to' },
    { name: 'ParamRef', description: 'ParamRef indicates the param resource which sets the configuration param' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const spec = (o as unknown as ValidatingAdmissionPolicyBinding).spec;
    const pr = spec?.paramRef;
    let paramName = '<unset>';
    if (pr?.name) paramName = pr.namespace ? `${pr.namespace}/${pr.name}` : `*/${pr.name}`;
    else if (pr?.selector) paramName = labelSelectorGoString(pr.selector);
    return { cells: [name(o), spec?.policyName ?? '', paramName, age(o, nowMs)] };
  },
};

/** printRuntimeClass: HANDLER, whose description is ObjectMeta's SwaggerDoc()["handler"], which has none (""). */
const RUNTIME_CLASS: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Handler' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), (o as unknown as RuntimeClass).handler ?? '', age(o, nowMs)] }),
};

// printCSINode: the number of drivers.
const CSI_NODE: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Drivers', type: 'integer', description: 'Drivers indicates the number of CSI drivers registered on the node' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), ((o as unknown as CSINode).spec?.drivers ?? []).length, age(o, nowMs)] }),
};

/** printCSIDriver: attachRequired true when unset, the other booleans false; token audiences `<unset>` when unset. */
const CSI_DRIVER: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'AttachRequired', type: 'boolean', doc: 'storagev1.CSIDriverSpec.attachRequired' },
    { name: 'PodInfoOnMount', type: 'boolean', doc: 'storagev1.CSIDriverSpec.podInfoOnMount' },
    { name: 'StorageCapacity', type: 'boolean', doc: 'storagev1.CSIDriverSpec.storageCapacity' },
    { name: 'TokenRequests', doc: 'storagev1.CSIDriverSpec.tokenRequests' },
    { name: 'RequiresRepublish', type: 'boolean', doc: 'storagev1.CSIDriverSpec.requiresRepublish' },
    { name: 'Modes', doc: 'storagev1.CSIDriverSpec.volumeLifecycleModes' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const spec = (o as unknown as CSIDriver).spec;
    const tokenRequests = spec?.tokenRequests ? spec.tokenRequests.map((t) => t.audience).join(',') : '<unset>';
    return {
      cells: [name(o), spec?.attachRequired ?? true, spec?.podInfoOnMount ?? false, spec?.storageCapacity ?? false, tokenRequests,
        spec?.requiresRepublish ?? false, (spec?.volumeLifecycleModes ?? []).join(',') || '<none>', age(o, nowMs)],
    };
  },
};

/** printVolumeAttachment: ATTACHER is a second name-formatted column. */
const VOLUME_ATTACHMENT: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Attacher', format: 'name', doc: 'storagev1.VolumeAttachmentSpec.attacher' },
    { name: 'PV', doc: 'storagev1.VolumeAttachmentSource.persistentVolumeName' },
    { name: 'Node', doc: 'storagev1.VolumeAttachmentSpec.nodeName' },
    { name: 'Attached', type: 'boolean', doc: 'storagev1.VolumeAttachmentStatus.attached' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const va = o as unknown as VolumeAttachment;
    return { cells: [name(o), va.spec?.attacher ?? '', va.spec?.source.persistentVolumeName ?? '', va.spec?.nodeName ?? '', va.status?.attached ?? false, age(o, nowMs)] };
  },
};

/** ADMISSION_NODE_PRINTERS are this file's handlers by kind. */
export const ADMISSION_NODE_PRINTERS: Readonly<Record<string, PrintHandler>> = {
  MutatingWebhookConfiguration: WEBHOOK_CONFIGURATION, ValidatingWebhookConfiguration: WEBHOOK_CONFIGURATION,
  ValidatingAdmissionPolicy: VALIDATING_ADMISSION_POLICY, ValidatingAdmissionPolicyBinding: VALIDATING_ADMISSION_POLICY_BINDING,
  RuntimeClass: RUNTIME_CLASS, CSINode: CSI_NODE, CSIDriver: CSI_DRIVER, VolumeAttachment: VOLUME_ATTACHMENT,
};
