// The `watch` phase through the CLI: `--watches` shows each program's informers opening their watches (the requests
// their 1.36 binaries send) and who is told of each stored change; a Behavior's informer delay holds a program's
// handlers back that long; bad delays are refused at their line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { CLI, type Report, ROOT, runJson, type TraceEntry } from './harness';

const F = 'test/fixtures/watch';
const POD = 'examples/pod.yaml';

/** opened lists a watcher's first requests: [url, initial ADDED events]. */
const opened = (r: Report, watcher: string): [unknown, unknown][] =>
  r.trace.filter((e) => e.phase === 'watch' && !e.object && e.step?.name === watcher).map((e) => [e.detail['url'], e.detail['initialEvents']]);

/** told lists, for each change of an object, who was told what: [the change, watcher, event seen, delivered at]. */
function told(r: Report, ref: string): [string, string, unknown, unknown][] {
  const rows: [string, string, unknown, unknown][] = [];
  let change = '';
  for (const e of r.trace.filter((x: TraceEntry) => x.phase === 'watch' && x.object === ref)) {
    if (!e.step) change = e.result;
    else rows.push([change, e.step.name, e.detail['type'], e.detail['deliveredAt']]);
  }
  return rows;
}

const withoutWatches = (r: Report) => r.trace.filter((e) => e.phase !== 'watch').map((e) => ({ ...e, seq: undefined }));

const openCases = [
  {
    name: 'kube-scheduler streams the pods that are not terminal and every node, as newPodInformer and the reflector ask',
    watcher: 'kube-scheduler',
    want: [
      ['/api/v1/pods?allowWatchBookmarks=true&fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=587&watch=true', 0],
      ['/api/v1/nodes?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=529&watch=true', 3],
      ['/api/v1/persistentvolumes?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=333&watch=true', 0],
      ['/api/v1/persistentvolumeclaims?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=378&watch=true', 0],
      ['/apis/storage.k8s.io/v1/storageclasses?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=405&watch=true', 0],
      ['/apis/storage.k8s.io/v1/csinodes?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=571&watch=true', 0],
      ['/apis/storage.k8s.io/v1/csidrivers?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=467&watch=true', 0],
      ['/apis/storage.k8s.io/v1/csistoragecapacities?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=407&watch=true', 0],
    ],
  },
  {
    name: 'a kubelet streams its own node, the services but headless ones, and the pods bound to its node',
    watcher: 'kubelet worker-2',
    want: [
      ['/api/v1/nodes?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dworker-2&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=524&watch=true', 1],
      ['/api/v1/services?allowWatchBookmarks=true&fieldSelector=spec.clusterIP%21%3DNone&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=571&watch=true', 2],
      ['/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dworker-2&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=599&watch=true', 0],
    ],
  },
  {
    name: 'a kube-proxy streams the services it proxies, the endpoint slices but headless ones, and its own node',
    watcher: 'kube-proxy worker-1',
    want: 'labels',
  },
];

for (const c of openCases) {
  test(`With --watches, ${c.name}`, () => {
    const { status, report } = runJson('run', POD, '--watches');
    assert.equal(status, 0);
    const got = opened(report, c.watcher);
    if (c.want === 'labels') {
      assert.deepEqual(got.map(([url]) => String(url).replace(/timeoutSeconds=\d+/, 'timeoutSeconds=T')), [
        '/api/v1/services?allowWatchBookmarks=true&fieldSelector=spec.clusterIP%21%3DNone&labelSelector=%21service.kubernetes.io%2Fservice-proxy-name&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=T&watch=true',
        '/apis/discovery.k8s.io/v1/endpointslices?allowWatchBookmarks=true&labelSelector=%21service.kubernetes.io%2Fheadless&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=T&watch=true',
        '/api/v1/nodes?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dworker-1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=T&watch=true',
      ]);
    } else assert.deepEqual(got, c.want);
    // reflector.go: the watch timeout is random in [minWatchTimeout, 2*minWatchTimeout) = [300, 600) seconds.
    for (const e of report.trace.filter((x) => x.phase === 'watch' && !x.object && x.step)) {
      const t = Number(/timeoutSeconds=(\d+)/.exec(String(e.detail['url']))?.[1]);
      assert.ok(t >= 300 && t < 600, `${t} is in [300, 600)`);
    }
  });
}

