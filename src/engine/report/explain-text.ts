// The human output of `pod-lifecycle explain`: per pod its end and, when it is stuck Terminating, not Ready, restarting
// or Failed, the causes with their evidence; the filter and score tables of its last scheduling attempt, why this node
// and not the others, and what would make it schedule; then a refusal and its advice.
import type { Cause, Evidence, PodDiagnosis, Question } from '../explain/diagnosis';
import type { AutoscalerReport } from '../explain/autoscaler';
import type { DaemonSetReport } from '../explain/daemonset';
import type { ExplainReport, PodReport } from '../explain/report';
import type { SchedulingExplanation } from '../explain/pod';
import type { Advice } from '../explain/scheduling';
import { commandHeaders, commandLines, splitKubectl, type Style, withoutCommands } from './human';
import type { KubectlLines } from '../kubectl/generate/load';
import { cell, renderTable, type Cell } from './table';
import type { SimulationResult } from '../simulation';

const PASS = new Set(['Success']);
const QUIET = new Set(['Skip', 'NotRun']);

function filterCell(code: string | undefined, reasons: readonly string[], st: Style): Cell {
  if (code === undefined || code === 'NotRun') return cell('-', st.dim);
  if (PASS.has(code)) return cell('pass', st.good);
  if (code === 'Skip') return cell('skip', st.dim);
  return cell(reasons.join(', ') || code, st.bad);
}

/** renderFilter prints the node × filter plugin table; plugins skipped on every node are named on one line instead. */
function renderFilter(s: SchedulingExplanation, st: Style): string[] {
  const nodes = Object.keys(s.filter.nodes);
  const shown = s.filter.plugins.filter((p) => nodes.some((n) => !QUIET.has(s.filter.nodes[n]?.[p]?.code ?? 'NotRun')));
  const quiet = s.filter.plugins.filter((p) => !shown.includes(p));
  const out: string[] = [];
  for (const row of s.filter.preFilter) {
    if (row.code !== 'Success' && row.code !== 'Skip') out.push(st.bad(`PreFilter ${row.plugin}: ${row.reasons.join(', ') || row.code}`));
    else if (row.nodeNames) out.push(`PreFilter ${row.plugin} narrowed the search to ${row.nodeNames.join(', ') || 'no node'}`);
  }
  if (nodes.length > 0) {
    const rows = nodes.map((n) => [cell(n), ...shown.map((p) => filterCell(s.filter.nodes[n]?.[p]?.code, s.filter.nodes[n]?.[p]?.reasons ?? [], st))]);
    out.push(...renderTable(['FILTER', ...shown], rows, st.bold));
  }
  if (quiet.length > 0) out.push(st.dim(`not run or skipped on every node: ${quiet.join(', ')}`));
  const total = Object.keys(s.whyNot).length + (s.chosen ? 1 : 0);
  const fit = s.filter.feasible;
  out.push(fit.length === 0 ? st.bad(`0 of ${total} nodes fit`) : `${fit.length} of ${total} nodes fit: ${fit.join(', ')}`);
  return out;
}

/** renderScores prints the node × score plugin table, `raw → normalized × weight = weighted`, with the totals. */
function renderScores(s: SchedulingExplanation, st: Style): string[] {
  const nodes = Object.keys(s.scores.totals);
  if (nodes.length === 0) return [];
  const plugins = s.scores.plugins.filter((p) => !p.skipped);
  const rows = nodes.map((n) => {
    const cells = plugins.map((p) => {
      const c = s.scores.nodes[n]?.[p.name];
      return cell(c ? `${c.raw} → ${c.normalized} × ${p.weight} = ${c.weighted}` : '-');
    });
    const total = String(s.scores.totals[n] ?? 0);
    return [cell(n, n === s.chosen ? st.good : undefined), ...cells, cell(total, n === s.chosen ? st.good : st.bold)];
  });
  const out = ['', ...renderTable(['SCORE', ...plugins.map((p) => p.name), 'TOTAL'], rows, st.bold)];
  const skipped = s.scores.plugins.filter((p) => p.skipped).map((p) => p.name);
  if (skipped.length > 0) out.push(st.dim(`skipped (their PreScore found nothing to score): ${skipped.join(', ')}`));
  return out;
}

