// How kubectl prints errors: the words of staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (checkErr, StandardErrorMessage).
import { StatusError } from '../apiserver/request';

/**
 * addSourceToError prefixes a server error with the file it came from, as AddSourceToErr does:
 * `error when creating "pod.yaml": <message>`.
 */
export function addSourceToError(verb: string, source: string, err: StatusError): StatusError {
  if (!source) return err;
  return new StatusError({ ...err.status, message: `error when ${verb} "${source}": ${err.status.message}` });
}

/**
 * renderKubectlError is what kubectl prints for an error, without the trailing newline:
 * Invalid errors as `The Pod "web" is invalid: <cause>` (several causes one per `* ` line),
 * 401 as `error: You must be logged in to the server (Unauthorized)`, others as
 * `Error from server (Forbidden): <message>`.
 */
export function renderKubectlError(err: StatusError): string {
  const s = err.status;
  if (s.reason === 'Invalid' && s.details) {
    const head = s.details.kind || s.details.name ? `The ${s.details.kind ?? ''} "${s.details.name ?? ''}" is invalid` : 'The request is invalid';
    const causes = (s.details.causes ?? []).map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
    if (causes.length === 0) return head;
    if (causes.length === 1) return `${head}: ${causes[0]}`;
    return `${head}: \n${causes.map((c) => `* ${c}`).join('\n')}`;
  }
  if (s.reason === 'Unauthorized') return `error: You must be logged in to the server (${s.message})`;
  if (s.reason) return `Error from server (${s.reason}): ${s.message}`;
  return `Error from server: ${s.message}`;
}
