// The state tree page in headless Chromium: it renders the views of real runs, updates, escapes hostile
// strings, answers the keyboard, keeps its state when reloaded, ignores malformed messages and loads nothing
// remote. It also writes pictures of the page (out/screenshots/state-tree.png, its watches in
// state-tree-watches.png) for whoever reads a failure; the README's screenshots come from a real VS Code
// (test/e2e, `npm run screenshot`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { embeddedCluster } from '../../src/engine/cluster/files';
import { defaultProfile } from '../../src/engine/cluster/inputs';
import { loadInputs } from '../../src/engine/cluster/loader';
import { Simulation } from '../../src/engine/simulation';
import { PAGE_STRINGS, renderPage } from '../../src/webview/html';
import { buildStateView, type StateView } from '../../src/webview/state';

const ROOT = join(__dirname, '..', '..', '..');
/** CHROMIUM is Debian's chromium; CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const NONCE = 'test-nonce-0123456789';

/** THEME stands in for the variables VS Code's dark theme gives a webview. */
const THEME = `:root{--vscode-foreground:#cccccc;--vscode-editor-background:#1e1e1e;--vscode-font-family:sans-serif;--vscode-font-size:13px;
--vscode-editor-font-family:monospace;--vscode-descriptionForeground:#9d9d9d;--vscode-focusBorder:#007fd4;--vscode-panel-border:#444;
--vscode-list-activeSelectionBackground:#04395e;--vscode-list-activeSelectionForeground:#fff;--vscode-testing-iconPassed:#73c991;
--vscode-editorWarning-foreground:#cca700;--vscode-errorForeground:#f48771;--vscode-sideBar-background:#252526}`;

/**
 * THEMES stand in for the variables of VS Code's default themes (1.100): the colors the page reads, as the themes set
 * them (light: Light Modern, dark: Dark Modern, and the two high contrast themes).
 */
const THEMES: Record<string, string> = {
  light: `:root{--vscode-foreground:#3b3b3b;--vscode-editor-background:#ffffff;--vscode-font-family:sans-serif;--vscode-font-size:13px;
--vscode-editor-font-family:monospace;--vscode-descriptionForeground:#717171;--vscode-focusBorder:#005fb8;--vscode-panel-border:#e5e5e5;
--vscode-testing-iconPassed:#73c991;--vscode-editorWarning-foreground:#bf8803;--vscode-errorForeground:#a1260d;
--vscode-gitDecoration-addedResourceForeground:#587c0c;--vscode-gitDecoration-modifiedResourceForeground:#895503;--vscode-charts-blue:#1a85ff}`,
  dark: `${THEME.slice(0, -1)};--vscode-gitDecoration-addedResourceForeground:#81b88b;--vscode-gitDecoration-modifiedResourceForeground:#e2c08d;--vscode-charts-blue:#3794ff}`,
  'hc-black': `:root{--vscode-foreground:#ffffff;--vscode-editor-background:#000000;--vscode-font-family:sans-serif;--vscode-font-size:13px;
--vscode-editor-font-family:monospace;--vscode-descriptionForeground:#ffffff;--vscode-focusBorder:#f38518;--vscode-contrastBorder:#6fc3df;
--vscode-testing-iconPassed:#73c991;--vscode-editorWarning-foreground:#ffd370;--vscode-errorForeground:#f48771;
--vscode-gitDecoration-addedResourceForeground:#a1e3ad;--vscode-gitDecoration-modifiedResourceForeground:#e2c08d;--vscode-charts-blue:#3794ff}`,
  'hc-light': `:root{--vscode-foreground:#292929;--vscode-editor-background:#ffffff;--vscode-font-family:sans-serif;--vscode-font-size:13px;
--vscode-editor-font-family:monospace;--vscode-descriptionForeground:#292929;--vscode-focusBorder:#006bbd;--vscode-contrastBorder:#0f4a85;
--vscode-testing-iconPassed:#007100;--vscode-editorWarning-foreground:#895503;--vscode-errorForeground:#b5200d;
--vscode-gitDecoration-addedResourceForeground:#374e06;--vscode-gitDecoration-modifiedResourceForeground:#895503;--vscode-charts-blue:#0f4a85}`,
};

