// Builders for pod validation tests: a valid pod, changed one field at a time, defaulted as kube-apiserver defaults it
// before validation runs (see src/engine/apiserver/create.ts), and the errors printed as `field: body`.
import { defaultPod, defaultPodTemplate } from '../../../../src/engine/api/defaults';
import type { EphemeralContainer } from 'kubernetes-types/core/v1';
import type { Container, KubeObject, Pod, PodSpec, Volume } from '../../../../src/engine/api/types';
import { applyDefaults } from '../../../../src/engine/apiserver/defaulting';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { validateObjectOnUpdate, validateUpdate } from '../../../../src/engine/apiserver/validation/update';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validatePod, validatePodSpec } from '../../../../src/engine/apiserver/validation/pod';

/** Loose is a JSON patch of an API object: any field, including those newer than the generated types. */
type Loose = Record<string, unknown>;

/** makeContainer builds a valid container named `name`, with the fields of `patch` on top. */
export function makeContainer(name = 'app', patch: Loose = {}): Container {
  return { name, image: 'nginx:1.27', ...patch } as Container;
}

/** PodBuilder builds a pod named web in namespace default with one valid container, one change at a time. */
export class PodBuilder {
  private readonly pod: Pod;

  constructor(name: string) {
    this.pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [makeContainer()] } };
  }

  /** withSpec sets pod spec fields. */
  withSpec(patch: Loose): this {
    Object.assign(this.pod.spec!, patch);
    return this;
  }

  /** withContainer merges fields into container i (0 by default). */
  withContainer(patch: Loose, i = 0): this {
    const containers = this.spec().containers;
    containers[i] = { ...(containers[i] ?? makeContainer(`c${i}`)), ...patch } as Container;
    return this;
  }

  /** withContainers replaces the containers. */
  withContainers(...containers: Container[]): this {
    this.spec().containers = containers;
    return this;
  }

  /** withInitContainers sets the init containers. */
  withInitContainers(...containers: Container[]): this {
    this.spec().initContainers = containers;
    return this;
  }

  /** withEphemeralContainers sets the ephemeral containers. */
  withEphemeralContainers(...containers: Loose[]): this {
    this.spec().ephemeralContainers = containers as unknown as EphemeralContainer[];
    return this;
  }

  /** withVolumes sets the volumes. */
  withVolumes(...volumes: Loose[]): this {
    this.spec().volumes = volumes as unknown as Volume[];
    return this;
  }

  /** withMetadata sets metadata fields. */
  withMetadata(patch: Loose): this {
    Object.assign(this.pod.metadata!, patch);
    return this;
  }

  /** build returns the pod as validation sees it: defaulted. */
  build(): Pod {
    return defaultPod(this.pod).object;
  }

  /** buildTemplateSpec returns the spec defaulted as a workload's pod template is (no SetDefaults_Pod). */
  buildTemplateSpec(): PodSpec {
    return defaultPodTemplate({ spec: structuredClone(this.pod.spec!) }).object.spec!;
  }

  private spec(): PodSpec {
    return this.pod.spec!;
  }
}

/** makePod starts a valid pod. */
export function makePod(name = 'web'): PodBuilder {
  return new PodBuilder(name);
}

/** printed lists field errors as kube-apiserver prints them: `field: body`. */
export function printed(errors: readonly FieldError[]): string[] {
  return errors.map((e) => `${e.field}: ${e.body}`);
}

/** podErrors validates a built pod and prints its errors. */
export function podErrors(builder: PodBuilder): string[] {
  return printed(validatePod(builder.build()));
}

/** templateErrors validates a built pod's spec as a workload template's spec at spec.template.spec. */
export function templateErrors(builder: PodBuilder): string[] {
  return printed(validatePodSpec(builder.buildTemplateSpec(), 'spec.template.spec'));
}

/** LABEL_ERROR is IsDNS1123Label's regex message. */
export const LABEL_ERROR = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
/** SUBDOMAIN_ERROR is IsDNS1123Subdomain's regex message. */
export const SUBDOMAIN_ERROR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
/** KEY_NAME_ERROR is IsQualifiedName's message for a bad name part. */
export const KEY_NAME_ERROR = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
/** LABEL_VALUE_ERROR is IsValidLabelValue's regex message. */
export const LABEL_VALUE_ERROR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** validated runs what the create handler runs on an object: scheme defaulting, then the strategy's Validate. */
export function validated(obj: KubeObject): string[] {
  return printed(validateObject(applyDefaults(obj).object));
}

/** updated runs what the update handler runs: the create rules as the update repeats them, then the update-only ones. */
export function updated(next: KubeObject, old: KubeObject): string[] {
  const n = applyDefaults(next).object;
  const o = applyDefaults(old).object;
  return printed([...validateObjectOnUpdate(n, o), ...validateUpdate(n, o)]);
}
