// Properties computed on first read, for the Decision tables and the trace entries of a scheduling cycle: a cycle keeps
// compact arrays and lays the per-node records out only when someone reads them (the debugger, a test).

/** Hidden is an object's own data: the computations of its lazy properties, and whatever its owner keeps there. */
interface Hidden {
  lazy: Record<string, () => unknown>;
  /** sizes are how many entries a lazy value will have, where its maker said. */
  sizes?: Record<string, number>;
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
        if (transient) return transientValue(transient, this, key, lazy[key]!);
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
export function lazyProperty<T extends object, K extends keyof T & string>(target: T, key: K, compute: () => T[K], size?: number): void {
  const hidden = hiddenOf(target);
  hidden.lazy[key] = compute;
  if (size !== undefined) (hidden.sizes ??= {})[key] = size;
  Object.defineProperty(target, key, accessorOf(key));
}

/** lazySize is the size a lazy property not yet read was given (a table's number of nodes), or undefined. */
export function lazySize(target: object, key: string): number | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (!descriptor?.get || descriptor.get !== accessors.get(key)?.get) return undefined;
  const hidden = hiddenOf(target);
  return hidden.lazy[key] ? hidden.sizes?.[key] : undefined;
}

/** TRANSIENT_KEEP is how many objects' lazy values a transient read keeps at once: the tables of the cycle at hand. */
const TRANSIENT_KEEP = 16;

/** transient, while readTransiently runs, holds the lazy values laid out for it instead of the objects holding them. */
let transient: Map<object, Map<string, unknown>> | undefined;

/**
 * readTransiently runs `read` with every lazy property computed without being kept on its object: a writer streaming
 * thousands of cycles' tables lays each out once and lets it go. The values of the last few objects read are kept
 * meanwhile, so the entries of one cycle share its tables.
 */
export function readTransiently<T>(read: () => T): T {
  const outer = transient;
  transient = new Map();
  try {
    return read();
  } finally {
    transient = outer;
  }
}

/** transientValue computes a lazy value for readTransiently, or returns the one computed for it already. */
function transientValue(cache: Map<object, Map<string, unknown>>, target: object, key: string, compute: () => unknown): unknown {
  let values = cache.get(target);
  if (values?.has(key)) return values.get(key);
  const value = compute();
  if (!values) {
    values = new Map();
    cache.set(target, values);
    if (cache.size > TRANSIENT_KEEP) cache.delete(cache.keys().next().value!);
  }
  values.set(key, value);
  return value;
}
