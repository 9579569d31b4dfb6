// A Deployment's debug session in a real VS Code, in one theme: paused at the first image pull, the control plane
// thread has frames and variables, `kubectl get deploy,rs,pods` answers in the Debug Console, and the state tree's text
// is readable (at least 4.5:1 against its background, measured with the webview's getComputedStyle) in the theme and
// in its high contrast sibling, with resource bars that draw what they hold (an empty one is no full bar); the README's
// screenshots are taken here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { clickLine, editorAction, openFile, openWorkloads, ROOT, runCommand, startWorkbench, stateTreeFrame, workloadRow, type Theme, type Workbench } from '../workbench';
import { alpha, clickRow, consoleLength, contrast, meterLooks, revealRow, shoot, stackRows, stateTreeColors, switchTheme, toolbar, topFrame, typeInConsole, unreadFrames, waitForConsole, waitForNewStop, waitForStackChange } from '../views';

/** readable checks every piece of the state tree's text against its background: WCAG AA, 4.5:1. */
async function readable(tree: Frame, themeLabel: string): Promise<void> {
  const colors = await stateTreeColors(tree);
  assert.ok(colors.length > 20, `the state tree shows text: ${colors.length} pieces`);
  const poor = colors.filter((c) => contrast(c.color, c.background) < 4.5);
  assert.deepEqual(poor.map((c) => `"${c.text}" ${c.color} on ${c.background}: ${contrast(c.color, c.background).toFixed(2)}:1`), [], `${themeLabel}: text below 4.5:1`);
}

/** barsDrawTheirValue checks that each resource bar's fill is as wide as its value, on a track of the page's color. */
async function barsDrawTheirValue(tree: Frame, themeLabel: string): Promise<void> {
  const bars = await meterLooks(tree);
  assert.ok(bars.length > 0, 'the nodes show resource bars');
  for (const b of bars) {
    assert.ok(Math.abs(b.fillRatio - b.value / 100) < 0.05, `${themeLabel}: a bar of ${b.value}% is drawn ${Math.round(b.fillRatio * 100)}% full`);
    assert.ok(alpha(b.track) === 0 || b.track === b.page, `${themeLabel}: a bar's track is ${b.track} on ${b.page}, not the page's color`);
    if (b.value > 0) assert.ok(contrast(b.fill, b.page) >= 3, `${themeLabel}: a bar's fill ${b.fill} on ${b.page}`);
  }
}

