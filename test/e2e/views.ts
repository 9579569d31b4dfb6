// What the end-to-end tests read off the real VS Code, as a user sees it: the top frame of the Call Stack, the line the
// editor highlights for it, the Debug Console's lines and what the last step added, the state tree's summary, the
// computed colors of the state tree's text; and the gestures around them (a toolbar button, a console line, a theme).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { inPalette, ROOT } from './workbench';

/** The DOM as the page's own scripts see it, typed as far as these reads need it. */
type El = {
  className: string; textContent: string | null; innerText: string; style: { top: string }; parentElement: El | null; children: ArrayLike<El>;
  getAttribute(n: string): string | null; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El>;
  closest(s: string): El | null; childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
  getBoundingClientRect(): { width: number; height: number };
};
type Doc = { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El>; body: El };
type Win = { getComputedStyle(e: El): { color: string; backgroundColor: string; visibility: string; display: string } };

/** STEP_LINE matches the Debug Console's line for a stop: the time, then the phase (`0.000s     kubectl.validate ...`). */
export const STEP_LINE = /^\s*\d+\.\d{3}s\s+(kubectl|apiserver|etcd|controllers|scheduler|kubelet)\.\S+/;

/** shoot keeps what the workbench showed when a test failed, and says where. */
export async function shoot(page: Page, name: string): Promise<string> {
  mkdirSync(join(ROOT, 'out', 'screenshots'), { recursive: true });
  const path = join('out', 'screenshots', `${name}.png`);
  await page.screenshot({ path: join(ROOT, path) }).catch(() => undefined);
  return path;
}

/** toolbar clicks a button of the debug toolbar by the start of its label (Continue, Step Over, Step Back). */
export async function toolbar(page: Page, label: string): Promise<void> {
  await page.locator(`.debug-toolbar .action-label[aria-label^="${label}"]`).click();
}

/** stackRows are the Call Stack view's rows as drawn. */
export function stackRows(page: Page): Promise<string[]> {
  return page.evaluate(() => Array.from((globalThis as unknown as { document: Doc }).document.querySelectorAll('.debug-call-stack .monaco-list-row')).map((r) => r.textContent ?? ''));
}

/** topFrame is the name of the frame the Call Stack has selected (the top frame of the stopped thread), '' when none. */
export function topFrame(page: Page): Promise<string> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    const frame = doc.querySelector('.debug-call-stack .monaco-list-row.selected .stack-frame') ?? doc.querySelector('.debug-call-stack .monaco-list-row .stack-frame');
    return (frame?.querySelector('.label')?.textContent ?? frame?.textContent ?? '').trim();
  });
}

/**
 * unreadFrames are the Call Stack's frames whose name is not drawn on their row: its text lies outside the row's box.
 * (The frame's box is two lines high when its file name and line wrap beside a long name, in a one-line row: scrolled
 * within the row, as scrolling it into view for a synthetic click does, the name leaves the row and the row is empty.)
 */
export function unreadFrames(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { top: number; bottom: number };
    type Node = { textContent: string | null; nodeType: number; childNodes: ArrayLike<Node>; getBoundingClientRect(): Box; closest(s: string): Node | null };
    const doc = (globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<Node>; createRange(): { selectNodeContents(n: Node): void; getClientRects(): ArrayLike<Box> } };
    }).document;
    const unread: string[] = [];
    for (const name of Array.from(doc.querySelectorAll('.debug-call-stack .monaco-list-row .stack-frame .label .monaco-highlighted-label'))) {
      const row = name.closest('.monaco-list-row')?.getBoundingClientRect();
      const text = Array.from(name.childNodes).find((n) => n.nodeType === 3);
      if (!row || !text) continue;
      const range = doc.createRange();
      range.selectNodeContents(text);
      const first = range.getClientRects()[0];
      if (!first || first.top < row.top - 1 || first.bottom > row.bottom + 1) unread.push(name.textContent ?? '');
    }
    return unread;
  });
}

/**
 * clickRow clicks a Call Stack row where a user would, on its text: a synthetic click on the element itself scrolls a
 * frame's two-line box within its one-line row to its middle, and the row then draws empty.
 */
export async function clickRow(page: Page, row: Locator): Promise<void> {
  // A view's list draws its rows again as the debug session's threads and frames come (a row found a moment ago may
  // be drawn anew): the row is awaited drawn, a few times, before its box is read.
  for (let attempt = 0; attempt < 5; attempt++) {
    await row.waitFor({ state: 'visible' });
    const box = await row.boundingBox();
    if (!box) continue;
    await page.mouse.click(box.x + Math.min(60, box.width / 2), box.y + Math.min(11, box.height / 2));
    return;
  }
  assert.fail('the row is drawn');
}

