// The human output of `pod-lifecycle explain --live`: the pod as read through kubectl, explained as `explain` explains a
// simulated pod (its causes, the scheduler's filter table on the cluster's nodes), then the cluster's own FailedScheduling
// message beside the engine's, and the objects around the pod.
import type { LiveReport } from '../explain/live';
import { renderPod } from './explain-text';
import type { Style } from './human';
import { cell, renderTable } from './table';

const AGREEMENT = {
  same: 'the engine\'s cycle on the cluster\'s nodes writes the same message',
  sameFilterReasons: 'the same filter reasons; the rest of the message (preemption) differs',
  differs: 'the messages differ: the cluster changed since kube-scheduler\'s last attempt, or a plugin or setting of its profile is not the default',
  noClusterMessage: 'kube-scheduler has written no FailedScheduling message for the pod yet',
} as const;

function renderComparison(r: LiveReport, st: Style): string[] {
  const c = r.live.failedScheduling;
  if (!c) return [];
  const out = ['', st.bold('FAILEDSCHEDULING ON THE CLUSTER')];
  if (c.event) out.push(`  event:      ${c.event}`);
  if (c.condition && c.condition !== c.event) out.push(`  condition:  ${c.condition}`);
  // The engine's message stands above, after WHY NOT: repeated here only when it says something else.
  if (c.engine && c.agreement !== 'same') out.push(`  engine:     ${c.engine}`);
  if (c.chosen) out.push(`  engine:     ${st.good(`${c.chosen} fits now`)}: the cluster changed since kube-scheduler's last attempt, which the next one should bind`);
  else out.push(`  ${c.agreement === 'differs' ? st.warn(AGREEMENT[c.agreement]) : st.dim(AGREEMENT[c.agreement])}`);
  return out;
}

function renderRelated(r: LiveReport, st: Style): string[] {
  if (r.live.related.length === 0) return [];
  const rows = r.live.related.map((o) => [cell(`  ${o.relation}`), cell(o.object), cell(o.note, o.problem ? st.warn : undefined)]);
  return ['', st.bold('AROUND THE POD'), ...renderTable(['', '', ''], rows, st.bold).slice(1)];
}

/** renderLive prints the explanation of a live pod for a person. */
export function renderLive(r: LiveReport, st: Style): string {
  const [ns, name] = r.pod.split('/');
  const context = r.live.context ? ` --context ${r.live.context}` : '';
  const out = [st.bold(`$ kubectl get pod/${name} -n ${ns}${context}`), st.dim(`read at ${r.live.readAt}; times are seconds since the pod was created (${r.live.epoch})`)];
  const note = r.live.failedScheduling ? 'the engine\'s scheduling cycle on the cluster\'s nodes and the pods bound to them' : undefined;
  out.push(...renderPod(r, st, note));
  if (r.diagnosis?.question === 'none') out.push('', `${st.bold('NOTHING WRONG')} ${st.good(r.diagnosis.summary)}`);
  out.push(...renderComparison(r, st), ...renderRelated(r, st));
  for (const u of r.live.unread) out.push(st.dim(`not read: ${u}`));
  return out.join('\n');
}
