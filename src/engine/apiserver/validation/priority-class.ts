// PriorityClass validation on create: ValidatePriorityClass of pkg/apis/scheduling/validation/validation.go (the
// reserved system- prefix, the highest user-definable value, preemptionPolicy), as
// pkg/registry/scheduling/priorityclass/strategy.go (Validate) runs it, k8s.io/kubernetes v1.36.3.
import type { KubeObject } from '../../api/types';
import { asJSON, type FieldError, forbidden, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';

/** HIGHEST_USER_DEFINABLE_PRIORITY is scheduling.HighestUserDefinablePriority (pkg/apis/scheduling/types.go). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
/** SYSTEM_PRIORITY_CLASS_PREFIX is scheduling.SystemPriorityClassPrefix. */
const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** SYSTEM_PRIORITY_CLASSES are schedulingapiv1's systemPriorityClasses: their values (SystemCriticalPriority, +1000). */
const SYSTEM_PRIORITY_CLASSES: ReadonlyArray<{ name: string; value: number }> = [
  { name: 'system-node-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY + 1000 },
  { name: 'system-cluster-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY },
];
/** PREEMPTION_POLICIES are ValidatePreemptionPolicy's valid values, in its order. */
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** validatePriorityClass is ValidatePriorityClass. */
export function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errs = validateObjectMeta(pc, false, nameIsDNSSubdomain);
  const name = pc.metadata?.name ?? '';
  const value = typeof pc['value'] === 'number' ? pc['value'] : 0;
  const globalDefault = pc['globalDefault'] === true;
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const problem = knownSystemPriorityClassProblem(name, value, globalDefault);
    if (problem) {
      errs.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = pc['preemptionPolicy'];
  if (policy !== undefined && policy !== null) {
    // ValidatePreemptionPolicy (pkg/apis/core/validation/validation.go): the bad value is a pointer, printed as JSON.
    if (policy === '') errs.push(required('preemptionPolicy'));
    else if (!PREEMPTION_POLICIES.includes(String(policy))) errs.push(notSupported('preemptionPolicy', asJSON(policy), PREEMPTION_POLICIES));
  }
  return errs;
}

/** knownSystemPriorityClassProblem is IsKnownSystemPriorityClass's error (pkg/apis/scheduling/v1/helpers.go), or undefined. */
function knownSystemPriorityClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((spc) => spc.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  // Neither system class is the global default.
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}