/**
 * revealRow scrolls a list (a view's virtualized list draws only the rows it shows) with the mouse wheel until a row is
 * drawn, as a user scrolls to it, without moving its focus or selection: from the list's top down, until the row is
 * drawn or the scroll bar no longer moves. Each turn waits for the frames the list draws the scroll in.
 */
export async function revealRow(page: Page, row: Locator, list: Locator): Promise<void> {
  if ((await row.count()) > 0) return;
  const box = await list.boundingBox();
  assert.ok(box, 'the list is drawn');
  const slider = list.locator('.scrollbar.vertical .slider').first();
  const drawn = (): Promise<void> => page.evaluate(() => new Promise<void>((resolve) => {
    const raf = (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame;
    raf(() => raf(() => resolve()));
  }));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100_000);
  await drawn();
  for (let last: string | null = null; (await row.count()) === 0;) {
    const at = (await slider.count()) > 0 ? await slider.getAttribute('style') : null;
    if (at === last) return;
    last = at;
    await page.mouse.wheel(0, 60);
    await drawn();
  }
}

/** phaseOf is the phase a frame's name starts with (`kubectl.validate · GET ...` → `kubectl.validate`). */
export function phaseOf(frame: string): string {
  return frame.split(/[\s·›]/)[0] ?? '';
}

/** waitForNewStop waits until the Call Stack's selected frame is no longer `before`, and returns it. */
export async function waitForNewStop(page: Page, before: string): Promise<string> {
  await page.waitForFunction((b) => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    const frame = doc.querySelector('.debug-call-stack .monaco-list-row.selected .stack-frame') ?? doc.querySelector('.debug-call-stack .monaco-list-row .stack-frame');
    const name = (frame?.querySelector('.label')?.textContent ?? frame?.textContent ?? '').trim();
    return name !== '' && name !== b;
  }, before);
  return topFrame(page);
}

/** waitForStackChange waits until the Call Stack's rows, all of them, differ from `before` (their texts joined by |). */
export async function waitForStackChange(page: Page, before: string): Promise<string> {
  await page.waitForFunction((b) => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    const rows = Array.from(doc.querySelectorAll('.debug-call-stack .monaco-list-row')).map((r) => r.textContent ?? '').join('|');
    return rows !== '' && rows !== b;
  }, before);
  return (await stackRows(page)).join('|');
}

/** highlightedLine is the editor line VS Code highlights for the top stack frame (1-based number and text), if any. */
export function highlightedLine(page: Page): Promise<{ line: number; text: string } | undefined> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    const deco = doc.querySelector('.monaco-editor .view-overlays .debug-top-stack-frame-line, .monaco-editor .view-overlays .debug-top-stack-frame-exception-line');
    const editor = deco?.closest('.monaco-editor');
    const top = deco?.parentElement?.style.top;
    if (!editor || !top) return undefined;
    const at = (selector: string) => Array.from(editor.querySelectorAll(selector)).find((e) => e.style.top === top);
    const text = at('.view-lines .view-line')?.textContent ?? '';
    const number = Number(at('.margin-view-overlays > div')?.querySelector('.line-numbers')?.textContent ?? 'NaN');
    // Monaco draws spaces as no-break spaces; the stop's inline icon (a codicon, a private-use character) is no text.
    return { line: number, text: text.replace(/[\u200b-\u200d\ufeff\ue000-\uf8ff]/g, '').replace(/\s+/g, ' ').trim() };
  });
}

/** ConsoleRow is a drawn row of the Debug Console: its place in the whole console and its text. */
export interface ConsoleRow { index: number; text: string }

/** consoleRows are the Debug Console's drawn rows (it draws the last ones, as it scrolls to the end). */
export async function consoleRows(page: Page): Promise<ConsoleRow[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    return Array.from(doc.querySelectorAll('.repl .monaco-list-row'))
      .map((r) => ({ index: Number(r.getAttribute('data-index') ?? -1), text: (r.innerText ?? '').replace(/\u00a0/g, ' ').trim() }))
      .sort((a, b) => a.index - b.index);
  });
}

/** consoleLength is the number of rows in the Debug Console so far. */
export async function consoleLength(page: Page): Promise<number> {
  const rows = await consoleRows(page);
  return rows.length === 0 ? 0 : rows.at(-1)!.index + 1;
}

