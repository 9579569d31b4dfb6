// The table printers of autoscaling, scheduling, coordination and RBAC kinds: HorizontalPodAutoscaler, PriorityClass,
// Lease, RoleBinding, ClusterRoleBinding. See pkg/printers/internalversion/printers.go.
import type { KubeObject } from '../api/types';
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from 'kubernetes-types/autoscaling/v2';
import type { HorizontalPodAutoscaler as HorizontalPodAutoscalerV1 } from 'kubernetes-types/autoscaling/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { RoleBinding, Subject } from 'kubernetes-types/rbac/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import { int64, quantityString, translateTimestampSince } from './format';
import { AGE_COLUMN, columns, NAME_COLUMN, type PrintHandler } from './types';

const name = (o: KubeObject) => o.metadata?.name ?? '';
// A *resource.Quantity field: String() of a nil pointer is "<nil>".
const ptrQuantity = (q: string | number | undefined | null) => (q === undefined || q === null ? '<nil>' : quantityString(q));
const age = (o: KubeObject, nowMs: number) => translateTimestampSince(o.metadata?.creationTimestamp, nowMs);

/** metricsOf reads an HPA's metrics and current metrics; an autoscaling/v1 one's CPU target converts to a Resource metric. */
function metricsOf(o: KubeObject): { specs: MetricSpec[]; statuses: MetricStatus[] } {
  if (o.apiVersion === 'autoscaling/v1') {
    // pkg/apis/autoscaling/v1/conversion.go: targetCPUUtilizationPercentage is the cpu Utilization metric.
    const v1 = o as unknown as HorizontalPodAutoscalerV1;
    const target = v1.spec?.targetCPUUtilizationPercentage;
    const current = v1.status?.currentCPUUtilizationPercentage;
    return {
      specs: target !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } }] : [],
      statuses: current !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] : [],
    };
  }
  const hpa = o as unknown as HorizontalPodAutoscaler;
  return { specs: hpa.spec?.metrics ?? [], statuses: hpa.status?.currentMetrics ?? [] };
}

/**
 * formatHPAMetrics: each metric as `current/target` (`name: current/target` for resources, ` (avg)` for average
 * values of External and Object metrics), `<unknown>` for a current value not reported, two at most, then
 * `+ N more...`; `<none>` without metrics.
 */
function formatHPAMetrics(specs: readonly MetricSpec[], statuses: readonly MetricStatus[]): string {
  if (specs.length === 0) return '<none>';
  const list: string[] = [];
  specs.forEach((spec, i) => {
    const status = statuses[i];
    switch (spec.type) {
      case 'External': {
        const target = spec.external?.target;
        if (target?.averageValue !== undefined) {
          const current = status?.external?.current.averageValue !== undefined ? ptrQuantity(status.external.current.averageValue) : '<unknown>';
          list.push(`${current}/${ptrQuantity(target.averageValue)} (avg)`);
        } else {
          const current = status?.external ? ptrQuantity(status.external.current.value) : '<unknown>';
          list.push(`${current}/${ptrQuantity(target?.value)}`);
        }
        break;
      }
      case 'Pods': {
        const current = status?.pods ? ptrQuantity(status.pods.current.averageValue) : '<unknown>';
        list.push(`${current}/${ptrQuantity(spec.pods?.target.averageValue)}`);
        break;
      }
      case 'Object': {
        const target = spec.object?.target;
        if (target?.averageValue !== undefined) {
          const current = status?.object?.current.averageValue !== undefined ? ptrQuantity(status.object.current.averageValue) : '<unknown>';
          list.push(`${current}/${ptrQuantity(target.averageValue)} (avg)`);
        } else {
          const current = status?.object ? ptrQuantity(status.object.current.value) : '<unknown>';
          list.push(`${current}/${ptrQuantity(target?.value)}`);
        }
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
        const current = spec.type === 'Resource' ? status?.resource : status?.containerResource;
        const target = source?.target;
        if (target?.averageValue !== undefined) {
          list.push(`${source?.name ?? ''}: ${current ? ptrQuantity(current.current.averageValue) : '<unknown>'}/${ptrQuantity(target.averageValue)}`);
        } else {
          const cur = current?.current.averageUtilization !== undefined ? `${current.current.averageUtilization}%` : '<unknown>';
          const tgt = target?.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>';
          list.push(`${source?.name ?? ''}: ${cur}/${tgt}`);
        }
        break;
      }
      default:
        list.push('<unknown type>');
    }
  });
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

/** printHorizontalPodAutoscaler: REFERENCE `Kind/name`, MINPODS `<unset>` when unset, MAXPODS and REPLICAS as int64 cells. */
const HORIZONTAL_POD_AUTOSCALER: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Reference', doc: 'autoscalingv2.HorizontalPodAutoscalerSpec.scaleTargetRef' },
    { name: 'Targets', doc: 'autoscalingv2.HorizontalPodAutoscalerSpec.metrics' },
    { name: 'MinPods', doc: 'autoscalingv2.HorizontalPodAutoscalerSpec.minReplicas' },
    { name: 'MaxPods', doc: 'autoscalingv2.HorizontalPodAutoscalerSpec.maxReplicas' },
    { name: 'Replicas', doc: 'autoscalingv2.HorizontalPodAutoscalerStatus.currentReplicas' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const hpa = o as unknown as HorizontalPodAutoscaler;
    const { specs, statuses } = metricsOf(o);
    const ref = hpa.spec?.scaleTargetRef;
    const min = hpa.spec?.minReplicas;
    return {
      cells: [name(o), `${ref?.kind ?? ''}/${ref?.name ?? ''}`, formatHPAMetrics(specs, statuses), min !== undefined ? String(min) : '<unset>',
        int64(hpa.spec?.maxReplicas), int64(hpa.status?.currentReplicas), age(o, nowMs)],
    };
  },
};