function renderAdvice(title: string, advice: readonly Advice[], st: Style): string[] {
  if (advice.length === 0) return [];
  const out = ['', st.bold(title)];
  for (const a of advice) {
    const nodes = a.nodes && a.nodes.length > 0 ? ` (${a.nodes.join(', ')})` : '';
    out.push(`  - ${st.warn(a.reason)}${nodes}: ${a.text}`);
  }
  return out;
}

function renderWhy(s: SchedulingExplanation, st: Style): string[] {
  const out = ['', `${st.bold('WHY')} ${s.chosen ? st.good(s.why) : st.bad(s.why)}`];
  const rows = Object.entries(s.whyNot).map(([node, why]) => [cell(`  ${node}`), cell(why)]);
  if (rows.length > 0) out.push(st.bold('WHY NOT'), ...renderTable(['', ''], rows, st.bold).slice(1));
  if (s.message) out.push('', `${st.warn('FailedScheduling')} ${s.message}`);
  return out;
}

function podHeadline(p: PodReport, st: Style): string {
  const where = p.node ? ` on ${p.node}` : ', not scheduled';
  const ip = p.ip ? `, IP ${p.ip}` : '';
  const phase = p.phase === 'Running' || p.phase === 'Succeeded' ? st.good(p.phase) : st.warn(p.phase);
  return `${st.bold('POD')} ${p.pod}  ${phase}${where}${ip}${p.deleted ? ' (deleted since)' : ''}`;
}

const QUESTIONS: Partial<Record<Question, string>> = {
  terminating: 'WHY IT IS STUCK TERMINATING',
  notReady: 'WHY IT IS NOT READY',
  restarting: 'WHY IT RESTARTS',
  failed: 'WHY IT FAILED',
};

function atText(at: number | undefined): string {
  if (at === undefined) return '-';
  return `${Math.round(at * 10) / 10}s`;
}

function evidenceRows(evidence: readonly Evidence[]): Cell[][] {
  return evidence.map((e) => [
    cell(`       ${atText(e.at)}`),
    cell(`${e.kind} ${e.ref}${e.count ? ` (×${e.count})` : ''}`),
    cell(e.text),
  ]);
}

function renderCause(c: Cause, n: number, st: Style): string[] {
  const out = [`  ${n}. ${st.warn(c.title)}`];
  if (c.detail) out.push(`     ${c.detail}`);
  if (c.evidence.length > 0) out.push(`     ${st.bold('evidence:')}`, ...renderTable(['', '', ''], evidenceRows(c.evidence), st.bold).slice(1));
  c.checks.forEach((x, i) => out.push(`     ${i === 0 ? st.bold('check:') : '      '}   ${x}`));
  if (c.fix) out.push(`     ${st.bold('fix:')}     ${c.fix}`);
  if (c.caution) out.push(`     ${st.bold('caution:')} ${st.bad(c.caution)}`);
  out.push(st.dim(`     source:  ${c.source}`));
  return out;
}

/** renderDiagnosis prints why the pod is stuck Terminating, not Ready, restarting or Failed; nothing for other questions. */
export function renderDiagnosis(d: PodDiagnosis, st: Style): string[] {
  const title = QUESTIONS[d.question];
  if (!title) return [];
  const out = ['', `${st.bold(title)} ${d.summary}`];
  if (d.causes.length === 0) out.push(st.dim('  no cause found in the pod\'s status, its events, its node or the trace'));
  d.causes.forEach((c, i) => out.push(...renderCause(c, i + 1, st)));
  return out;
}

/** renderPod prints one pod's explanation; `schedulingNote` replaces the attempt count after SCHEDULING. */
export function renderPod(p: PodReport, st: Style, schedulingNote?: string): string[] {
  const s = p.scheduling;
  const out = ['', podHeadline(p, st)];
  if (p.last && p.last.result !== s.message) out.push(st.dim(`last step: ${p.last.phase}: ${p.last.result}`));
  if (p.diagnosis) out.push(...renderDiagnosis(p.diagnosis, st));
  if (p.traffic) {
    out.push('', `${st.bold('TRAFFIC DURING THE DELETE')} ${p.traffic.exposed ? st.bad(p.traffic.summary) : p.traffic.summary}`);
    if (p.traffic.advice) out.push(`  fix:     ${p.traffic.advice}`);
    out.push(st.dim(`  source:  ${p.traffic.source}`));
  }
  const note = schedulingNote ?? (s.attempts > 0 ? `last of ${s.attempts} attempt${s.attempts === 1 ? '' : 's'}` : '');
  out.push('', st.bold(`SCHEDULING`) + (note ? st.dim(` (${note})`) : ''));
  if (s.attempts > 0) out.push(...renderFilter(s, st), ...renderScores(s, st));
  out.push(...renderWhy(s, st), ...renderAdvice('WHAT WOULD MAKE IT SCHEDULE', s.advice, st));
  return out;
}

