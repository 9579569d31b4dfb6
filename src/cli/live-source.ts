// The live source of `pod-lifecycle explain --live`: the pod, its events, the nodes and the objects around it, read
// by running the real kubectl (`kubectl get ... -o json`) with the user's --context, --kubeconfig and namespace, so
// that its KUBECONFIG, credentials and plugins apply as they do at the user's prompt.
import { spawnSync } from 'node:child_process';
import type { KubeObject, Node, Pod } from '../engine/api/types';
import type { LiveState } from '../engine/explain/live';

/** LiveTarget is the pod to read and where: `pod/NAME`, -n, --context, --kubeconfig. */
export interface LiveTarget {
  name: string;
  namespace?: string;
  context?: string;
  kubeconfig?: string;
}

/** KubectlResult is how one kubectl run ended. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
  /** notFound tells that there is no kubectl to run. */
  notFound?: boolean;
}

/** Kubectl runs kubectl with the given arguments. */
export type Kubectl = (args: readonly string[]) => KubectlResult;

/** LiveSourceError is a read that failed: its message names the kubectl command and what kubectl said. */
export class LiveSourceError extends Error {}

/** KUBECTL_TIMEOUT_MS is how long one kubectl run may take before it counts as failed (an unreachable server). */
const KUBECTL_TIMEOUT_MS = 60_000;

/** kubectlProcess runs the `kubectl` on PATH (or $KUBECTL) with the environment given (KUBECONFIG and all). */
export function kubectlProcess(env: NodeJS.ProcessEnv): Kubectl {
  const file = env['KUBECTL'] || 'kubectl';
  return (args) => {
    const r = spawnSync(file, args, { env, encoding: 'utf8', timeout: KUBECTL_TIMEOUT_MS, maxBuffer: 512 * 1024 * 1024 });
    if (r.error) {
      const notFound = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
      return { code: 127, stdout: '', stderr: notFound ? `${file} is not on PATH` : r.error.message, ...(notFound ? { notFound } : {}) };
    }
    return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
  };
}

/** kubectlSaid is the line of kubectl's error output that says what failed (not its klog lines). */
function kubectlSaid(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^[EWI]\d{4} /.test(l));
  return (lines.at(-1) ?? stderr.trim()) || 'failed without a message';
}

/** LiveReader runs the reads of one explanation: the connection flags on every call, JSON out. */
class LiveReader {
  readonly unread: string[] = [];
  constructor(private readonly kubectl: Kubectl, private readonly target: LiveTarget) {}

  private args(rest: readonly string[]): string[] {
    const t = this.target;
    return [...(t.kubeconfig ? ['--kubeconfig', t.kubeconfig] : []), ...(t.context ? ['--context', t.context] : []), ...rest];
  }

  /** get runs `kubectl get ARGS -o json`; a failure throws a LiveSourceError naming the command. */
  get<T>(rest: readonly string[]): T {
    const args = this.args([...rest, '-o', 'json']);
    const r = this.kubectl(args);
    if (r.code !== 0) throw new LiveSourceError(`kubectl ${args.join(' ')}: ${kubectlSaid(r.stderr)}`);
    try {
      return JSON.parse(r.stdout) as T;
    } catch {
      throw new LiveSourceError(`kubectl ${args.join(' ')}: its output is not JSON`);
    }
  }

  /** items gets a list and returns its items; a failure is noted as unread and gives none. */
  items<T = KubeObject>(what: string, rest: readonly string[]): T[] {
    try {
      return this.get<{ items?: T[] }>(rest).items ?? [];
    } catch (e) {
      if (!(e instanceof LiveSourceError)) throw e;
      this.unread.push(`${what}: ${e.message}`);
      return [];
    }
  }

  /** one gets one object; a failure is noted as unread and gives undefined. */
  one(what: string, rest: readonly string[]): KubeObject | undefined {
    try {
      return this.get<KubeObject>(rest);
    } catch (e) {
      if (!(e instanceof LiveSourceError)) throw e;
      this.unread.push(`${what}: ${e.message}`);
      return undefined;
    }
  }

  /** currentContext is the context kubectl uses: --context, or the kubeconfig's current-context. */
  currentContext(): string | undefined {
    if (this.target.context) return this.target.context;
    const r = this.kubectl(this.args(['config', 'current-context']));
    return r.code === 0 ? r.stdout.trim() || undefined : undefined;
  }
}

/** resourceOf is the `kind.group` kubectl resolves for an owner reference (`replicaset.apps`, `job.batch`). */
function resourceOf(apiVersion: string, kind: string): string {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return group ? `${kind.toLowerCase()}.${group}` : kind.toLowerCase();
}

function owners(reader: LiveReader, pod: Pod, ns: string): KubeObject[] {
  const out: KubeObject[] = [];
  let refs = pod.metadata?.ownerReferences ?? [];
  for (let depth = 0; depth < 4 && refs.length > 0; depth++) {
    const ref = refs.find((r) => r.controller) ?? refs[0]!;
    const owner = reader.one(`${ref.kind}/${ref.name}`, ['get', resourceOf(ref.apiVersion, ref.kind), ref.name, '-n', ns]);
    if (!owner) break;
    out.push(owner);
    refs = owner.metadata?.ownerReferences ?? [];
  }
  return out;
}

/**
 * readLiveState reads the pod (a failure is a LiveSourceError: no context, an unreachable server, NotFound) and then
 * what its diagnosis needs; those later reads may fail (RBAC, an API the cluster does not serve) and are noted unread.
 */
export function readLiveState(target: LiveTarget, kubectl: Kubectl, now: () => Date): LiveState {
  const reader = new LiveReader(kubectl, target);
  const pod = reader.get<Pod>(['get', 'pod', target.name, ...(target.namespace ? ['-n', target.namespace] : [])]);
  const readAt = now().toISOString();
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? target.name;
  const nodeName = pod.spec?.nodeName;
  const events = reader.items('events', ['get', 'events', '-n', ns, '--field-selector', `involvedObject.name=${name}`]);
  if (nodeName) events.push(...reader.items(`events of node ${nodeName}`, ['get', 'events', '-A', '--field-selector', `involvedObject.kind=Node,involvedObject.name=${nodeName}`]));
  const nodes = reader.items<Node>('nodes', ['get', 'nodes']);
  // The pods bound to the nodes are what the scheduler counts; only an unscheduled pod needs them. The field selector
  // is kube-scheduler's own informer's (pkg/scheduler/scheduler.go): terminal pods hold no resources.
  const pods = nodeName ? [] : reader.items<Pod>('pods', ['get', 'pods', '-A', '--field-selector', 'status.phase!=Succeeded,status.phase!=Failed']);
  const related = [
    ...owners(reader, pod, ns),
    ...reader.items('objects of the namespace', ['get', 'resourcequotas,limitranges,poddisruptionbudgets,services,persistentvolumeclaims', '-n', ns]),
  ];
  const priorityClass = pod.spec?.priorityClassName;
  if (priorityClass) {
    const pc = reader.one(`PriorityClass/${priorityClass}`, ['get', 'priorityclass', priorityClass]);
    if (pc) related.push(pc);
  }
  if (!nodeName && (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim)) {
    related.push(...reader.items('volumes and storage classes', ['get', 'persistentvolumes,storageclasses']));
  }
  const context = reader.currentContext();
  return { pod, events, nodes, pods, related, readAt, unread: reader.unread, ...(context ? { context } : {}) };
}
