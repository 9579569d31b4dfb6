// Builders for admission plugin tests: a real engine context over a store holding the given objects, pods and
// admission attributes as kube-apiserver would hand them to a plugin.
import type { KubeObject, Namespace, Pod, PodSpec } from '../../../../src/engine/api/types';
import type { AdmissionAttributes, Operation } from '../../../../src/engine/apiserver/admission/plugin';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import { defaultBehavior, defaultProfile } from '../../../../src/engine/cluster/inputs';
import { Store } from '../../../../src/engine/cluster/store';
import { type EngineContext, SourceIndex, type Task } from '../../../../src/engine/context';
import { EventQueue, VirtualClock } from '../../../../src/engine/runtime/clock';
import { Random } from '../../../../src/engine/runtime/random';
import { Recorder } from '../../../../src/engine/runtime/recorder';

/** ADMIN is kubectl's default identity on a kubeadm cluster. */
export const ADMIN: UserInfo = { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };

/** kubelet is a node's identity: system:node:<name> in system:nodes. */
export const kubelet = (node: string): UserInfo => ({ name: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });

/** makeContext is an engine context whose store holds the objects (given as plain API objects). */
export function makeContext(objects: readonly object[] = []): EngineContext {
  const clock = new VirtualClock();
  const store = new Store();
  for (const o of objects) store.put(o as KubeObject);
  const queue = new EventQueue<Task>();
  return {
    clock, store, recorder: new Recorder(() => clock.now), rng: new Random(1), behavior: defaultBehavior(), profile: defaultProfile(),
    schedule: (delay, label, task) => queue.push(clock.now + delay, label, task), sources: new SourceIndex(),
  };
}

/** makeNamespace is an Active namespace with these annotations. */
export function makeNamespace(name: string, annotations?: Record<string, string>, phase = 'Active'): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(annotations ? { annotations } : {}) }, status: { phase } };
}

/** makePod is pod `name` in namespace `ns` with one container `app` running nginx, and the given spec fields. */
export function makePod(name: string, spec: Partial<PodSpec> = {}, metadata: Pod['metadata'] = {}, ns = 'default'): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

/** AttributeOptions override what attributesFor derives from the object. */
export interface AttributeOptions {
  operation?: Operation;
  user?: UserInfo;
  subresource?: string;
  name?: string;
  oldObject?: object;
  resource?: string;
  group?: string;
}

const RESOURCES: Record<string, [string, string]> = {
  Pod: ['pods', ''], Node: ['nodes', ''], Namespace: ['namespaces', ''], PersistentVolumeClaim: ['persistentvolumeclaims', ''],
  PersistentVolume: ['persistentvolumes', ''], PriorityClass: ['priorityclasses', 'scheduling.k8s.io'], Service: ['services', ''],
  ConfigMap: ['configmaps', ''],
};

/** attributesFor is the admission attributes of a request on an object (a create by the admin unless told otherwise). */
export function attributesFor(obj: object, options: AttributeOptions = {}): AdmissionAttributes {
  const o = structuredClone(obj) as KubeObject;
  const kind = String(o.kind);
  const [resource, group] = RESOURCES[kind] ?? [`${kind.toLowerCase()}s`, ''];
  return {
    operation: options.operation ?? 'CREATE', kind, group: options.group ?? group, resource: options.resource ?? resource,
    subresource: options.subresource ?? '', namespace: o.metadata?.namespace ?? '', name: options.name ?? o.metadata?.name ?? '',
    object: o, ...(options.oldObject ? { oldObject: structuredClone(options.oldObject) as KubeObject } : {}), user: options.user ?? ADMIN,
  };
}
