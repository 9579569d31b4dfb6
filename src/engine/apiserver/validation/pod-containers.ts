// Containers of the three kinds: names unique across them, images, ports and host ports, pull and termination
// message policies, probes and hooks by kind, sidecar restart policy. See pkg/apis/core/validation/validation.go
// (validateContainers, validateInitContainers, validateEphemeralContainers, validateContainerCommon).
import type { ContainerPort, EphemeralContainer } from 'kubernetes-types/core/v1';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, notFound, notSupported, required } from './field-errors';
import { isDNS1123Label, isValidPortName, isValidPortNum } from './names';
import { validateEnv, validateEnvFrom } from './pod-env';
import { type ProbeKind, validateContainerProbe, validateLifecycle } from './pod-probes';
import { validateContainerResources } from './pod-resources';
import { validateContainerRestartPolicy, validateInitContainerRestartPolicy } from './pod-restart-rules';
import { validateSecurityContext } from './pod-security-context';
import type { Container136 } from './pod-types';
import { type ValidVolumes, validateVolumeDevices, validateVolumeMounts } from './pod-volume-mounts';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];
const PROBES: readonly ProbeKind[] = ['livenessProbe', 'readinessProbe', 'startupProbe'];
const NOT_WITHOUT_ALWAYS = 'may not be set for init containers without restartPolicy=Always';
// Why: allowedEphemeralContainerFields; the other EphemeralContainerCommon fields, in Go order, are forbidden.
const EPHEMERAL_FORBIDDEN = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'restartPolicyRules', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const;

/** ContainerContext is what every container's checks need from the pod spec. */
export interface ContainerContext {
  volumes: ValidVolumes;
  podClaimNames: ReadonlySet<string>;
  gracePeriod: number | undefined;
  podRestartPolicy: string;
  hostUsers: boolean;
}

/** validateContainerPorts is validateContainerPorts: names (IANA_SVC_NAME, unique), port numbers, protocol. */
function validateContainerPorts(ports: ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const at = index(path, i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length) errs.push(...msgs.map((msg) => invalidValue(child(at, 'name'), port.name, msg)));
      else if (names.has(port.name)) errs.push(duplicate(child(at, 'name'), port.name));
      else names.add(port.name);
    }
    const containerPort = port.containerPort ?? 0;
    if (containerPort === 0) errs.push(required(child(at, 'containerPort')));
    else errs.push(...isValidPortNum(containerPort).map((msg) => invalidValue(child(at, 'containerPort'), containerPort, msg)));
    const hostPort = port.hostPort ?? 0;
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((msg) => invalidValue(child(at, 'hostPort'), hostPort, msg)));
    const protocol = port.protocol ?? '';
    if (!protocol) errs.push(required(child(at, 'protocol')));
    else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(child(at, 'protocol'), asJSON(protocol), PROTOCOLS));
  });
  return errs;
}

