// A create by generateName whose generated name is taken: the registry draws a new name and goes through preparation,
// validation and validating admission again, up to 8 tries, before it answers 409 AlreadyExists. See
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (createWithGenerateNameRetry,
// maxNameGenerationCreateAttempts) at v0.36.0; RetryGenerateName is GA and locked on since 1.32.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiOutcome } from '../../../src/engine/apiserver/server';
import { MAX_NAME_GENERATION_CREATE_ATTEMPTS } from '../../../src/engine/apiserver/create';
import { credentialsFor } from '../../../src/engine/kubectl/credentials';
import type { TraceInput } from '../../../src/engine/runtime/recorder';
import { entriesOf, type Steps } from '../../../src/engine/runtime/step';
import type { Simulation } from '../../../src/engine/simulation';
import { deployment, simulate } from '../../support/budgets';

/** drive runs a request's steps to their end, returning its answer and the steps it yielded. */
function drive(gen: Steps<ApiOutcome>): { out: ApiOutcome; steps: TraceInput[] } {
  const steps: TraceInput[] = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return { out: r.value, steps };
    steps.push(...entriesOf(r.value));
  }
}

/** createGenerated POSTs a Pod with generateName `gen-` as the cluster admin. */
function createGenerated(sim: Simulation): { out: ApiOutcome; steps: TraceInput[] } {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'gen-', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
  return drive(sim.api.serve({
    verb: 'create', method: 'POST', path: '/api/v1/namespaces/default/pods', apiVersion: 'v1', kind: 'Pod', group: '',
    resource: 'pods', namespace: 'default', object, credentials: credentialsFor({ kind: 'default' }),
  }));
}

const nameOf = (out: ApiOutcome): string | undefined => (out.ok ? out.object?.metadata?.name : undefined);
const persisted = (steps: TraceInput[]) => steps.filter((s) => s.phase === 'etcd.persist').map((s) => s.result);

test('a generated name that is taken is drawn again: the second name is stored, the first refusal is in the trace', () => {
  const sim = simulate(deployment(1));
  const before = sim.rng.state;
  const first = nameOf(createGenerated(sim).out);
  assert.match(first ?? '', /^gen-[a-z0-9]{5}$/);
  // The same draw again: the registry's first name is the one just stored.
  sim.rng.setState(before);
  const { out, steps } = createGenerated(sim);
  const second = nameOf(out);
  assert.equal(out.ok && out.code, 201);
  assert.match(second ?? '', /^gen-[a-z0-9]{5}$/);
  assert.notEqual(second, first);
  const results = persisted(steps);
  assert.equal(results.length, 2);
  assert.equal(results[0], `pods "${first}" already exists: the name was generated, so the registry tries again with a new one (attempt 2 of 8)`);
  assert.match(results[1]!, new RegExp(`^stored Pod "${second}"`));
  // Validation ran once per try.
  assert.equal(steps.filter((s) => s.phase === 'apiserver.validate').length, 2);
});

test('eight taken names in a row: 409 AlreadyExists with the last one', () => {
  const sim = simulate(deployment(1));
  // Every draw gives the same suffix, so every try after the first create finds its name taken.
  sim.rng.string = () => 'bbbbb';
  assert.equal(nameOf(createGenerated(sim).out), 'gen-bbbbb');
  const { out, steps } = createGenerated(sim);
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.error.status.code, 409);
  assert.equal(!out.ok && out.error.message, 'pods "gen-bbbbb" already exists');
  assert.equal(persisted(steps).length, MAX_NAME_GENERATION_CREATE_ATTEMPTS);
  assert.equal(persisted(steps).at(-1), 'pods "gen-bbbbb" already exists');
});

test('a name given in the request is never drawn again: one try, 409', () => {
  const sim = simulate(deployment(1));
  const pod = sim.store.list('Pod', 'default')[0]!;
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.metadata!.name, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
  const { out, steps } = drive(sim.api.serve({
    verb: 'create', method: 'POST', path: '/api/v1/namespaces/default/pods', apiVersion: 'v1', kind: 'Pod', group: '',
    resource: 'pods', namespace: 'default', name: pod.metadata!.name, object, credentials: credentialsFor({ kind: 'default' }),
  }));
  assert.equal(!out.ok && out.error.status.code, 409);
  assert.deepEqual(persisted(steps), [`pods "${pod.metadata!.name}" already exists`]);
});
