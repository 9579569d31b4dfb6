// The runtime's building blocks: the event queue's order, the seeded random source, phase names, durations, the recorder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventQueue, VirtualClock } from '../../../src/engine/runtime/clock';
import { goDuration, parseDuration } from '../../../src/engine/runtime/durations';
import { matchPhases, PHASES } from '../../../src/engine/runtime/phases';
import { NAME_ALPHABET, Random } from '../../../src/engine/runtime/random';
import { Recorder } from '../../../src/engine/runtime/recorder';

test('the event queue pops by virtual time, then in the order tasks were pushed', () => {
  const q = new EventQueue<string>();
  q.push(5, 'late', 'late');
  q.push(0, 'first', 'first');
  q.push(0, 'second', 'second');
  const cancelled = q.push(1, 'cancelled', 'cancelled');
  q.push(1, 'third', 'third');
  cancelled.cancelled = true;
  const order: string[] = [];
  for (let t = q.pop(); t; t = q.pop()) order.push(t.task);
  assert.deepEqual(order, ['first', 'second', 'third', 'late']);
});

test('the clock prints RFC 3339 timestamps with second precision from its epoch', () => {
  const clock = new VirtualClock(new Date('2026-01-01T00:00:00Z'));
  clock.now = 2500;
  assert.equal(clock.timestamp(), '2026-01-01T00:00:02Z');
  assert.equal(clock.timestamp(61_000), '2026-01-01T00:01:01Z');
});

test('the same seed gives the same draws, another seed others', () => {
  const a = new Random(42);
  const b = new Random(42);
  const c = new Random(43);
  const draw = (r: Random) => [r.string(5), r.intn(1000), r.uuid()].join(' ');
  const first = draw(a);
  assert.equal(first, draw(b));
  assert.notEqual(first, draw(c));
});

test('generated names use only the name alphabet and uuids are version 4', () => {
  const r = new Random(1);
  for (let i = 0; i < 200; i++) for (const ch of r.string(5)) assert.ok(NAME_ALPHABET.includes(ch));
  assert.match(r.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

const phaseCases: { name: string; pattern: string; want: string[] }[] = [
  { name: 'a phase name matches itself', pattern: 'scheduler.bind', want: ['scheduler.bind'] },
  { name: 'the alias authz names authorization', pattern: 'authz', want: ['apiserver.authorize'] },
  { name: 'the alias sandbox names the kubelet sandbox', pattern: 'sandbox', want: ['kubelet.sandbox'] },
  { name: 'the alias admission names both admission passes', pattern: 'admission', want: ['apiserver.admit.mutating', 'apiserver.admit.validating'] },
  { name: 'a trailing star matches a prefix', pattern: 'scheduler.*', want: ['scheduler.queue', 'scheduler.filter', 'scheduler.postFilter', 'scheduler.score', 'scheduler.bind'] },
  { name: 'an unknown name matches nothing', pattern: 'scheduler.frobnicate', want: [] },
];
for (const c of phaseCases) test(`phases: ${c.name}`, () => assert.deepEqual(matchPhases(c.pattern), c.want));

test('every phase DESIGN.md names is in the catalog', () => {
  const names = PHASES.map((p) => p.name);
  for (const p of ['kubectl.validate', 'apiserver.authenticate', 'apiserver.authorize', 'apiserver.admit.mutating', 'apiserver.validate',
    'apiserver.admit.validating', 'etcd.persist', 'controllers.deployment', 'controllers.replicaset', 'scheduler.queue', 'scheduler.filter',
    'scheduler.postFilter', 'scheduler.score', 'scheduler.bind', 'kubelet.admit', 'kubelet.sandbox', 'kubelet.network', 'kubelet.volumes',
    'kubelet.imagePull', 'kubelet.initContainers', 'kubelet.containers', 'kubelet.probes', 'kubelet.status', 'controllers.endpoints',
    'apiserver.delete', 'kubelet.preStop', 'kubelet.terminate', 'kubelet.cleanup', 'apiserver.finalize']) {
    assert.ok(names.includes(p as never), p);
  }
});

const durationCases: { ms: number; want: string }[] = [
  { ms: 0, want: '0s' }, { ms: 312, want: '312ms' }, { ms: 2000, want: '2s' }, { ms: 2053, want: '2.053s' },
  { ms: 62_500, want: '1m2.5s' }, { ms: 3_600_000, want: '1h0m0s' },
];
for (const c of durationCases) test(`go durations: ${c.ms} ms prints as ${c.want}`, () => assert.equal(goDuration(c.ms), c.want));

const parseCases: { text: string; want: number | undefined }[] = [
  { text: '90s', want: 90_000 }, { text: '5m', want: 300_000 }, { text: '1h30m', want: 5_400_000 }, { text: '1.5s', want: 1500 },
  { text: '500ms', want: 500 }, { text: '30', want: 30_000 }, { text: 'soon', want: undefined }, { text: '5m garbage', want: undefined }, { text: '', want: undefined },
];
for (const c of parseCases) test(`duration flags: "${c.text}" reads as ${c.want}`, () => assert.equal(parseDuration(c.text), c.want));

test('the recorder stamps entries with time and sequence and counts repeated events', () => {
  let now = 0;
  const rec = new Recorder(() => now);
  const a = rec.record({ phase: 'kubectl.validate', result: 'ok' });
  now = 1500;
  const b = rec.record({ phase: 'scheduler.bind', result: 'bound' });
  assert.deepEqual([a.seq, a.at, b.seq, b.at], [0, 0, 1, 1.5]);
  rec.event({ type: 'Warning', reason: 'BackOff', object: 'Pod/default/web', source: 'kubelet', message: 'Back-off' });
  now = 3000;
  rec.event({ type: 'Warning', reason: 'BackOff', object: 'Pod/default/web', source: 'kubelet', message: 'Back-off' });
  assert.equal(rec.events.length, 1);
  assert.equal(rec.events[0]!.count, 2);
  assert.equal(rec.events[0]!.at, 3);
});

test('a sink that leaves entries out: they are numbered and returned, never kept nor handed on, and their object is quiet', () => {
  const left = new Set<string>();
  const handed: number[] = [];
  const rec = new Recorder(() => 0);
  rec.spillTo({
    accept: (entries) => handed.push(...entries.map((e) => e.seq)),
    leaves: (e) => e.object === 'Pod/default/web-2' && (left.add(e.object), true),
    isQuiet: (o) => left.has(o),
  });
  const objects = ['Pod/default/web-1', 'Pod/default/web-2', 'ReplicaSet/default/web', 'Pod/default/web-2', 'Pod/default/web-1'];
  const recorded = objects.map((object) => rec.record({ phase: 'kubelet.status', object, result: object }));
  assert.deepEqual(recorded.map((e) => [e.seq, e.object, e.result]), objects.map((o, i) => [i, o, o]));
  assert.equal(rec.last, recorded.at(-1));
  assert.deepEqual(rec.trace.map((e) => e.seq), [0, 2, 4]);
  assert.equal(rec.count, 5);
  assert.deepEqual([rec.isQuiet('Pod/default/web-2'), rec.isQuiet('Pod/default/web-1')], [true, false]);
  rec.drain();
  assert.deepEqual(handed, [0, 2, 4]);
  // The warm-up's trace is forgotten, its last entry with it.
  rec.clear();
  assert.deepEqual([rec.last, rec.count], [undefined, 0]);
  // Without a sink nothing is quiet.
  assert.equal(new Recorder(() => 0).isQuiet('Pod/default/web-2'), false);
});
