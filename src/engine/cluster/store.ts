// The state store, the simulation's etcd: objects by key, resourceVersions, watches and cheap snapshots.
import { deepClone, deepFreeze, type KubeObject, type Meta, type Mutable } from '../api/types';
import { SharedParts } from './shared-parts';
import { redactSecret, type SecretValues } from './secret-values';
import { keyOf, storageKey } from './storage-keys';

export { keyOf, RESOURCES, storageKey } from './storage-keys';

/** WatchEventType is the type of a watch event, as the API server sends them. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** WatchListener is told of every change to the store. */
export type WatchListener = (type: WatchEventType, obj: KubeObject, old: KubeObject | undefined) => void;

/** StoreSnapshot is the store's content at one moment: stored objects are never mutated, so sharing them is safe. */
export interface StoreSnapshot {
  objects: ReadonlyMap<string, KubeObject>;
  resourceVersion: number;
}

/** INDEXES keys an image's copy of the store's indexes, which only a Store reads. */
const INDEXES = Symbol('indexes');

/** StoreImage is a store's whole content, for a store that starts where another one was (Store.image, Store.restore). */
export interface StoreImage extends StoreSnapshot {
  secrets: ReadonlyMap<string, SecretValues>;
  readonly [INDEXES]: { kinds: ReadonlyMap<string, Bucket>; namespaces: ReadonlyMap<string, Bucket>; indexes: ReadonlyMap<IndexName, ReadonlyMap<string, Bucket>>; uids: ReadonlyMap<string, string> };
}

/**
 * INDEXERS are the store's secondary indexes, as client-go's cache.Indexers give the controllers' listers: each maps an
 * object to the values it is found under. `controller` is the uid of its controller reference, `owner` the uids of all
 * its owner references, `node` the node a pod is bound to, `orphan` (`Kind/namespace`) those with no
 * controller, which a controller may adopt.
 */
const INDEXERS = {
  controller: (o: KubeObject) => {
    const ref = o.metadata?.ownerReferences?.find((r) => r.controller);
    return ref ? [ref.uid] : [];
  },
  owner: (o: KubeObject) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid),
  node: (o: KubeObject) => {
    const node = o.kind === 'Pod' ? (o['spec'] as { nodeName?: string } | undefined)?.nodeName : undefined;
    return node ? [node] : [];
  },
  orphan: (o: KubeObject) => (o.metadata?.ownerReferences?.some((r) => r.controller) ? [] : [`${o.kind}/${o.metadata?.namespace ?? ''}`]),
} as const;

/** IndexName names one of the store's secondary indexes. */
export type IndexName = keyof typeof INDEXERS | 'uid';

/** INDEXED are the indexes kept in buckets; the uid index is a map of its own. */
const INDEXED = Object.keys(INDEXERS) as (keyof typeof INDEXERS)[];

/**
 * Bucket is one set of objects by key that lists in key order; the order is sorted again only after a key came or went.
 * A copy shares its objects with the bucket it was copied from until either of them is written (copy on write): a
 * store restored from an image files nothing again and copies only the buckets its run changes.
 */
class Bucket {
  private sorted: string[] | undefined;
  /** owned is false while the objects are shared with a copy: the next write copies them first. */
  private owned = true;

  constructor(private objects = new Map<string, KubeObject>()) {}

  set(key: string, obj: KubeObject): void {
    if (!this.objects.has(key)) this.sorted = undefined;
    this.own().set(key, obj);
  }

  delete(key: string): void {
    if (this.objects.has(key)) {
      this.sorted = undefined;
      this.own().delete(key);
    }
  }

  /** size is how many objects the bucket holds. */
  get size(): number {
    return this.objects.size;
  }

  list<T>(): T[] {
    this.sorted ??= [...this.objects.keys()].sort(compareKeys);
    return this.sorted.map((k) => this.objects.get(k) as T);
  }

  /** copy is a bucket of the same objects that changes on its own (the key order is never changed in place: shared). */
  copy(): Bucket {
    const bucket = new Bucket(this.objects);
    bucket.sorted = this.sorted;
    bucket.owned = false;
    this.owned = false;
    return bucket;
  }

  private own(): Map<string, KubeObject> {
    if (!this.owned) {
      this.objects = new Map(this.objects);
      this.owned = true;
    }
    return this.objects;
  }
}

