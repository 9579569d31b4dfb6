// The editor side in a real VS Code, in one theme, in a workspace that starts without the example: the walkthrough
// copies it in and Run Pod Lifecycle brings its report up; the Debug and Run buttons and F5 are for Kubernetes
// manifests only; the Problems view lists every problem of a document at once, tagged by stage, in the API server's
// order; hovers on requests; and "create a launch.json file" writes the configuration once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { clickLine, editorAction, openFile, paletteEntries, ROOT, runCommand, startWorkbench, type Theme, type Workbench } from '../workbench';
import { shoot, toolbar } from '../views';

const CI = 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
/** STAGES has a misspelt field (decoding) and a request no node can meet (scheduling). */
const STAGES = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      imagee: x\n      image: nginx:1.27\n      resources: {requests: {cpu: 64}}\n      readinessProbe: {tcpSocket: {port: 80}}\n';

/** hoverOn points at a word of an editor line and returns the hover VS Code shows for it. */
async function hoverOn(page: Page, lineText: string, word: string): Promise<string> {
  await page.keyboard.press('Escape');
  await page.mouse.move(0, 0);
  await page.locator('.monaco-hover-content').first().waitFor({ state: 'hidden' }).catch(() => undefined);
  const line = page.locator('.monaco-editor .view-line', { hasText: lineText }).first();
  await line.locator('span span', { hasText: new RegExp(`^\\s*${word}$`) }).first().hover();
  const hover = page.locator('.monaco-hover-content', { hasText: word }).first();
  await hover.waitFor();
  return hover.innerText();
}

