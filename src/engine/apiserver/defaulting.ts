// Scheme defaulting on decode, by kind: the fields the API server fills in before admission.
import { defaultPod, type Defaulted } from '../api/defaults';
import { defaultCronJob, defaultDaemonSet, defaultDeployment, defaultJob, defaultReplicaSet, defaultStatefulSet } from '../api/defaults-workloads';
import { defaultKind } from '../api/defaults-kinds';
import { defaultHorizontalPodAutoscaler } from '../api/hpa-defaults';
import { defaultReplicationController } from '../api/replication-controller';
import { defaultService } from '../api/service-defaults';
import type { Deployment, KubeObject, Pod, ReplicaSet } from '../api/types';

/** applyDefaults runs the scheme defaulting of an object's kind; kinds without defaults come back unchanged. */
export function applyDefaults(obj: KubeObject): Defaulted<KubeObject> {
  switch (obj.kind) {
    case 'Pod':
      return defaultPod(obj as Pod) as Defaulted<KubeObject>;
    case 'Deployment':
      return defaultDeployment(obj as Deployment) as Defaulted<KubeObject>;
    case 'ReplicaSet':
      return defaultReplicaSet(obj as ReplicaSet) as Defaulted<KubeObject>;
    case 'ReplicationController':
      return defaultReplicationController(obj);
    case 'StatefulSet':
      return defaultStatefulSet(obj) as Defaulted<KubeObject>;
    case 'DaemonSet':
      return defaultDaemonSet(obj) as Defaulted<KubeObject>;
    case 'Job':
      return defaultJob(obj) as Defaulted<KubeObject>;
    case 'CronJob':
      return defaultCronJob(obj) as Defaulted<KubeObject>;
    case 'Service':
      return defaultService(obj);
    case 'HorizontalPodAutoscaler':
      return defaultHorizontalPodAutoscaler(obj);
    default:
      return defaultKind(obj);
  }
}