function run(manifest: string, behavior = '', watches = false): Simulation {
  const inputs = loadInputs({ manifest: { file: 'app.yaml', text: manifest }, clusters: behavior ? [{ file: 'behavior.yaml', text: behavior }] : [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, { snapshots: true, ...(watches ? { watches } : {}) });
  sim.run();
  return sim;
}

function viewOf(sim: Simulation, uptoSeq?: number, watches = false): StateView {
  const trace = uptoSeq === undefined ? sim.trace : sim.trace.slice(0, uptoSeq + 1);
  return buildStateView({ objects: sim.snapshot(uptoSeq), trace, events: sim.events, watches });
}

const deployment = run(readFileSync(join(ROOT, 'examples', 'deployment.yaml'), 'utf8'));
const HOSTILE = '<img src=x onerror=alert(1)>';
const hostile = run(`apiVersion: v1
kind: Pod
metadata:
  name: evil
  labels: {app: x}
spec:
  containers:
    - name: app
      image: "nginx:1.27"
      env: [{name: A, value: "${HOSTILE}"}]
`);

/** watched records its watches, and its kubelets' informers hand each pod change over 2 s late. */
const watched = run(readFileSync(join(ROOT, 'examples', 'pod.yaml'), 'utf8'), readFileSync(join(ROOT, 'test', 'fixtures', 'watch', 'kubelet-delay.yaml'), 'utf8'), true);

let server: Server;
let base = '';
let browser: Browser;
const requested: string[] = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium is needed for the page tests: ${CHROMIUM} does not exist (install Debian's chromium, or set CHROMIUM_PATH)`);
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const files: Record<string, [string, string]> = {
      '/webview.js': [join(ROOT, 'dist', 'webview.js'), 'text/javascript'],
      '/state-tree.css': [join(ROOT, 'media', 'state-tree.css'), 'text/css'],
    };
    const theme = /^\/(?:theme\.css)?\?theme=([a-z-]+)$/.exec(req.url ?? '')?.[1];
    if (req.url === '/' || (theme && req.url?.startsWith('/?'))) {
      const html = renderPage({ cspSource: base, nonce: NONCE, scriptUri: `${base}/webview.js`, styleUri: `${base}/state-tree.css`, title: 'Pod Lifecycle State', strings: PAGE_STRINGS })
        .replace('</head>', `<link rel="stylesheet" href="${base}/theme.css${theme ? `?theme=${theme}` : ''}">\n</head>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    } else if (req.url === '/theme.css' || req.url?.startsWith('/theme.css?')) {
      res.writeHead(200, { 'content-type': 'text/css' }).end(theme ? THEMES[theme] ?? '' : THEME);
    } else if (req.url && files[req.url]) {
      const [path, type] = files[req.url]!;
      res.writeHead(200, { 'content-type': type }).end(readFileSync(path));
    } else if (req.url === '/favicon.ico') {
      // The browser's own request, not the page's.
      requested.pop();
      res.writeHead(204).end();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** open loads the page with a stand-in for the webview API that records what the page posts and keeps its state. */
async function open(savedState?: unknown, theme?: string): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  // The page's script runs in the browser, so these stand-ins are source text (the tests compile without the DOM's types).
  await page.addInitScript({ content: `window.__posted = []; window.__state = ${JSON.stringify(savedState ?? null)};
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => window.__state, setState: (s) => { window.__state = s; } });` });
  await page.goto(`${base}/${theme ? `?theme=${theme}` : ''}`);
  await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
  return { page, errors, dialogs };
}

async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
}

async function posted(page: Page): Promise<{ type: string; [k: string]: unknown }[]> {
  return page.evaluate('window.__posted');
}

test('with no session the page says how to start one', async () => {
  const { page, errors } = await open();
  assert.match(await page.locator('#root').innerText(), /Start a Pod Lifecycle debug session/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a Deployment renders as Deployment › ReplicaSet › Pods › containers, with nodes, the decision table and the timeline', async () => {
  const { page, errors } = await open();
  const view = viewOf(deployment);
  await post(page, { type: 'state', view });
  const tree = page.getByRole('tree');
  await tree.waitFor();
  const items = await page.evaluate<[string, string][]>('[...document.querySelectorAll(\'[role="treeitem"]\')].map((e) => [e.getAttribute("aria-level"), e.getAttribute("aria-label")])');
  assert.equal(items[0]![0], '1');
  assert.match(items[0]![1]!, /^Deployment web: 3\/3 ready$/);
  assert.equal(items[1]![0], '2');
  assert.match(items[1]![1]!, /^ReplicaSet web-[a-z0-9]+: 3\/3 ready$/);
  const pods = items.filter(([level, label]) => level === '3' && /^Pod /.test(label ?? ''));
  assert.equal(pods.length, 3);
  assert.ok(pods.every(([, label]) => /: Running$/.test(label ?? '')), JSON.stringify(pods));
  assert.ok(items.some(([level, label]) => level === '4' && /^Container app: Running, Ready$/.test(label ?? '')));
  // The nodes: both workers carry the pods, the control plane its taint.
  const nodes = await page.locator('.node').allInnerTexts();
  assert.equal(nodes.length, 3);
  assert.match(nodes.find((n) => n.startsWith('control-plane'))!, /node-role\.kubernetes\.io\/control-plane:NoSchedule/);
  assert.equal(nodes.filter((n) => /web-/.test(n)).length, 2);
  // The last scheduling cycle's score table names the chosen node.
  const caption = await page.locator('.decision-table caption').innerText();
  assert.match(caption, /^Score plugins by node for Pod\/default\/web-/);
  assert.equal(await page.locator('.decision-table thead th.chosen').count(), 1);
  assert.ok(await page.locator('.timeline li[data-seq]').count() > 10);
  assert.deepEqual(errors, []);
  mkdirSync(join(ROOT, 'out', 'screenshots'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'out', 'screenshots', 'state-tree.png'), fullPage: false });
  await page.context().close();
});

test('a new state replaces the old one (the page follows the session)', async () => {
  const { page } = await open();
  const early = deployment.trace.findIndex((t) => t.phase === 'controllers.replicaset');
  await post(page, { type: 'state', view: viewOf(deployment, early) });
  await page.getByRole('tree').waitFor();
  assert.equal(await page.locator('[role="treeitem"][aria-level="3"]').count(), 0);
  assert.match(await page.locator('.summary .phase').innerText(), /^controllers\.replicaset$/);
  await post(page, { type: 'state', view: viewOf(deployment) });
  await page.locator('[role="treeitem"][aria-level="3"]').first().waitFor();
  assert.equal(await page.locator('[role="treeitem"][aria-level="3"]').count(), 3);
  await post(page, { type: 'clear' });
  await page.locator('.empty').waitFor();
  await page.context().close();
});

test('strings from a manifest render as text: a hostile value never becomes markup', async () => {
  const { page, dialogs, errors } = await open();
  const view = viewOf(hostile);
  // The hostile string goes everywhere a manifest string can reach.
  const evil: StateView = {
    ...view,
    current: HOSTILE,
    workloads: [{ ...view.workloads[0]!, name: HOSTILE, status: HOSTILE, children: view.workloads[0]!.children }],
    nodes: view.nodes.map((n) => ({ ...n, taints: [HOSTILE], pods: [HOSTILE] })),
    timeline: [...view.timeline, { at: 9, kind: 'event', label: HOSTILE, object: HOSTILE, text: `<script>alert(2)</script>${HOSTILE}`, tone: 'warn' }],
  };
  await post(page, { type: 'state', view: evil });
  await page.getByRole('tree').waitFor();
  assert.equal(await page.locator('#root img').count(), 0);
  assert.equal(await page.locator('#root script').count(), 0);
  assert.ok((await page.locator('#root').innerText()).includes(HOSTILE));
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

const malformed: { name: string; message: unknown }[] = [
  { name: 'not an object', message: 'state' },
  { name: 'an unknown type', message: { type: 'eval', view: viewOf(hostile) } },
  { name: 'another version', message: { type: 'state', view: { ...viewOf(hostile), version: 2 } } },
  { name: 'a tree item without a name', message: { type: 'state', view: { ...viewOf(hostile), workloads: [{ id: 'x', kind: 'Pod', ref: 'x', status: 'x', tone: 'ok', children: [] }] } } },
  { name: 'a tone that is not one', message: { type: 'state', view: { ...viewOf(hostile), timeline: [{ at: 0, kind: 'event', label: 'a', object: 'b', text: 'c', tone: 'red"><img>' }] } } },
  { name: 'a number where a string goes', message: { type: 'state', view: { ...viewOf(hostile), phase: 7 } } },
  { name: 'watches without their programs', message: { type: 'state', view: { ...viewOf(hostile), watches: { at: 0, text: 'x' } } } },
];

test('a run that records its watches shows each program\'s busy informers, their requests and what waits for the handlers', async () => {
  const { page, errors } = await open();
  // The stop at the kubelet's sub-step of the pod's binding: told ADDED, handed over 2 s later.
  const bound = watched.trace.find((e) => e.phase === 'watch' && e.step?.name.startsWith('kubelet ') && e.detail['type'] === 'ADDED')!;
  const kubelet = bound.step!.name;
  await post(page, { type: 'state', view: viewOf(watched, bound.seq, true) });
  await page.locator('section.watches').waitFor();
  assert.equal(await page.locator('#watches-title').innerText(), 'Watches');
  assert.match(await page.locator('.watches-summary').innerText(), /^64 watches of 8 programs, 5 events told, 1 pending$/);
  const pods = page.locator(`.program[data-watcher="${kubelet}"] .informer[data-resource="pods"]`);
  assert.equal(await pods.locator('.text').innerText(), 'pods: 1 ADDED; last ADDED Pod/default/web at resourceVersion 1185, at 0s (handled at 2s); 1 pending, next handled at 2s');
  assert.match(await pods.locator('.request').innerText(), new RegExp(`^GET /api/v1/pods\\?allowWatchBookmarks=true&fieldSelector=spec\\.nodeName%3D${kubelet.split(' ')[1]}&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=\\d+&watch=true$`));
  assert.match(await pods.getAttribute('class') ?? '', /tone-warn/);
  // The quiet informers are counted: kube-controller-manager has told only its pod informer so far.
  const kcm = page.locator('.program[data-watcher="kube-controller-manager"]');
  assert.equal(await kcm.locator('.informer').count(), 1);
  assert.match(await kcm.locator('.quiet').innerText(), /^\d+ more with no event since they opened$/);
  // The programs told nothing yet (the other kubelets, the kube-proxies) are counted, not listed.
  assert.equal(await page.locator('.watch-list > .quiet').innerText(), '5 more programs whose watches have had no event since they opened');
  mkdirSync(join(ROOT, 'out', 'screenshots'), { recursive: true });
  await page.locator('section.watches').screenshot({ path: join(ROOT, 'out', 'screenshots', 'state-tree-watches.png') });
  // A run without --watches has no such section.
  await post(page, { type: 'state', view: viewOf(deployment) });
  await page.locator('section.watches').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('malformed messages are ignored and the page keeps what it shows', async () => {
  const { page, errors } = await open();
  await post(page, { type: 'state', view: viewOf(deployment) });
  await page.getByRole('tree').waitFor();
  const before = await page.locator('#root').innerHTML();
  for (const m of malformed) await post(page, m.message);
  // A valid message after them proves each was handled (the page is still listening) before we compare.
  await post(page, { type: 'state', view: viewOf(deployment) });
  assert.equal(await page.locator('#root').innerHTML(), before);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the keyboard walks the tree: arrows move and fold, Enter reveals the object in the manifest', async () => {
  const { page } = await open();
  await post(page, { type: 'state', view: viewOf(deployment) });
  const first = page.locator('[role="treeitem"]').first();
  await first.focus();
  await page.keyboard.press('ArrowDown');
  assert.match(await page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? ""'), /^ReplicaSet web-/);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("aria-expanded")'), 'false');
  assert.equal(await page.locator('[role="treeitem"][aria-level="3"]').count(), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('[role="treeitem"][aria-level="3"]').count(), 3);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const reveal = (await posted(page)).find((m) => m.type === 'reveal');
  assert.deepEqual(reveal, { type: 'reveal', ref: 'Deployment/default/web', field: 'metadata.name' });
  await page.context().close();
});

test('clicking a phase in the timeline asks to go to that step', async () => {
  const { page } = await open();
  await post(page, { type: 'state', view: viewOf(deployment) });
  const item = page.locator('.timeline li[data-seq]').nth(3);
  const seq = Number(await item.getAttribute('data-seq'));
  await item.click();
  assert.deepEqual((await posted(page)).find((m) => m.type === 'goto'), { type: 'goto', seq });
  await page.context().close();
});

test('the state survives the page being hidden and shown again (getState)', async () => {
  const first = await open();
  await post(first.page, { type: 'state', view: viewOf(deployment) });
  await first.page.locator('[role="treeitem"]').nth(1).focus();
  await first.page.keyboard.press('ArrowLeft');
  const saved = await first.page.evaluate<unknown>('window.__state');
  await first.page.context().close();
  const second = await open(saved);
  await second.page.getByRole('tree').waitFor();
  assert.equal(await second.page.locator('[role="treeitem"][aria-expanded="false"]').count(), 1);
  assert.equal(await second.page.locator('[role="treeitem"][aria-level="3"]').count(), 0);
  await second.page.context().close();
});

/** contrast is the WCAG contrast ratio of two computed colors (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

for (const theme of Object.keys(THEMES)) {
  test(`in the ${theme} theme the tones are text a reader can read and the resource bars show what is used`, async () => {
    const { page, errors } = await open(undefined, theme);
    await post(page, { type: 'state', view: viewOf(deployment) });
    await page.getByRole('tree').waitFor();
    // Every tone the page writes text in, against the page's background: 4.5:1 at least (WCAG 1.4.3).
    const colors = await page.evaluate(`(() => {
      const out = { background: getComputedStyle(document.body).backgroundColor };
      for (const tone of ['ok', 'warn', 'error', 'idle']) {
        const span = document.createElement('span');
        span.className = 'tone-' + tone;
        span.textContent = tone;
        document.body.append(span);
        out[tone] = getComputedStyle(span).color;
      }
      return out;
    })()`) as Record<string, string>;
    for (const tone of ['ok', 'warn', 'error', 'idle']) {
      const ratio = contrast(colors[tone]!, colors['background']!);
      assert.ok(ratio >= 4.5, `${theme}: tone-${tone} ${colors[tone]} on ${colors['background']} is ${ratio.toFixed(2)}:1`);
    }
    // Each node's resource bars: filled as far as their value, an empty one not at all; the fill is seen (3:1, WCAG 1.4.11).
    const bars = await page.evaluate(`[...document.querySelectorAll('.bar[role="meter"]')].map((b) => ({
      value: Number(b.getAttribute('aria-valuenow')), width: b.clientWidth, fill: b.querySelector('.fill').getBoundingClientRect().width,
      color: getComputedStyle(b.querySelector('.fill')).backgroundColor }))`) as { value: number; width: number; fill: number; color: string }[];
    assert.ok(bars.length > 0, 'the nodes show their resources');
    assert.ok(bars.some((b) => b.value === 0), 'some bar is empty');
    for (const b of bars) {
      assert.ok(Math.abs(b.fill - (b.width * b.value) / 100) <= 1, `a bar at ${b.value}% is filled ${b.fill} of ${b.width}`);
      if (b.value > 0) assert.ok(contrast(b.color, colors['background']!) >= 3, `${theme}: the bar's fill ${b.color} on ${colors['background']}`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('the page has a nonce-only Content-Security-Policy and loads nothing but its own script and style', async () => {
  requested.length = 0;
  const { page } = await open();
  await post(page, { type: 'state', view: viewOf(deployment) });
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.equal(csp, `default-src 'none'; style-src ${base}; img-src ${base} data:; script-src 'nonce-${NONCE}'`);
  assert.deepEqual([...new Set(requested)].sort(), ['/', '/state-tree.css', '/theme.css', '/webview.js']);
  await page.context().close();
});
