// The end of a scheduling cycle and the binding cycle with stand-in plugins: Reserve and its reverse Unreserve, Permit
// rejections and waits, PreBindPreFlight's nomination, PreBind writes, Bind's Skip, PostBind.
// Expected behaviour from pkg/scheduler/schedule_one.go (schedulingCycle, bindingCycle) and runtime/framework.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/engine/api/types';
import type { TraceInput } from '../../../src/engine/runtime/recorder';
import { entriesOf, isSleep, type Steps } from '../../../src/engine/runtime/step';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { Framework, FrameworkError } from '../../../src/engine/scheduler/framework/framework';
import type { ObjectWrite, Plugin, PluginFactory } from '../../../src/engine/scheduler/framework/interfaces';
import { bindingCycle, reserveAndPermit, type BindingHost } from '../../../src/engine/scheduler/framework/runner';
import { Code, newStatus, type PluginStatus } from '../../../src/engine/scheduler/framework/status';
import * as defaultbinder from '../../../src/engine/scheduler/plugins/defaultbinder';
import * as queuesort from '../../../src/engine/scheduler/plugins/queuesort';
import { makePod } from './builders';

type Answers = Partial<Record<'reserve' | 'permit' | 'preBind' | 'bind' | 'preFlight', PluginStatus>>;

/** fake is a plugin at every binding extension point answering as told, logging each call. */
function fake(name: string, log: string[], a: Answers, waitSeconds = 0, writes: ObjectWrite[] = []): PluginFactory {
  return (): Plugin => ({
    name,
    reserve: () => (log.push(`Reserve ${name}`), a.reserve ?? null),
    unreserve: () => void log.push(`Unreserve ${name}`),
    permit: () => (log.push(`Permit ${name}`), { status: a.permit ?? null, timeoutSeconds: waitSeconds }),
    ...(a.preFlight !== undefined ? { preBindPreFlight: () => a.preFlight ?? null } : {}),
    preBind: () => (log.push(`PreBind ${name}`), a.preBind ?? null),
    preBindWrites: () => writes,
    bind: () => (log.push(`Bind ${name}`), a.bind ?? null),
    postBind: () => void log.push(`PostBind ${name}`),
  } as Plugin);
}

function frameworkOf(plugins: [string, PluginFactory][]): Framework {
  const registry = new Map<string, PluginFactory>([[queuesort.Name, queuesort.New], ...plugins, [defaultbinder.Name, defaultbinder.New]]);
  return new Framework(registry, { schedulerName: 'default-scheduler', multiPoint: [{ name: queuesort.Name }, ...plugins.map(([name]) => ({ name })), { name: defaultbinder.Name }] });
}

/** drive runs steps to their end, collecting trace entries and the virtual time slept. */
function drive<R>(steps: Steps<R>): { entries: TraceInput[]; slept: number; value: R } {
  const entries: TraceInput[] = [];
  let slept = 0;
  for (;;) {
    const n = steps.next();
    if (n.done) return { entries, slept, value: n.value };
    if (isSleep(n.value)) slept += n.value.sleep;
    else entries.push(...entriesOf(n.value));
  }
}

function host(log: string[]): BindingHost {
  return {
    nominate: (_p, node) => void log.push(`nominate ${node}`),
    done: () => void log.push('done'),
    *send() {},
    write: (w) => void log.push(`write ${w.verb} ${w.object.kind}/${w.object.metadata?.name} by ${w.by}`),
    bind: (_p, node) => (log.push(`POST binding ${node}`), undefined),
  };
}

const pod: Pod = makePod('web').obj();
const pvc: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' } };
const reject = newStatus(Code.Unschedulable, 'no room');
const error = newStatus(Code.Error, 'boom');

