// The `kubectl` family: the real kubectl on PATH against the reference cluster — `kubectl apply -f` of accepted and
// refused manifests, then `kubectl get pods -o wide`, `kubectl describe pod` and `kubectl get events` — beside what
// the engine's kubectl printed for the same apply and what its Debug Console prints for the same commands, after a
// run in which no kubelet acts (the reference has none): pods bound but Pending, with no IP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GEN, KUBECTL, ROOT, WORK, nodeClass, normalize, run, stage } from '../common.mjs';
import { waitScheduled } from '../compare.mjs';
import { refList } from '../refcluster.mjs';
import { cellsOf, explainSkew, lineDiff } from './text.mjs';

/** KUBECTL_CASES are the manifests of the family, each applied on both sides and then looked at with kubectl. */
export const KUBECTL_CASES = [
  'examples/pod.yaml', 'examples/deployment.yaml', 'test/fixtures/explain/pod-64-cpu.yaml', 'test/fixtures/explain/pod-node-selector.yaml',
  'test/fixtures/controllers/job-pi.yaml', 'test/fixtures/validation/several-causes.yaml', 'test/fixtures/decode/unknown-field.yaml',
  'test/fixtures/apps/selector-mismatch.yaml', `${GEN}/host-port-clash.yaml`,
  // Warnings on accepted objects, several refusals in one file (the output order of each).
  'test/fixtures/kubectl/warnings.yaml', 'test/fixtures/kubectl/two-refused.yaml',
].map((manifest) => ({ manifest, label: `kubectl ${manifest}` }));

/**
 * COMMANDS are the kubectl lines run after the apply, given the default namespace's pods (sorted by name up to its
 * random suffix, then by node): the first pod is described, as a person would look at one of them.
 */
const COMMANDS = (pods) => ['kubectl get pods -o wide', ...(pods.length ? [`kubectl describe pod ${pods[0]}`] : []), 'kubectl get events'];

/** podOrder sorts pods by their name up to the random suffix, then by node, then by name. */
const podOrder = (pods) => [...pods].sort((a, b) => normalize(a.name).localeCompare(normalize(b.name)) || (a.node ?? '').localeCompare(b.node ?? '') || a.name.localeCompare(b.name)).map((p) => p.name);

/**
 * compareOutput adds one command's difference: the lines only the engine or only kubectl printed, but those a kubectl
 * older than 1.36 prints otherwise (CLIENT_SKEW), which go to `skew`.
 */
function compareOutput(out, skew, what, mine, theirs, { sorted = false, nodeName } = {}) {
  let a = cellsOf(mine, nodeName), b = cellsOf(theirs, nodeName);
  // Events of one second come in the order of their names, which hold a random suffix: compared as a set.
  if (sorted) { a = [a[0], ...a.slice(1).sort()]; b = [b[0], ...b.slice(1).sort()]; }
  const { left, explained } = explainSkew(lineDiff(a, b));
  skew.push(...explained.map((e) => ({ command: what, ...e })));
  if (left.length) out.push({ field: what, engine: String(mine ?? '').trimEnd(), reference: String(theirs ?? '').trimEnd(), lines: left });
}

/** runKubectlFamily runs the cases on the engine (`runConsole` of engine-entry.mjs) and on the reference cluster. */
export async function runKubectlFamily(ref, engineModule, cases) {
  const results = [];
  // The node controller's RegisteredNode events of the cluster's start are no case's.
  await ref.reset();
  const nodes = refList(ref, 'nodes');
  const nodeName = (n) => nodeClass(nodes, n);
  for (const c of cases) {
    process.stderr.write(`  ${c.label}\n`);
    stage(c.manifest);
    const engine = engineModule.runConsole({ file: c.manifest, text: readFileSync(join(ROOT, c.manifest), 'utf8') }, (pods) => COMMANDS(podOrder(pods.map((p) => ({ ...p, node: p.node && nodeName(p.node) })))));
    const diffs = [], skew = [];
    // stdout and stderr in one pipe, as a terminal shows them: each warning as its answer comes, results, then errors.
    const admin = ['--kubeconfig', ref.info.kubeconfig];
    const applied = run('sh', ['-c', '"$0" "$@" 2>&1', KUBECTL, ...admin, 'apply', '-f', c.manifest], { cwd: WORK });
    const mineApply = engine.kubectl.trim(), theirApply = applied.stdout.trim();
    compareOutput(diffs, skew, 'kubectl apply', mineApply, theirApply, { nodeName });
    await waitScheduled(ref, 12_000);
    const pods = podOrder(refList(ref, 'pods').filter((p) => p.metadata.namespace === 'default').map((p) => ({ name: p.metadata.name, node: p.spec?.nodeName && nodeName(p.spec.nodeName) })));
    const theirs = COMMANDS(pods).map((line) => {
      const r = ref.kubectl(line.split(' ').slice(1), admin);
      return [r.stdout, r.stderr].filter((s) => s.trim()).join('\n');
    });
    const lines = COMMANDS(pods);
    lines.forEach((line, i) => compareOutput(diffs, skew, normalize(line), engine.outputs[i], theirs[i], { sorted: line.endsWith('get events'), nodeName }));
    // What each side printed is kept in the report, agreeing or not.
    const printed = [['kubectl apply', mineApply, theirApply], ...lines.map((line, i) => [line, engine.outputs[i], theirs[i]])].map(([command, e, r]) => ({ command, engine: e, reference: r }));
    results.push({ case: c.label, family: 'kubectl', components: { kubectl: diffs }, printed, ...(skew.length ? { clientSkew: skew } : {}) });
    ref.kubectl(['delete', '-f', c.manifest, '--ignore-not-found', '--wait=false', '--grace-period=0', '--force']);
    await ref.reset();
  }
  return results;
}
