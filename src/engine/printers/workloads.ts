// The table printers of workloads and what scales or guards them: Deployment, ReplicaSet, ReplicationController,
// StatefulSet, DaemonSet, ControllerRevision, Job, CronJob, PodDisruptionBudget. See pkg/printers/internalversion/printers.go.
import type { KubeObject } from '../api/types';
import type { ReplicationController } from 'kubernetes-types/core/v1';
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { jobColumns } from '../kubectl/job-printer';
import { formatLabels, formatSelector, int64, intOrString, layoutContainerCells, printBoolPtr, selectorString, translateTimestampSince } from './format';
import { AGE_COLUMN, columns, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, type PrintHandler } from './types';

const name = (o: KubeObject) => o.metadata?.name ?? '';
const age = (o: KubeObject, nowMs: number) => translateTimestampSince(o.metadata?.creationTimestamp, nowMs);

/** printDeployment: READY ready/desired; SELECTOR the selector's String() (not FormatLabelSelector: "" when empty). */
const DEPLOYMENT: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Ready', description: 'Number of the pod with ready state' },
    { name: 'Up-to-date', doc: 'appsv1.DeploymentStatus.updatedReplicas' },
    { name: 'Available', doc: 'appsv1.DeploymentStatus.availableReplicas' },
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    { name: 'Selector', priority: 1, doc: 'appsv1.DeploymentSpec.selector' },
  ),
  print: (o, nowMs) => {
    const d = o as unknown as Deployment;
    return {
      cells: [name(o), `${int64(d.status?.readyReplicas)}/${int64(d.spec?.replicas)}`, int64(d.status?.updatedReplicas), int64(d.status?.availableReplicas),
        age(o, nowMs), ...layoutContainerCells(d.spec?.template.spec?.containers), selectorString(d.spec?.selector)],
    };
  },
};

/** ReplicaCounts is what printReplicaSet and printReplicationController read: the spec's replicas and selector, the status' counts. */
interface ReplicaCounts {
  spec?: { replicas?: number; template?: { spec?: { containers?: Parameters<typeof layoutContainerCells>[0] } } };
  status?: { replicas?: number; readyReplicas?: number };
}

/**
 * replicaPrinter is printReplicaSet's and printReplicationController's table: DESIRED, CURRENT and READY from the
 * spec and status of `type` (their OpenAPI types), the containers, and SELECTOR as `selector` formats it.
 */
function replicaPrinter<S extends 'appsv1.ReplicaSet' | 'corev1.ReplicationController'>(type: S, selector: (o: KubeObject) => string): PrintHandler {
  return {
    columns: columns(
      NAME_COLUMN,
      { name: 'Desired', type: 'integer', doc: `${type}Spec.replicas` },
      { name: 'Current', type: 'integer', doc: `${type}Status.replicas` },
      { name: 'Ready', type: 'integer', doc: `${type}Status.readyReplicas` },
      AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
      { name: 'Selector', priority: 1, doc: `${type}Spec.selector` },
    ),
    print: (o, nowMs) => {
      const r = o as unknown as ReplicaCounts;
      return {
        cells: [name(o), int64(r.spec?.replicas), int64(r.status?.replicas), int64(r.status?.readyReplicas), age(o, nowMs),
          ...layoutContainerCells(r.spec?.template?.spec?.containers), selector(o)],
      };
    },
  };
}

// printReplicaSet: SELECTOR is FormatLabelSelector.
const REPLICA_SET = replicaPrinter('appsv1.ReplicaSet', (o) => formatSelector((o as unknown as ReplicaSet).spec?.selector));

/** printReplicationController: SELECTOR is a label set (labels.FormatLabels). */
const REPLICATION_CONTROLLER = replicaPrinter('corev1.ReplicationController', (o) => formatLabels((o as unknown as ReplicationController).spec?.selector));

// printStatefulSet: READY ready/desired, no selector.
const STATEFUL_SET: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Ready', description: 'Number of the pod with ready state' }, AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN),
  print: (o, nowMs) => {
    const sts = o as unknown as StatefulSet;
    return { cells: [name(o), `${int64(sts.status?.readyReplicas)}/${int64(sts.spec?.replicas)}`, age(o, nowMs), ...layoutContainerCells(sts.spec?.template.spec?.containers)] };
  },
};

/** printDaemonSet: the status counts, and the template's NODE SELECTOR as a label set. */
const DAEMON_SET: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Desired', type: 'integer', doc: 'appsv1.DaemonSetStatus.desiredNumberScheduled' },
    { name: 'Current', type: 'integer', doc: 'appsv1.DaemonSetStatus.currentNumberScheduled' },
    { name: 'Ready', type: 'integer', doc: 'appsv1.DaemonSetStatus.numberReady' },
    { name: 'Up-to-date', type: 'integer', doc: 'appsv1.DaemonSetStatus.updatedNumberScheduled' },
    { name: 'Available', type: 'integer', doc: 'appsv1.DaemonSetStatus.numberAvailable' },
    { name: 'Node Selector', doc: 'corev1.PodSpec.nodeSelector' },
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    { name: 'Selector', priority: 1, doc: 'appsv1.DaemonSetSpec.selector' },
  ),
  print: (o, nowMs) => {
    const ds = o as unknown as DaemonSet;
    const s = ds.status;
    return {
      cells: [name(o), int64(s?.desiredNumberScheduled), int64(s?.currentNumberScheduled), int64(s?.numberReady), int64(s?.updatedNumberScheduled),
        int64(s?.numberAvailable), formatLabels(ds.spec?.template.spec?.nodeSelector), age(o, nowMs), ...layoutContainerCells(ds.spec?.template.spec?.containers),
        formatSelector(ds.spec?.selector)],
    };
  },
};

