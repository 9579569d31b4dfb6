// The command palette's Pod Lifecycle commands beyond debugging: explain a manifest's pod or a live pod, import a
// cluster file from kubectl, create a sample cluster file. Each shows progress on long work and says plainly why it failed.
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { importCluster, ImportError } from './import-cluster';
import { processRunner } from './run-process';

/** OUTPUT_LANGUAGE colors the output channel with the timeline grammar (syntaxes/). */
export const OUTPUT_LANGUAGE = 'pod-lifecycle-timeline';

let channel: vscode.OutputChannel | undefined;

/** CliModule is what dist/cli.js exports; it is loaded on first use, as the debugger's bundle is. */
type CliModule = typeof import('../cli/main');
let cli: CliModule | undefined;

function loadCli(context: vscode.ExtensionContext): CliModule {
  cli ??= require(context.asAbsolutePath(path.join('dist', 'cli.js'))) as CliModule;
  return cli;
}

/** output is the extension's output channel, created on first use. */
export function output(): vscode.OutputChannel {
  channel ??= vscode.window.createOutputChannel(vscode.l10n.t('Pod Lifecycle'), OUTPUT_LANGUAGE);
  return channel;
}

/** registerCommands registers the palette commands and returns their disposables. */
export function registerCommands(context: vscode.ExtensionContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('podLifecycle.explainPending', (uri?: vscode.Uri) => explain(context, uri, false)),
    vscode.commands.registerCommand('podLifecycle.explainTerminating', (uri?: vscode.Uri) => explain(context, uri, true)),
    vscode.commands.registerCommand('podLifecycle.importCluster', () => importFromKubectl()),
    vscode.commands.registerCommand('podLifecycle.explainLivePod', (target?: string) => explainLivePod(context, target)),
    vscode.commands.registerCommand('podLifecycle.createSampleCluster', () => createSampleCluster(context)),
    vscode.commands.registerCommand('podLifecycle.openExample', (name?: string) => openExample(context, name)),
    { dispose: () => { channel?.dispose(); channel = undefined; } },
  ];
}

/** manifestOf is the file a command acts on: the one it was given, or the active YAML editor's. */
function manifestOf(uri: vscode.Uri | undefined): vscode.Uri | undefined {
  if (uri?.scheme === 'file') return uri;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === 'yaml' && doc.uri.scheme === 'file' ? doc.uri : undefined;
}

/** EXPLAIN_MAX_STEPS bounds the Explain commands' runs (a Deployment of about 2,500 replicas). */
const EXPLAIN_MAX_STEPS = 200_000;

/** clusterFiles are the cluster files of the `podLifecycle.cluster` setting, resolved against the workspace. */
function clusterFiles(): string[] {
  const setting = vscode.workspace.getConfiguration('podLifecycle').get<string | string[]>('cluster');
  const list = (Array.isArray(setting) ? setting : setting ? [setting] : []).filter((s) => s.trim() !== '');
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return list.map((f) => f.replace(/\$\{workspaceFolder\}/g, root ?? '.')).map((f) => (path.isAbsolute(f) || !root ? f : path.join(root, f)));
}

/** explain runs `pod-lifecycle explain` on the manifest (with --delete to follow a deletion) into the output channel. */
async function explain(context: vscode.ExtensionContext, uri: vscode.Uri | undefined, terminating: boolean): Promise<void> {
  const manifest = manifestOf(uri);
  if (!manifest) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Open a Kubernetes manifest (YAML) to explain its pod.'));
    return;
  }
  // The command runs in the extension host: a smaller budget than the CLI's keeps a runaway workload from holding it.
  const args = ['explain', manifest.fsPath, ...clusterFiles().flatMap((c) => ['--cluster', c]), ...(terminating ? ['--delete'] : []), '--max-steps', String(EXPLAIN_MAX_STEPS)];
  const title = terminating ? vscode.l10n.t('Explaining why {0} would stay Terminating…', path.basename(manifest.fsPath)) : vscode.l10n.t('Explaining why {0} would stay Pending…', path.basename(manifest.fsPath));
  await runIntoOutput(context, args, { NO_COLOR: '1' }, title, (error) => vscode.l10n.t('Pod Lifecycle could not read the input: {0}', error));
}

/**
 * runIntoOutput runs the CLI in the extension host under a progress notification, shows what it printed in the output
 * channel, and on unusable input (exit 2) an error message made from its first error line.
 */
async function runIntoOutput(context: vscode.ExtensionContext, args: string[], env: NodeJS.ProcessEnv, title: string, badInput: (error: string) => string): Promise<void> {
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async () => {
    const chunks: string[] = [];
    const errors: string[] = [];
    let code: number;
    try {
      code = loadCli(context).runCli(args, (s) => chunks.push(s), (s) => errors.push(s), env, false);
    } catch (err) {
      code = 2;
      errors.push(`error: ${(err as Error)?.message ?? String(err)}`);
    }
    const out = output();
    out.clear();
    out.append(chunks.join(''));
    if (errors.length) out.append(errors.join(''));
    out.show(true);
    if (code === 2) void vscode.window.showErrorMessage(badInput(errors.join(' ').split('\n')[0]!.replace(/^error: /, '').trim()));
  });
}

