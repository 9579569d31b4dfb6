// Differential runner: the same manifest, cluster and identity through the engine (`node dist/cli.js run ... --json`)
// and through the reference cluster (.cache/oracle/refcluster, the real Kubernetes 1.36 control plane, driven by the
// real kubectl), then what each said compared: for refused requests the Status (code, reason, message) and what
// kubectl printed; for accepted ones the stored objects after defaulting and admission, the node the scheduler chose
// or its FailedScheduling message, and what the controllers made (ReplicaSets, pods, their events; EndpointSlices;
// what the garbage collector, the pod garbage collector, the node lifecycle and the CronJob controllers did; on a
// reference whose stand-in kubelet runs the pods, a rolling update, disruption budgets, an eviction and drain, an autoscaler).
// Three families follow the manifest cases on the embedded cluster: `fields` (oracle/fields/: manifest variants of every
// PodSpec field, created on both API servers directly), `kubectl` (oracle/kubectl/: the real kubectl's apply, get
// pods -o wide, describe pod and get events beside the engine's Debug Console) and `tables` (oracle/tables.mjs: the
// server's Tables of every printed kind beside the engine's printers, and kubectl get's text beside the console's).
// Usage: node scripts/oracle.mjs [--only SUBSTRING] [--swagger FILE] [--fields-limit N] [--fields-seed N]
// (build first: npm run build, npm run oracle:build). ORACLE_OUT=DIR writes elsewhere than .cache/oracle, ORACLE_BIN=FILE
// takes another refcluster. Writes OUT/report.json. Exits 0 whatever the differences; 1 only when the reference cluster cannot start.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASES, GENERATED } from './oracle/cases.mjs';
import { BIN, CLI, KUBECTL, OUT, ROOT, SCHEDULED, WORK, label, run, stage } from './oracle/common.mjs';
import { compareCase, runEngine } from './oracle/compare.mjs';
import { loadEngine } from './oracle/engine-bundle.mjs';
import { fieldsCases, runFields } from './oracle/fields/run.mjs';
import { KUBECTL_CASES, runKubectlFamily } from './oracle/kubectl/family.mjs';
import { TABLES_CASES, runTablesFamily } from './oracle/tables.mjs';
import { printFields, summarize } from './oracle/fields/summary.mjs';
import { RefCluster } from './oracle/refcluster.mjs';

/** runManifestCase runs one manifest case on both sides and compares them; the reference is reset after it. */
async function runManifestCase(ref, c, results) {
  stage(c.manifest);
  process.stderr.write(`  ${label(c)}\n`);
  const result = { case: label(c), components: {} };
  const engine = runEngine(c);
  result.engine = { outcome: engine.outcome, kubectl: engine.kubectl, rejection: engine.rejection, error: engine.error };
  if (engine.error) result.components.apiserver = [{ field: 'engine', engine: engine.error, reference: '' }];
  else {
    try { await compareCase(ref, c, engine, result); } catch (err) { (result.components.apiserver ??= []).push({ field: 'runner', engine: '', reference: String(err.stack ?? err) }); }
  }
  results.push(result);
  SCHEDULED.names = [];
  run(KUBECTL, ['--kubeconfig', ref.masters, 'delete', '-f', c.manifest, '--ignore-not-found', '--wait=false', '--grace-period=0', '--force'], { cwd: WORK });
  if (c.drain) run(KUBECTL, ['--kubeconfig', ref.masters, 'uncordon', c.drain.node], { cwd: WORK });
  try {
    await ref.reset();
  } catch (err) {
    console.error(err.message);
    result.error = err.message;
    process.exitCode = 1;
    return false;
  }
  return true;
}

/**
 * families lists the case families beside the manifest cases, each on the embedded cluster: `kubectl`
 * (oracle/kubectl/), `tables` (oracle/tables.mjs) and `fields` (the manifest variants of oracle/fields/), each with its cases for this run (those
 * whose label holds `--only`'s text).
 */
