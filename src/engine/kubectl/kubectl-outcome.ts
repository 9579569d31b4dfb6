// What one kubectl action comes to: the lines it prints, the object, or the error; and the credentials it presents.
import type { ApiOutcome } from '../apiserver/server';
import type { ApiRequest, StatusError } from '../apiserver/request';
import type { KubeObject } from '../api/types';

/** Credentials are what kubectl presents with each request. */
export type Credentials = ApiRequest['credentials'];

/** KubectlOutcome is one kubectl action's result: the line kubectl prints, and on failure the error. */
export interface KubectlOutcome {
  ok: boolean;
  /** printed is what kubectl writes (stdout on success, stderr on failure). */
  printed: string;
  object?: KubeObject;
  error?: StatusError;
  outcome?: ApiOutcome;
  /** clientError names a failure kubectl found before sending anything (it has no HTTP status). */
  clientError?: string;
  /** dryRun: nothing was stored (a client or server dry run), whatever `object` shows. */
  dryRun?: boolean;
  /**
   * applyFailure is set when the object's own request failed (its GET, POST or PATCH), as opposed to the resource
   * builder's checks: the warnings printed as the answer came, and the error kubectl returns for it at the end.
   */
  applyFailure?: { warnings: string; error: StatusError };
}