test('With --watches, each change of the pod is told to the scheduler, the controller manager and, once bound, its kubelet, in that order', () => {
  const { report } = runJson('run', POD, '--watches');
  assert.deepEqual(told(report, 'Pod/default/web'), [
    ['ADDED Pod/default/web at resourceVersion 1184', 'kube-scheduler', 'ADDED', 0],
    ['ADDED Pod/default/web at resourceVersion 1184', 'kube-controller-manager', 'ADDED', 0],
    // The binding brings the pod into the kubelet's spec.nodeName selection: ADDED for it, MODIFIED for the others.
    ['MODIFIED Pod/default/web at resourceVersion 1185', 'kube-scheduler', 'MODIFIED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1185', 'kube-controller-manager', 'MODIFIED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1185', 'kubelet worker-2', 'ADDED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1186', 'kube-scheduler', 'MODIFIED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1186', 'kube-controller-manager', 'MODIFIED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1186', 'kubelet worker-2', 'MODIFIED', 0],
    ['MODIFIED Pod/default/web at resourceVersion 1187', 'kube-scheduler', 'MODIFIED', 2],
    ['MODIFIED Pod/default/web at resourceVersion 1187', 'kube-controller-manager', 'MODIFIED', 2],
    ['MODIFIED Pod/default/web at resourceVersion 1187', 'kubelet worker-2', 'MODIFIED', 2],
    ['MODIFIED Pod/default/web at resourceVersion 1188', 'kube-scheduler', 'MODIFIED', 2],
    ['MODIFIED Pod/default/web at resourceVersion 1188', 'kube-controller-manager', 'MODIFIED', 2],
    ['MODIFIED Pod/default/web at resourceVersion 1188', 'kubelet worker-2', 'MODIFIED', 2],
  ]);
  // The change is told right after the step that stored it.
  const added = report.trace.findIndex((e) => e.phase === 'watch' && e.result === 'ADDED Pod/default/web at resourceVersion 1184');
  assert.equal(report.trace[added - 1]?.phase, 'etcd.persist');
});

test('With --watches, a pod that turns Succeeded leaves the scheduler\'s selection: the scheduler sees DELETED, the others MODIFIED', () => {
  const { status, report } = runJson('run', `${F}/once.yaml`, '--watches');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Succeeded');
  const rows = told(report, 'Pod/default/once');
  const succeeded = rows.filter(([, watcher, type]) => watcher === 'kube-scheduler' && type === 'DELETED');
  assert.equal(succeeded.length, 1);
  const change = succeeded[0]![0];
  assert.deepEqual(rows.filter((r) => r[0] === change).map((r) => [r[1], r[2]]), [['kube-scheduler', 'DELETED'], ['kube-controller-manager', 'MODIFIED'], ['kubelet worker-2', 'MODIFIED']]);
  // Out of its selection, the scheduler is told of no later change.
  assert.ok(rows.slice(rows.findIndex((r) => r[0] === change) + 3).every((r) => r[1] !== 'kube-scheduler'));
});

const sameRunCases = [
  { name: 'the example pod', args: [POD] },
  { name: 'the example Deployment, deleted once Running', args: ['examples/deployment.yaml', '--delete'] },
];

for (const c of sameRunCases) {
  test(`--watches adds the watch entries and changes nothing else in the run of ${c.name}`, () => {
    const plain = runJson('run', ...c.args);
    const watched = runJson('run', ...c.args, '--watches');
    assert.equal(plain.report.trace.some((e) => e.phase === 'watch'), false);
    assert.ok(watched.report.trace.some((e) => e.phase === 'watch'));
    assert.deepEqual(withoutWatches(watched.report), withoutWatches(plain.report));
    assert.deepEqual(watched.report.events, plain.report.events);
    assert.deepEqual(watched.report.objects, plain.report.objects);
  });
}

test('A kubelet informer delay of 2 s makes the pod\'s containers start 2 s later', () => {
  const plain = runJson('run', POD);
  const delayed = runJson('run', POD, '--behavior', `${F}/kubelet-delay.yaml`, '--watches');
  assert.equal(delayed.status, 0);
  const at = (r: Report, reason: string) => r.events.find((e) => e.reason === reason)?.at;
  assert.equal(at(plain.report, 'Started'), 2);
  assert.equal(at(delayed.report, 'Started'), 4);
  assert.equal(at(delayed.report, 'Scheduled'), 0);
  // The binding's watch entry says when the kubelet is told.
  const kubelet = delayed.report.trace.find((e) => e.phase === 'watch' && e.object === 'Pod/default/web' && e.step?.name === 'kubelet worker-2');
  assert.equal(kubelet?.result.replace(/ on [^,]+/, ''), 'kubelet worker-2 sees ADDED, delivered 2s later, at 2s');
  assert.equal(kubelet?.detail['delaySeconds'], 2);
});

test('With a kubelet informer delay, a forced delete still ends with the kubelet killing the containers once it is told', () => {
  const { status, report } = runJson('run', POD, '--delete', '--force', '--behavior', `${F}/kubelet-delay.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Deleted');
  // The pod is gone from the API server at 4 s; the kubelet hears of it at 6 s and kills its container then.
  assert.deepEqual(report.events.filter((e) => e.reason === 'Killing').map((e) => [e.at, e.message]), [[6, 'Stopping container app']]);
});

const badCases = [
  { name: 'an informer of no program', file: `${F}/unknown-component.yaml`, want: `error: ${F}/unknown-component.yaml:4: informers: unknown field "kubelt" (did you mean "kubelet"?)` },
  { name: 'a negative delay', file: `${F}/negative-delay.yaml`, want: `error: ${F}/negative-delay.yaml:4: informers.kube-proxy.delaySeconds: expected a non-negative number, got number -1` },
];

for (const c of badCases) {
  test(`A Behavior with ${c.name} is unusable input: exit 2 and the line`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', POD, '--behavior', c.file], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), c.want);
  });
}
