// DynamicResources (DRA), as far as pods without resource claims go: it skips them, and its PostFilter says it has no claim to free.
// See pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (PreFilter, PostFilter).
import type { Pod } from '../../api/types';
import { NOT_FOUND, stateKey, type CycleState } from '../framework/cycle-state';
import type { Plugin, PostFilterOutput, PostFilterPlugin, PreFilterOutput, PreFilterPlugin } from '../framework/interfaces';
import { Code, newStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.DynamicResources;

/** ReasonNoClaims is the PostFilter reason for a pod without claims; it shows up in FailedScheduling messages since DRA went GA. */
export const ReasonNoClaims = 'no new claims to deallocate';

/** ReasonNotSimulated is the Error a pod with resource claims gets: allocating claims is not simulated yet. */
export const ReasonNotSimulated = 'resource claims are not simulated yet';

interface StateData {
  claims: number;
}

const stateDataKey = stateKey<StateData>(Name);

/** PodSpecClaims is the part of a PodSpec the kubernetes-types package predates in this shape: resource claims. */
interface PodSpecClaims {
  resourceClaims?: unknown[];
}

/** DynamicResources handles pods with no resource claims. */
export class DynamicResources implements PreFilterPlugin, PostFilterPlugin {
  readonly name = Name;

  /** preFilter records an empty state (so PostFilter knows PreFilter ran) and skips pods without claims. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    state.write(stateDataKey, { claims: 0 });
    const claims = (pod.spec as PodSpecClaims | undefined)?.resourceClaims ?? [];
    if (claims.length === 0) return { status: newStatus(Code.Skip) };
    return { status: newStatus(Code.Error, ReasonNotSimulated) };
  }

  /**
   * postFilter has no claim to deallocate for a pod without claims. When PreFilter never ran (an earlier PreFilter plugin
   * rejected the pod) the state is missing and it fails with framework.ErrNotFound, whose "not found" ends the message.
   */
  postFilter(state: CycleState): PostFilterOutput {
    const data = state.read(stateDataKey);
    if (data === undefined) return { status: newStatus(Code.Error, NOT_FOUND) };
    return { status: newStatus(Code.Unschedulable, ReasonNoClaims) };
  }

  fieldPath(): string {
    return 'spec.resourceClaims';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new DynamicResources();
}
