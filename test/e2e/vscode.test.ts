// End to end in a real VS Code (code-server 4.100.3 = VS Code 1.100.3) driven by headless Chromium: the built .vsix
// is installed, examples/pod.yaml opened, F5 pressed; the session stops at a breakpoint on a manifest line, the pod
// shows in Variables, a step moves on, the state tree opens with the pod and its node, the session continues to its
// end, the palette lists the commands, with the display language zh-cn the extension speaks Chinese, and the
// language server marks a misspelt field with the API server's words.
// code-server is installed on demand into .cache/ by scripts/install-code-server.sh, outside the dependencies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..', '..');
const CODE_SERVER = join(ROOT, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** UI_TIMEOUT_MS bounds each wait for the workbench; VS Code needs a few seconds to start, never minutes. */
const UI_TIMEOUT_MS = 60_000;

let scratch = '';
let vsix = '';
let languagePack = '';
let browser: Browser;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

before(() => {
  run('bash', ['scripts/install-code-server.sh']);
  scratch = mkdtempSync(join(tmpdir(), 'pod-lifecycle-e2e-'));
  vsix = join(scratch, 'pod-lifecycle-debugger.vsix');
  run(join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix]);
  // VS Code offers a display language once a language pack declares it; the registry of extensions is out of
  // reach here, so a stand-in pack declares zh-cn with no translations of VS Code's own strings.
  languagePack = join(scratch, 'language-pack-zh-hans.vsix');
  const pack = join(scratch, 'language-pack-src');
  spawnSync('cp', ['-r', join(ROOT, 'test', 'fixtures', 'e2e', 'language-pack-zh-hans'), pack]);
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', languagePack], { cwd: pack, encoding: 'utf8' });
  assert.equal(r.status, 0, `packaging the stand-in language pack failed: ${r.stderr || r.stdout}`);
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Workbench is one code-server with the extension installed, and a Chromium page on it. */
interface Workbench {
  page: Page;
  server: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

async function startWorkbench(name: string, locale?: string, files: Record<string, string> = {}): Promise<Workbench> {
  const home = join(scratch, name);
  const userData = join(home, 'user-data');
  const extensions = join(home, 'extensions');
  const workspace = join(home, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  copyFileSync(join(ROOT, 'examples', 'pod.yaml'), join(workspace, 'pod.yaml'));
  // A manifest with a misspelt field, for the language server.
  writeFileSync(join(workspace, 'typo.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  containers:\n    - name: app\n      imagee: nginx:1.27\n');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(workspace, file, '..'), { recursive: true });
    writeFileSync(join(workspace, file), text);
  }
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
    'update.mode': 'none', 'telemetry.telemetryLevel': 'off', 'workbench.tips.enabled': false,
  }));
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
  run(CODE_SERVER, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix, ...(locale ? ['--install-extension', languagePack] : [])], env);
  if (locale) {
    // VS Code's server records the installed language packs in languagepacks.json when it installs one itself;
    // one installed from the command line is recorded here, as that cache would record it.
    const packDir = join(extensions, 'pod-lifecycle-tests.stand-in-language-pack-zh-hans-1.0.0');
    writeFileSync(join(userData, 'languagepacks.json'), JSON.stringify({
      [locale]: {
        hash: 'e2e00000000000000000000000000001', label: '中文(简体)',
        extensions: [{ extensionIdentifier: { id: 'pod-lifecycle-tests.stand-in-language-pack-zh-hans' }, version: '1.0.0' }],
        translations: { vscode: join(packDir, 'translations', 'main.i18n.json') },
      },
    }));
  }
  const port = await freePort();
  const log: string[] = [];
  const server = spawn(CODE_SERVER, [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--user-data-dir', userData, '--extensions-dir', extensions, ...(locale ? ['--locale', locale] : []), workspace,
  ], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => { if (d.toString().includes('HTTP server listening')) resolve(); };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.once('exit', (code) => reject(new Error(`code-server exited (${code}): ${log.join('')}`)));
  });
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor();
  await page.waitForFunction(() => (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName('code/didHandleExtensionPoints').length > 0);
  return {
    page, server, log,
    stop: async () => {
      await context.close();
      // code-server leaves an extension host per page load: stop the whole process group.
      try { process.kill(-server.pid!, 'SIGTERM'); } catch { /* already gone */ }
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

/**
 * openFile opens a file with Quick Open. On a busy machine its file search can leave the list empty (once seen for
 * longer than a minute), so the gesture is tried again, a few times at most.
 */
async function openFile(page: Page, name: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Control+P');
      await input.waitFor({ timeout: 5_000 });
      await input.fill(name, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }
  await page.locator(`.tab[data-resource-name="${name}"]`).waitFor();
}

/**
 * inPalette opens the command palette, types `>filter` and hands the open palette to `use`. A key pressed while the
 * workbench moves focus (a stop, a view opening) can be lost, or the palette closed under the typing, so the whole
 * gesture is tried again, a few times at most.
 */
async function inPalette<T>(page: Page, filter: string, use: () => Promise<T>): Promise<T> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      await input.waitFor({ timeout: 5_000 });
      await input.fill(`>${filter}`, { timeout: 5_000 });
      return await use();
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** runCommand runs a palette command by its title and returns once the palette closed. */
async function runCommand(page: Page, title: string, match: string | RegExp = title): Promise<void> {
  await inPalette(page, title, async () => {
    // The row itself is clicked: Enter would run whichever row is first while the list is still filtering.
    const entry = page.locator('.quick-input-list .monaco-list-row', { hasText: match }).first();
    await entry.waitFor({ timeout: 10_000 });
    await entry.click();
  });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** paletteEntries lists the command palette's entries that match a filter. */
async function paletteEntries(page: Page, filter: string): Promise<string[]> {
  return inPalette(page, filter, async () => {
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    const rows = await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
    await page.keyboard.press('Escape');
    return rows;
  });
}

/** clickLine puts the cursor on a 1-based editor line by its text. */
async function clickLine(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-editor .view-line', { hasText: text }).first().click();
}

/**
 * stateTreeFrame finds the state tree webview's page frame. Its #root may be drawn after the frame's last navigation,
 * so each look waits for the next navigation for at most half a second.
 */
async function stateTreeFrame(page: Page): Promise<Frame> {
  for (let look = 0; look < 240; look++) {
    for (const frame of page.frames()) {
      if (await frame.locator('#root').count().catch(() => 0)) return frame;
    }
    await page.waitForEvent('framenavigated', { timeout: 500 }).catch(() => undefined);
  }
  throw new Error('the state tree webview never showed its #root');
}

describe('in a real VS Code', { timeout: 10 * 60_000 }, () => {
  test('F5 on the example stops at a manifest breakpoint, steps, shows the state tree and runs to the end', async () => {
    const wb = await startWorkbench('en');
    const { page } = wb;
    try {
      await openFile(page, 'pod.yaml');
      // A breakpoint on the image line: the session stops when the kubelet reads it to pull the image.
      await clickLine(page, 'image: nginx:1.27');
      await page.keyboard.press('F9');
      await page.locator('.glyph-margin-widgets .codicon-debug-breakpoint').first().waitFor();
      await clickLine(page, 'name: web');
      await page.keyboard.press('F5');
      await page.locator('.debug-toolbar').waitFor();
      // Stopped on entry first; continue to the breakpoint. The image line is read first by the scheduler's
      // ImageLocality score plugin, then by the kubelet's image pull.
      await page.locator('.debug-call-stack .monaco-list-row').first().waitFor();
      await page.locator('.debug-toolbar .action-label[aria-label^="Continue"]').click();
      const atBreakpoint = page.locator('.debug-call-stack .monaco-list-row', { hasText: /scheduler\.score|kubelet\.imagePull/ }).first();
      await atBreakpoint.waitFor();
      await page.locator('.monaco-editor .debug-top-stack-frame-line').waitFor();
      // The pod's frames, whole: its component frame names it, and no "Load More Stack Frames" under a short stack.
      await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'Pod/default/web' }).first().waitFor();
      const stack = await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts();
      assert.ok(!stack.some((s) => /Load More Stack Frames/.test(s)), `no "Load More Stack Frames": ${stack.join(' | ')}`);
      // The pod is in the Variables view (once it has dropped what it showed for the stop on entry).
      await page.locator('.debug-variables .monaco-list-row', { hasText: /^Pod/ }).first().waitFor();
      const scopes = await page.locator('.debug-variables .monaco-list-row').allInnerTexts();
      assert.ok(scopes.some((s) => /^Pod/.test(s.trim())), `Variables shows the Pod scope: ${scopes.join(' | ')}`);
      // VS Code expands the first scope by itself; open it when it did not.
      const metadata = page.locator('.debug-variables .monaco-list-row', { hasText: 'metadata' }).first();
      if (!(await metadata.isVisible())) await page.locator('.debug-variables .monaco-list-row', { hasText: /^Pod/ }).first().click();
      await metadata.waitFor();
      // Step over: the next phase.
      const before = (await page.locator('.debug-call-stack .monaco-list-row.focused, .debug-call-stack .monaco-list-row.selected').first().innerText().catch(() => '')) || stack.join('|');
      await page.keyboard.press('F10');
      await page.waitForFunction((b) => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } }).document;
        return Array.from(doc.querySelectorAll('.debug-call-stack .monaco-list-row')).map((r) => r.textContent ?? '').join('|') !== b;
      }, stack.join('|'));
      void before;
      // The state tree shows the pod and its node.
      await runCommand(page, 'Pod Lifecycle: Show State Tree');
      const frame = await stateTreeFrame(page);
      await frame.locator('[role="treeitem"]', { hasText: 'web' }).first().waitFor();
      const tree = await frame.locator('#root').innerText();
      assert.match(tree, /Pod\s+web/);
      assert.match(tree, /worker-[12]/);
      // Continue to the end: with the breakpoint gone (the kubelet reads the image line too), the session ends.
      // The state tree took the focus: back in the manifest's editor, F9 on the image line removes the breakpoint.
      await clickLine(page, 'image: nginx:1.27');
      await page.keyboard.press('F9');
      await page.locator('.glyph-margin-widgets .codicon-debug-breakpoint').waitFor({ state: 'detached' });
      await page.locator('.debug-toolbar .action-label[aria-label^="Continue"]').click();
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
      // The state tree follows the session to its end: the pod Running, not the last stop's ContainerCreating.
      await frame.locator('#root', { hasText: 'Running' }).waitFor();
      await clickLine(page, 'name: web');
      const commands = await paletteEntries(page, 'Pod Lifecycle:');
      for (const title of ['Debug Pod Lifecycle', 'Run Pod Lifecycle', 'Show State Tree', 'Explain Why Pending', 'Explain Why Terminating', 'Import Cluster from Current kubectl Context', 'Create Sample Cluster File']) {
        assert.ok(commands.some((c) => c.includes(title)), `the palette lists ${title}: ${commands.join(' | ')}`);
      }
    } catch (err) {
      // What the workbench showed when it failed, for whoever reads the failure.
      mkdirSync(join(ROOT, 'out', 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'out', 'screenshots', 'e2e-failure.png') }).catch(() => undefined);
      const stack = await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts().catch(() => []);
      throw new Error(`${(err as Error).message}\ncall stack: ${stack.join(' | ')}\nscreenshot: out/screenshots/e2e-failure.png`);
    } finally {
      await wb.stop();
    }
  });

  test('with the display language zh-cn the commands speak Chinese', async () => {
    const wb = await startWorkbench('zh', 'zh-cn');
    try {
      await openFile(wb.page, 'pod.yaml');
      // The YAML-only commands show once the editor has the focus (resourceLangId == yaml).
      await clickLine(wb.page, 'name: web');
      const commands = await paletteEntries(wb.page, 'Pod 生命周期');
      for (const title of ['调试 Pod 生命周期', '显示状态树', '解释为何处于 Pending', '从当前 kubectl 上下文导入集群']) {
        assert.ok(commands.some((c) => c.includes(title)), `the palette lists ${title}: ${commands.join(' | ')}`);
      }
    } finally {
      await wb.stop();
    }
  });

  test('the debugger: a function breakpoint on scheduler.score, step into a plugin, step back, a what-if edit, and a preStop line breakpoint on deletion', async () => {
    const launch = { version: '0.2.0', configurations: [{ type: 'pod-lifecycle', request: 'launch', name: 'Debug and delete', manifest: '${workspaceFolder}/prestop.yaml', stopOnEntry: true, delete: true }] };
    const wb = await startWorkbench('flows', undefined, {
      'prestop.yaml': readFileSync(join(ROOT, 'test', 'fixtures', 'e2e', 'prestop.yaml'), 'utf8'),
      '.vscode/launch.json': JSON.stringify(launch, null, 2),
    });
    const { page } = wb;
    const stack = () => page.locator('.debug-call-stack .monaco-list-row').allInnerTexts();
    const stoppedIn = (text: RegExp) => page.locator('.debug-call-stack .monaco-list-row', { hasText: text }).first().waitFor();
    const toolbar = (label: string) => page.locator(`.debug-toolbar .action-label[aria-label^="${label}"]`).click();
    try {
      await openFile(page, 'prestop.yaml');
      await clickLine(page, 'preStop:');
      await page.keyboard.press('F9');
      await page.locator('.glyph-margin-widgets .codicon-debug-breakpoint').first().waitFor();
      await runCommand(page, 'Function Breakpoint', /(Add|New) Function Breakpoint/);
      // The new breakpoint's name is typed into the input the Breakpoints view focuses for it, once it has.
      await page.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { activeElement: { tagName: string; closest(s: string): unknown } | null } }).document;
        return doc.activeElement?.tagName === 'INPUT' && doc.activeElement.closest('.debug-breakpoints') !== null;
      });
      await page.keyboard.type('scheduler.score');
      await page.keyboard.press('Enter');
      await page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'scheduler.score' }).waitFor();
      await clickLine(page, 'name: hooked');
      await page.keyboard.press('F5');
      await page.locator('.debug-toolbar').waitFor();
      await page.locator('.debug-call-stack .monaco-list-row').first().waitFor();
      await toolbar('Continue');
      await stoppedIn(/^scheduler\.score(?!\s*›)/);
      // Step into: one score plugin.
      await toolbar('Step Into');
      await stoppedIn(/^scheduler\.score › plugin /);
      // Step back: the phase again.
      await toolbar('Step Back');
      await page.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } }).document;
        return !Array.from(doc.querySelectorAll('.debug-call-stack .monaco-list-row')).some((r) => (r.textContent ?? '').includes('› plugin'));
      });
      // What-if: worker-1 with less cpu than the pod asks for; the run is replayed and the console says where it goes.
      const row = (text: string | RegExp) => page.locator('.debug-variables .monaco-list-row', { hasText: text }).first();
      // Room for the tree: the Watch view folds away, and so does the Pod scope VS Code opened.
      await page.locator('.pane-header', { hasText: /^watch$/i }).click();
      await row(/^Pod$/).click();
      // The view shows a few rows at a time: walk the tree with the keyboard, which scrolls it.
      // The focused row is the one the list names as its active descendant (rows are reused as the list scrolls, so a
      // class lookup can find a stale one).
      const focusedRow = () => page.evaluate(() => {
        type El = { getAttribute(n: string): string | null; textContent: string | null };
        const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null; getElementById(id: string): El | null } }).document;
        const id = doc.querySelector('.debug-variables .monaco-list')?.getAttribute('aria-activedescendant');
        const el = id ? doc.getElementById(id) : null;
        return { index: Number(el?.getAttribute('data-index') ?? -1), level: Number(el?.getAttribute('aria-level') ?? 0), expanded: el?.getAttribute('aria-expanded') === 'true', text: (el?.textContent ?? '').trim() };
      });
      // After a key, the focus moves once the list has handled it; at the end of the list it cannot.
      const focusMoved = (from: number) => page.waitForFunction((index) => {
        type El = { getAttribute(n: string): string | null };
        const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null; getElementById(id: string): El | null } }).document;
        const id = doc.querySelector('.debug-variables .monaco-list')?.getAttribute('aria-activedescendant');
        const el = id ? doc.getElementById(id) : null;
        return el !== null && el.getAttribute('data-index') !== String(index);
      }, from, { timeout: 2000 }).catch(() => undefined);
      const focusRow = async (text: RegExp) => {
        let row = await focusedRow();
        for (let i = 0; i < 80 && !text.test(row.text); i++) {
          await page.keyboard.press('ArrowDown');
          await focusMoved(row.index);
          row = await focusedRow();
        }
        assert.match(row.text, text);
        return row;
      };
      await row(/^Cluster$/).click();
      // The pointer leaves the list: rows scrolling under it would open value hovers.
      await page.mouse.move(900, 760);
      if ((await row(/^Cluster$/).getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowRight');
      await row(/^Node\b/).waitFor();
      for (const name of [/^Node\b/, /^worker-1\b/, /^status\b/, /^allocatable\b/]) {
        const { index, level, expanded } = await focusRow(name);
        if (!expanded) await page.keyboard.press('ArrowRight');
        // The children come from the adapter: once they have, the row after this one is the first of them, a level
        // deeper. Stepping onto the next row and back looks, and scrolls them into view.
        const firstChild = page.locator(`.debug-variables .monaco-list-row[data-index="${index + 1}"][aria-level="${level + 1}"]`);
        for (let i = 0; i < 50 && (await firstChild.count()) === 0; i++) {
          await page.keyboard.press('ArrowDown');
          await page.keyboard.press('ArrowUp');
        }
        assert.equal(await firstChild.count(), 1, `the children of ${name} came`);
        // Children that came between the two keys leave the focus on one of them: back to this row.
        for (let f = await focusedRow(), i = 0; f.index !== index && i < 80; f = await focusedRow(), i++) {
          await page.keyboard.press(f.index > index ? 'ArrowUp' : 'ArrowDown');
          await focusMoved(f.index);
        }
      }
      // Set Value with a double-click on the cpu row, which edits the row clicked. Not F2: VS Code 1.100's F2 edits
      // the variable whose row the view rendered last (its debug.setVariable command reads the context the last
      // rendered row's action bar left behind, microsoft/vscode#243477), and that is as often an ancestor drawn by
      // sticky scroll (Cluster › Node) as the focused row: the edit then went to "Node", which is read-only.
      const cpu = await focusRow(/^cpu\b/);
      const cpuRow = page.locator(`.debug-variables .monaco-list-row[data-index="${cpu.index}"][aria-level="${cpu.level}"][aria-label^="cpu,"]`);
      const valueEditor = cpuRow.locator('input');
      const anyEditor = page.locator('.debug-variables .monaco-list-row input');
      for (let attempt = 1; ; attempt++) {
        await cpuRow.dblclick();
        // The edit box opens in the cpu row itself; an edit box anywhere else is closed, and the gesture tried again.
        const opened = await valueEditor.waitFor({ timeout: 5_000 }).then(() => true, () => false);
        if (opened) break;
        const elsewhere = await anyEditor.evaluateAll((inputs) => inputs.map((i) => (i as unknown as { closest(s: string): { getAttribute(n: string): string | null } | null }).closest('.monaco-list-row')?.getAttribute('aria-label')));
        if (attempt === 3) throw new Error(`the value of cpu did not open for editing (edit boxes: ${elsewhere.join(' | ') || 'none'})`);
        if (elsewhere.length > 0) await page.keyboard.press('Escape');
        await anyEditor.first().waitFor({ state: 'detached' });
      }
      await valueEditor.fill('"100m"');
      await valueEditor.press('Enter');
      await page.locator('.repl .monaco-list-row', { hasText: 'What-if: Node worker-1 status.allocatable.cpu' }).first().waitFor();
      const repl = (await page.locator('.repl .monaco-list-row').allInnerTexts()).join('\n');
      assert.match(repl, /What-if: Node worker-1 status\.allocatable\.cpu = "100m"\. The lifecycle was run again from the start to scheduler\.score/);
      assert.match(repl, /Outcome: /);
      // On to the deletion: the preStop line breakpoint stops in kubelet.preStop.
      await toolbar('Continue');
      await stoppedIn(/kubelet\.preStop/);
      assert.ok((await stack()).some((s) => s.includes('kubelet.preStop')));
      await clickLine(page, 'preStop:');
      await page.keyboard.press('F9');
      await toolbar('Continue');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
    } catch (err) {
      mkdirSync(join(ROOT, 'out', 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'out', 'screenshots', 'e2e-flows-failure.png') }).catch(() => undefined);
      throw new Error(`${(err as Error).message}\ncall stack: ${(await stack().catch(() => [])).join(' | ')}\nscreenshot: out/screenshots/e2e-flows-failure.png`);
    } finally {
      await wb.stop();
    }
  });

  test('"create a launch.json file" in a workspace without one writes the debugger\'s initial configuration once', async () => {
    const wb = await startWorkbench('launch-json');
    const { page } = wb;
    try {
      await openFile(page, 'pod.yaml');
      // The Run and Debug view's "create a launch.json file" link, as a first-time user finds it.
      await page.keyboard.press('Control+Shift+D');
      await page.locator('.welcome-view-content a', { hasText: 'create a launch.json file' }).first().click();
      // VS Code may ask which debugger the new file is for; the extension's is picked.
      const tab = page.locator('.tab[data-resource-name="launch.json"]');
      const picker = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Pod Lifecycle' }).first();
      await Promise.race([tab.waitFor(), picker.waitFor()]);
      if (await picker.isVisible()) await picker.click();
      await tab.waitFor();
      const file = join(scratch, 'launch-json', 'workspace', '.vscode', 'launch.json');
      assert.ok(existsSync(file), 'launch.json is written');
      // launch.json may hold comments: they are dropped before it is read as JSON.
      const launch = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { configurations: { type: string; name: string; manifest: string }[] };
      assert.deepEqual(launch.configurations.map((c) => [c.type, c.name, c.manifest]), [['pod-lifecycle', 'Debug pod lifecycle', '${file}']]);
    } finally {
      await wb.stop();
    }
  });

  test('the language server reports a misspelt field with the API server\'s strict-decoding message', async () => {
    const wb = await startWorkbench('lsp');
    try {
      await openFile(wb.page, 'typo.yaml');
      await wb.page.locator('.monaco-editor .squiggly-error').first().waitFor();
      await wb.page.keyboard.press('Control+Shift+M');
      const problem = wb.page.locator('.markers-panel .monaco-list-row', { hasText: 'unknown field' }).first();
      await problem.waitFor();
      assert.match(await problem.innerText(), /strict decoding error: unknown field "spec\.containers\[0\]\.imagee"/);
    } finally {
      await wb.stop();
    }
  });
});
