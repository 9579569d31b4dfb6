// The real VS Code the end-to-end tests drive: code-server 4.100.3 (VS Code 1.100.3), installed on demand into
// .cache/ by scripts/install-code-server.sh (outside the dependencies), with the built .vsix installed, and headless
// Chromium on it; and the gestures the tests make in it (open a file, run a command, read a view).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

export const ROOT = join(__dirname, '..', '..', '..');
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

/** prepare installs code-server (on demand, into .cache/) and packages the extension and a stand-in language pack. */
export function prepare(): void {
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
}

/** cleanup closes the browser and removes the scratch folder. */
export async function cleanup(): Promise<void> {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

/** Workbench is one code-server with the extension installed, and a Chromium page on it. */
export interface Workbench {
  page: Page;
  server: ChildProcess;
  log: string[];
  /** workspace is the folder the workbench has open; settings its user settings file. */
  workspace: string;
  settings: string;
  stop(): Promise<void>;
}

/** Theme is a color theme the tests run the workbench in: its settings id, its picker label and the workbench's class. */
export interface Theme {
  name: 'dark' | 'light';
  colorTheme: string;
  label: string;
  /** selector matches the workbench once the theme applies. */
  selector: string;
  /** highContrast is the high contrast theme of the same kind, which the state tree's contrast is measured in too. */
  highContrast: { label: string; selector: string };
}

/** THEMES are the themes every end-to-end suite runs in: VS Code's default dark and light themes. */
export const THEMES: readonly Theme[] = [
  { name: 'dark', colorTheme: 'Default Dark Modern', label: 'Dark Modern', selector: '.monaco-workbench.vs-dark', highContrast: { label: 'Dark High Contrast', selector: '.monaco-workbench.hc-black' } },
  { name: 'light', colorTheme: 'Default Light Modern', label: 'Light Modern', selector: '.monaco-workbench.vs:not(.vs-dark)', highContrast: { label: 'Light High Contrast', selector: '.monaco-workbench.hc-light' } },
];

/** WorkbenchOptions: whether the workspace starts with examples/pod.yaml (it does by default), the theme, and settings to add. */
export interface WorkbenchOptions {
  example?: boolean;
  theme?: Theme;
  settings?: Record<string, unknown>;
}

export async function startWorkbench(name: string, locale?: string, files: Record<string, string> = {}, options: WorkbenchOptions = {}): Promise<Workbench> {
  const home = join(scratch, name);
  const userData = join(home, 'user-data');
  const extensions = join(home, 'extensions');
  const workspace = join(home, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  if (options.example !== false) copyFileSync(join(ROOT, 'examples', 'pod.yaml'), join(workspace, 'pod.yaml'));
  // A manifest with a misspelt field, for the language server.
  writeFileSync(join(workspace, 'typo.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  containers:\n    - name: app\n      imagee: nginx:1.27\n');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(workspace, file, '..'), { recursive: true });
    writeFileSync(join(workspace, file), text);
  }
  const settings = join(userData, 'User', 'settings.json');
  writeFileSync(settings, JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
    'update.mode': 'none', 'telemetry.telemetryLevel': 'off', 'workbench.tips.enabled': false,
    ...(options.theme ? { 'workbench.colorTheme': options.theme.colorTheme } : {}), ...options.settings,
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
  if (options.theme) await page.locator(options.theme.selector).waitFor();
  return {
    page, server, log, workspace, settings,
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
export async function openFile(page: Page, name: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Control+P');
      await input.waitFor({ timeout: 5_000 });
      await input.fill(name, { timeout: 5_000 });
      // The row of the file itself: the first row can still be a recently opened file while the list filters.
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      await row.waitFor({ timeout: 15_000 });
      await row.click({ timeout: 5_000 });
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
export async function inPalette<T>(page: Page, filter: string, use: () => Promise<T>): Promise<T> {
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
export async function runCommand(page: Page, title: string, match: string | RegExp = title): Promise<void> {
  await inPalette(page, title, async () => {
    // The row itself is clicked: Enter would run whichever row is first while the list is still filtering.
    const entry = page.locator('.quick-input-list .monaco-list-row', { hasText: match }).first();
    await entry.waitFor({ timeout: 10_000 });
    await entry.click();
  });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** paletteEntries lists the command palette's entries that match a filter. */
export async function paletteEntries(page: Page, filter: string): Promise<string[]> {
  return inPalette(page, filter, async () => {
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    const rows = await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
    await page.keyboard.press('Escape');
    return rows;
  });
}

/** clickLine puts the cursor on a 1-based editor line by its text. */
export async function clickLine(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-editor .view-line', { hasText: text }).first().click();
}

/** workloadRow is a row of the Workloads view (Run and Debug side bar) that holds a text. */
export function workloadRow(page: Page, text: string | RegExp) {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^Workloads/i }) }).locator('.monaco-list-row', { hasText: text }).first();
}

/**
 * openWorkloads expands the Workloads view when VS Code has laid it out collapsed (a side bar short of room). It first
 * collapses the Watch and Breakpoints views, which no test reads (the breakpoints stay on), as a user short of room
 * would: under them the Workloads view may be left one row high, and a list draws only the rows in sight.
 */
export async function openWorkloads(page: Page): Promise<void> {
  for (const other of [/^Watch/i, /^Breakpoints/i]) {
    const pane = page.locator('.pane-header', { hasText: other }).first();
    if ((await pane.count()) > 0 && (await pane.getAttribute('aria-expanded')) === 'true') await pane.click();
  }
  const header = page.locator('.pane-header', { hasText: /^Workloads/i }).first();
  await header.waitFor();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}

/** replLines are the Debug Console's lines, top to bottom as far as they are drawn. */
export async function replLines(page: Page): Promise<string[]> {
  return (await page.locator('.repl .monaco-list-row').allInnerTexts()).map((t) => t.trim());
}

/** editorAction is the editor title's action (the Debug/Run buttons among them) whose label starts with a text. */
export function editorAction(page: Page, label: string) {
  return page.locator(`.editor-actions [aria-label^="${label}"]`).first();
}

/**
 * stateTreeFrame finds the state tree webview's page frame. Its #root may be drawn after the frame's last navigation,
 * so each look waits for the next navigation for at most half a second.
 */
export async function stateTreeFrame(page: Page): Promise<Frame> {
  for (let look = 0; look < 240; look++) {
    for (const frame of page.frames()) {
      if (await frame.locator('#root').count().catch(() => 0)) return frame;
    }
    await page.waitForEvent('framenavigated', { timeout: 500 }).catch(() => undefined);
  }
  throw new Error('the state tree webview never showed its #root');
}
