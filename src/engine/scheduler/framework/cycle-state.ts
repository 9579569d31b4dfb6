// CycleState: the data plugins hand each other within one scheduling cycle, keyed by plugin name.
// See staging/src/k8s.io/kube-scheduler/framework/cycle_state.go.

/** StateKey names one piece of cycle data and carries its type, e.g. `stateKey<Resource>('PreFilterNodeResourcesFit')`. */
export interface StateKey<T> {
  readonly name: string;
  /** phantom only carries the type; it is never set. */
  readonly phantom?: T;
}

/** stateKey makes a typed key; Kubernetes' plugins use "PreFilter" + Name and "PreScore" + Name. */
export function stateKey<T>(name: string): StateKey<T> {
  return { name };
}

/** NOT_FOUND is the message of framework.ErrNotFound, returned when a key was never written. */
export const NOT_FOUND = 'not found';

/** CycleState holds what PreFilter and PreScore computed for Filter and Score, and which plugins to skip. */
export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** skipFilterPlugins are the plugins whose PreFilter returned Skip: their Filter does not run. */
  skipFilterPlugins: ReadonlySet<string> = new Set();
  /** skipScorePlugins are the plugins whose PreScore returned Skip: their Score does not run. */
  skipScorePlugins: ReadonlySet<string> = new Set();

  /** write stores a value under its key. */
  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key.name, value);
  }

  /** read returns the value under a key, or undefined when it was never written (Go: ErrNotFound). */
  read<T>(key: StateKey<T>): T | undefined {
    return this.data.get(key.name) as T | undefined;
  }

  /** has tells whether a key was written. */
  has(key: StateKey<unknown>): boolean {
    return this.data.has(key.name);
  }

  /** clone copies the state shallowly: plugins' data is read-only once written, as their Clone methods assume. */
  clone(): CycleState {
    const copy = new CycleState();
    for (const [k, v] of this.data) copy.data.set(k, v);
    copy.skipFilterPlugins = this.skipFilterPlugins;
    copy.skipScorePlugins = this.skipScorePlugins;
    return copy;
  }
}
