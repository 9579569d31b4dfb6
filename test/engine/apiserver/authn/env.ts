// Builders for authenticator tests: the environment an authenticator reads (profile, store, wall clock).
import type { KubeObject } from '../../../../src/engine/api/types';
import type { AuthnEnv } from '../../../../src/engine/apiserver/authn/authenticator';
import { type ClusterProfile, defaultProfile } from '../../../../src/engine/cluster/inputs';
import { Store } from '../../../../src/engine/cluster/store';

/** EPOCH is the simulation's virtual epoch, the "now" of every test unless one says otherwise. */
export const EPOCH = new Date('2026-01-01T00:00:00Z');

/** makeEnv is an environment whose profile is the default one changed by `profile`, and whose store holds `objects`. */
export function makeEnv(profile: (p: ClusterProfile) => void = () => undefined, objects: readonly object[] = [], now = EPOCH): AuthnEnv {
  const p = defaultProfile();
  profile(p);
  const store = new Store();
  for (const o of objects) store.put(o as KubeObject);
  return { profile: p, store, now };
}
