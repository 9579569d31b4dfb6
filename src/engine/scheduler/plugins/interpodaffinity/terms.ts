// The incoming pod's terms as InterPodAffinity prepares them: namespaceSelector unrolled into namespaces, the namespace's labels.
// See pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (mergeAffinityTermNamespacesIfNotEmpty, GetNamespaceLabelsSnapshot).
import { NOTHING, selectorMatches, type Labels, type Selector } from '../../../api/labels';
import type { Namespace, Pod } from '../../../api/types';
import type { Listers } from '../../framework/listers';
import { parsePodAffinityTerms, type AffinityTerm, type PodAffinityTerms } from '../../framework/node-info';

/** isEmptySelector is Selector.Empty(): no requirement (matches everything); Nothing is not empty. */
function isEmptySelector(s: Selector): boolean {
  return !s.nothing && s.requirements.length === 0;
}

/**
 * mergeNamespaces adds the namespaces a term's namespaceSelector selects to its namespaces and drops the selector, so
 * that matching the incoming pod's terms needs no namespace lookup. An empty selector (all namespaces) stays.
 */
export function mergeNamespaces<T extends AffinityTerm>(term: T, listers: Listers): T {
  if (isEmptySelector(term.namespaceSelector)) return term;
  const namespaces = new Set(term.namespaces);
  for (const ns of listers.list<Namespace>('Namespace')) {
    if (selectorMatches(term.namespaceSelector, ns.metadata?.labels)) namespaces.add(ns.metadata?.name ?? '');
  }
  return { ...term, namespaces, namespaceSelector: NOTHING };
}

/** namespaceLabels is a copy of the labels of the pod's namespace; none when it cannot be found. */
export function namespaceLabels(pod: Pod, listers: Listers): Labels {
  const ns = listers.get<Namespace>('Namespace', undefined, pod.metadata?.namespace ?? '');
  return ns ? { ...(ns.metadata?.labels ?? {}) } : undefined;
}

/** aggregateError prints errors as utilerrors.NewAggregate does: one alone, several deduplicated in brackets. */
export function aggregateError(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** IncomingPod is the incoming pod's parsed terms with every namespaceSelector unrolled; parseError when a term does not parse. */
export interface IncomingPod {
  pod: Pod;
  terms: PodAffinityTerms;
  parseError?: string;
}

/** incomingPod parses the pod's terms and unrolls the namespaceSelectors of the lists asked for. */
export function incomingPod(pod: Pod, listers: Listers, lists: 'required' | 'preferred'): IncomingPod {
  const parsed = parsePodAffinityTerms(pod);
  if (parsed.parseErrors.length > 0) return { pod, terms: parsed, parseError: aggregateError(parsed.parseErrors) };
  const terms: PodAffinityTerms = lists === 'required'
    ? {
      ...parsed,
      requiredAffinityTerms: parsed.requiredAffinityTerms.map((t) => mergeNamespaces(t, listers)),
      requiredAntiAffinityTerms: parsed.requiredAntiAffinityTerms.map((t) => mergeNamespaces(t, listers)),
    }
    : {
      ...parsed,
      preferredAffinityTerms: parsed.preferredAffinityTerms.map((t) => mergeNamespaces(t, listers)),
      preferredAntiAffinityTerms: parsed.preferredAntiAffinityTerms.map((t) => mergeNamespaces(t, listers)),
    };
  return { pod, terms };
}
