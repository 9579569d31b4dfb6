// What one `kubectl apply -f FILE` of several documents prints, in kubectl's order: each result and warning as its
// request is answered, then the errors, gathered: the resource builder's (an aggregate of its own) first, then those of
// the objects' requests, printed by CheckErr (one error as it is, several as `Error from server (Invalid): error when
// creating "f.yaml": ...` lines). See kubernetes/kubectl pkg/cmd/apply/apply.go (ApplyOptions.Run: GetObjects, then
// applyOneObject for each; errs aggregated) and pkg/cmd/util/helpers.go (checkErr, MultipleErrors), v0.36.3.
import type { StatusError } from '../apiserver/request';
import type { KubectlOutcome } from './apply';
import { checkErr, type KubectlError } from './errors';

/** ApplyOutput gathers one apply's output into `print`; `finish` prints the errors. */
export class ApplyOutput {
  private readonly builderErrors: Error[] = [];
  private readonly applyErrors: StatusError[] = [];

  constructor(private readonly print: (text: string) => void) {}

  /** add takes one document's outcome: printed at once, or its warnings at once and its error kept for the end. */
  add(out: KubectlOutcome): void {
    if (out.ok) {
      if (out.printed) this.print(out.printed);
      return;
    }
    if (out.applyFailure) {
      if (out.applyFailure.warnings) this.print(out.applyFailure.warnings.replace(/\n$/, ''));
      this.applyErrors.push(out.applyFailure.error);
      return;
    }
    // The builder's error is printed with "error: " only when it is the one error; its text is without it.
    if (out.printed) this.builderErrors.push(new Error(out.printed.replace(/^error: /, '')));
  }

  /** failed tells whether an error was gathered: apply.go Run then returns it, before its post-processor. */
  get failed(): boolean {
    return this.builderErrors.length + this.applyErrors.length > 0;
  }

  /** finish prints what CheckErr prints for the errors gathered, if any. */
  finish(): void {
    const errs: KubectlError[] = [...(this.builderErrors.length ? [this.builderErrors] : []), ...this.applyErrors];
    if (errs.length) this.print(checkErr(errs));
  }
}
