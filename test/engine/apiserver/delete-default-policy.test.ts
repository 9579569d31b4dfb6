// The garbage collection policy of a delete that names none: a v1 ReplicationController orphans its dependents by
// default ("for back compatibility"), so the registry puts the orphan finalizer on it; a policy given, or a GC finalizer
// already there, overrides that; other kinds delete in the background with no finalizer. See
// pkg/registry/core/replicationcontroller/strategy.go (DefaultGarbageCollectionPolicy) and
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (deletionFinalizersForGarbageCollection), v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { type DeleteOptions, deleteObject } from '../../../src/engine/apiserver/delete';
import type { ApiRequest } from '../../../src/engine/apiserver/request';
import { Store } from '../../../src/engine/cluster/store';
import type { EngineContext } from '../../../src/engine/context';
import { VirtualClock } from '../../../src/engine/runtime/clock';

function stored(kind: string, finalizers?: string[]): KubeObject {
  return { apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1', kind, metadata: { name: 'web', namespace: 'default', uid: 'u-web', ...(finalizers ? { finalizers } : {}) } };
}

const cases: { name: string; obj: KubeObject; options: DeleteOptions; finalizers: string[] | 'gone' }[] = [
  { name: 'a ReplicationController deleted with no policy gets the orphan finalizer', obj: stored('ReplicationController'), options: {}, finalizers: ['orphan'] },
  { name: 'a ReplicationController deleted in the background is removed at once', obj: stored('ReplicationController'), options: { propagationPolicy: 'Background' }, finalizers: 'gone' },
  { name: 'a ReplicationController deleted in the foreground waits for its dependents', obj: stored('ReplicationController'), options: { propagationPolicy: 'Foreground' }, finalizers: ['foregroundDeletion'] },
  { name: 'a foregroundDeletion finalizer already there overrides the default', obj: stored('ReplicationController', ['foregroundDeletion']), options: {}, finalizers: ['foregroundDeletion'] },
  { name: 'a ReplicaSet deleted with no policy is removed at once (DeleteDependents, in the background)', obj: stored('ReplicaSet'), options: {}, finalizers: 'gone' },
];

for (const c of cases) {
  test(`delete: ${c.name}`, () => {
    const store = new Store();
    store.put(c.obj);
    const ctx = { store, clock: new VirtualClock(), behavior: { finalizers: [] } } as unknown as EngineContext;
    const req = { kind: String(c.obj.kind), namespace: 'default', name: 'web' } as ApiRequest;
    const gen = deleteObject(ctx, req, `${c.obj.kind}/default/web`, c.options);
    let step = gen.next();
    while (!step.done) step = gen.next();
    assert.equal(step.value.ok, true);
    const live = store.get(String(c.obj.kind), 'default', 'web');
    assert.deepEqual(live ? live.metadata?.finalizers : 'gone', c.finalizers);
  });
}
