// Best-practice hints on a workload's containers, as information: these are advice, not rules Kubernetes enforces,
// and each can be switched off in the settings. What they say follows Kubernetes: NodeResourcesFit counts requests
// (pkg/scheduler/framework/plugins/noderesources/fit.go), GetPodQOS makes a pod without any BestEffort
// (pkg/apis/core/v1/helper/qos), SetDefaults_Container pulls :latest Always (pkg/apis/core/v1/defaults.go).
import type { SourceDocument } from '../../engine/cluster/inputs';
import { lookup, rangeOfField } from '../ranges';
import { RULES, type Rule } from '../settings';
import { addRequestsEdit } from './cluster';
import { DiagnosticSeverity, type Finding } from './finding';

/** podPathOf is where a kind keeps its pod spec: `spec` for a Pod, `spec.template.spec` for the workloads. */
export function podPathOf(kind: string): string | undefined {
  if (kind === 'Pod') return 'spec';
  if (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'].includes(kind)) return 'spec.template.spec';
  if (kind === 'CronJob') return 'spec.jobTemplate.spec.template.spec';
  return undefined;
}

/**
 * imageTag is the tag of an image reference, or undefined when it has none (a digest pins it). The tag follows the
 * last `:` after the last `/` (a registry's port is before it). See distribution/reference's grammar.
 */
export function imageTag(image: string): string | undefined {
  if (image.includes('@')) return 'digest';
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.lastIndexOf(':');
  return colon < 0 ? undefined : name.slice(colon + 1);
}

/** checkHints lists the hints on a document's containers, for the rules switched on. */
export function checkHints(doc: SourceDocument, enabled: (rule: Rule) => boolean): Finding[] {
  const podPath = podPathOf(String(doc.object.kind));
  if (!podPath) return [];
  const spec = lookup(doc.object, podPath.split('.')) as { containers?: unknown; restartPolicy?: unknown } | undefined;
  if (!spec || !Array.isArray(spec.containers)) return [];
  // A pod that runs to completion (a Job's, or restartPolicy other than Always) needs no readiness or liveness probe.
  const longRunning = !['Job', 'CronJob'].includes(String(doc.object.kind)) && (spec.restartPolicy === undefined || spec.restartPolicy === 'Always');
  const findings: Finding[] = [];
  spec.containers.forEach((container: Record<string, unknown> | null, i) => {
    if (!container || typeof container !== 'object') return;
    const path = `${podPath}.containers[${i}]`;
    const name = typeof container['name'] === 'string' ? container['name'] : `#${i}`;
    const resources = container['resources'] as { requests?: object; limits?: object } | undefined;
    if (enabled(RULES.noResources) && !resources?.requests && !resources?.limits) {
      const edit = addRequestsEdit(doc, path);
      findings.push({
        rule: RULES.noResources, severity: DiagnosticSeverity.Information, range: rangeOfField(doc, `${path}.name`, 'key'),
        message: `Container "${name}" sets no resource requests or limits: the scheduler's fit check counts it as needing nothing, and a pod whose containers set none is BestEffort, the first evicted when its node runs short.`,
        ...(edit ? { fixes: [{ title: 'Add resource requests and limits', edits: [edit] }] } : {}),
      });
    }
    const image = container['image'];
    if (enabled(RULES.latestTag) && typeof image === 'string' && image !== '') {
      const tag = imageTag(image);
      if (tag === undefined || tag === 'latest') {
        findings.push({
          rule: RULES.latestTag, severity: DiagnosticSeverity.Information, range: rangeOfField(doc, `${path}.image`, 'value'),
          message: `Image "${image}" ${tag ? 'has the tag :latest' : 'has no tag, so it means :latest'}: the version can change from one pull to the next, and imagePullPolicy defaults to Always.`,
        });
      }
    }
    if (enabled(RULES.noProbes) && longRunning && !container['readinessProbe'] && !container['livenessProbe'] && !container['startupProbe']) {
      findings.push({
        rule: RULES.noProbes, severity: DiagnosticSeverity.Information, range: rangeOfField(doc, `${path}.name`, 'key'),
        message: `Container "${name}" has no readiness or liveness probe: the pod counts as Ready as soon as the container starts, and a hung process is never restarted.`,
      });
    }
  });
  return findings;
}