/** printPriorityClass: VALUE an int64 cell, GLOBAL-DEFAULT a bool cell, PREEMPTIONPOLICY "" when unset. */
const PRIORITY_CLASS: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Value', type: 'integer', doc: 'schedulingv1.PriorityClass.value' },
    { name: 'Global-Default', type: 'boolean', doc: 'schedulingv1.PriorityClass.globalDefault' },
    AGE_COLUMN,
    { name: 'PreemptionPolicy', doc: 'schedulingv1.PriorityClass.preemptionPolicy' },
  ),
  print: (o, nowMs) => {
    const pc = o as unknown as PriorityClass;
    return { cells: [name(o), int64(pc.value), pc.globalDefault ?? false, age(o, nowMs), pc.preemptionPolicy ?? ''] };
  },
};

// printLease: HOLDER "" when unset.
const LEASE: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Holder', doc: 'coordinationv1.LeaseSpec.holderIdentity' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), (o as unknown as Lease).spec?.holderIdentity ?? '', age(o, nowMs)] }),
};

/** subjectsStrings is rbac.SubjectsStrings: the users, groups and `namespace/name` service accounts, each joined by ", ". */
function subjectsStrings(subjects: readonly Subject[] | undefined): string[] {
  const users: string[] = [], groups: string[] = [], sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

/** roleBindingPrinter is printRoleBinding and printClusterRoleBinding: ROLE `Kind/name`, the subjects in wide columns. */
function roleBindingPrinter(roleRefDoc: 'rbacv1beta1.RoleBinding.roleRef' | 'rbacv1beta1.ClusterRoleBinding.roleRef', noun: string): PrintHandler {
  return {
    columns: columns(
      NAME_COLUMN,
      { name: 'Role', doc: roleRefDoc },
      AGE_COLUMN,
      { name: 'Users', priority: 1, description: `Users in the ${noun}` },
      { name: 'Groups', priority: 1, description: `Groups in the ${noun}` },
      { name: 'ServiceAccounts', priority: 1, description: `ServiceAccounts in the ${noun}` },
    ),
    print: (o, nowMs) => {
      const rb = o as unknown as RoleBinding;
      return { cells: [name(o), `${rb.roleRef?.kind ?? ''}/${rb.roleRef?.name ?? ''}`, age(o, nowMs), ...subjectsStrings(rb.subjects)] };
    },
  };
}

/** CLUSTER_PRINTERS are this file's handlers by kind. */
export const CLUSTER_PRINTERS: Readonly<Record<string, PrintHandler>> = {
  HorizontalPodAutoscaler: HORIZONTAL_POD_AUTOSCALER, PriorityClass: PRIORITY_CLASS, Lease: LEASE,
  RoleBinding: roleBindingPrinter('rbacv1beta1.RoleBinding.roleRef', 'roleBinding'),
  ClusterRoleBinding: roleBindingPrinter('rbacv1beta1.ClusterRoleBinding.roleRef', 'clusterRoleBinding'),
};
