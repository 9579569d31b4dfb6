// `kubectl cordon NODE` and `kubectl uncordon NODE` (and drain's first step): the resource builder GETs the node;
// a node already as asked prints `node/NAME already cordoned`; otherwise the two-way strategic merge patch of
// spec.unschedulable is sent (`{"spec":{"unschedulable":true}}`, or `null` to uncordon, the field being omitempty) and
// kubectl prints `node/NAME cordoned`. A refused patch prints `error: unable to cordon node "NAME": <error>` and the
// command goes on. See staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (Complete, RunCordonOrUncordon, already,
// changed) and staging/src/k8s.io/kubectl/pkg/drain/cordon.go (UpdateIfRequired, PatchOrReplaceWithContext), v0.36.3.
import { canonicalJSON } from '../api/naming';
import type { Node } from '../api/types';
import type { Steps } from '../runtime/step';
import { renderKubectlError } from './errors';
import { ACCEPT } from './http';
import { get, type KubectlRun, NODES, say, sent } from './node-client';

/** CordonResult says whether the node was found (drain goes on only then; a refused patch does not stop it). */
export interface CordonResult {
  found: boolean;
}

/** cordon runs `kubectl cordon NODE` (desired true) or `kubectl uncordon NODE` (desired false). */
export function* cordon(k: KubectlRun, nodeName: string, desired: boolean): Steps<CordonResult> {
  const ref = `Node/${nodeName}`;
  const verb = desired ? 'cordon' : 'uncordon';
  yield* sent(k, ref, { verb: 'GET', path: `/api/v1/nodes/${nodeName}`, accept: ACCEPT.json }, 'the resource builder reads the node');
  const got = yield* get<Node>(k, NODES, undefined, nodeName, ref);
  if ('error' in got) {
    // Complete's builder error, through CheckErr: `Error from server (NotFound): nodes "worker-9" not found`.
    yield* say(k, ref, renderKubectlError(got.error), 'failed', { status: got.error.status });
    return { found: false };
  }
  // UpdateIfRequired: spec.unschedulable is already what is asked.
  if ((got.object.spec?.unschedulable === true) === desired) {
    yield* say(k, ref, `node/${nodeName} already ${verb}ed`, undefined, { unschedulable: desired });
    return { found: true };
  }
  const patch = { spec: { unschedulable: desired ? true : null } };
  const body = canonicalJSON(patch);
  const path = `/api/v1/nodes/${nodeName}`;
  yield* sent(k, ref, { verb: 'PATCH', path, accept: ACCEPT.json, body, contentType: 'application/strategic-merge-patch+json' }, `${verb} the node (a strategic merge patch of spec.unschedulable)`);
  const patched = yield* k.api.serve(
    { verb: 'patch', method: 'PATCH', path, apiVersion: 'v1', kind: 'Node', group: '', resource: 'nodes', name: nodeName, credentials: k.credentials },
    ref, {}, { patch },
  );
  if (!patched.ok) {
    yield* say(k, ref, `error: unable to ${verb} node ${JSON.stringify(nodeName)}: ${patched.error.message}`, 'failed', { status: patched.error.status });
    return { found: true };
  }
  yield* say(k, ref, `node/${nodeName} ${verb}ed`, undefined, { unschedulable: desired });
  return { found: true };
}