/**
 * explainLivePod asks for `pod/NAME [-n NAMESPACE] [--context NAME]` and shows `pod-lifecycle explain --live` of it in
 * the output channel; only in a trusted workspace, since it runs kubectl (the podLifecycle.kubectlPath one).
 */
async function explainLivePod(context: vscode.ExtensionContext, given?: string): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Explaining a pod of a cluster runs kubectl with your credentials: trust this workspace first.'));
    return;
  }
  const target = given ?? await vscode.window.showInputBox({
    title: vscode.l10n.t('The pod to explain, as kubectl names it'), placeHolder: vscode.l10n.t('pod/NAME [-n NAMESPACE] [--context NAME]'), value: 'pod/',
  });
  const words = target?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return;
  const kubectl = vscode.workspace.getConfiguration('podLifecycle').get<string>('kubectlPath') || 'kubectl';
  const env = { ...process.env, NO_COLOR: '1', KUBECTL: kubectl };
  await runIntoOutput(context, ['explain', '--live', ...words], env, vscode.l10n.t('Reading {0} with kubectl…', words[0]!), (error) => vscode.l10n.t('Could not explain the pod: {0}', error));
}

/** importFromKubectl writes a cluster file from the current kubectl context; only in a trusted workspace. */
async function importFromKubectl(): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Importing a cluster runs kubectl with your credentials: trust this workspace first.'));
    return;
  }
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    ...(root ? { defaultUri: vscode.Uri.joinPath(root, 'cluster.yaml') } : {}),
    filters: { YAML: ['yaml', 'yml'] },
    title: vscode.l10n.t('Save the imported cluster file'),
  });
  if (!target) return;
  const kubectl = vscode.workspace.getConfiguration('podLifecycle').get<string>('kubectlPath') || 'kubectl';
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading the cluster with kubectl…') },
      () => importCluster(processRunner(kubectl, root ? { cwd: root.fsPath } : {}), undefined, new Date()),
    );
    await vscode.workspace.fs.writeFile(target, Buffer.from(result.yaml, 'utf8'));
    const summary = Object.entries(result.counts).map(([k, n]) => `${n} ${k}`).join(', ');
    void vscode.window.showInformationMessage(vscode.l10n.t('Imported {0} from context "{1}" into {2}.', summary, result.context, path.basename(target.fsPath)));
    await vscode.window.showTextDocument(target);
  } catch (err) {
    // Only the error's message: it never holds kubectl's full output.
    const message = err instanceof ImportError ? err.message : (err as Error)?.message ?? String(err);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not import the cluster: {0}', message));
  }
}

/** createSampleCluster copies the sample cluster file into the workspace and opens it. */
async function createSampleCluster(context: vscode.ExtensionContext): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = root
    ? vscode.Uri.joinPath(root, 'cluster.yaml')
    : await vscode.window.showSaveDialog({ filters: { YAML: ['yaml', 'yml'] }, title: vscode.l10n.t('Save the sample cluster file') });
  if (!target) return;
  try {
    if (existsSync(target.fsPath)) {
      const overwrite = vscode.l10n.t('Overwrite');
      const answer = await vscode.window.showWarningMessage(vscode.l10n.t('{0} exists. Overwrite it with the sample cluster?', path.basename(target.fsPath)), { modal: true }, overwrite);
      if (answer !== overwrite) return;
    }
    const sample = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, 'examples', 'cluster.yaml'));
    await vscode.workspace.fs.writeFile(target, sample);
    await vscode.window.showTextDocument(target);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not create the sample cluster file: {0}', (err as Error)?.message ?? String(err)));
  }
}

/**
 * openExample opens one of the extension's example manifests (the walkthrough's first and workloads steps), named by
 * its file name, as the user's own file:
 * copied into the workspace folder (kept when the folder already has it, else under a free name), or as an untitled
 * document without a folder. Never the copy in the extension's install folder, which an update replaces.
 */
async function openExample(context: vscode.ExtensionContext, name = 'pod.yaml'): Promise<void> {
  const safe = path.basename(name);
  try {
    const text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, 'examples', safe))).toString('utf8');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'yaml', content: text }));
      return;
    }
    const target = await exampleTarget(root, safe, text);
    if (!existsSync(target.fsPath)) await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
    await vscode.window.showTextDocument(target);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the example: {0}', (err as Error)?.message ?? String(err)));
  }
}

/** exampleTarget is where an example goes in the workspace: its own name, unless a different file has it already. */
async function exampleTarget(root: vscode.Uri, name: string, text: string): Promise<vscode.Uri> {
  const ext = path.extname(name);
  const stem = path.basename(name, ext);
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(root, n === 1 ? name : `${stem}-${n}${ext}`);
    if (!existsSync(candidate.fsPath)) return candidate;
    const held = Buffer.from(await vscode.workspace.fs.readFile(candidate)).toString('utf8');
    if (held === text) return candidate;
  }
}
