// Validation on create, by kind: the registry strategy's Validate. Pods, Deployments, ReplicaSets, StatefulSets,
// DaemonSets, ReplicationControllers, Jobs, CronJobs and Nodes get their full rules (Nodes but for a few status fields, see
// node.ts), HorizontalPodAutoscalers their replica bounds and scale target (autoscaling.ts), PodDisruptionBudgets their
// spec (policy.ts), Services, Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas and PriorityClasses theirs,
// PersistentVolumes, PersistentVolumeClaims, StorageClasses, ConfigMaps and Secrets their own rules, Roles,
// ClusterRoles, RoleBindings and ClusterRoleBindings theirs (rbac.ts), RuntimeClasses theirs (runtime-class.ts),
// Endpoints, EndpointSlices, core/v1 Events and ControllerRevisions theirs (endpoints.ts, endpoint-slice.ts, event.ts,
// controller-revision.ts), ValidatingWebhookConfigurations and MutatingWebhookConfigurations theirs (webhook-configuration.ts),
// ValidatingAdmissionPolicies and their bindings theirs (admission-policy.ts, admission-policy-binding.ts), CSIDrivers and
// CSINodes theirs (storage-csi.ts), VolumeAttachments and CSIStorageCapacities theirs (storage-attachment.ts);
// other kinds get their metadata checked (NameIsDNSSubdomain).
import type { Deployment, KubeObject, Pod, ReplicaSet } from '../../api/types';
import { RESOURCES } from '../../cluster/store';
import { validateValidatingAdmissionPolicy } from './admission-policy';
import { validateValidatingAdmissionPolicyBinding } from './admission-policy-binding';
import { validateDeployment, validateReplicaSet } from './apps';
import { validateDaemonSet, validateStatefulSet } from './apps-sets';
import { validateHorizontalPodAutoscaler } from './autoscaling';
import { validateJob } from './batch';
import { validateConfigMap } from './config-map';
import { validateControllerRevision } from './controller-revision';
import { validateCronJob } from './cronjob';
import { validateEndpointSlice } from './endpoint-slice';
import { validateEndpoints } from './endpoints';
import { validateEvent } from './event';
import type { FieldError } from './field-errors';
import { validateLimitRange } from './limit-range';
import { nameIsDNSSubdomain, validateObjectMeta } from './metadata';
import { validateNamespace } from './namespace';
import { validateNode } from './node';
import { validatePersistentVolume } from './persistent-volume';
import { validatePersistentVolumeClaim } from './persistent-volume-claim';
import { validatePod } from './pod';
import { validatePodDisruptionBudget } from './policy';
import { validatePriorityClass } from './priority-class';
import { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from './rbac';
import { validateReplicationController } from './replication-controller';
import { validateResourceQuota } from './resource-quota';
import { validateRuntimeClass } from './runtime-class';
import { validateSecret } from './secret';
import { validateService } from './service';
import { validateServiceAccount } from './service-account';
import { validateCSIStorageCapacity, validateVolumeAttachment } from './storage-attachment';
import { validateStorageClass } from './storage-class';
import { validateCSIDriver, validateCSINode } from './storage-csi';
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from './webhook-configuration';

/** validateObject runs the create validation of an object's kind. */
export function validateObject(obj: KubeObject): FieldError[] {
  switch (obj.kind) {
    case 'Pod':
      return validatePod(obj as Pod);
    case 'Deployment':
      return validateDeployment(obj as Deployment);
    case 'ReplicaSet':
      return validateReplicaSet(obj as ReplicaSet);
    case 'StatefulSet':
      return validateStatefulSet(obj);
    case 'DaemonSet':
      return validateDaemonSet(obj);
    case 'ReplicationController':
      return validateReplicationController(obj);
    case 'Job':
      return validateJob(obj);
    case 'CronJob':
      return validateCronJob(obj);
    case 'Node':
      return validateNode(obj);
    case 'HorizontalPodAutoscaler':
      return validateHorizontalPodAutoscaler(obj);
    case 'PodDisruptionBudget':
      return validatePodDisruptionBudget(obj);
    case 'Service':
      return validateService(obj);
    case 'Namespace':
      return validateNamespace(obj);
    case 'ServiceAccount':
      return validateServiceAccount(obj);
    case 'LimitRange':
      return validateLimitRange(obj);
    case 'ResourceQuota':
      return validateResourceQuota(obj);
    case 'PriorityClass':
      return validatePriorityClass(obj);
    case 'PersistentVolume':
      return validatePersistentVolume(obj);
    case 'PersistentVolumeClaim':
      return validatePersistentVolumeClaim(obj);
    case 'StorageClass':
      return validateStorageClass(obj);
    case 'ConfigMap':
      return validateConfigMap(obj);
    case 'Secret':
      return validateSecret(obj);
    case 'Role':
      return validateRole(obj);
    case 'ClusterRole':
      return validateClusterRole(obj);
    case 'RoleBinding':
      return validateRoleBinding(obj);
    case 'ClusterRoleBinding':
      return validateClusterRoleBinding(obj);
    case 'RuntimeClass':
      return validateRuntimeClass(obj);
    case 'Endpoints':
      return validateEndpoints(obj);
    case 'EndpointSlice':
      return validateEndpointSlice(obj);
    case 'Event':
      return validateEvent(obj);
    case 'ControllerRevision':
      return validateControllerRevision(obj);
    case 'ValidatingWebhookConfiguration':
      return validateValidatingWebhookConfiguration(obj);
    case 'MutatingWebhookConfiguration':
      return validateMutatingWebhookConfiguration(obj);
    case 'ValidatingAdmissionPolicy':
      return validateValidatingAdmissionPolicy(obj);
    case 'ValidatingAdmissionPolicyBinding':
      return validateValidatingAdmissionPolicyBinding(obj);
    case 'CSIDriver':
      return validateCSIDriver(obj);
    case 'CSINode':
      return validateCSINode(obj);
    case 'VolumeAttachment':
      return validateVolumeAttachment(obj);
    case 'CSIStorageCapacity':
      return validateCSIStorageCapacity(obj);
    default: {
      const kind = obj.kind ?? '';
      return validateObjectMeta(obj, RESOURCES[kind]?.namespaced ?? true, nameIsDNSSubdomain);
    }
  }
}
