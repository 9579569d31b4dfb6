// What the language server tests over JSON-RPC share: the built server started on stdio, a connection to it, every
// diagnostics publication handed to whoever waits for it, and a clean shutdown once the file's tests are done.
import { after } from 'node:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Diagnostic } from 'vscode-languageserver-types';

/** SERVER is the bundled language server. */
export const SERVER = join(__dirname, '..', '..', '..', 'dist', 'languageServer.js');

/** Published is one textDocument/publishDiagnostics notification. */
export interface Published { uri: string; version?: number; diagnostics: Diagnostic[] }

/**
 * startServer spawns the server and connects to it; `onPublished` sees every publication first. `published` waits for
 * the next publication of a document that passes a check: one publication answers the first such wait, or every
 * one with `answersAll`. The server is shut down after the file's tests.
 */
export function startServer(onPublished: (p: Published) => void = () => undefined, answersAll = false): {
  connection: MessageConnection;
  published: (uri: string, accept?: (p: Published) => boolean) => Promise<Published>;
} {
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting: { uri: string; accept: (p: Published) => boolean; resolve: (p: Published) => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: Published) => {
    onPublished(p);
    for (const w of [...waiting]) {
      if (w.uri !== p.uri || !w.accept(p)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(p);
      if (!answersAll) break;
    }
  });
  connection.listen();
  // The server may be gone by the time the last notification is written; that is not a failure of the test.
  child.stdin.on('error', () => undefined);
  connection.onError(() => undefined);
  after(async () => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await connection.sendRequest('shutdown');
    connection.sendNotification('exit');
    await exited;
    connection.dispose();
  });
  const published = (uri: string, accept: (p: Published) => boolean = () => true) =>
    new Promise<Published>((resolve) => waiting.push({ uri, accept, resolve }));
  return { connection, published };
}
