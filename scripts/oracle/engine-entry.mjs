// The engine's side of the request-level oracle families, bundled by esbuild (engine-bundle.mjs) from the engine's
// sources: one create request at a time served by the engine's kube-apiserver on the embedded cluster, as kubectl
// create sends it (POST with fieldValidation=Strict), with the answer as the HTTP layer would give it; and a run of a
// manifest without kubelets, as the reference cluster has none, with the Debug Console's kubectl commands after it;
// and the server's Tables and the console's text tables of given objects.
import { deepClone } from '../../src/engine/api/types';
import { DEFAULT_CREDENTIALS } from '../../src/engine/apiserver/authn/x509';
import { embeddedCluster } from '../../src/engine/cluster/files';
import { loadInputs } from '../../src/engine/cluster/loader';
import { Simulation } from '../../src/engine/simulation';
import { evaluateConsole } from '../../src/engine/console';
import { printTable } from '../../src/engine/console/tables';
import { GET_TABWRITER, tabwrite } from '../../src/engine/console/tabwriter';

/** tableFor is the engine's TableConvertor (src/engine/printers/registry.ts), for the `tables` family. */
export { tableFor } from '../../src/engine/printers/registry';

/** consoleTable is the text `kubectl get` prints in the Debug Console for these objects of one kind (-o wide when `wide`). */
export function consoleTable(kind, objects, nowMs, wide) {
  const t = printTable(kind, objects, nowMs, wide);
  return tabwrite([t.header, ...t.rows].map((cells) => cells.join('\t')).join('\n'), GET_TABWRITER);
}

/**
 * drain runs a request's generator to its end and returns its answer: its trace entries are dropped and a wait (a
 * webhook's timeout) costs no time, as the request runs outside the simulation's clock.
 */
function drain(gen) {
  for (;;) {
    const step = gen.next();
    if (step.done) return step.value;
  }
}

/**
 * createEngine starts the engine on the embedded cluster and returns `create(pod)`: the pod POSTed to
 * /api/v1/namespaces/default/pods?fieldValidation=Strict as the cluster admin, answered as
 * `{ code, status }` for a refusal (the Status body) or `{ code, object, warnings }` for a created pod (the stored
 * object, which create returns). `remove(name)` deletes a created pod from the store, as a forced delete would.
 */
export function createEngine() {
  const inputs = loadInputs({ manifest: { file: 'pod.json', text: '' }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  const create = (pod, namespace = 'default') => {
    const name = typeof pod?.metadata?.name === 'string' ? pod.metadata.name : undefined;
    const req = {
      verb: 'create', method: 'POST', path: `/api/v1/namespaces/${namespace}/pods?fieldValidation=Strict`, apiVersion: 'v1', kind: 'Pod',
      group: '', resource: 'pods', namespace, ...(name ? { name } : {}), object: deepClone(pod), credentials: { certificatePem: DEFAULT_CREDENTIALS },
    };
    const out = drain(sim.api.serve(req, `Pod/${namespace}/${name ?? ''}`));
    if (!out.ok) return { code: out.error.status.code, status: out.error.status, warnings: out.warnings ?? [] };
    return { code: out.code, object: deepClone(out.object), warnings: out.warnings ?? [] };
  };
  const remove = (name, namespace = 'default') => { sim.store.remove('Pod', namespace, name); };
  return { create, remove };
}

/** NO_KUBELETS is a Behavior that stops every kubelet of the embedded cluster from the start: the reference has none. */
const NO_KUBELETS = 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nnodes:\n  control-plane: {kubelet: down}\n  worker-1: {kubelet: down}\n  worker-2: {kubelet: down}\n';

/**
 * runConsole runs a manifest (`{ file, text }`) on the embedded cluster for `forMs` of virtual time with every kubelet
 * stopped, then answers each Debug Console line of `commands` (a function of the default namespace's pods, as
 * `{ name, node }`, gives them): `{ kubectl, outputs }`, what kubectl apply printed and each command's output (or its error).
 */
export function runConsole(manifest, commands, forMs = 10_000) {
  const inputs = loadInputs({ manifest, clusters: [], behavior: { file: 'behavior.yaml', text: NO_KUBELETS }, identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, { forMs });
  const result = sim.run();
  const pods = sim.store.list('Pod', 'default').map((p) => ({ name: p.metadata.name, node: p.spec?.nodeName }));
  const outputs = commands(pods).map((line) => {
    const r = evaluateConsole(sim, line);
    return r.error ? r.message : r.output;
  });
  return { kubectl: result.kubectl, outputs, pods };
}
