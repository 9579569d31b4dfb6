// Watches that end and resume through the CLI: with --watches, kube-apiserver ends each informer's watch at its
// timeoutSeconds after a BOOKMARK about every minute, and the reflector watches again from the last resourceVersion it
// saw, a plain watch this time; the bookmarks are counted on the watch's end, not recorded one by one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Report, runJson, type TraceEntry } from './harness';

const POD = 'examples/pod.yaml';

/** ends lists a watcher's watch ends of one kind: [when, the ended watch's timeout, bookmarks, the next request]. */
const ends = (r: Report, watcher: string, kind: string): [unknown, unknown, unknown, unknown][] =>
  r.trace.filter((e) => e.phase === 'watch' && !e.object && e.step?.name === watcher && e.detail['kind'] === kind && e.detail['ended'] !== undefined)
    .map((e) => [e.at, /timeoutSeconds=(\d+)/.exec(String(e.detail['ended']))?.[1], e.detail['bookmarks'], e.detail['url']]);

const endCases = [
  {
    name: 'a kubelet\'s pod watch-list ends at its 599 s and its reflector watches from the pod\'s last version, 1188',
    args: [POD, '--for', '20m'], watcher: 'kubelet worker-2', kind: 'Pod',
    want: [
      [599, '599', 10, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-2&resourceVersion=1188&timeoutSeconds=389&watch=true'],
      [988, '389', 7, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-2&resourceVersion=1188&timeoutSeconds=533&watch=true'],
    ],
  },
  {
    // The watch cache's bookmarks carry the resource's latest version, past changes outside the watcher's selection.
    name: 'a kubelet that was told of no pod still resumes from the pods\' last version, which its bookmarks brought',
    args: [POD, '--for', '20m'], watcher: 'kubelet worker-1', kind: 'Pod',
    want: [
      [410, '410', 7, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=1188&timeoutSeconds=595&watch=true'],
      [1005, '595', 10, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-1&resourceVersion=1188&timeoutSeconds=361&watch=true'],
    ],
  },
  {
    name: 'another seed draws other timeouts',
    args: [POD, '--for', '20m', '--seed', '7'], watcher: 'kubelet worker-2', kind: 'Pod',
    want: [
      [456, '456', 8, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-2&resourceVersion=1188&timeoutSeconds=513&watch=true'],
      [969, '513', 9, '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-2&resourceVersion=1188&timeoutSeconds=578&watch=true'],
    ],
  },
  {
    name: 'a run shorter than the shortest timeout (300 s) has no watch end',
    args: [POD], watcher: 'kubelet worker-2', kind: 'Pod', want: [],
  },
];

for (const c of endCases) {
  test(`With --watches, ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args, '--watches');
    assert.equal(status, 0);
    assert.deepEqual(ends(report, c.watcher, c.kind), c.want);
  });
}

test('With --watches, every watch end follows the reflector and the watch cache\'s rules', () => {
  const { report } = runJson('run', POD, '--for', '30m', '--watches');
  const steps = report.trace.filter((e) => e.phase === 'watch' && !e.object && e.step && e.detail['ended'] !== undefined);
  assert.ok(steps.length > 64, `${steps.length} watch ends`);
  for (const e of steps) {
    const d = e.detail;
    const ended = Number(/timeoutSeconds=(\d+)/.exec(String(d['ended']))?.[1]);
    // The server ends the watch at its timeoutSeconds; the reflector asks for [300, 600) s again.
    assert.equal(d['endedAt'], (d['openedAt'] as number) + ended);
    assert.equal(e.at, d['endedAt']);
    assert.ok((d['timeoutSeconds'] as number) >= 300 && (d['timeoutSeconds'] as number) < 600);
    // A plain watch from the last version seen: no watch-list parameters.
    assert.match(String(d['url']), new RegExp(`^[^?]+\\?allowWatchBookmarks=true&(fieldSelector=[^&]+&)?(labelSelector=[^&]+&)?resourceVersion=${d['resourceVersion']}&timeoutSeconds=${d['timeoutSeconds']}&watch=true$`));
    // A bookmark about every minute (60 s to 61.25 s apart), the last one 2 s before the end, within its tick.
    const last = d['lastBookmark'] as { at: number; resourceVersion: string };
    assert.ok(last.at >= (d['endedAt'] as number) - 2 && last.at < (d['endedAt'] as number) - 0.75, `last bookmark at ${last.at}`);
    assert.ok((d['bookmarks'] as number) >= Math.ceil((ended - 2) / 61.25) && (d['bookmarks'] as number) <= Math.ceil((ended - 2) / 60), `${d['bookmarks']} bookmarks in ${ended}s`);
    assert.ok(Number(d['resourceVersion']) >= Number(last.resourceVersion));
  }
});

test('With --watches, a change after a watch ended is told through the new watch, from the version the last bookmark gave', () => {
  const { report } = runJson('run', 'examples/cronjob.yaml', '--cluster', 'examples/cluster.yaml', '--for', '12m', '--watches');
  const jobs = (e: TraceEntry) => e.phase === 'watch' && e.step?.name === 'kube-controller-manager' && String(e.detail['url']).startsWith('/apis/batch/v1/jobs?');
  const end = report.trace.find((e) => jobs(e) && !e.object && e.detail['ended'] !== undefined)!;
  assert.equal(end.at, 543);
  assert.deepEqual(end.detail['lastBookmark'], { at: 541.819, resourceVersion: '1320' });
  assert.equal(end.detail['url'], '/apis/batch/v1/jobs?allowWatchBookmarks=true&resourceVersion=1320&timeoutSeconds=571&watch=true');
  const after = report.trace.find((e) => jobs(e) && e.object !== undefined && (e.at ?? 0) > 543)!;
  assert.equal(after.result, 'kube-controller-manager sees MODIFIED on /apis/batch/v1/jobs?allowWatchBookmarks=true&resourceVersion=1320&timeoutSeconds=571&watch=true, delivered at once');
});

const withoutWatches = (r: Report) => r.trace.filter((e) => e.phase !== 'watch').map((e) => ({ ...e, seq: undefined }));

test('Watch ends add entries and change nothing else in a run of 20 virtual minutes; without --watches there are none', () => {
  const plain = runJson('run', POD, '--for', '20m');
  const watched = runJson('run', POD, '--for', '20m', '--watches');
  assert.equal(plain.report.trace.some((e) => e.phase === 'watch'), false);
  assert.deepEqual(withoutWatches(watched.report), withoutWatches(plain.report));
  assert.deepEqual(watched.report.events, plain.report.events);
  assert.deepEqual(watched.report.objects, plain.report.objects);
  assert.equal(watched.report.outcome, plain.report.outcome);
});

test('A run of two virtual hours records one sub-step per watch end, not one entry per bookmark', () => {
  const { status, report } = runJson('run', POD, '--for', '2h', '--watches');
  assert.equal(status, 0);
  const ended = report.trace.filter((e) => e.phase === 'watch' && !e.object && e.step && e.detail['ended'] !== undefined);
  const bookmarks = ended.reduce((n, e) => n + (e.detail['bookmarks'] as number), 0);
  // 64 informers, each watch 300 to 600 s: at most 64 x 24 ends in 7200 s, some 8 bookmarks each folded into them.
  assert.ok(ended.length <= 64 * 24, `${ended.length} watch ends`);
  assert.ok(bookmarks > 5 * ended.length, `${bookmarks} bookmarks`);
  const watchEntries = report.trace.filter((e) => e.phase === 'watch' && !e.object).length;
  assert.ok(watchEntries <= 65 + 2 * ended.length, `${watchEntries} watch entries`);
});