/** copyBuckets copies a map of buckets, each bucket copied. */
function copyBuckets(map: ReadonlyMap<string, Bucket>): Map<string, Bucket> {
  const out = new Map<string, Bucket>();
  for (const [key, bucket] of map) out.set(key, bucket.copy());
  return out;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Change is one write of the history: the object stored under a key, or undefined when it was removed. */
interface Change {
  key: string;
  obj: KubeObject | undefined;
  resourceVersion: number;
}

/** Checkpoint is the whole content at one place in the history, from which later places are rebuilt. */
interface Checkpoint {
  at: number;
  objects: Map<string, KubeObject>;
  resourceVersion: number;
}

/**
 * Store keeps the objects by etcd key. Objects handed out are frozen: a writer passes a new
 * object (update() clones for it), so a snapshot is a copy of the map, not of the objects.
 * Lists come from indexes (by kind, by kind and namespace, and the INDEXERS), so a list costs what it returns.
 * With history on, every write is logged: the content at any earlier place is rebuilt from the nearest checkpoint,
 * so keeping every moment of a run costs what changed, not the store's size at every step.
 */
export class Store {
  /** objects are the stored objects by key; after restore, those written since (the image's are in `base`). */
  private objects = new Map<string, KubeObject>();
  /**
   * base is the image a store was restored from, shared with it and never written: a read falls through to it, and a
   * write goes to `objects`, so a store started from an image copies nothing until a front reads it whole (merged).
   */
  private base: ReadonlyMap<string, KubeObject> | undefined;
  /** removed are the keys of base removed since (one stored again is in `objects`, which a read looks in first). */
  private removed = new Set<string>();
  /** count is how many objects are stored. */
  private count = 0;
  /** keys are the keys in order, kept until a key is added or removed (lists are read far more often than that). */
  private keys: string[] | undefined;
  private readonly kinds = new Map<string, Bucket>();
  private readonly namespaces = new Map<string, Bucket>();
  private readonly indexes = new Map<IndexName, Map<string, Bucket>>();
  /** uids are the keys of the objects by uid. */
  private uids = new Map<string, string>();
  private listeners: WatchListener[] = [];
  /** resourceVersion is etcd's revision: it grows by one with every write. */
  resourceVersion = 1000;
  private history: Change[] | undefined;
  private readonly checkpoints: Checkpoint[] = [];
  /** secrets keep the Secrets' values by key; the stored Secrets show notes instead. */
  private secrets = new Map<string, SecretValues>();
  /** parts are the equal parts stored pods share. */
  private readonly parts = new SharedParts();
  /** writes counts puts, removes and restores; kindWrites holds, by kind, the count at its last put or remove. */
  private writes = 0;
  private readonly kindWrites = new Map<string, number>();
  /** restoredAt is the count at the last restore, which every kind's objects may have changed in. */
  private restoredAt = 0;

  /** size is how many objects are stored. */
  get size(): number {
    return this.count;
  }

  /** secretValues are a stored Secret's values, for the engine alone (bootstrap token authentication). */
  secretValues(namespace: string, name: string): SecretValues | undefined {
    return this.secrets.get(storageKey('Secret', namespace, name));
  }

  /** get returns the stored object of a kind, namespace and name. */
  get<T = KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    return this.lookup(storageKey(kind, namespace, name)) as T | undefined;
  }

  /** getByKey returns the object stored under an etcd key. */
  getByKey<T = KubeObject>(key: string): T | undefined {
    return this.lookup(key) as T | undefined;
  }

  /** list returns the stored objects of a kind, in key order, optionally in one namespace. */
  list<T = KubeObject>(kind: string, namespace?: string): T[] {
    const bucket = namespace === undefined ? this.kinds.get(kind) : this.namespaces.get(`${kind}\u0000${namespace}`);
    return bucket ? bucket.list<T>() : [];
  }

  /**
   * byIndex returns the objects an index files under a value, in key order, optionally of one kind: the pods a
   * ReplicaSet controls (`controller`, its uid), an owner's dependents (`owner`), the pods bound to a node (`node`).
   */
  byIndex<T = KubeObject>(index: IndexName, value: string, kind?: string): T[] {
    if (index === 'uid') {
      const key = this.uids.get(value);
      const obj = key === undefined ? undefined : this.lookup(key);
      return obj && (kind === undefined || obj.kind === kind) ? [obj as T] : [];
    }
    const all = this.indexes.get(index)?.get(value)?.list<KubeObject>() ?? [];
    return (kind === undefined ? all : all.filter((o) => o.kind === kind)) as T[];
  }

  /** all returns every stored object in key order. */
  all(): KubeObject[] {
    return this.sorted();
  }

  /** put stores an object (create or replace), gives it the next resourceVersion and tells the watchers. */
  put<T extends Meta>(given: T): T {
    const key = keyOf(given);
    const old = this.lookup(key);
    let obj: Meta = given;
    // A Secret's values stay here; the stored object carries notes of their sizes (secret-values.ts).
    if (given.kind === 'Secret') {
      const { stored, values } = redactSecret(given as unknown as KubeObject, this.secrets.get(key));
      this.secrets.set(key, values);
      obj = stored as Meta;
    }
    // Pods of one template share their equal parts (shared-parts.ts), once there are enough of them to be worth it.
    if (given.kind === 'Pod' && (this.kinds.get('Pod')?.size ?? 0) >= SHARE_FROM_PODS) obj = this.parts.pod(obj);
    this.resourceVersion++;
    const stored = deepFreeze({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.resourceVersion) } }) as unknown as KubeObject;
    if (!old) {
      this.keys = undefined;
      this.count++;
    }
    this.objects.set(key, stored);
    this.kindWrites.set(stored.kind ?? '', ++this.writes);
    this.reindex(key, old, stored);
    this.log(key, stored);
    for (const l of this.listeners) l(old ? 'MODIFIED' : 'ADDED', stored, old);
    return stored as unknown as T;
  }

  /** update applies a change to a clone of the stored object and stores the result; undefined when absent. */
  update<T extends Meta = KubeObject>(kind: string, namespace: string | undefined, name: string, change: (obj: Mutable<T>) => void): T | undefined {
    const current = this.get<T>(kind, namespace, name);
    if (!current) return undefined;
    const next = deepClone(current) as Mutable<T>;
    change(next);
    return this.put(next as T);
  }

  /**
   * replace stores the object with some of its top-level fields replaced, computed from the stored (frozen) object:
   * nothing else is copied or frozen again, so writing a pod's status costs the status, not the pod. Undefined when absent.
   */
  replace<T extends Meta = KubeObject>(kind: string, namespace: string | undefined, name: string, fields: (current: T) => Partial<T>): T | undefined {
    const current = this.get<T>(kind, namespace, name);
    if (!current) return undefined;
    return this.put({ ...current, ...fields(current) });
  }

  /** remove deletes an object and tells the watchers. */
  remove(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = storageKey(kind, namespace, name);
    const old = this.lookup(key);
    if (!old) return undefined;
    this.objects.delete(key);
    if (this.base?.has(key)) this.removed.add(key);
    this.count--;
    this.secrets.delete(key);
    this.keys = undefined;
    this.resourceVersion++;
    this.kindWrites.set(kind, ++this.writes);
    this.reindex(key, old, undefined);
    this.log(key, undefined);
    for (const l of this.listeners) l('DELETED', old, old);
    return old;
  }

  /**
   * kindRevision grows whenever an object of the kind is stored or removed (or the store restored), and only then: what
   * is worked out from a kind's objects alone (RBAC's rules) may be kept while it stays the same.
   */
  kindRevision(kind: string): number {
    return this.kindWrites.get(kind) ?? this.restoredAt;
  }

  /** nextRevision takes a revision for a write kept outside the store (an Event's): etcd numbers every write. */
  nextRevision(): number {
    return ++this.resourceVersion;
  }

  /** watch registers a listener for every later change. */
  watch(listener: WatchListener): void {
    this.listeners.push(listener);
  }

  /** snapshot captures the store's content now. */
  snapshot(): StoreSnapshot {
    return { objects: new Map(this.merged()), resourceVersion: this.resourceVersion };
  }

  /**
   * image captures the whole content, secrets included, for restore: a store started from it is the store this one is,
   * without storing (defaulting, freezing) every object again. Stored objects are never mutated, so they are shared.
   */
  image(): StoreImage {
    return {
      objects: new Map(this.merged()), resourceVersion: this.resourceVersion, secrets: new Map(this.secrets),
      // The indexes come along, so that a store restored from the image need not file every object again.
      [INDEXES]: { kinds: copyBuckets(this.kinds), namespaces: copyBuckets(this.namespaces), indexes: new Map([...this.indexes].map(([name, values]) => [name, copyBuckets(values)])), uids: new Map(this.uids) },
    };
  }

  /** restore fills an empty store with an image's content, without telling the watchers (none listen yet). */
  restore(image: StoreImage): void {
    if (this.count > 0) throw new Error('restore: the store is not empty');
    this.base = image.objects;
    this.count = image.objects.size;
    const filed = image[INDEXES];
    for (const [key, bucket] of filed.kinds) this.kinds.set(key, bucket.copy());
    for (const [key, bucket] of filed.namespaces) this.namespaces.set(key, bucket.copy());
    for (const [name, values] of filed.indexes) this.indexes.set(name, copyBuckets(values));
    this.uids = new Map(filed.uids);
    this.secrets = new Map(image.secrets);
    this.keys = undefined;
    this.resourceVersion = image.resourceVersion;
    this.kindWrites.clear();
    this.restoredAt = ++this.writes;
  }

  /** keepHistory starts logging every write, so that snapshotAt can rebuild any later place. */
  keepHistory(): void {
    if (this.history) return;
    this.history = [];
    this.checkpoints.push({ at: 0, objects: new Map(this.merged()), resourceVersion: this.resourceVersion });
  }

  /** mark is the current place in the history: a snapshot taken now is snapshotAt(mark()). */
  mark(): number {
    return this.history?.length ?? 0;
  }

  /** snapshotAt rebuilds the content at a place mark() returned, from the nearest checkpoint before it. */
  snapshotAt(place: number): StoreSnapshot {
    const history = this.history;
    if (!history) return this.snapshot();
    let i = this.checkpoints.length - 1;
    while (i > 0 && this.checkpoints[i]!.at > place) i--;
    const from = this.checkpoints[i]!;
    const objects = new Map(from.objects);
    let resourceVersion = from.resourceVersion;
    for (let at = from.at; at < Math.min(place, history.length); at++) {
      const change = history[at]!;
      if (change.obj) objects.set(change.key, change.obj);
      else objects.delete(change.key);
      resourceVersion = change.resourceVersion;
    }
    return { objects, resourceVersion };
  }

  /** log writes one change to the history, with a checkpoint each time as many changes as objects have gone by. */
  private log(key: string, obj: KubeObject | undefined): void {
    const history = this.history;
    if (!history) return;
    history.push({ key, obj, resourceVersion: this.resourceVersion });
    const last = this.checkpoints[this.checkpoints.length - 1]!;
    if (history.length - last.at >= Math.max(CHECKPOINT_MIN_CHANGES, this.count)) {
      this.checkpoints.push({ at: history.length, objects: new Map(this.merged()), resourceVersion: this.resourceVersion });
    }
  }

  /** reindex moves an object from where its old version was filed to where its new one is. */
  private reindex(key: string, old: KubeObject | undefined, now: KubeObject | undefined): void {
    const obj = (now ?? old)!;
    const kind = String(obj.kind);
    const ns = obj.metadata?.namespace;
    if (now) {
      bucketOf(this.kinds, kind).set(key, now);
      if (ns !== undefined) bucketOf(this.namespaces, `${kind}\u0000${ns}`).set(key, now);
    } else {
      this.kinds.get(kind)?.delete(key);
      if (ns !== undefined) this.namespaces.get(`${kind}\u0000${ns}`)?.delete(key);
    }
    // A uid names one object: a map to its key, not a bucket of one for each object.
    const uid = obj.metadata?.uid;
    if (uid) {
      if (now) this.uids.set(uid, key);
      else if (this.uids.get(uid) === key) this.uids.delete(uid);
    }
    for (const name of INDEXED) {
      const values = this.indexes.get(name) ?? new Map<string, Bucket>();
      this.indexes.set(name, values);
      const before = old ? INDEXERS[name](old) : [];
      const after = now ? INDEXERS[name](now) : [];
      for (const v of before) if (!after.includes(v)) values.get(v)?.delete(key);
      for (const v of after) bucketOf(values, v).set(key, now!);
    }
  }

  private sorted(): KubeObject[] {
    const objects = this.merged();
    this.keys ??= [...objects.keys()].sort(compareKeys);
    return this.keys.map((k) => objects.get(k) as KubeObject);
  }

  /** lookup reads one key: written since the restore, or else the image's unless removed since. */
  private lookup(key: string): KubeObject | undefined {
    const obj = this.objects.get(key);
    if (obj !== undefined || this.base === undefined) return obj;
    return this.removed.has(key) ? undefined : this.base.get(key);
  }

  /** merged is every stored object by key: the image's are folded into `objects` the first time it is read whole. */
  private merged(): Map<string, KubeObject> {
    const base = this.base;
    if (base) {
      const objects = new Map<string, KubeObject>();
      for (const [key, obj] of base) if (!this.removed.has(key)) objects.set(key, obj);
      for (const [key, obj] of this.objects) objects.set(key, obj);
      this.objects = objects;
      this.base = undefined;
      this.removed.clear();
    }
    return this.objects;
  }
}

/**
 * SHARE_FROM_PODS is how many pods a store holds before the pods it stores share their equal parts: sharing saves
 * memory at scale, and costs a walk of each new pod's spec that a run of a few pods (a diagnostic's check) never repays.
 */
const SHARE_FROM_PODS = 64;

/** CHECKPOINT_MIN_CHANGES is the fewest changes between two checkpoints of the history. */
const CHECKPOINT_MIN_CHANGES = 256;

function bucketOf(map: Map<string, Bucket>, key: string): Bucket {
  let bucket = map.get(key);
  if (!bucket) {
    bucket = new Bucket();
    map.set(key, bucket);
  }
  return bucket;
}