/** waitForConsole waits until a row from `from` on matches, and returns the rows from `from` on as then drawn. */
export async function waitForConsole(page: Page, from: number, pattern: RegExp): Promise<ConsoleRow[]> {
  await page.waitForFunction(([start, source, flags]) => {
    const doc = (globalThis as unknown as { document: Doc }).document;
    const re = new RegExp(source, flags);
    return Array.from(doc.querySelectorAll('.repl .monaco-list-row'))
      .some((r) => Number(r.getAttribute('data-index') ?? -1) >= start && re.test((r.innerText ?? '').replace(/\u00a0/g, ' ').trim()));
  }, [from, pattern.source, pattern.flags] as const);
  return (await consoleRows(page)).filter((r) => r.index >= from);
}

/** typeInConsole types a line into the Debug Console's input and sends it. */
export async function typeInConsole(page: Page, line: string): Promise<void> {
  await page.locator('.repl-input-wrapper .monaco-editor').first().click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** switchTheme switches the color theme as a user does: Preferences: Color Theme, then the theme by its label. */
export async function switchTheme(page: Page, label: string, selector: string): Promise<void> {
  await inPalette(page, 'Preferences: Color Theme', () => page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click());
  // The palette turns into the theme picker: the same input, now for a theme's name.
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: /Modern|High Contrast/ }).first().waitFor();
  await input.fill(label);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${label}`) }).first().click();
  await page.locator(selector).waitFor();
}

/** treePhase is the phase the state tree's summary names ('' when it names none). */
export async function treePhase(frame: Frame): Promise<string> {
  return ((await frame.locator('.summary .phase').first().textContent({ timeout: 1_000 }).catch(() => '')) ?? '').trim();
}

/** TextColor is one piece of text of the state tree with its computed color and the background it is drawn on. */
export interface TextColor { text: string; color: string; background: string }

/**
 * stateTreeColors reads, with the page's own getComputedStyle, the color of every visible piece of text of the state
 * tree and the background it is drawn on (the nearest ancestor's that is not transparent).
 */
export function stateTreeColors(frame: Frame): Promise<TextColor[]> {
  return frame.evaluate(() => {
    const g = globalThis as unknown as { document: Doc } & Win;
    const opaque = (c: string) => c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c);
    const out: { text: string; color: string; background: string }[] = [];
    for (const e of Array.from(g.document.body.querySelectorAll('*'))) {
      const own = Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent ?? '').join('').trim();
      const box = e.getBoundingClientRect();
      const style = g.getComputedStyle(e);
      if (own === '' || box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      let background = '';
      for (let a: El | null = e; a && background === ''; a = a.parentElement) {
        const b = g.getComputedStyle(a).backgroundColor;
        if (opaque(b)) background = b;
      }
      out.push({ text: own.slice(0, 40), color: style.color, background: background || g.getComputedStyle(g.document.body).backgroundColor });
    }
    return out;
  });
}

/** MeterLook is how a resource bar of the state tree is drawn: its value, the fill's width against the bar's, the colors. */
export interface MeterLook { value: number; fillRatio: number; fill: string; track: string; page: string }

/** meterLooks reads every resource bar of the state tree as it is drawn. */
export function meterLooks(frame: Frame): Promise<MeterLook[]> {
  return frame.evaluate(() => {
    const g = globalThis as unknown as { document: Doc } & Win;
    return Array.from(g.document.querySelectorAll('[role="meter"]')).map((m) => {
      const fill = m.querySelector('.fill');
      const width = m.getBoundingClientRect().width;
      return {
        value: Number(m.getAttribute('aria-valuenow')),
        fillRatio: fill && width > 2 ? fill.getBoundingClientRect().width / (width - 2) : 0,
        fill: fill ? g.getComputedStyle(fill).backgroundColor : '',
        track: g.getComputedStyle(m).backgroundColor,
        page: g.getComputedStyle(g.document.body).backgroundColor,
      };
    });
  });
}

/** contrast is the WCAG contrast ratio of a computed text color (its alpha blended over the background) and a background. */
export function contrast(text: string, background: string): number {
  const channels = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  const bg = channels(background);
  const a = alpha(text);
  const fg = channels(text).map((v, i) => v * a + bg[i]! * (1 - a));
  const luminance = (rgb: number[]) => {
    const [r, g, bl] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** alpha is the opacity of a computed color (1 for `rgb(...)`). */
export function alpha(color: string): number {
  if (color === 'transparent') return 0;
  const m = /rgba\([^)]*,\s*([\d.]+)\)/.exec(color);
  return m ? Number(m[1]) : 1;
}
