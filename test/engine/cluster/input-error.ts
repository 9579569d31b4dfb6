// A test helper shared by the loader tests: run a function that must throw an InputError, and return it.
import assert from 'node:assert/strict';
import { InputError } from '../../../src/engine/cluster/inputs';

/** inputError runs fn and returns the InputError it must throw. */
export function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof InputError, `expected an InputError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected an InputError, got none');
}
