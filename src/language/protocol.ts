// The language server's own messages to the client, beside LSP's: names and shapes only, so the extension's bundle
// carries none of the server.

/** DocumentKind is what a YAML file is to the extension: a Kubernetes manifest, an input of a run, or other YAML. */
export type DocumentKind = 'manifest' | 'input' | 'other';

/** DOCUMENT_KIND_NOTIFICATION is the server's notification of a file's kind, sent when it changes: {uri, kind}. */
export const DOCUMENT_KIND_NOTIFICATION = 'podLifecycle/documentKind';

/** DocumentKindParams is the notification's payload. */
export interface DocumentKindParams {
  uri: string;
  kind: DocumentKind;
}
