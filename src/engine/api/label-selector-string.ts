// A *metav1.LabelSelector as Go's %v and %+v print it: its generated String() method, which the horizontal pod
// autoscaler puts into metric names and errors (`external metric queue(&LabelSelector{...})`). See
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go (LabelSelector.String,
// LabelSelectorRequirement.String) at v0.36.3.
import type { LabelSelector } from './types';

/** goLabelSelectorString is (*LabelSelector).String(): `nil` for none, match labels sorted by key. */
export function goLabelSelectorString(selector: LabelSelector | null | undefined): string {
  if (!selector) return 'nil';
  const labels = selector.matchLabels ?? {};
  const keys = Object.keys(labels).sort();
  const map = `map[string]string{${keys.map((k) => `${k}: ${labels[k]},`).join('')}}`;
  // Each requirement is its own String() with the leading & dropped.
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key ?? ''},Operator:${e.operator ?? ''},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:${map},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
