// The state tree's model and page HTML, in-process: the views built from real runs, and the HTML's escaping.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../src/engine/cluster/files';
import { defaultProfile } from '../../src/engine/cluster/inputs';
import { loadInputs } from '../../src/engine/cluster/loader';
import { Simulation } from '../../src/engine/simulation';
import { escapeHtml, jsonForScript, PAGE_STRINGS, renderPage } from '../../src/webview/html';
import { buildStateView } from '../../src/webview/state';
import { isStateView } from '../../src/webview/view';

function view(manifest: string) {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return buildStateView({ objects: sim.store.list('Pod').concat(sim.store.list('Node')), trace: sim.trace, events: sim.events });
}

const pod = (extra: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n${extra}`;

test('an unschedulable pod shows the Filter table with each node\'s reason', () => {
  const v = view(pod('      resources:\n        requests:\n          cpu: "64"\n'));
  assert.ok(isStateView(JSON.parse(JSON.stringify(v))));
  assert.equal(v.decision?.stage, 'Filter');
  assert.deepEqual(v.decision?.cells['TaintToleration']?.['control-plane'], { text: 'node(s) had untolerated taint(s)', tone: 'error' });
  assert.deepEqual(v.decision?.cells['NodeResourcesFit']?.['worker-1'], { text: 'Insufficient cpu', tone: 'error' });
  assert.equal(v.workloads[0]?.status, 'Pending');
});

test('a running pod shows the Score table, its containers and the node it runs on', () => {
  const v = view(pod(''));
  assert.equal(v.decision?.stage, 'Score');
  assert.ok(v.decision?.chosen && v.decision.totals?.[v.decision.chosen] !== undefined);
  assert.deepEqual(v.workloads.map((w) => [w.kind, w.name, w.status, w.tone]), [['Pod', 'web', 'Running', 'ok']]);
  assert.deepEqual(v.workloads[0]?.children.map((c) => [c.kind, c.name, c.status, c.field]), [['Container', 'app', 'Running, Ready', 'spec.containers[0]']]);
  const node = v.nodes.find((n) => n.pods.includes('web'));
  assert.equal(node?.name, v.decision?.chosen);
  assert.deepEqual(node?.resources.find((r) => r.name === 'pods'), { name: 'pods', requested: '1', allocatable: '110', percent: 1 });
});

const escapes: { input: string; html: string }[] = [
  { input: '<img src=x onerror=alert(1)>', html: '&lt;img src=x onerror=alert(1)&gt;' },
  { input: '"quoted" & \'single\'', html: '&quot;quoted&quot; &amp; &#39;single&#39;' },
];

test('escapeHtml leaves no markup', () => {
  for (const e of escapes) assert.equal(escapeHtml(e.input), e.html);
});

test('the page\'s strings cannot end their script element', () => {
  const json = jsonForScript({ x: '</script><script>alert(1)</script>\u2028' });
  assert.ok(!json.includes('<') && !json.includes('\u2028'));
  assert.deepEqual(JSON.parse(json), { x: '</script><script>alert(1)</script>\u2028' });
  const html = renderPage({ cspSource: 'vscode-webview://x', nonce: 'n0nce', scriptUri: 'a.js', styleUri: 'a.css', title: '<T>', strings: { ...PAGE_STRINGS, empty: '</script>' } });
  assert.equal(html.match(/<script/g)?.length, 2);
  assert.match(html, /<title>&lt;T&gt;<\/title>/);
  assert.match(html, /script-src &#39;nonce-n0nce&#39;"/);
});

/** viewOfFile runs a manifest file on the embedded cluster and builds the view over every stored object. */
function viewOfFile(path: string) {
  const inputs = loadInputs({ manifest: { file: path, text: readFileSync(path, 'utf8') }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return buildStateView({ objects: sim.snapshot(), trace: sim.trace, events: sim.events });
}

test('a StatefulSet shows its pods in ordinal order, each with its claim and containers', () => {
  const v = viewOfFile('test/fixtures/statefulset/web-local.yaml');
  const set = v.workloads.find((w) => w.kind === 'StatefulSet');
  assert.deepEqual([set?.name, set?.status, set?.tone], ['web', '2/2 ready', 'ok']);
  assert.deepEqual(set?.children.map((p) => [p.kind, p.name, p.status]), [['Pod', 'web-0', 'Running'], ['Pod', 'web-1', 'Running']]);
  assert.deepEqual(set?.children[0]?.children.map((c) => [c.kind, c.name, c.status, c.field]), [
    ['PersistentVolumeClaim', 'www-web-0', 'Bound', 'spec.volumes[0]'],
    ['Container', 'nginx', 'Running, Ready', 'spec.containers[0]'],
  ]);
});

test('a DaemonSet shows its pod per node, a CronJob its Jobs and their pods, an autoscaler sits beside its target', () => {
  const ds = viewOfFile('test/fixtures/daemonset/agent.yaml').workloads.find((w) => w.kind === 'DaemonSet');
  assert.deepEqual([ds?.name, ds?.status, ds?.tone], ['agent', '2/2 ready', 'ok']);
  assert.deepEqual(ds?.children.map((p) => [p.kind, p.status]), [['Pod', 'Running'], ['Pod', 'Running']]);
  const cron = viewOfFile('test/fixtures/cronjob/every-minute.yaml').workloads.find((w) => w.kind === 'CronJob');
  assert.match(cron?.status ?? '', /^\d+ active, last scheduled \d{4}-\d\d-\d\dT/);
  assert.ok((cron?.children.length ?? 0) > 0 && cron!.children.every((j) => j.kind === 'Job' && j.children.some((p) => p.kind === 'Pod')));
  // Without metrics from the Behavior the autoscaler cannot compute a count: it says so beside its Deployment.
  const web = viewOfFile('test/fixtures/hpa/web.yaml').workloads.find((w) => w.kind === 'Deployment');
  assert.deepEqual(web?.children.map((c) => c.kind), ['HorizontalPodAutoscaler', 'ReplicaSet']);
  assert.deepEqual([web?.children[0]?.name, web?.children[0]?.status, web?.children[0]?.tone], ['web', 'cpu: <unknown>/50%, 2 replicas (1–10), FailedGetResourceMetric', 'warn']);
});