function families(argv, only) {
  const out = [];
  // kubectl first: it reads the cluster's events, which the thousands of pods of `fields` would still be adding to.
  const kubectlCases = KUBECTL_CASES.filter((c) => !only || c.label.includes(only));
  if (kubectlCases.length) out.push({ name: 'kubectl', count: kubectlCases.length, run: async (ref) => runKubectlFamily(ref, await loadEngine(ROOT, OUT), kubectlCases) });
  const tablesCases = TABLES_CASES.filter((c) => !only || c.label.includes(only));
  if (tablesCases.length) out.push({ name: 'tables', count: tablesCases.length, run: async (ref) => runTablesFamily(ref, await loadEngine(ROOT, OUT), tablesCases) });
  const fields = fieldsCases(argv, only);
  if (fields.error) { if (!only || 'fields'.includes(only) || only.startsWith('fields')) console.error(fields.error); }
  else if (fields.cases.length) {
    out.push({
      name: 'fields', count: fields.cases.length,
      run: async (ref) => {
        process.stderr.write(`  fields: ${fields.cases.length} manifest variants of ${fields.fields} fields of PodSpec\n`);
        const engine = await loadEngine(ROOT, OUT);
        return runFields(ref, engine, fields.cases, (done, all) => process.stderr.write(`    ${done}/${all}\n`));
      },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------------------------
async function main() {
  const argv = process.argv.slice(2);
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
  if (!existsSync(BIN)) { console.error(`${BIN} is missing: run npm run oracle:build`); process.exit(1); }
  if (!existsSync(CLI)) { console.error(`${CLI} is missing: run npm run build`); process.exit(1); }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  mkdirSync(join(OUT, 'gen'), { recursive: true });
  for (const [name, text] of Object.entries(GENERATED)) writeFileSync(join(OUT, 'gen', `${name}.yaml`), text);
  const cases = CASES.filter((c) => !only || label(c).includes(only));
  const t0 = Date.now();
  const results = [];
  // Group by cluster files: one reference cluster each. The families run on the embedded cluster, after its cases.
  const groups = new Map();
  const groupOf = (key) => groups.get(key) ?? groups.set(key, { cases: [], families: [] }).get(key);
  // A group is a list of cluster files, and whether the stand-in kubelet runs the pods (refcluster --pods-run).
  for (const c of cases) groupOf(JSON.stringify([c.cluster ?? [], !!c.podsRun])).cases.push(c);
  for (const f of families(argv, only)) groupOf(JSON.stringify([[], false])).families.push(f);
  const clusters = [];
  let n = 0;
  for (const [key, group] of groups) {
    const [files, podsRun] = JSON.parse(key);
    const logFile = join(OUT, `refcluster-${n++}.log`);
    process.stderr.write(`reference cluster ${files.length ? files.join(' ') : '(embedded)'}${podsRun ? ' --pods-run' : ''} ... `);
    let ref;
    try {
      ref = await RefCluster.start(files, logFile, podsRun);
    } catch (err) {
      // Reported, and the run goes on with the other clusters; the exit status says it failed.
      console.error(`\n${err.message}`);
      process.exitCode = 1;
      clusters.push({ cluster: files, error: err.message, log: logFile });
      for (const c of group.cases) results.push({ case: label(c), components: {}, error: `reference cluster did not start: ${err.message}` });
      continue;
    }
    process.stderr.write(`ready in ${ref.startSeconds.toFixed(1)}s\n`);
    clusters.push({ cluster: files, startSeconds: ref.startSeconds, log: logFile });
    let healthy = true;
    for (const c of group.cases) if (!(healthy = await runManifestCase(ref, c, results))) break;
    for (const f of group.families) {
      if (!healthy) break;
      try {
        results.push(...await f.run(ref));
        await ref.reset();
      } catch (err) {
        console.error(`${f.name}: ${err.stack ?? err}`);
        results.push({ case: f.name, components: {}, error: String(err.message ?? err) });
        process.exitCode = 1;
      }
    }
    await ref.stop();
  }
  report(results, clusters, (Date.now() - t0) / 1000);
}

/** report prints the table and every difference, and writes report.json. */
function report(results, clusters, seconds) {
  const table = {};
  for (const r of results) {
    for (const [component, diffs] of Object.entries(r.components)) {
      const row = (table[component] ??= { cases: 0, agree: 0, differ: 0 });
      row.cases++;
      diffs.length ? row.differ++ : row.agree++;
    }
  }
  // Strings print as JSON too, so that "1" and 1 read apart; multi-line text is shown as it is.
  const show = (v) => (v === undefined ? '(absent)' : typeof v === 'string' && v.includes('\n') ? `\n      ${v.replace(/\n/g, '\n      ')}` : JSON.stringify(v));
  console.log('\ncomponent        | cases | agree | differ');
  console.log('-----------------|-------|-------|-------');
  for (const [k, v] of Object.entries(table)) console.log(`${k.padEnd(16)} | ${String(v.cases).padStart(5)} | ${String(v.agree).padStart(5)} | ${String(v.differ).padStart(6)}`);
  console.log('\nDifferences (case | component | field):');
  for (const r of results.filter((x) => x.family !== 'fields')) {
    for (const [component, diffs] of Object.entries(r.components)) {
      for (const d of diffs) {
        // kubectl's output differs by lines: those only the engine printed (-) and those only kubectl printed (+).
        if (d.lines) console.log(`\n* ${r.case} | ${component} | ${d.field}\n    ${d.lines.join('\n    ')}`);
        else console.log(`\n* ${r.case} | ${component} | ${d.field}\n    engine:    ${show(d.engine)}\n    reference: ${show(d.reference)}`);
      }
    }
  }
  const skew = results.flatMap((r) => (r.clientSkew ?? []).map((k) => ({ case: r.case, ...k })));
  if (skew.length) {
    console.log(`\nExplained by the kubectl client's version (${skew.length} lines; the engine prints as kubectl 1.36 does):`);
    for (const why of [...new Set(skew.map((k) => k.why))]) {
      const k = skew.find((x) => x.why === why);
      console.log(`  ${skew.filter((x) => x.why === why).length} × ${why}\n    e.g. ${k.case} | ${k.command}\n      engine:    ${k.engine}\n      reference: ${k.reference}`);
    }
  }
  const fieldResults = results.filter((x) => x.family === 'fields');
  if (fieldResults.length) printFields(fieldResults);
  for (const r of results.filter((x) => x.error)) console.log(`\n! ${r.case}: ${r.error}`);
  console.log(`\n${results.length} cases on ${clusters.length} reference clusters in ${seconds.toFixed(0)}s; full report: ${join(OUT, 'report.json')}`);
  const fieldFamilies = fieldResults.length ? summarize(fieldResults) : undefined;
  writeFileSync(join(OUT, 'report.json'), JSON.stringify({ seconds, table, clusters, ...(fieldFamilies ? { fieldFamilies } : {}), results }, null, 2));
}

main().catch((err) => { console.error(err); process.exit(1); });
