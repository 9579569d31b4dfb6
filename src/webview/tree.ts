// The Workloads view of the Run and Debug side bar: a native tree of the session's workloads › pods › containers,
// each with its STATUS as `kubectl get` prints it, that follows the Pod Lifecycle session's stops, its end (the run as
// it ended) and a new session. It reads the same StateView the state tree panel shows; the panel keeps the node
// table, the scheduler's table and the timeline. Selecting an object shows its field in the manifest.
import * as vscode from 'vscode';
import { revealField } from './reveal';
import { isStateView, STATE_EVENT, STATE_REQUEST, type StateView, type TreeItem } from './view';

/** WORKLOADS_VIEW is the view's id in package.json (contributes.views.debug). */
export const WORKLOADS_VIEW = 'podLifecycle.workloads';
/** HAS_STATE_KEY is set once a session has sent a view: the tree stays shown after the session ends. */
const HAS_STATE_KEY = 'podLifecycle.hasState';
/** REVEAL_COMMAND shows an object's field in the manifest: the tree's items run it when selected. */
const REVEAL_COMMAND = 'podLifecycle.revealObject';

/** TONE_COLORS color each status as the state tree panel does: running and ready, waiting, failed, done. */
const TONE_COLORS: Record<TreeItem['tone'], string> = {
  ok: 'testing.iconPassed', warn: 'list.warningForeground', error: 'list.errorForeground', idle: 'disabledForeground',
};

/** KIND_ICONS are the codicons of the kinds the tree holds. */
const KIND_ICONS: Record<string, string> = {
  Deployment: 'layers', ReplicaSet: 'copy', ReplicationController: 'copy', StatefulSet: 'list-ordered', DaemonSet: 'server', Job: 'run-all', CronJob: 'watch',
  HorizontalPodAutoscaler: 'graph-line',
  Pod: 'package', Container: 'symbol-constructor', InitContainer: 'debug-start', PersistentVolumeClaim: 'database',
};

/** WorkloadTree is the view's data: the last StateView of the session it follows. */
export class WorkloadTree implements vscode.TreeDataProvider<TreeItem> {
  private view: StateView | undefined;
  private session: vscode.DebugSession | undefined;
  private readonly changed = new vscode.EventEmitter<TreeItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** register creates the view and wires it to the debug sessions of `debugType`; returns what to dispose. */
  static register(debugType: string): vscode.Disposable[] {
    const tree = new WorkloadTree();
    const view = vscode.window.createTreeView(WORKLOADS_VIEW, { treeDataProvider: tree, showCollapseAll: true });
    return [
      view, tree.changed,
      vscode.debug.onDidStartDebugSession((s) => {
        if (s.type === debugType) tree.follow(s);
      }),
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type === debugType && e.event === STATE_EVENT && isStateView(e.body) && e.session === tree.session) tree.show(e.body);
      }),
      vscode.commands.registerCommand(REVEAL_COMMAND, (item: TreeItem) => {
        if (tree.session && item?.ref) void revealField(tree.session, item.ref, item.field ?? 'metadata.name');
      }),
    ];
  }

  /** follow clears the tree for a new session and asks it for its view; from then on it sends one at every stop. */
  private follow(session: vscode.DebugSession): void {
    this.session = session;
    this.show(undefined);
    void Promise.resolve(session.customRequest(STATE_REQUEST)).then((view: unknown) => {
      if (isStateView(view) && this.session === session) this.show(view);
    }, () => undefined);
  }

  private show(view: StateView | undefined): void {
    this.view = view;
    if (view) void vscode.commands.executeCommand('setContext', HAS_STATE_KEY, true);
    this.changed.fire(undefined);
  }

  getChildren(element?: TreeItem): TreeItem[] {
    return element ? element.children : this.view?.workloads ?? [];
  }

  getTreeItem(item: TreeItem): vscode.TreeItem {
    const collapsible = item.children.length === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded;
    const treeItem = new vscode.TreeItem(item.name, collapsible);
    // The id keeps what is open and selected from one stop to the next.
    treeItem.id = item.id;
    treeItem.description = item.status;
    treeItem.tooltip = `${item.kind} ${item.name}: ${item.status}${item.phase ? ` (last in ${item.phase})` : ''}`;
    treeItem.iconPath = new vscode.ThemeIcon(KIND_ICONS[item.kind] ?? 'symbol-object', new vscode.ThemeColor(TONE_COLORS[item.tone]));
    treeItem.contextValue = item.kind;
    treeItem.command = { command: REVEAL_COMMAND, title: vscode.l10n.t('Show in the manifest'), arguments: [item] };
    return treeItem;
  }
}