/** renderDaemonSet is a DaemonSet's section: each node with its daemon pod, or why it has none. */
function renderDaemonSet(d: DaemonSetReport, st: Style): string[] {
  const running = d.nodes.filter((n) => n.pod).length;
  const rows = d.nodes.map((n) => [n.node, n.pod ? `${n.pod} (${n.phase})` : st.dim(`no daemon pod: ${n.why}`)]);
  const width = Math.max(...d.nodes.map((n) => n.node.length));
  return ['', `${st.bold('DAEMONSET')} ${d.daemonSet}: a daemon pod on ${running} of ${d.nodes.length} nodes`, ...rows.map(([node, what]) => `  ${node!.padEnd(width)}  ${what}`)];
}

/** renderAutoscaler is an autoscaler's section: replicas, metrics against targets, its scalings, conditions and why. */
function renderAutoscaler(a: AutoscalerReport, st: Style): string[] {
  const out = ['', `${st.bold('AUTOSCALER')} ${a.hpa} → ${a.target}: ${a.replicas.current} replicas (desired ${a.replicas.desired}; min ${a.replicas.min}, max ${a.replicas.max})`];
  for (const m of a.metrics) out.push(`  ${m.name}: ${m.current} against a target of ${m.target}`);
  for (const s of a.scaled) out.push(`  scaled ${s.from} → ${s.to} at ${s.at}s: ${s.reason}`);
  for (const c of a.conditions) out.push(`  ${c.type} ${c.status} ${c.reason}: ${c.message}`);
  out.push(`  ${st.bold('WHY')} ${a.why}`);
  return out;
}

/** renderExplain prints the whole explanation for a person. */
export function renderExplain(report: ExplainReport, kubectl: string, manifest: string, st: Style, command?: KubectlLines, commands?: SimulationResult['commands']): string {
  const { applyLines, deleteLines } = splitKubectl(withoutCommands(kubectl, commands));
  const headers = commandHeaders(manifest, command, deleteLines);
  const out: string[] = [st.bold(`$ ${headers.apply}`)];
  for (const line of applyLines) out.push(/^(error|Error|The )/.test(line) ? st.bad(line) : line);
  out.push(...commandLines(commands, st));
  if (deleteLines.length > 0) out.push(st.bold(`$ ${headers.delete}`), ...deleteLines);
  for (const p of report.pods) out.push(...renderPod(p, st));
  if (report.pods.length === 0) out.push('', st.dim('no pod was made'));
  for (const d of report.daemonSets ?? []) out.push(...renderDaemonSet(d, st));
  for (const a of report.autoscalers ?? []) out.push(...renderAutoscaler(a, st));
  const r = report.rejection;
  if (r) out.push('', `${st.bold('REJECTED')} at ${st.phase(r.phase)}: ${st.bad(`${r.code} ${r.reason}`)}`, `  ${r.message}`);
  for (const n of report.notCreated ?? []) out.push('', `${st.bold('NOT CREATED')} ${n.missing.join(', ')} of StatefulSet ${n.object}`, `  ${n.why}`);
  for (const c of report.noJobYet ?? []) out.push('', `${st.bold('NO JOB YET')} of CronJob ${c.object}`, `  ${c.why}`);
  for (const f of report.refused ?? []) out.push('', `${st.bold('REFUSED')} a controller's pod at ${st.phase(f.phase)}: ${st.bad(`${f.code} ${f.reason}`)}`, `  ${f.message}`);
  out.push(...renderAdvice('ADVICE', report.advice, st));
  const ok = ['Running', 'Succeeded', 'Deleted'].includes(report.outcome);
  out.push('', `${st.bold('OUTCOME')} ${ok ? st.good(report.outcome) : st.bad(report.outcome)}`);
  return out.join('\n');
}