/**
 * printControllerRevision: CONTROLLER is the controlling owner as `kind.group/name` lowercased (formatResourceName
 * with its kind), `<none>` without one; REVISION the revision as an int64 cell.
 */
const CONTROLLER_REVISION: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Controller', description: 'Controller of the object' },
    { name: 'Revision', doc: 'appsv1.ControllerRevision.revision' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const cr = o as unknown as ControllerRevision;
    const ref = (cr.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
    let controller = '<none>';
    if (ref) {
      // schema.ParseGroupVersion: "v1" has no group, "apps/v1" the group apps.
      const slash = ref.apiVersion.indexOf('/');
      const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
      const groupKind = group ? `${ref.kind}.${group}` : ref.kind;
      controller = groupKind ? `${groupKind.toLowerCase()}/${ref.name}` : ref.name;
    }
    return { cells: [name(o), controller, cr.revision, age(o, nowMs)] };
  },
};

/** printJob: STATUS, COMPLETIONS and DURATION are jobColumns (kubectl/job-printer.ts). */
const JOB: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Status', description: 'Status of the job.' },
    { name: 'Completions', doc: 'batchv1.JobStatus.succeeded' },
    { name: 'Duration', description: 'Time required to complete the job.' },
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    { name: 'Selector', priority: 1, doc: 'batchv1.JobSpec.selector' },
  ),
  print: (o, nowMs) => {
    const job = o as unknown as Job;
    const { status, completions, duration } = jobColumns(o, nowMs);
    return { cells: [name(o), status, completions, duration, age(o, nowMs), ...layoutContainerCells(job.spec?.template.spec?.containers), formatSelector(job.spec?.selector)] };
  },
};

/** printCronJob: TIMEZONE and LAST SCHEDULE `<none>` when unset, SUSPEND printBoolPtr, ACTIVE the count of active Jobs. */
const CRON_JOB: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Schedule', doc: 'batchv1.CronJobSpec.schedule' },
    { name: 'Timezone', doc: 'batchv1.CronJobSpec.timeZone' },
    { name: 'Suspend', type: 'boolean', doc: 'batchv1.CronJobSpec.suspend' },
    { name: 'Active', type: 'integer', doc: 'batchv1.CronJobStatus.active' },
    { name: 'Last Schedule', doc: 'batchv1.CronJobStatus.lastScheduleTime' },
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    { name: 'Selector', priority: 1, doc: 'batchv1.JobSpec.selector' },
  ),
  print: (o, nowMs) => {
    const cj = o as unknown as CronJob;
    const jobSpec = cj.spec?.jobTemplate.spec;
    const lastSchedule = cj.status?.lastScheduleTime ? translateTimestampSince(cj.status.lastScheduleTime, nowMs) : '<none>';
    return {
      cells: [name(o), cj.spec?.schedule ?? '', cj.spec?.timeZone ?? '<none>', printBoolPtr(cj.spec?.suspend), (cj.status?.active ?? []).length, lastSchedule,
        age(o, nowMs), ...layoutContainerCells(jobSpec?.template.spec?.containers), formatSelector(jobSpec?.selector)],
    };
  },
};

/** printPodDisruptionBudget: MIN AVAILABLE and MAX UNAVAILABLE as IntOrString, N/A when unset. */
const POD_DISRUPTION_BUDGET: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Min Available', description: 'The minimum number of pods that must be available.' },
    { name: 'Max Unavailable', description: 'The maximum number of pods that may be unavailable.' },
    { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const pdb = o as unknown as PodDisruptionBudget;
    const spec = pdb.spec ?? {};
    return {
      cells: [name(o), spec.minAvailable !== undefined ? intOrString(spec.minAvailable) : 'N/A', spec.maxUnavailable !== undefined ? intOrString(spec.maxUnavailable) : 'N/A',
        int64(pdb.status?.disruptionsAllowed), age(o, nowMs)],
    };
  },
};

/** WORKLOAD_PRINTERS are this file's handlers by kind. */
export const WORKLOAD_PRINTERS: Readonly<Record<string, PrintHandler>> = {
  Deployment: DEPLOYMENT, ReplicaSet: REPLICA_SET, ReplicationController: REPLICATION_CONTROLLER, StatefulSet: STATEFUL_SET,
  DaemonSet: DAEMON_SET, ControllerRevision: CONTROLLER_REVISION, Job: JOB, CronJob: CRON_JOB, PodDisruptionBudget: POD_DISRUPTION_BUDGET,
};
