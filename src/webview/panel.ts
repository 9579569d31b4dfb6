// The state tree panel: a webview that follows the Pod Lifecycle debug session. At each stop the adapter sends a
// `podLifecycle.state` custom event with the StateView; the panel hands it to the page. What the user picks in the
// page comes back checked: `reveal` opens the manifest at the object's field, `goto` moves the session to a step.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { PAGE_STRINGS, renderPage } from './html';
import { revealField } from './reveal';
import { GOTO_REQUEST, isStateView, STATE_EVENT, STATE_REQUEST, type StateView } from './view';

/** StateTreePanel is the one state tree panel of the window. */
export class StateTreePanel implements vscode.Disposable {
  static readonly viewType = 'podLifecycle.stateTree';
  private static current: StateTreePanel | undefined;
  private latest: StateView | undefined;
  private session: vscode.DebugSession | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  /** register wires the panel to the debug sessions and returns what to dispose on deactivation. */
  static register(context: vscode.ExtensionContext, debugType: string): vscode.Disposable[] {
    const follow = (session: vscode.DebugSession | undefined) => session?.type === debugType ? session : undefined;
    return [
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== debugType || e.event !== STATE_EVENT || !isStateView(e.body)) return;
        StateTreePanel.lastView = e.body;
        StateTreePanel.lastSession = e.session;
        StateTreePanel.current?.show(e.body, e.session);
      }),
      // A new session with the panel open: the panel follows it from its first stop (and its end), not the last one.
      vscode.debug.onDidStartDebugSession((s) => {
        if (s.type !== debugType) return;
        StateTreePanel.lastSession = s;
        StateTreePanel.current?.follow(s);
      }),
      vscode.debug.onDidTerminateDebugSession((s) => {
        if (StateTreePanel.lastSession === s) StateTreePanel.lastSession = undefined;
        if (StateTreePanel.current?.session === s) StateTreePanel.current.session = undefined;
      }),
      vscode.commands.registerCommand('podLifecycle.showStateTree', () => StateTreePanel.open(context, follow(vscode.debug.activeDebugSession))),
      vscode.window.registerWebviewPanelSerializer(StateTreePanel.viewType, {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel) => {
          StateTreePanel.current = new StateTreePanel(panel, context);
        },
      }),
    ];
  }

  private static lastView: StateView | undefined;
  private static lastSession: vscode.DebugSession | undefined;

  /** open shows the panel beside the editor, with the latest state of the session. */
  static open(context: vscode.ExtensionContext, session: vscode.DebugSession | undefined): void {
    if (StateTreePanel.current) {
      StateTreePanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      const panel = vscode.window.createWebviewPanel(StateTreePanel.viewType, vscode.l10n.t('Pod Lifecycle State'), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')],
      });
      StateTreePanel.current = new StateTreePanel(panel, context);
    }
    const panel = StateTreePanel.current;
    const target = session ?? StateTreePanel.lastSession;
    if (StateTreePanel.lastView) panel.show(StateTreePanel.lastView, target);
    // Ask the session for its state now; from then on it sends the state at every stop.
    if (target) {
      void Promise.resolve(target.customRequest(STATE_REQUEST)).then((view: unknown) => {
        if (isStateView(view)) {
          StateTreePanel.lastView = view;
          StateTreePanel.lastSession = target;
          panel.show(view, target);
        }
      }, () => undefined);
    }
  }

  private constructor(private readonly panel: vscode.WebviewPanel, context: vscode.ExtensionContext) {
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')] };
    webview.html = renderPage({
      cspSource: webview.cspSource,
      nonce: nonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'media', 'state-tree.css')).toString(),
      title: vscode.l10n.t('Pod Lifecycle State'),
      strings: localizedStrings(),
      lang: vscode.env.language,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /**
   * follow subscribes to a new session's views (the adapter sends one at every stop and at the end once asked) and
   * shows its state as soon as it has one; until then the page is cleared of the previous session's.
   */
  private follow(session: vscode.DebugSession): void {
    this.session = session;
    this.latest = undefined;
    StateTreePanel.lastView = undefined;
    void this.panel.webview.postMessage({ type: 'clear' });
    void Promise.resolve(session.customRequest(STATE_REQUEST)).then((view: unknown) => {
      if (isStateView(view) && this.session === session) this.show(view, session);
    }, () => undefined);
  }

  private show(view: StateView, session: vscode.DebugSession | undefined): void {
    this.latest = view;
    if (session) this.session = session;
    void this.panel.webview.postMessage({ type: 'state', view });
  }

  /** onMessage handles what the page posts; anything not of the expected shape is dropped. */
  private async onMessage(m: unknown): Promise<void> {
    if (!m || typeof m !== 'object') return;
    const message = m as { type?: unknown; ref?: unknown; field?: unknown; seq?: unknown };
    try {
      if (message.type === 'ready' && this.latest) {
        await this.panel.webview.postMessage({ type: 'state', view: this.latest });
      } else if (message.type === 'reveal' && typeof message.ref === 'string' && typeof message.field === 'string') {
        await this.reveal(message.ref, message.field);
      } else if (message.type === 'goto' && typeof message.seq === 'number' && Number.isInteger(message.seq) && message.seq >= 0) {
        if (!this.session) throw new Error(vscode.l10n.t('The debug session has ended.'));
        await this.session.customRequest(GOTO_REQUEST, { seq: message.seq });
      }
    } catch (err) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Pod Lifecycle: {0}', (err as Error)?.message ?? String(err)));
    }
  }

  /** reveal opens the file that declares the object and selects the field. */
  private async reveal(ref: string, field: string): Promise<void> {
    if (!this.session) throw new Error(vscode.l10n.t('The debug session has ended.'));
    await revealField(this.session, ref, field);
  }

  dispose(): void {
    if (StateTreePanel.current === this) StateTreePanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** localizedStrings translates the page's strings; the placeholders stay for the page to fill. */
function localizedStrings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, english] of Object.entries(PAGE_STRINGS)) {
    const placeholders = [...english.matchAll(/\{(\d+)\}/g)].map((m) => `{${m[1]}}`);
    out[key] = vscode.l10n.t(english, ...placeholders);
  }
  return out;
}

function nonce(): string {
  return randomBytes(24).toString('base64url');
}
