// The Getting Started walkthrough: every step's markdown exists, and every command link of its descriptions (in
// each locale) and markdown names a command the extension registers or VS Code has, with a valid argument: the
// examples it opens are files of examples/ that the example command can copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

interface Step { id: string; description: string; media: { markdown?: string } }
const walkthroughs = (JSON.parse(read('package.json')) as { contributes: { walkthroughs: { id: string; steps: Step[] }[] } }).contributes.walkthroughs;

/** registered are the commands the extension registers in its code. */
const registered = new Set(['src/extension.ts', 'src/commands/index.ts', 'src/webview/panel.ts'].flatMap((f) => [...read(f).matchAll(/registerCommand\(\s*'([^']+)'/g)].map((m) => m[1]!)));

/** VSCODE_COMMANDS are the built-in commands the walkthrough links to. */
const VSCODE_COMMANDS = new Set(['workbench.debug.viewlet.action.addFunctionBreakpointAction']);

/** links lists a text's `command:ID` and `command:ID?ARGS` links, the arguments decoded. */
function links(text: string): { id: string; args: unknown[] | undefined }[] {
  return [...text.matchAll(/\(command:([\w.]+)(?:\?([^)\s]+))?\)/g)].map((m) => ({ id: m[1]!, args: m[2] === undefined ? undefined : (JSON.parse(decodeURIComponent(m[2])) as unknown[]) }));
}

/** locales are package.nls.json and every package.nls.*.json beside it. */
const locales = readdirSync(ROOT).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f));

/** walkthroughTexts are the texts a user reads: each step's description in every locale, and its markdown. */
function walkthroughTexts(): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const step of walkthroughs.flatMap((w) => w.steps)) {
    const key = /^%(.+)%$/.exec(step.description)?.[1];
    for (const locale of locales) {
      const nls = JSON.parse(read(locale)) as Record<string, string>;
      out.push({ where: `${locale} ${step.id}`, text: key ? nls[key] ?? '' : step.description });
    }
    if (step.media.markdown) out.push({ where: step.media.markdown, text: read(step.media.markdown) });
  }
  return out;
}

test('the walkthrough has its workloads step, and every step has its markdown', () => {
  const steps = walkthroughs.find((w) => w.id === 'podLifecycle.gettingStarted')!.steps;
  assert.deepEqual(steps.map((s) => s.id), ['openExample', 'setBreakpoint', 'startDebugging', 'explore', 'workloads']);
  for (const s of steps) assert.ok(s.media.markdown && existsSync(join(ROOT, s.media.markdown)), `${s.id}: ${s.media.markdown}`);
});

for (const { where, text } of walkthroughTexts()) {
  test(`every command link of ${where} names a registered command with a valid argument`, () => {
    for (const link of links(text)) {
      assert.ok(registered.has(link.id) || VSCODE_COMMANDS.has(link.id), `${where}: ${link.id} is not a registered command`);
      if (link.id !== 'podLifecycle.openExample') continue;
      // openExample takes one argument: the file name of an example the extension ships.
      assert.ok(Array.isArray(link.args) && link.args.length === 1 && typeof link.args[0] === 'string', `${where}: ${JSON.stringify(link.args)}`);
      const name = link.args[0] as string;
      assert.equal(basename(name), name, `${where}: ${name} is not a plain file name`);
      assert.ok(existsSync(join(ROOT, 'examples', name)), `${where}: examples/${name} does not exist`);
    }
  });
}

test('the workloads step opens each workload example in every locale, and its markdown names real phases', () => {
  const want = ['statefulset.yaml', 'daemonset.yaml', 'cronjob.yaml', 'hpa.yaml', 'hpa-behavior.yaml', 'disruption-budget.yaml'];
  for (const locale of locales) {
    const nls = JSON.parse(read(locale)) as Record<string, string>;
    const opened = links(nls['podLifecycle.walkthrough.workloads.description'] ?? '').filter((l) => l.id === 'podLifecycle.openExample').map((l) => l.args?.[0]);
    assert.deepEqual(opened, want, locale);
  }
  const phases = new Set([...read('src/engine/runtime/phases.ts').matchAll(/\{ name: '([\w.]+)'/g)].map((m) => m[1]!));
  const named = [...read('media/walkthrough/workloads.md').matchAll(/`((?:controllers|scheduler|kubelet|apiserver)\.[\w]+)`/g)].map((m) => m[1]!);
  assert.ok(named.length >= 4);
  for (const n of named) assert.ok(phases.has(n), `${n} is not a phase`);
});