export function editorSuite(theme: Theme): void {
  describe(`the editor (${theme.name} theme)`, { timeout: 8 * 60_000 }, () => {
    let wb: Workbench;
    before(async () => {
      wb = await startWorkbench(`editor-${theme.name}`, undefined, { 'ci.yml': CI, 'stages.yaml': STAGES }, {
        // Files open pinned, as a user's double-click opens them: the next one opened does not replace the last.
        example: false, theme, settings: { 'workbench.editor.enablePreview': false },
      });
    });
    after(async () => { await wb?.stop(); });

    test(`${theme.name}: the walkthrough's example is copied into the workspace, and Run Pod Lifecycle brings its report up each time`, async () => {
      const { page } = wb;
      try {
        await runCommand(page, 'Pod Lifecycle: Open Example Manifest');
        await page.locator('.tab[data-resource-name="pod.yaml"]').waitFor();
        // The user's own copy, in the workspace: not the one in the extension's folder.
        assert.equal(readFileSync(join(wb.workspace, 'pod.yaml'), 'utf8'), readFileSync(join(ROOT, 'examples', 'pod.yaml'), 'utf8'));
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'pod.yaml' }).first().waitFor();
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        await clickLine(page, 'name: web');
        await runCommand(page, 'Pod Lifecycle: Run Pod Lifecycle');
        await page.locator('.repl .monaco-list-row', { hasText: 'OUTCOME Running' }).first().waitFor();
        // Not only the first session's: with the panel hidden, another run brings its report up again.
        await runCommand(page, 'View: Hide Panel');
        await page.locator('.repl').waitFor({ state: 'hidden' });
        await clickLine(page, 'name: web');
        await runCommand(page, 'Pod Lifecycle: Run Pod Lifecycle');
        await page.locator('.repl .monaco-list-row', { hasText: 'OUTCOME Running' }).first().waitFor();
        await clickLine(page, 'name: web');
        const commands = await paletteEntries(page, 'Pod Lifecycle:');
        for (const title of ['Debug Pod Lifecycle', 'Run Pod Lifecycle', 'Show State Tree', 'Explain Why Pending', 'Explain Why Terminating', 'Import Cluster from Current kubectl Context', 'Create Sample Cluster File']) {
          assert.ok(commands.some((c) => c.includes(title)), `the palette lists ${title}: ${commands.join(' | ')}`);
        }
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-walkthrough-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: the Debug and Run buttons show on a Kubernetes manifest, not on a CI workflow, and F5 there does not offer the debugger`, async () => {
      const { page } = wb;
      try {
        await openFile(page, 'pod.yaml');
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ci.yml' }).first().click();
        await page.locator('.tab[data-resource-name="ci.yml"]').waitFor();
        await clickLine(page, 'runs-on');
        await editorAction(page, 'Debug Pod Lifecycle').waitFor({ state: 'detached' });
        assert.equal(await editorAction(page, 'Run Pod Lifecycle').count(), 0);
        // VS Code says it has no debugger for YAML (or offers other extensions' debuggers): never ours, and no session
        // starts. A key pressed while the workbench settles can be lost: F5 again, a few times at most.
        const picker = page.locator('.quick-input-widget .quick-input-list');
        const dialog = page.locator('.monaco-dialog-box');
        for (let attempt = 1; ; attempt++) {
          await page.keyboard.press('F5');
          const answered = await Promise.race([picker.waitFor({ timeout: 10_000 }), dialog.waitFor({ timeout: 10_000 })]).then(() => true, () => false);
          if (answered) break;
          assert.ok(attempt < 3, 'F5 on ci.yml got no answer');
          await clickLine(page, 'runs-on');
        }
        if (await dialog.isVisible()) {
          assert.match(await dialog.innerText(), /You don't have an extension for debugging YAML/);
          await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
        } else {
          const offered = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
          assert.ok(!offered.some((o) => /Pod Lifecycle/.test(o)), `F5 on ci.yml offers: ${offered.join(' | ')}`);
          await page.keyboard.press('Escape');
        }
        assert.equal(await page.locator('.debug-toolbar').isVisible(), false, 'no debug session on ci.yml');
        // Back on the manifest, F5 runs ours at once.
        await page.locator('.tab[data-resource-name="pod.yaml"]').click();
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        await clickLine(page, 'name: web');
        await page.keyboard.press('F5');
        await page.locator('.debug-toolbar').waitFor();
        // Stopped on entry: the editor highlights the manifest's first line, the Debug Console has kubectl's command.
        await page.locator('.monaco-editor .debug-top-stack-frame-line').first().waitFor();
        await page.locator('.repl .monaco-list-row', { hasText: '$ kubectl apply -f pod.yaml' }).first().waitFor();
        await toolbar(page, 'Stop');
        await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-kinds-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: the Problems view lists every problem of a document at once, tagged by stage, in the API server's order, each once`, async () => {
      const { page } = wb;
      try {
        await openFile(page, 'stages.yaml');
        await page.locator('.monaco-editor .squiggly-error').first().waitFor();
        await page.keyboard.press('Control+Shift+M');
        const rows = page.locator('.markers-panel .monaco-list-row');
        await rows.filter({ hasText: 'nodes are available' }).first().waitFor();
        const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
        const decode = texts.findIndex((t) => /strict decoding error: unknown field "spec\.containers\[0\]\.imagee"/.test(t));
        const scheduling = texts.findIndex((t) => /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\./.test(t.trim()));
        assert.ok(decode >= 0 && scheduling > decode, `the decoding error, then the scheduling warning: ${texts.join(' | ')}`);
        assert.match(texts[decode]!, /pod-lifecycle\s*\(?decode\)?\s*\[Ln 8,/);
        assert.match(texts[scheduling]!, /pod-lifecycle\s*\(?scheduling\)?\s*\[Ln 10,/);
        assert.equal(texts.filter((t) => /nodes are available/.test(t)).length, 1, `one scheduling warning: ${texts.join(' | ')}`);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-problems-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: hovers say what a cpu and a memory request are, no default for requests that are set, and who reads the image`, async () => {
      const { page } = wb;
      try {
        await openFile(page, 'pod.yaml');
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        const cpu = await hoverOn(page, 'cpu: 250m', 'cpu');
        assert.match(cpu, /cpu request/);
        assert.match(cpu, /250m = 0\.25 CPU \(250 millicores\)/);
        const memory = await hoverOn(page, 'memory: 64Mi', 'memory');
        assert.match(memory, /64Mi = 67,108,864 bytes \(64 MiB\)/);
        const requests = await hoverOn(page, 'requests:', 'requests');
        assert.match(requests, /scheduler\.filter/);
        assert.doesNotMatch(requests, /Default:/);
        const image = await hoverOn(page, 'image: nginx:1.27', 'image');
        assert.match(image, /Read by:[\s\S]*scheduler\.score[\s\S]*kubelet\.imagePull/);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-hovers-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: "create a launch.json file" writes the debugger's initial configuration once`, async () => {
      const { page } = wb;
      try {
        await page.keyboard.press('Control+Shift+D');
        await page.locator('.welcome-view-content a', { hasText: 'create a launch.json file' }).first().click();
        // VS Code may ask which debugger the new file is for; the extension's is picked.
        const tab = page.locator('.tab[data-resource-name="launch.json"]');
        const picker = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Pod Lifecycle' }).first();
        await Promise.race([tab.waitFor(), picker.waitFor()]);
        if (await picker.isVisible()) await picker.click();
        await tab.waitFor();
        const file = join(wb.workspace, '.vscode', 'launch.json');
        assert.ok(existsSync(file), 'launch.json is written');
        // launch.json may hold comments: they are dropped before it is read as JSON.
        const text = readFileSync(file, 'utf8');
        const launch = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { configurations: { type: string; name: string; manifest: string }[] };
        assert.deepEqual(launch.configurations.map((c) => [c.type, c.name, c.manifest]), [['pod-lifecycle', 'Debug pod lifecycle', '${file}']]);
        assert.equal(text.match(/"type": "pod-lifecycle"/g)?.length, 1, text);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-launch-json-${theme.name}-failure`)}`);
      }
    });
  });
}
