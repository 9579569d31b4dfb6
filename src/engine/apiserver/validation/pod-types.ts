// The pod fields of Kubernetes 1.36 that the generated 1.30 types lack, and the options pod validation runs with.
// See staging/src/k8s.io/api/core/v1/types.go and pkg/api/pod/util.go (GetValidationOptionsFromPodSpecAndMeta).
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type {
  Container, EnvVarSource, PodResourceClaim, PodSecurityContext, PodSpec, ResourceClaim, ResourceRequirements,
  Volume, VolumeProjection,
} from 'kubernetes-types/core/v1';

/** ResourceClaimRef is a container's resources.claims entry, with the request of 1.31+. */
export type ResourceClaimRef = ResourceClaim & { request?: string };

/** Resources is ResourceRequirements with claims naming requests. */
export type Resources = Omit<ResourceRequirements, 'claims'> & { claims?: ResourceClaimRef[] };

/** ContainerRestartRule is a container's restartPolicyRules entry (ContainerRestartRules, beta and on since 1.35). */
export interface ContainerRestartRule {
  action?: string;
  exitCodes?: { operator?: string; values?: number[] };
}

/** Container136 is a container with the fields added after 1.30. */
export type Container136 = Omit<Container, 'resources'> & { resources?: Resources; restartPolicyRules?: ContainerRestartRule[] };

/** FileKeySelector is an env var's valueFrom.fileKeyRef (EnvFiles, beta and on since 1.35). */
export interface FileKeySelector {
  volumeName?: string;
  path?: string;
  key?: string;
  optional?: boolean;
}

/** EnvVarSource136 is valueFrom with fileKeyRef. */
export type EnvVarSource136 = EnvVarSource & { fileKeyRef?: FileKeySelector };

/** ImageVolumeSource is an image volume (ImageVolume). */
export interface ImageVolumeSource {
  reference?: string;
  pullPolicy?: string;
}

/** Volume136 is a volume with the image source. */
export type Volume136 = Volume & { image?: ImageVolumeSource };

/** VolumeProjection136 is a projected source with podCertificate. */
export type VolumeProjection136 = VolumeProjection & { podCertificate?: Record<string, unknown> };

/** PodSecurityContext136 is the pod security context with seLinuxChangePolicy and supplementalGroupsPolicy. */
export type PodSecurityContext136 = PodSecurityContext & { seLinuxChangePolicy?: string; supplementalGroupsPolicy?: string };

/** PodResourceClaim136 is a pod resource claim as of 1.31 (resourceClaimName or resourceClaimTemplateName). */
export type PodResourceClaim136 = PodResourceClaim & { resourceClaimName?: string; resourceClaimTemplateName?: string };

/** PodSpec136 is a pod spec with the pod-level resources of PodLevelResources (beta and on since 1.34). */
export type PodSpec136 = PodSpec & { resources?: Resources };

/**
 * PodValidationOptions is the part of apivalidation.PodValidationOptions that varies here. The feature-gated options
 * are fixed at their 1.36 defaults where the rules read them: relaxed env var names and DNS searches, zero sleep,
 * pod-level resources, both SELinux change policies and sidecar resize policies allowed.
 */
export interface PodValidationOptions {
  /** resourceIsPod is set when the spec is a Pod's, not a template's (ResourceIsPod). */
  resourceIsPod: boolean;
  /** podMeta is the pod's metadata, given only for a real pod (generic ephemeral volume names need it). */
  podMeta?: ObjectMeta;
}
