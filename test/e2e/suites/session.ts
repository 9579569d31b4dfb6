// A Pod's debug session in a real VS Code, in one theme: Step Over moves visibly at every stop and the Debug Console
// says in one line what each step did, after kubectl apply's own lines; the state tree and the Workloads view follow
// every stop, Step Back and the end; `explain` in the scheduler, a console error that stays in the console; then a new
// session on another manifest stops on the unschedulable pod's cpu line, where the Problems view puts it, and the
// views drop the previous manifest.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { clickLine, editorAction, openFile, openWorkloads, runCommand, startWorkbench, stateTreeFrame, workloadRow, type Theme, type Workbench } from '../workbench';
import {
  consoleLength, consoleRows, highlightedLine, phaseOf, shoot, stackRows, STEP_LINE, toolbar, topFrame, treePhase, typeInConsole,
  waitForConsole, waitForNewStop,
} from '../views';

/** BIG asks for more cpu than any node has: the scheduler turns every node away. */
const BIG = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n      resources:\n        requests:\n          cpu: "1000"\n          memory: 64Mi\n';

/** escape makes a text a literal in a regular expression. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function sessionSuite(theme: Theme): void {
  describe(`a Pod's debug session (${theme.name} theme)`, { timeout: 8 * 60_000 }, () => {
    let wb: Workbench;
    let tree: Frame;
    /** transcript is the Debug Console as read so far, row by row (it draws only its last rows). */
    const transcript = new Map<number, string>();
    const read = async () => { for (const r of await consoleRows(wb.page)) transcript.set(r.index, r.text); };
    const lines = () => [...transcript.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    /** treeFollows waits until the state tree's summary names the phase of the Call Stack's top frame. */
    const treeFollows = async (frame: string) => {
      const phase = phaseOf(frame);
      await tree.locator('.summary .phase', { hasText: new RegExp(`^${escape(phase)}$`) }).waitFor({ timeout: 60_000 })
        .catch(async () => assert.fail(`the state tree names "${await treePhase(tree)}", the Call Stack stops in "${frame}"`));
    };

    before(async () => { wb = await startWorkbench(`session-${theme.name}`, undefined, { 'big.yaml': BIG }, { theme }); });
    after(async () => { await wb?.stop(); });

    test(`${theme.name}: Step Over moves visibly at every stop, one console line says what each step did, and the state tree and Workloads view follow`, async () => {
      const { page } = wb;
      try {
        await openFile(page, 'pod.yaml');
        await editorAction(page, 'Debug Pod Lifecycle').waitFor();
        await clickLine(page, 'name: web');
        await page.keyboard.press('F5');
        await page.locator('.debug-toolbar').waitFor();
        let frame = await waitForNewStop(page, '');
        // The whole stack of a short run is shown: no "Load More Stack Frames" under it.
        assert.ok(!(await stackRows(page)).some((s) => /Load More Stack Frames/.test(s)), (await stackRows(page)).join(' | '));
        await runCommand(page, 'Pod Lifecycle: Show State Tree');
        tree = await stateTreeFrame(page);
        await read();
        let line = await highlightedLine(page);
        const stops: string[] = [`${frame} @ ${line?.line}`];
        for (let i = 0; i < 40 && !/^scheduler\.score$/.test(phaseOf(frame)); i++) {
          const from = await consoleLength(page);
          await toolbar(page, 'Step Over');
          const next = await waitForNewStop(page, frame).catch(() => assert.fail(`Step Over ${i + 1} left the Call Stack on "${frame}": ${stops.join(' → ')}`));
          await page.locator('.monaco-editor .debug-top-stack-frame-line').first().waitFor();
          const nextLine = await highlightedLine(page);
          assert.ok(nextLine, `the editor highlights the line of "${next}"`);
          assert.notEqual(`${next} @ ${nextLine.line}`, `${frame} @ ${line?.line}`, 'a stop that looks like the last');
          // One line in the Debug Console for the stop, naming the phase the Call Stack shows.
          const added = await waitForConsole(page, from, new RegExp(`^\\s*\\d+\\.\\d{3}s\\s+${escape(phaseOf(next))}\\b`))
            .catch(async () => assert.fail(`no console line for the stop at "${next}" (${stops.join(' → ')}): ${(await consoleRows(page)).map((r) => `${r.index}:${r.text}`).join(' | ')}`));
          const stepLines = added.filter((r) => STEP_LINE.test(r.text));
          assert.equal(stepLines.length, 1, `one line for the stop at "${next}": ${added.map((r) => r.text).join(' | ')}`);
          await read();
          await treeFollows(next);
          [frame, line] = [next, nextLine];
          stops.push(`${frame} @ ${line.line}`);
        }
        assert.match(frame, /^scheduler\.score/, `Step Over reached the scheduler: ${stops.join(' → ')}`);
        assert.ok(!(await stackRows(page)).some((s) => /Load More Stack Frames/.test(s)), `no "Load More Stack Frames": ${(await stackRows(page)).join(' | ')}`);
        assert.ok(new Set(stops.map((s) => s.split(' @ ')[1])).size > 1, `the highlighted line moved: ${stops.join(' → ')}`);
        // kubectl apply's command and what kubectl printed come first, before the steps that followed them.
        const all = lines();
        const [command, created, scoring] = [/^\$ kubectl apply -f pod\.yaml$/, /^pod\/web created$/, /^\s*\d+\.\d{3}s\s+scheduler\.score/].map((p) => all.findIndex((l) => p.test(l)));
        assert.ok(command! >= 0 && command! < created! && created! < scoring!, `kubectl's lines come first: ${all.join(' | ')}`);
        assert.ok(!all.some((l) => /Scheduled/.test(l)), `nothing from after the stop: ${all.join(' | ')}`);
        // The Workloads view of the Run and Debug side bar: the pod and its container with their STATUS.
        await openWorkloads(page);
        await workloadRow(page, /^web\s*Pending/).waitFor();
        await workloadRow(page, /^app\s*Waiting/).waitFor();
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-session-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: explain in the scheduler says what it decided so far; a console error stays in the console; Step Back shows the world at that step`, async () => {
      const { page } = wb;
      try {
        let from = await consoleLength(page);
        await typeInConsole(page, 'explain');
        await waitForConsole(page, from, /kube-scheduler's decisions for default\/web so far, in its current attempt:/);
        from = await consoleLength(page);
        await typeInConsole(page, 'kubectl get foo');
        await waitForConsole(page, from, /the server doesn't have a resource type "foo"/);
        assert.equal(await page.locator('.notifications-toasts .notification-toast', { hasText: 'resource type' }).count(), 0, 'no notification for a console error');
        // On to the bind: the pod shows on its node in the state tree.
        let frame = await topFrame(page);
        const bound = tree.locator('.node', { hasText: /\bweb\b/ });
        for (let i = 0; i < 8 && (await bound.count()) === 0; i++) {
          await toolbar(page, 'Step Over');
          frame = await waitForNewStop(page, frame);
          await treeFollows(frame);
        }
        await bound.first().waitFor({ timeout: 60_000 });
        // Step Back: the console says where the run went back to, and the state tree shows that step's world.
        from = await consoleLength(page);
        await toolbar(page, 'Step Back');
        const back = await waitForNewStop(page, frame);
        await waitForConsole(page, from, new RegExp(`↶ Back to \\d+\\.\\d{3}s ${escape(phaseOf(back))}`));
        await treeFollows(back);
        await bound.first().waitFor({ state: 'detached' });
        // To the end: the state tree and the Workloads view show the pod Running, not the last stop.
        await toolbar(page, 'Continue');
        await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
        await tree.locator('#root', { hasText: 'Running' }).waitFor();
        await page.keyboard.press('Control+Shift+D');
        await openWorkloads(page);
        await workloadRow(page, /^web\s*Running/).waitFor();
        await workloadRow(page, /^app\s*Running, Ready/).waitFor();
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-session-back-${theme.name}-failure`)}`);
      }
    });

    test(`${theme.name}: a new session on an unschedulable pod stops on its cpu line, where the Problems view warns, and the views drop the previous manifest`, async () => {
      const { page } = wb;
      try {
        if (await page.locator('.debug-toolbar').isVisible()) {
          await toolbar(page, 'Stop');
          await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
        }
        await openFile(page, 'big.yaml');
        // The Problems view's scheduling warning, and its line.
        await page.keyboard.press('Control+Shift+M');
        const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'nodes are available' });
        await problem.first().waitFor();
        assert.equal(await problem.count(), 1, 'one scheduling warning');
        const problemLine = Number(/\[Ln (\d+)/.exec(await problem.first().innerText())?.[1]);
        await clickLine(page, 'name: big');
        await page.keyboard.press('F5');
        await page.locator('.debug-toolbar').waitFor();
        await waitForNewStop(page, '');
        // The new session's first stop, before kubectl apply: the state tree and the Workloads view no longer show the
        // pod "web" of the session before.
        await tree.locator('#root', { hasText: 'No workload objects yet' }).waitFor();
        assert.doesNotMatch(await tree.locator('#root').innerText(), /\bweb\b/, 'the state tree shows the previous manifest');
        await page.keyboard.press('Control+Shift+D');
        await openWorkloads(page);
        assert.equal(await workloadRow(page, /^web\b/).count(), 0, 'the Workloads view shows the previous manifest');
        // The "Pod unschedulable" exception stops on the request no node can meet; the views show the new pod.
        await toolbar(page, 'Continue');
        await page.locator('.exception-widget', { hasText: 'nodes are available' }).waitFor();
        await tree.locator('[role="treeitem"]', { hasText: /\bbig\b/ }).first().waitFor();
        await workloadRow(page, /^big\s*Pending/).waitFor();
        const line = await highlightedLine(page);
        assert.equal(line?.text, 'cpu: "1000"', `the exception points at the cpu line, not ${JSON.stringify(line)}`);
        assert.equal(line?.line, problemLine, 'the same line as the Problems view');
        await toolbar(page, 'Stop');
        await page.locator('.debug-toolbar').waitFor({ state: 'hidden' });
      } catch (err) {
        throw new Error(`${(err as Error).message}\nscreenshot: ${await shoot(page, `e2e-unschedulable-${theme.name}-failure`)}`);
      }
    });
  });
}