const cases: { name: string; plugins: [string, Answers, number?, ObjectWrite[]?][]; wantStatus: string; wantLog: string[]; wantSleep?: number }[] = [
  {
    name: 'A pod that every plugin lets through is reserved, permitted, pre-bound, bound by DefaultBinder and post-bound',
    plugins: [['A', {}], ['B', {}]], wantStatus: 'Success',
    wantLog: ['Reserve A', 'Reserve B', 'Permit A', 'Permit B', 'done', 'PreBind A', 'PreBind B', 'Bind A', 'POST binding n1', 'PostBind A', 'PostBind B'],
  },
  {
    name: 'A Reserve rejection stops Reserve and runs Unreserve in reverse order over all Reserve plugins',
    plugins: [['A', {}], ['B', { reserve: reject }], ['C', {}]], wantStatus: 'Unschedulable',
    wantLog: ['Reserve A', 'Reserve B', 'Unreserve C', 'Unreserve B', 'Unreserve A'],
  },
  {
    name: 'A Permit error unreserves and fails with the plugin named',
    plugins: [['A', { permit: error }]], wantStatus: 'Error: running Permit plugin "A": boom',
    wantLog: ['Reserve A', 'Permit A', 'Unreserve A'],
  },
  {
    name: 'A Permit Wait holds the pod its timeout, then rejects it; the pod is nominated meanwhile',
    plugins: [['A', { permit: newStatus(Code.Wait) }, 10]], wantStatus: 'Unschedulable: rejected due to timeout after waiting 10s at plugin A',
    wantLog: ['Reserve A', 'Permit A', 'nominate n1'], wantSleep: 10_000,
  },
  {
    name: 'A PreBind plugin with work nominates the node first and its writes follow it',
    plugins: [['A', { preFlight: null }, 0, [{ verb: 'update', object: pvc, by: 'kube-scheduler' }]]], wantStatus: 'Success',
    wantLog: ['Reserve A', 'Permit A', 'nominate n1', 'done', 'PreBind A', 'write update PersistentVolumeClaim/data by kube-scheduler', 'Bind A', 'POST binding n1', 'PostBind A'],
  },
  {
    name: 'A PreBind plugin whose preflight says Skip is skipped, and nothing is nominated',
    plugins: [['A', { preFlight: newStatus(Code.Skip) }]], wantStatus: 'Success',
    wantLog: ['Reserve A', 'Permit A', 'done', 'Bind A', 'POST binding n1', 'PostBind A'],
  },
  {
    name: 'A Bind plugin that skips leaves the binding to the next, DefaultBinder',
    plugins: [['A', { bind: newStatus(Code.Skip) }]], wantStatus: 'Success',
    wantLog: ['Reserve A', 'Permit A', 'done', 'PreBind A', 'Bind A', 'POST binding n1', 'PostBind A'],
  },
  {
    name: 'A PreBind error fails the binding before Bind',
    plugins: [['A', { preBind: error }]], wantStatus: 'Error: running PreBind plugin "A": boom',
    wantLog: ['Reserve A', 'Permit A', 'done', 'PreBind A'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const log: string[] = [];
    const fw = frameworkOf(c.plugins.map(([name, answers, wait, writes]) => [name, fake(name, log, answers, wait ?? 0, writes ?? [])]));
    const state = new CycleState();
    const first = drive(reserveAndPermit(fw, state, pod, 'Pod/default/web', 'n1'));
    let status = first.value.status;
    let slept = 0;
    if (!status) {
      const b = drive(bindingCycle({ fw, state, pod, ref: 'Pod/default/web', nodeName: 'n1', host: host(log), ...(first.value.wait ? { permitWait: first.value.wait } : {}) }));
      status = b.value;
      slept = b.slept;
    }
    const said = status === null ? 'Success' : status === reject ? 'Unschedulable' : `${status.code}: ${status.message()}`;
    assert.equal(said, c.wantStatus);
    // The Bind plugin that binds stands for the POST of pods/binding, which the host (the component) makes.
    assert.deepEqual(log, c.wantLog);
    assert.equal(slept, c.wantSleep ?? 0);
  });
}

test('A profile without a bind plugin is refused as NewFramework refuses it', () => {
  const registry = new Map<string, PluginFactory>([[queuesort.Name, queuesort.New]]);
  assert.throws(() => new Framework(registry, { schedulerName: 'x', multiPoint: [{ name: queuesort.Name }] }),
    (e: unknown) => e instanceof FrameworkError && e.message === 'at least one bind plugin is needed for profile with scheduler name "x"');
});

test('The binding cycle\'s requests go through the scheduler\'s client: the nomination, its own PreBind writes (not the controllers\' it waits for), the binding', () => {
  const log: string[] = [];
  const pv: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-1' } };
  const writes: ObjectWrite[] = [
    { verb: 'update', object: pv, by: 'kube-scheduler' },
    { verb: 'update', object: pvc, by: 'kube-scheduler' },
    { verb: 'update', object: pvc, subresource: 'status', by: 'persistentvolume-controller' },
  ];
  const fw = frameworkOf([['A', fake('A', log, { preFlight: null }, 0, writes)]]);
  const state = new CycleState();
  drive(reserveAndPermit(fw, state, pod, 'Pod/default/web', 'n1'));
  const sending: BindingHost = { ...host(log), *send(verb, path) { log.push(`send ${verb} ${path}`); } };
  drive(bindingCycle({ fw, state, pod, ref: 'Pod/default/web', nodeName: 'n1', host: sending }));
  assert.deepEqual(log.filter((l) => l.startsWith('send') || l.startsWith('write')), [
    'send PATCH /api/v1/namespaces/default/pods/web/status',
    'send PUT /api/v1/persistentvolumes/pv-1',
    'write update PersistentVolume/pv-1 by kube-scheduler',
    'send PUT /api/v1/namespaces/default/persistentvolumeclaims/data',
    'write update PersistentVolumeClaim/data by kube-scheduler',
    'write update PersistentVolumeClaim/data by persistentvolume-controller',
    'send POST /api/v1/namespaces/default/pods/web/binding',
  ]);
});
