// `kubectl describe pod`: DescribePod's layout, from Name to the Events table.
// See staging/src/k8s.io/kubectl/pkg/describe/describe.go (describePod, describeContainers, describeVolumes).
import type { Container, ContainerState, ContainerStatus, Pod, Probe, Toleration, Volume } from '../api/types';
import { getPodQOS } from '../api/qos';
import { rfc1123z, since } from './duration';
import { type CoreEvent, withEvents } from './events';
import { describeResources, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline } from './describe-common';

/** describePod prints the pod as kubectl describe pod does, with its events, at wall-clock time `nowMs`. */
export function describePod(pod: Pod, events: readonly CoreEvent[] | undefined, nowMs: number): string {
  const w = new PrefixWriter();
  const spec = pod.spec;
  const status = pod.status ?? {};
  const meta = pod.metadata ?? {};
  w.write(0, `Name:\t${meta.name ?? ''}\n`);
  w.write(0, `Namespace:\t${meta.namespace ?? ''}\n`);
  if (spec?.priority !== undefined) w.write(0, `Priority:\t${spec.priority}\n`);
  if (spec?.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec?.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec?.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(0, spec?.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (status.startTime) w.write(0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
  printLabelsMultiline(w, 'Labels', meta.labels);
  printAnnotationsMultiline(w, 'Annotations', meta.annotations);
  if (meta.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${since(meta.deletionTimestamp, nowMs)})\n`);
    w.write(0, `Termination Grace Period:\t${meta.deletionGracePeriodSeconds ?? 0}s\n`);
  } else {
    w.write(0, `Status:\t${status.phase ?? ''}\n`);
  }
  if (status.reason) w.write(0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(0, `Message:\t${status.message}\n`);
  const seccomp = spec?.securityContext?.seccompProfile;
  if (seccomp) {
    w.write(0, `SeccompProfile:\t${seccomp.type}\n`);
    if (seccomp.type === 'Localhost') w.write(0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
  w.write(0, `IP:\t${status.podIP ?? ''}\n`);
  if (!status.podIPs?.length) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of status.podIPs) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const controller = meta.ownerReferences?.find((o) => o.controller);
  if (controller) w.write(0, `Controlled By:\t${controller.kind}/${controller.name}\n`);
  if (status.nominatedNodeName) w.write(0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
  const podResources = (spec as { resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> } } | undefined)?.resources;
  if (podResources) {
    w.write(0, 'Resources:\n');
    describeResources(w, podResources, 1);
  }
  if (spec?.initContainers?.length) describeContainers(w, 'Init Containers', spec.initContainers, status.initContainerStatuses ?? [], pod);
  describeContainers(w, 'Containers', spec?.containers ?? [], status.containerStatuses ?? [], pod);
  if (spec?.readinessGates?.length) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of spec.readinessGates) {
      const c = status.conditions?.find((x) => x.type === g.conditionType);
      w.write(1, `${g.conditionType} \t${c ? c.status : '<none>'} \n`);
    }
  }
  if (status.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of status.conditions) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec?.volumes ?? []);
  w.write(0, `QoS Class:\t${getPodQOS(pod)}\n`);
  printLabelsMultiline(w, 'Node-Selectors', spec?.nodeSelector);
  printTolerations(w, spec?.tolerations ?? []);
  describeTopologySpread(w, spec?.topologySpreadConstraints ?? []);
  return withEvents(w.toString(), events, nowMs);
}

function describeContainers(w: PrefixWriter, label: string, containers: readonly Container[], statuses: readonly ContainerStatus[], pod: Pod): void {
  w.write(0, `${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const st = statuses.find((s) => s.name === c.name);
    w.write(1, `${c.name}:\n`);
    if (st) w.write(2, `Container ID:\t${st.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (st) w.write(2, `Image ID:\t${st.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? ''}`).join(', ');
    w.write(2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
    const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? ''}`).join(', ');
    w.write(2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`);
    const seccomp = c.securityContext?.seccompProfile;
    if (seccomp) {
      w.write(2, `SeccompProfile:\t${seccomp.type}\n`);
      if (seccomp.type === 'Localhost') w.write(3, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
    }
    for (const [title, list] of [['Command', c.command], ['Args', c.args]] as const) {
      if (!list?.length) continue;
      w.write(2, `${title}:\n`);
      for (const item of list) for (const s of item.split('\n')) w.write(3, `${s}\n`);
    }
    if (st) {
      describeState(w, 'State', st.state);
      if (st.lastState?.terminated) describeState(w, 'Last State', st.lastState);
      w.write(2, `Ready:\t${st.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${st.restartCount ?? 0}\n`);
    }
    describeResources(w, c.resources as never, 2);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    if (c.envFrom?.length) {
      w.write(2, 'Environment Variables from:\n');
      for (const e of c.envFrom) {
        const [from, ref] = e.configMapRef ? ['ConfigMap', e.configMapRef] : ['Secret', e.secretRef];
        const what = e.prefix ? `${from} with prefix '${e.prefix}'` : from;
        w.write(3, `${ref?.name ?? ''}\t${what}\tOptional: ${ref?.optional === true}\n`);
      }
    }
    describeEnv(w, c, pod);
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
    w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])];
      w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
    if (c.volumeDevices?.length) {
      w.write(2, 'Devices:\n');
      for (const d of [...c.volumeDevices].sort((a, b) => (a.devicePath < b.devicePath ? -1 : 1))) w.write(3, `${d.devicePath} from ${d.name}\n`);
    }
  }
}

function describeEnv(w: PrefixWriter, c: Container, pod: Pod): void {
  w.write(2, `Environment:${c.env?.length ? '' : '\t<none>'}\n`);
  for (const e of c.env ?? []) {
    if (!e.valueFrom) {
      (e.value ?? '').split('\n').forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      continue;
    }
    const v = e.valueFrom;
    if (v.fieldRef) w.write(3, `${e.name}:\t${fieldRefValue(pod, v.fieldRef.fieldPath)} (${v.fieldRef.apiVersion ?? ''}:${v.fieldRef.fieldPath})\n`);
    else if (v.resourceFieldRef) w.write(3, `${e.name}:\t (${v.resourceFieldRef.resource})\n`);
    else if (v.secretKeyRef) w.write(3, `${e.name}:\t<set to the key '${v.secretKeyRef.key}' in secret '${v.secretKeyRef.name ?? ''}'>\tOptional: ${v.secretKeyRef.optional === true}\n`);
    else if (v.configMapKeyRef) w.write(3, `${e.name}:\t<set to the key '${v.configMapKeyRef.key}' of config map '${v.configMapKeyRef.name ?? ''}'>\tOptional: ${v.configMapKeyRef.optional === true}\n`);
  }
}

/** fieldRefValue resolves the downward API field paths a pod's env may name. */
function fieldRefValue(pod: Pod, path: string): string {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (pod.metadata?.[m[1] as 'labels' | 'annotations'] ?? {})[m[2]!] ?? '';
  const simple: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name, 'metadata.namespace': pod.metadata?.namespace, 'metadata.uid': pod.metadata?.uid,
    'spec.nodeName': pod.spec?.nodeName, 'spec.serviceAccountName': pod.spec?.serviceAccountName, 'status.hostIP': pod.status?.hostIP,
    'status.podIP': pod.status?.podIP,
  };
  return simple[path] ?? '';
}

function describeState(w: PrefixWriter, name: string, state: ContainerState | undefined): void {
  if (state?.running) {
    w.write(2, `${name}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal && t.signal > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${name}:\tWaiting\n`);
  }
}

/** describeProbe is DescribeProbe: the handler, then delay, timeout, period and thresholds. */
export function describeProbe(p: Probe): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 0}s period=${p.periodSeconds ?? 0}s #success=${p.successThreshold ?? 0} #failure=${p.failureThreshold ?? 0}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const port = String(p.httpGet.port ?? '');
    const host = p.httpGet.host ?? '';
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${(p.httpGet.scheme ?? '').toLowerCase()}://${hostPort}${p.httpGet.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeVolumes(w: PrefixWriter, volumes: readonly Volume[]): void {
  if (volumes.length === 0) {
    w.write(0, 'Volumes:\t<none>\n');
    return;
  }
  w.write(0, 'Volumes:\n');
  for (const v of volumes) {
    w.write(1, `${v.name}:\n`);
    if (v.hostPath) w.write(2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`);
    else if (v.emptyDir) w.write(2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`);
    else if (v.secret) w.write(2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`);
    else if (v.configMap) w.write(2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`);
    else if (v.persistentVolumeClaim) w.write(2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${v.persistentVolumeClaim.readOnly === true}\n`);
    else if (v.downwardAPI) {
      w.write(2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
      for (const item of v.downwardAPI.items ?? []) {
        if (item.fieldRef) w.write(3, `${item.fieldRef.fieldPath} -> ${item.path}\n`);
        if (item.resourceFieldRef) w.write(3, `${item.resourceFieldRef.resource} -> ${item.path}\n`);
      }
    } else if (v.projected) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret) w.write(2, `SecretName:\t${s.secret.name ?? ''}\n    Optional:\t${s.secret.optional === true}\n`);
        else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap) w.write(2, `ConfigMapName:\t${s.configMap.name ?? ''}\n    Optional:\t${s.configMap.optional === true}\n`);
        else if (s.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 0}\n`);
      }
    } else if ((v as { image?: unknown }).image) {
      const image = (v as unknown as { image: { reference?: string; pullPolicy?: string } }).image;
      w.write(2, `Type:\tImage (a container image or OCI artifact)\n    Reference:\t${image.reference ?? ''}\n    PullPolicy:\t${image.pullPolicy ?? ''}\n`);
    } else {
      w.write(1, '<unknown>\n');
    }
  }
}

/** printTolerations is printPodTolerationsMultiline: sorted by key, `key=value:Effect op=Exists for Ns`. */
function printTolerations(w: PrefixWriter, tolerations: readonly Toleration[]): void {
  w.write(0, 'Tolerations:\t');
  if (tolerations.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const sorted = [...tolerations].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

function describeTopologySpread(w: PrefixWriter, tscs: readonly { topologyKey: string; whenUnsatisfiable: string; maxSkew: number; labelSelector?: { matchLabels?: Record<string, string> } }[]): void {
  if (tscs.length === 0) return;
  const sorted = [...tscs].sort((a, b) => (a.topologyKey < b.topologyKey ? -1 : a.topologyKey > b.topologyKey ? 1 : 0));
  w.write(0, 'Topology Spread Constraints:\t');
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    const sel = t.labelSelector ? ` for selector ${Object.keys(t.labelSelector.matchLabels ?? {}).sort().map((k) => `${k}=${t.labelSelector!.matchLabels![k]}`).join(',') || '<none>'}` : '';
    w.write(0, `${t.topologyKey}:${t.whenUnsatisfiable} when max skew ${t.maxSkew} is exceeded${sel}\n`);
  });
}
