// Reading what kubectl prints so that two runs compare: tables and describe output split into cells, the cells that
// hold times since an event (AGE, LAST SEEN, Age) made one token, random name suffixes normalised; and a line diff.
import { normalize } from '../common.mjs';

/** AGE_HEADERS are the column titles whose cells are durations that only say when a run happened. */
const AGE_HEADERS = new Set(['AGE', 'LAST SEEN', 'Age']);

/**
 * cellsOf turns kubectl's output into lines of cells (split at two or more spaces, as tabwriter pads them), with the
 * age cells of each table replaced by `AGE` (a table runs from its header line to a blank or less indented line),
 * uids as `UID`, and each node name by `nodeName` (the first of the nodes alike but for their names: the real
 * scheduler breaks ties between them at random).
 */
export function cellsOf(text, nodeName = (n) => n) {
  const lines = String(text ?? '').replace(/\s+$/, '').replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, 'UID')
    .replace(/\b(worker-\d+|control-plane)\b/g, (n) => nodeName(n)).split('\n');
  const out = [];
  let ageAt = -1, indent = '';
  for (const line of lines) {
    const lead = /^\s*/.exec(line)[0];
    const cells = line.trim().split(/\s{2,}/).map((c) => normalize(c));
    if (!line.trim() || lead.length < indent.length) ageAt = -1;
    const header = cells.findIndex((c) => AGE_HEADERS.has(c));
    if (header >= 0) { ageAt = header; indent = lead; } else if (ageAt >= 0 && cells.length > ageAt && !/^-+$/.test(cells[ageAt])) cells[ageAt] = 'AGE';
    out.push(`${lead}${cells.join(' | ')}`);
  }
  return out;
}

/**
 * CLIENT_SKEW are differences a kubectl older than 1.36 prints (the oracle's kubectl may be older than the 1.36 client
 * the engine prints as): the line the engine prints, the line the older client prints, and the 1.36 source.
 */
export const CLIENT_SKEW = [
  {
    engine: /^\s+Optional: \| (true|false)$/, reference: /^\s+ConfigMapOptional: \| (<nil>|true|false)$/,
    why: 'kubectl v0.36 pkg/describe/describe.go printProjectedVolumeSource prints "Optional:" (a bool) under a projected ConfigMap; older clients printed "ConfigMapOptional:" (the pointer)',
  },
];

/** explainSkew takes out of a line diff the pairs CLIENT_SKEW explains; returns what is left and what it explained. */
export function explainSkew(diff) {
  const left = [...diff], explained = [];
  for (const rule of CLIENT_SKEW) {
    for (;;) {
      const i = left.findIndex((l) => l.startsWith('- ') && rule.engine.test(l.slice(2)));
      const j = left.findIndex((l) => l.startsWith('+ ') && rule.reference.test(l.slice(2)));
      if (i < 0 || j < 0) break;
      explained.push({ engine: left[i].slice(2), reference: left[j].slice(2), why: rule.why });
      left.splice(Math.max(i, j), 1);
      left.splice(Math.min(i, j), 1);
    }
  }
  return { left, explained };
}

/** lineDiff lists the lines only one side has, in order (a longest common subsequence between them). */
export function lineDiff(mine, theirs) {
  const n = mine.length, m = theirs.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = mine[i] === theirs[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && mine[i] === theirs[j]) { i++; j++; } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) out.push(`- ${mine[i++]}`); else out.push(`+ ${theirs[j++]}`);
  }
  return out;
}
