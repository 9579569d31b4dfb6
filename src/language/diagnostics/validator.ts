// The validations under way, one per document: each a version of the text checked by the language service, with
// its early and complete diagnostics reported as they come. A newer version or a close cancels the older work.
// The diagnostics worker runs one; the server runs one itself when no worker can start.
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ReadFile } from '../../engine/cluster/kubeconfig';
import { LanguageService } from '../service';
import type { FromWorker, ToWorker } from './protocol';

/** Validator handles the server's messages and reports each document's diagnostics through `report`. */
export class Validator {
  private readonly service: LanguageService;
  private readonly running = new Map<string, { isCancellationRequested: boolean }>();

  constructor(read: ReadFile, private readonly report: (message: FromWorker) => void, private readonly log: (message: string) => void) {
    this.service = new LanguageService(read);
  }

  /** handle acts on one message from the server. */
  handle(message: ToWorker): void {
    switch (message.type) {
      case 'configure':
        this.service.configure(message.settings);
        return;
      case 'validate':
        void this.validate(message);
        return;
      case 'cancel':
        this.cancel(message.uri);
        return;
      case 'close':
        this.cancel(message.uri);
        this.service.close(message.uri);
        return;
      case 'state':
        this.report({ type: 'state', id: message.id, state: { documents: this.service.openCount, validating: this.running.size } });
        return;
    }
  }

  private async validate({ id, uri, version, text, share }: Extract<ToWorker, { type: 'validate' }>): Promise<void> {
    this.cancel(uri);
    const token = { isCancellationRequested: false };
    this.running.set(uri, token);
    const send = (diagnostics: Diagnostic[], complete: boolean): void => {
      if (!token.isCancellationRequested) this.report({ type: 'diagnostics', id, uri, version, diagnostics, complete });
    };
    try {
      this.service.update(uri, version, text);
      if (share) {
        // One of several validators: the first sends the early diagnostics, each its parts.
        const checked = await this.service.validateParts(uri, token, share, share.index === 0 ? (early) => send(early, false) : undefined);
        if (checked && !token.isCancellationRequested) this.report({ type: 'parts', id, uri, version, checked });
        return;
      }
      const diagnostics = await this.service.validateAsync(uri, token, (early) => send(early, false));
      if (diagnostics) send(diagnostics, true);
    } catch (error) {
      // An engine failure is logged and the document gets what it had: the server must not stop checking it.
      this.log(`pod-lifecycle: cannot validate ${uri}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    } finally {
      if (this.running.get(uri) === token) this.running.delete(uri);
    }
  }

  /** stop cancels every validation under way (the validator is no longer used). */
  stop(): void {
    for (const uri of [...this.running.keys()]) this.cancel(uri);
  }

  private cancel(uri: string): void {
    const token = this.running.get(uri);
    if (token) token.isCancellationRequested = true;
    this.running.delete(uri);
  }
}
