// The `fields` family: each manifest variant of fields/cases.mjs created as a Pod on both sides — the engine's
// kube-apiserver in-process and the reference cluster's over HTTPS — with the same request (POST
// /api/v1/namespaces/default/pods?fieldValidation=Strict, as kubectl create sends it, as the cluster admin). Compared:
// the HTTP code; for a refusal the Status reason, message and causes; for a creation the object returned (what was
// stored after decoding, defaulting and admission); the warnings of either.
import { ROOT, diffValues, normalize } from '../common.mjs';
import { apiClient } from '../api-client.mjs';
import { fieldCases } from './cases.mjs';
import { loadSpec, specPath, walkPodSpec } from './spec.mjs';

const POST = '/api/v1/namespaces/default/pods?fieldValidation=Strict';

/** numberFlag reads `--flag N`. */
const numberFlag = (argv, flag) => (argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : undefined);

/** fieldsCases lists the family's cases for a run (`--fields-seed N`, `--fields-limit N`), or why it cannot. */
export function fieldsCases(argv, only) {
  const file = specPath(ROOT, argv);
  if (!file) return { error: 'the fields family needs the Kubernetes 1.36 swagger.json: --swagger FILE or KUBERNETES_API_SPEC=FILE' };
  const spec = loadSpec(file);
  const fields = walkPodSpec(spec);
  const all = fieldCases(spec.definitions, fields, { seed: numberFlag(argv, '--fields-seed') ?? 1, limit: numberFlag(argv, '--fields-limit') });
  return { fields: fields.length, cases: all.filter((c) => !only || c.label.includes(only)) };
}

/** answerView is what is compared of an answer: the code, a refusal's Status, a creation's stored object, warnings. */
function answerView(a) {
  const view = { code: a.code };
  if (a.code >= 300 || a.code === 0) {
    const s = a.status ?? a.body ?? {};
    // An empty reason is left out of the Status (metav1.Status.Reason is omitempty).
    Object.assign(view, { reason: s.reason || undefined, message: s.message, causes: (s.details?.causes ?? []).map((c) => `${c.field}: ${c.message} (${c.reason})`) });
  } else {
    const o = structuredClone(a.object ?? a.body ?? {});
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields']) delete o.metadata?.[k];
    // A condition's times are each side's clock (the engine's is virtual).
    for (const c of o.status?.conditions ?? []) for (const t of ['lastTransitionTime', 'lastProbeTime']) if (c[t]) c[t] = '(time)';
    view.object = normalize(o);
  }
  if (a.warnings?.length) view.warnings = a.warnings;
  return view;
}

/** compareAnswers lists the differences of two answers, by field of the view (`code`, `message`, `object.spec...`). */
export function compareAnswers(mine, theirs) {
  const a = answerView(mine), b = answerView(theirs);
  const short = (v) => (v.code >= 300 || v.code === 0 ? `${v.code} ${v.message}` : `${v.code} created`);
  if (a.code !== b.code) return [{ field: 'code', engine: short(a), reference: short(b) }];
  return diffValues(a, b, '', []);
}

/** pool runs `work` over items with at most `n` at once, keeping their order in the results. */
async function pool(items, n, work) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) { const i = next++; out[i] = await work(items[i], i); }
  }));
  return out;
}

/**
 * runFields runs the cases on the engine (`createEngine()` of engine-entry.mjs) and on the started reference
 * cluster, and returns one result per case, in the runner's form (`{ case, components: { fields: [diffs] } }`).
 */
export async function runFields(ref, engineModule, cases, progress = () => {}) {
  const engine = engineModule.createEngine();
  const mine = cases.map((c) => {
    let answer;
    // An exception in the engine is a difference of its own (a real server answers every request).
    try { answer = engine.create(c.pod); } catch (err) { return { code: 0, status: { message: `the engine threw: ${String(err.stack ?? err).split('\n').slice(0, 3).join(' | ')}` } }; }
    if (answer.code === 201) engine.remove(c.pod.metadata.name);
    return answer;
  });
  const client = apiClient(ref.info.kubeconfig);
  let done = 0;
  const theirs = await pool(cases, 3, async (c) => {
    const answer = await client.send('POST', POST, c.pod);
    if (answer.code === 201) await client.send('DELETE', `/api/v1/namespaces/default/pods/${c.pod.metadata.name}?gracePeriodSeconds=0`);
    if (++done % 100 === 0) progress(done, cases.length);
    return answer;
  });
  client.close();
  return cases.map((c, i) => {
    const diffs = compareAnswers(mine[i], theirs[i]);
    const short = (a) => (a.code >= 300 || a.code === 0 ? `${a.code} ${(a.status ?? a.body)?.message}` : `${a.code} created`);
    // The reference's whole answer is kept in the report: what a test pinning it copies.
    return {
      case: c.label, family: 'fields', field: c.field, variant: c.variant, pod: c.pod, engine: short(mine[i]), reference: short(theirs[i]),
      referenceAnswer: answerView(theirs[i]), components: { fields: diffs },
    };
  });
}
