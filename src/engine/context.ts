// What every component of the simulated cluster shares: the clock, the store, the recorder, randomness and the inputs.
import { objectRef, type KubeObject, type ObjectRef } from './api/types';
import type { Behavior, ClusterProfile, SourceDocument } from './cluster/inputs';
import { RESOURCES } from './cluster/storage-keys';
import type { Store } from './cluster/store';
import type { Millis, ScheduledTask, VirtualClock } from './runtime/clock';
import type { Random } from './runtime/random';
import type { Recorder } from './runtime/recorder';
import type { Steps } from './runtime/step';

/** Task is a unit of work on the event queue: it runs as steps. */
export type Task = () => Steps<void>;

/** EngineContext is handed to every component: the shared state of one simulated cluster. */
export interface EngineContext {
  clock: VirtualClock;
  store: Store;
  recorder: Recorder;
  rng: Random;
  behavior: Behavior;
  profile: ClusterProfile;
  /** schedule queues a task to run `delay` virtual milliseconds from now. */
  schedule(delay: Millis, label: string, task: Task): ScheduledTask<Task>;
  /** sources finds the manifest or cluster document an object came from. */
  sources: SourceIndex;
  /** tableLimit is the most nodes a scheduling cycle keeps its per-node tables for (SimulationOptions.tableLimit). */
  tableLimit?: number;
  /** pastInvalid lets an invalid object go on past validation (SimulationOptions.pastInvalid): diagnostics only. */
  pastInvalid?: boolean;
  /**
   * recordManagers makes the controllers' writes record their manager in managedFields, as the writes of a live
   * cluster's clients do (SimulationOptions.live); a run keeps its objects without.
   */
  recordManagers?: boolean;
}

/** SourceIndex maps objects to the documents they were read from, so trace fields map to file ranges. */
export class SourceIndex {
  private byRef = new Map<ObjectRef, SourceDocument>();

  /** entries are every object's document, for another index that starts with them (a bootstrap image's). */
  entries(): [ObjectRef, SourceDocument][] {
    return [...this.byRef];
  }

  /** addManifest records the manifest's documents under the references kubectl gives them, before the server stores them. */
  addManifest(docs: readonly SourceDocument[]): void {
    for (const doc of docs) {
      const meta = doc.object.metadata;
      const namespaced = RESOURCES[String(doc.object.kind)]?.namespaced ?? true;
      if (meta?.name) this.add(objectRef(String(doc.object.kind), namespaced ? meta.namespace ?? 'default' : undefined, meta.name), doc);
    }
  }

  /** add records where an object was read from. */
  add(ref: ObjectRef, doc: SourceDocument): void {
    this.byRef.set(ref, doc);
  }

  /** get returns the document of an object, if it came from a file. */
  get(ref: ObjectRef): SourceDocument | undefined {
    return this.byRef.get(ref);
  }

  /**
   * documentOf finds the document an object came from: its own, or (for an object a controller made) the pod template
   * of its nearest owner that came from one, at most three owners up, with the prefix of the template's fields.
   */
  documentOf(ref: ObjectRef, store: Store): { doc: SourceDocument; prefix: string } | undefined {
    const own = this.byRef.get(ref);
    if (own) return { doc: own, prefix: '' };
    const [kind, ns, name] = ref.split('/');
    let obj: KubeObject | undefined = kind && name ? store.get(kind, ns, name) : undefined;
    for (let depth = 0; obj && depth < 3; depth++) {
      const owner = obj.metadata?.ownerReferences?.find((o) => o.controller);
      if (!owner) return undefined;
      const doc = this.byRef.get(`${owner.kind}/${ns}/${owner.name}`);
      if (doc) return { doc, prefix: 'spec.template.' };
      obj = store.get(owner.kind, ns, owner.name);
    }
    return undefined;
  }
}

/** metaOf reads an object's metadata, which stored objects always have. */
export function metaOf(obj: KubeObject): { name: string; namespace?: string; uid?: string } {
  const m = obj.metadata ?? {};
  return { name: m.name ?? '', ...(m.namespace !== undefined ? { namespace: m.namespace } : {}), ...(m.uid !== undefined ? { uid: m.uid } : {}) };
}