/** checkHostPortConflicts is checkHostPortConflicts (AccumulateUniqueHostPorts): protocol/hostIP/hostPort unique. */
function checkHostPortConflicts(containers: readonly Container136[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      const hostPort = port.hostPort ?? 0;
      if (hostPort === 0) return;
      const entry = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${hostPort}`;
      if (seen.has(entry)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), entry));
      else seen.add(entry);
    });
  });
  return errs;
}

/** validateResizePolicy is validateResizePolicy: cpu and memory once each, a known policy, NotRequired under Never. */
function validateResizePolicy(c: Container136, podRestartPolicy: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (c.resizePolicy ?? []).forEach((p, i) => {
    const name = p.resourceName ?? '';
    const policy = p.restartPolicy ?? '';
    if (seen.has(name)) errs.push(duplicate(index(path, i), asJSON(name)));
    seen.add(name);
    if (!name) errs.push(required(path));
    else if (!RESIZE_RESOURCES.includes(name)) errs.push(notSupported(path, asJSON(name), RESIZE_RESOURCES));
    if (!policy) errs.push(required(path));
    else if (!RESIZE_POLICIES.includes(policy)) errs.push(notSupported(path, asJSON(policy), RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') errs.push(invalidValue(path, asJSON(policy), "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

/** validateContainerCommon is validateContainerCommon: the checks every kind of container gets, in Go's order. */
function validateContainerCommon(c: Container136, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = c.name ?? '';
  if (!name) errs.push(required(child(path, 'name')));
  else errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(path, 'name'), name, msg)));
  // Why: surrounding whitespace is only rejected for pods (validateContainerOnlyForPod), for compatibility.
  if (!c.image) errs.push(required(child(path, 'image')));
  const tmp = c.terminationMessagePolicy ?? '';
  if (!tmp) errs.push(required(child(path, 'terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) errs.push(notSupported(child(path, 'terminationMessagePolicy'), asJSON(tmp), TERMINATION_MESSAGE_POLICIES));
  errs.push(...validateContainerPorts(c.ports, child(path, 'ports')));
  errs.push(...validateEnv(c.env, child(path, 'env')));
  errs.push(...validateEnvFrom(c.envFrom, child(path, 'envFrom')));
  errs.push(...validateVolumeMounts(c, ctx.volumes, child(path, 'volumeMounts')));
  errs.push(...validateVolumeDevices(c, ctx.volumes, child(path, 'volumeDevices')));
  const pull = c.imagePullPolicy ?? '';
  if (!pull) errs.push(required(child(path, 'imagePullPolicy')));
  else if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(child(path, 'imagePullPolicy'), asJSON(pull), PULL_POLICIES));
  errs.push(...validateContainerResources(c.resources, ctx.podClaimNames, child(path, 'resources')));
  errs.push(...validateResizePolicy(c, ctx.podRestartPolicy, child(path, 'resizePolicy')));
  errs.push(...validateSecurityContext(c.securityContext, ctx.hostUsers, child(path, 'securityContext')));
  return errs;
}

/** validateHooksAndProbes checks the lifecycle and the three probes of a container that may have them. */
function validateHooksAndProbes(c: Container136, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs = c.lifecycle ? validateLifecycle(c.lifecycle, gracePeriod, child(path, 'lifecycle')) : [];
  for (const kind of PROBES) errs.push(...validateContainerProbe(kind, c[kind], gracePeriod, child(path, kind)));
  return errs;
}

/**
 * validateContainers is validateContainers: at least one, each valid, names unique among them, its restart policy and
 * rules (pod-restart-rules.ts), then host ports across all of them.
 */
export function validateContainers(containers: Container136[] | undefined, ctx: ContainerContext, path: string): FieldError[] {
  const list = containers ?? [];
  if (list.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const at = index(path, i);
    errs.push(...validateContainerCommon(c, ctx, at));
    if (names.has(c.name ?? '')) errs.push(duplicate(child(at, 'name'), c.name ?? ''));
    else names.add(c.name ?? '');
    errs.push(...validateHooksAndProbes(c, ctx.gracePeriod, at));
    errs.push(...validateContainerRestartPolicy(c, at));
  });
  errs.push(...checkHostPortConflicts(list, path));
  return errs;
}

/**
 * validateInitContainers is validateInitContainers: each valid, its restart policy and rules (Always makes a sidecar,
 * which may have hooks and probes; others may not, nor a RestartContainer resize policy), names unique with the regular
 * containers, host ports per container.
 */
export function validateInitContainers(inits: Container136[] | undefined, regular: Container136[] | undefined, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((regular ?? []).map((c) => c.name ?? ''));
  (inits ?? []).forEach((c, i) => {
    const at = index(path, i);
    errs.push(...validateContainerCommon(c, ctx, at));
    errs.push(...validateInitContainerRestartPolicy(c, at));
    const policy = c.restartPolicy;
    const name = c.name ?? '';
    if (names.has(name)) errs.push(duplicate(child(at, 'name'), name));
    else if (name) names.add(name);
    // Why: Go checks each init container alone, passing a one-element list, so the path says [0] whatever i is.
    errs.push(...checkHostPortConflicts([c], path));
    if (policy === 'Always') {
      errs.push(...validateHooksAndProbes(c, ctx.gracePeriod, at));
    } else {
      if (c.lifecycle) errs.push(forbidden(child(at, 'lifecycle'), NOT_WITHOUT_ALWAYS));
      for (const kind of PROBES) if (c[kind]) errs.push(forbidden(child(at, kind), NOT_WITHOUT_ALWAYS));
      // Only a sidecar may restart for a resize (AllowExistingRestartContainerForNonSidecarInitContainer is for updates).
      (c.resizePolicy ?? []).forEach((p, j) => {
        if (p.restartPolicy === 'RestartContainer') errs.push(invalidValue(child(index(child(at, 'resizePolicy'), j), 'restartPolicy'), asJSON(p.restartPolicy), "must not be set to 'RestartContainer' for non-sidecar initContainers"));
      });
    }
  });
  return errs;
}

/** validateContainerOnlyForPod is validateContainerOnlyForPod: a pod's images have no surrounding whitespace. */
export function validateContainerOnlyForPod(c: Container136, path: string): FieldError[] {
  const image = c.image ?? '';
  return image.trim() !== image ? [invalidValue(child(path, 'image'), image, 'must not have leading or trailing whitespace')] : [];
}

/**
 * isSetField tells a field from its Go zero value as validateFieldAllowList's reflect.DeepEqual does: nil is unset, a
 * slice (even empty) or a pointer (even to an empty struct) is set, and the one struct that is not a pointer,
 * `resources`, is set when one of its fields is (an empty map included).
 */
const isSetField = (field: string, v: unknown): boolean => {
  if (v === undefined || v === null) return false;
  if (field === 'resources' && typeof v === 'object' && !Array.isArray(v)) return Object.values(v).some((f) => f !== undefined && f !== null);
  return true;
};

/**
 * validateEphemeralContainers is validateEphemeralContainers: each valid (as for a pod), named uniquely among all
 * containers, targeting a regular or init container, without the fields ephemeral containers may not have or subPaths.
 */
export function validateEphemeralContainers(
  ephemeral: EphemeralContainer[] | undefined, regular: Container136[] | undefined, inits: Container136[] | undefined, ctx: ContainerContext, path: string,
): FieldError[] {
  const list = ephemeral ?? [];
  if (list.length === 0) return [];
  const errs: FieldError[] = [];
  const others = new Set([...(regular ?? []), ...(inits ?? [])].map((c) => c.name ?? ''));
  const all = new Set(others);
  list.forEach((ec, i) => {
    const at = index(path, i);
    const c = ec as unknown as Container136;
    errs.push(...validateContainerCommon(c, ctx, at), ...validateContainerOnlyForPod(c, at));
    if (all.has(ec.name ?? '')) errs.push(duplicate(child(at, 'name'), ec.name ?? ''));
    else all.add(ec.name ?? '');
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) errs.push(notFound(child(at, 'targetContainerName'), ec.targetContainerName));
    const record = ec as unknown as Record<string, unknown>;
    for (const field of EPHEMERAL_FORBIDDEN) if (isSetField(field, record[field])) errs.push(forbidden(child(at, field), 'cannot be set for an Ephemeral Container'));
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      const vmPath = index(child(at, 'volumeMounts'), j);
      if (vm.subPath) errs.push(forbidden(child(vmPath, 'subPath'), 'cannot be set for an Ephemeral Container'));
      if (vm.subPathExpr) errs.push(forbidden(child(vmPath, 'subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}