export function deploymentSuite(theme: Theme): void {
  describe(`a Deployment's debug session (${theme.name} theme)`, { timeout: 8 * 60_000 }, () => {
    let wb: Workbench;
    before(async () => {
      wb = await startWorkbench(`deployment-${theme.name}`, undefined, { 'deployment.yaml': readFileSync(join(ROOT, 'examples', 'deployment.yaml'), 'utf8') }, {
        example: false, theme, settings: { 'editor.minimap.enabled': false },
      });
    });
    after(async () => { await wb?.stop(); });

    test(`${theme.name}: paused at the first image pull, the control plane thread has frames and variables, and kubectl get deploy,rs,pods answers`, async () => {
      const { page } = wb;
      try {
        await openFile(page, 'deployment.yaml');
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        await clickLine(page, 'image: nginx:1.27');
        await page.keyboard.press('F9');
        await page.locator('.glyph-margin-widgets .codicon-debug-breakpoint').first().waitFor();
        await clickLine(page, 'name: web');
        await page.keyboard.press('F5');
        await page.locator('.debug-toolbar').waitFor();
        await waitForNewStop(page, '');
        let stack = (await stackRows(page)).join('|');
        // On through the image line's readers (ImageLocality for each pod, then the pulls) to the first pull: by then
        // the scheduler has placed all three pods.
        const pulling = page.locator('.debug-call-stack .monaco-list-row', { hasText: 'kubelet.imagePull' }).first();
        for (let i = 0; i < 8 && !/^kubelet\.imagePull/.test(await topFrame(page)); i++) {
          await toolbar(page, 'Continue');
          stack = await waitForStackChange(page, stack);
        }
        await pulling.waitFor();
        // The control plane thread (the Deployment's and ReplicaSet's controllers) is paused with the rest: its frames
        // show, and its frame's variables.
        // It is the first thread: the Call Stack, a few rows high, goes to its top from the paused frame it shows (the
        // pull's, which is there: VS Code's selection of the focused frame may come later than its rows).
        await clickRow(page, pulling);
        await page.keyboard.press('Home');
        const controlPlane = page.locator('.debug-call-stack .monaco-list-row', { hasText: /^control plane/ }).first();
        await controlPlane.waitFor();
        if (/Paused/i.test(await controlPlane.innerText())) {
          // A user opens it by its twistie (a key press goes where the focus is, which VS Code may have moved since).
          if ((await controlPlane.getAttribute('aria-expanded')) !== 'true') await clickRow(page, controlPlane.locator('.monaco-tl-twistie'));
          await page.locator('.debug-call-stack .monaco-list-row[aria-expanded="true"]', { hasText: /^control plane/ }).first().waitFor();
          const index = Number(await controlPlane.getAttribute('data-index'));
          const firstFrame = page.locator(`.debug-call-stack .monaco-list-row[data-index="${index + 1}"] .stack-frame`);
          await firstFrame.waitFor({ timeout: 60_000 }).catch(async () => assert.fail(`the paused control plane thread shows no frame: ${(await stackRows(page)).join(' | ')}`));
          await clickRow(page, firstFrame);
          // The frame's object is the Deployment or its ReplicaSet: its scope is named by its kind (a pod's is "Pod").
          await page.locator('.debug-variables .monaco-list-row', { hasText: /^(Deployment|ReplicaSet)\b/ }).first().waitFor();
        }
        await openWorkloads(page);
        await workloadRow(page, /^web-[a-z0-9]+-[a-z0-9]{5}/).waitFor();
        const from = await consoleLength(page);
        await typeInConsole(page, 'kubectl get deploy,rs,pods');
        const rows = (await waitForConsole(page, from, /deployment\.apps\/web/)).map((r) => r.text).join('\n');
        assert.match(rows, /replicaset\.apps\/web-[a-z0-9]+/);
        assert.match(rows, /pod\/web-[a-z0-9]+-[a-z0-9]{5}/);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-deployment-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: the state tree's text is readable and its resource bars draw what they hold, in ${theme.label} and ${theme.highContrast.label}; screenshots`, async () => {
      const { page } = wb;
      try {
        await runCommand(page, 'Pod Lifecycle: Show State Tree');
        const tree = await stateTreeFrame(page);
        await tree.locator('[role="treeitem"]', { hasText: 'ReplicaSet' }).first().waitFor();
        await tree.locator('.node').first().waitFor();
        await readable(tree, theme.label);
        await barsDrawTheirValue(tree, theme.label);
        // The README's screenshots: the window, with the paused pod's frame and variables, and the state tree's panel.
        // The pull's frame may be below the rows the Call Stack draws (the control plane thread opened above it).
        const pull = page.locator('.debug-call-stack .monaco-list-row .stack-frame', { hasText: 'kubelet.imagePull' }).first();
        await revealRow(page, pull, page.locator('.debug-call-stack .monaco-list').first());
        await clickRow(page, pull);
        await page.locator('.debug-variables .monaco-list-row', { hasText: /^Pod\b/ }).first().waitFor();
        // Every frame's name is drawn on its row (the screenshots once showed empty rows where frames were clicked).
        assert.deepEqual(await unreadFrames(page), [], 'frames whose name the Call Stack does not draw');
        const shots = join(ROOT, 'out', 'screenshots');
        mkdirSync(shots, { recursive: true });
        await page.mouse.move(0, 0);
        await page.screenshot({ path: join(shots, `debugger-${theme.name}.png`) });
        await page.locator('.webview.ready, iframe.webview').last().screenshot({ path: join(shots, `state-tree-${theme.name}.png`) });
        // The high contrast theme of the same kind: the webview gets its colors (its body says so) and stays readable.
        await switchTheme(page, theme.highContrast.label, theme.highContrast.selector);
        await tree.locator('body.vscode-high-contrast').waitFor();
        await readable(tree, theme.highContrast.label);
        await barsDrawTheirValue(tree, theme.highContrast.label);
        await switchTheme(page, theme.label, theme.selector);
        await tree.locator('body:not(.vscode-high-contrast)').waitFor();
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-state-tree-${theme.name}-failure`)}`);
      }
    });
  });
}
