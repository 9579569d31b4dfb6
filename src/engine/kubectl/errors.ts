// How kubectl prints errors: the words of staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (CheckErr,
// StandardErrorMessage, MultilineError, MultipleErrors, AddSourceToErr).
import { StatusError } from '../apiserver/request';
import { goQuote } from '../apiserver/authz/forbidden';

/** KubectlError is what kubectl's commands return: an API Status error, any other error, or an aggregate of them. */
export type KubectlError = StatusError | Error | KubectlError[];

/**
 * addSourceToError prefixes a server error with the file it came from, as AddSourceToErr does:
 * `error when creating "pod.yaml": <message>`; the Status stays a Status (reason, code and details kept).
 */
export function addSourceToError(verb: string, source: string, err: StatusError): StatusError {
  if (!source) return err;
  return new StatusError({ ...err.status, message: `error when ${verb} ${goQuote(source)}: ${err.status.message}` });
}

/** renderKubectlError is what kubectl prints for an API error, without the trailing newline. */
export function renderKubectlError(err: StatusError): string {
  return checkErr(err);
}

/**
 * checkErr is what CheckErr prints for an error, without the trailing newline: an aggregate of one is its error;
 * Invalid is `The Pod "web" is invalid: <field>: <message>` (several causes one per `* ` line, duplicates dropped);
 * other Status errors go through StandardErrorMessage (401 `error: You must be logged in to the server (...)`,
 * `Error from server (Reason): ...`); an aggregate prints each error's standard message on its own line; any other
 * error is its text with `error: ` in front.
 */
export function checkErr(err: KubectlError): string {
  if (Array.isArray(err) && err.length === 1) return checkErr(err[0]!);
  if (Array.isArray(err)) return multipleErrors(err).replace(/\n$/, '');
  if (err instanceof StatusError && err.reason === 'Invalid') return invalidMessage(err).replace(/\n$/, '');
  const standard = standardErrorMessage(err);
  if (standard !== undefined) return standard;
  return err.message.startsWith('error: ') ? err.message : `error: ${err.message}`;
}

/** standardErrorMessage is StandardErrorMessage for the errors kubectl meets here; undefined for a plain error. */
export function standardErrorMessage(err: StatusError | Error): string | undefined {
  if (!(err instanceof StatusError)) return undefined;
  const s = err.status;
  if (s.reason === 'Unauthorized') return `error: You must be logged in to the server (${s.message})`;
  if (s.reason) return `Error from server (${s.reason}): ${s.message}`;
  return `Error from server: ${s.message}`;
}

/** invalidMessage is checkErr's IsInvalid case; it ends with a newline, as MultilineError does. */
function invalidMessage(err: StatusError): string {
  const details = err.status.details;
  if (!details) return 'The request is invalid';
  const head = details.kind || details.name ? `The ${details.kind ?? ''} ${goQuote(details.name ?? '')} is invalid` : 'The request is invalid';
  const causes = details.causes ?? [];
  if (causes.length === 0) return head;
  // statusCausesToAggrError: `<field>: <message>` for each cause (an empty field too), duplicates skipped.
  const messages = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
  return multilineError(`${head}: `, messages);
}

/** multilineError is MultilineError for an aggregate of messages: one on the prefix's line, several as `* ` lines. */
function multilineError(prefix: string, messages: string[]): string {
  if (messages.length === 1) return `${prefix}${messages[0]}\n`;
  return `${prefix}\n${messages.map((m) => `* ${m}\n`).join('')}`;
}

/** multipleErrors is MultipleErrors(``, errs): each error's standard message, or its text, one a line. */
function multipleErrors(errs: KubectlError[]): string {
  return errs.map((e) => `${Array.isArray(e) ? aggregateText(e) : standardErrorMessage(e) ?? e.message}\n`).join('');
}

/** aggregateText is an aggregate's Error(): one error as it is, several deduplicated inside brackets. */
function aggregateText(errs: KubectlError[]): string {
  const texts = [...new Set(errs.map((e) => (Array.isArray(e) ? aggregateText(e) : e.message)))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}
