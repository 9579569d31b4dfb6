// The informers table: each program's requests as its 1.36 binary makes them, escaped as Go's url.QueryEscape does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { informersOf, queryEscape, watchListUrl, watchTimeoutSeconds, watchUrl } from '../../../src/engine/watch/informers';

const escapeCases = [
  { name: 'a field selector with != escapes the ! and the =', text: 'status.phase!=Succeeded,status.phase!=Failed', want: 'status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed' },
  { name: 'a label selector escapes the / of its key', text: '!service.kubernetes.io/headless', want: '%21service.kubernetes.io%2Fheadless' },
  { name: 'a space is a plus and the unreserved -_.~ stay', text: 'a b-c_d.e~f', want: 'a+b-c_d.e~f' },
  { name: "the sub-delimiters *'() are escaped", text: "*'()", want: '%2A%27%28%29' },
];

for (const c of escapeCases) {
  test(`queryEscape: ${c.name}`, () => assert.equal(queryEscape(c.text), c.want));
}

const urlCases = [
  {
    name: 'a kubelet\'s pod watch streams the pods bound to its node, parameters sorted by name',
    watcher: 'kubelet n1', kind: 'Pod',
    watchList: '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dn1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=300&watch=true',
    watch: '/api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dn1&resourceVersion=42&timeoutSeconds=300&watch=true',
  },
  {
    name: 'the controller manager\'s HPA informer reads autoscaling/v2',
    watcher: 'kube-controller-manager', kind: 'HorizontalPodAutoscaler',
    watchList: '/apis/autoscaling/v2/horizontalpodautoscalers?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=300&watch=true',
    watch: '/apis/autoscaling/v2/horizontalpodautoscalers?allowWatchBookmarks=true&resourceVersion=42&timeoutSeconds=300&watch=true',
  },
];

for (const c of urlCases) {
  test(`informersOf: ${c.name}`, () => {
    const informer = informersOf(['n1']).find((i) => i.watcher.name === c.watcher && i.kind === c.kind);
    assert.ok(informer);
    assert.equal(watchListUrl(informer, 300), c.watchList);
    assert.equal(watchUrl(informer, '42', 300), c.watch);
  });
}

test('informersOf: a watch selects as its selectors say, so the scheduler leaves terminal pods out', () => {
  const scheduler = informersOf([]).find((i) => i.watcher.name === 'kube-scheduler' && i.kind === 'Pod')!;
  const pod = (phase: string) => ({ kind: 'Pod', metadata: { name: 'p' }, status: { phase } });
  assert.deepEqual(['Pending', 'Running', 'Succeeded', 'Failed'].map((p) => scheduler.selects(pod(p))), [true, true, false, false]);
});

test('watchTimeoutSeconds is in [300, 600), as the reflector draws minWatchTimeout plus a random part of it', () => {
  assert.deepEqual([0, 0.5, 0.99999].map((r) => watchTimeoutSeconds(() => r)), [300, 450, 599]);
});
