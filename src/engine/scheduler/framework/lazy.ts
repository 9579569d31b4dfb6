// Properties computed on first read, for the Decision tables and the trace entries of a scheduling cycle: a cycle keeps
// compact arrays and lays the per-node records out only when someone reads them (the debugger, a test).

/** Hidden is an object's own data: the computations of its lazy properties, and whatever its owner keeps there. */
interface Hidden {
  lazy: Record<string, () => unknown>;
  data?: unknown;
}

/** Target lets HiddenSlot's constructor stamp its private field on an object made elsewhere: a constructor may return any object. */
class Target {
  constructor(target: object) {
    return target as Target;
  }
}

/**
 * HiddenSlot keeps an object's Hidden data in a private field stamped on the object: no property at all, so JSON,
 * structured cloning, spreading, Object.keys and Node's deep equality never see it, and stamping costs what adding a
 * property costs. Not a WeakMap, and the accessors below are shared by all objects rather than made per object:
 * V8's young-generation collector keeps a WeakMap's values, and per-object accessors' closures, alive until a full
 * collection, so every cycle's data got copied to the old heap and garbage collection took a third of the time.
 */
class HiddenSlot extends Target {
  readonly #hidden: Hidden;

  private constructor(target: object) {
    super(target);
    this.#hidden = { lazy: {} };
  }

  static of(target: object): Hidden {
    return #hidden in target ? (target as HiddenSlot).#hidden : (new HiddenSlot(target) as HiddenSlot).#hidden;
  }
}

function hiddenOf(target: object): Hidden {
  return HiddenSlot.of(target);
}

/** hiddenData returns the data kept out of sight on an object, making it with `make` the first time. */
export function hiddenData<D>(target: object, make: () => D): D {
  const h = hiddenOf(target);
  h.data ??= make();
  return h.data as D;
}

const accessors = new Map<string, PropertyDescriptor>();

/** accessorOf is the accessor of one key, shared by every object: it computes from the object's hidden data, then settles. */
function accessorOf(key: string): PropertyDescriptor {
  let d = accessors.get(key);
  if (!d) {
    d = {
      enumerable: true,
      configurable: true,
      get(this: object): unknown {
        const lazy = hiddenOf(this).lazy;
        const value = lazy[key]!();
        settle(this, key, value);
        // Once laid out, the value is all that is kept: the compact data it came from may go.
        delete lazy[key];
        return value;
      },
      set(this: object, value: unknown): void {
        settle(this, key, value);
      },
    };
    accessors.set(key, d);
  }
  return d;
}

function settle(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * lazyProperty makes `key` an own enumerable property of `target` whose value is computed on first read and from then
 * on kept as a plain data property; a write replaces it. Spreading, JSON and structured cloning all read it as usual,
 * and redefining an existing key keeps its place in the key order.
 */
export function lazyProperty<T extends object, K extends keyof T & string>(target: T, key: K, compute: () => T[K]): void {
  hiddenOf(target).lazy[key] = compute;
  Object.defineProperty(target, key, accessorOf(key));
}

/**
 * readWithoutSettling reads a property as JSON would, except that a lazy one not yet read is computed and not kept:
 * a writer streaming thousands of cycles' tables lays each out once and lets it go.
 */
export function readWithoutSettling(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor?.get && descriptor.get === accessors.get(key)?.get) {
    const compute = hiddenOf(target).lazy[key];
    if (compute) return compute();
  }
  return (target as Record<string, unknown>)[key];
}
