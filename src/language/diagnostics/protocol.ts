// The messages between the language server and its diagnostics worker: one discriminated union each way.
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Settings } from '../settings';
import type { Checked, Share } from './parts';

/** ToWorker is what the server asks of the worker. */
export type ToWorker =
  /** configure applies new settings (a cluster file read again); the server then validates the open documents again. */
  | { readonly type: 'configure'; readonly settings: Settings }
  /**
   * validate checks one version of a document; a newer `id` for the same URI cancels the older work at once. With a
   * share, the worker is one of several: it runs that share of the checks on the cluster and answers with `parts`.
   */
  | { readonly type: 'validate'; readonly id: number; readonly uri: string; readonly version: number; readonly text: string; readonly share?: Share }
  /** cancel stops a document's work under way (its text changed: a newer version is coming). */
  | { readonly type: 'cancel'; readonly uri: string }
  /** close cancels a document's work and drops all the worker holds of it. */
  | { readonly type: 'close'; readonly uri: string }
  /** state asks what the worker holds, answered in turn with the other messages (so after every earlier one). */
  | { readonly type: 'state'; readonly id: number };

/** FromWorker is what the worker reports: a document's diagnostics (the early ones or the complete set), or its state. */
export type FromWorker =
  | {
    readonly type: 'diagnostics';
    readonly id: number;
    readonly uri: string;
    readonly version: number;
    readonly diagnostics: Diagnostic[];
    /** complete is true for the last set of a request, with the cluster's findings. */
    readonly complete: boolean;
  }
  /** parts are a shared validation's outcome: the diagnostics found without the cluster, and this share's checks. */
  | { readonly type: 'parts'; readonly id: number; readonly uri: string; readonly version: number; readonly checked: Checked }
  | { readonly type: 'state'; readonly id: number; readonly state: ValidatorState };

/** ValidatorState is what a validator holds: the documents it keeps parsed, and those whose validation is under way. */
export interface ValidatorState {
  readonly documents: number;
  readonly validating: number;
}
