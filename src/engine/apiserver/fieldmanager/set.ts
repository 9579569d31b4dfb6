// A set of field paths as structured-merge-diff keeps it: a tree whose nodes hold the path elements that are members
// (leaves) and the children that go deeper; union, difference and intersection; and its FieldsV1 form, each element
// a key (`f:spec`), `.` marking a node that is itself a member. See sigs.k8s.io/structured-merge-diff/v6@v6.3.3
// fieldpath/set.go and fieldpath/serialize.go (emitContentsV1, readIterV1).
import { compareElements, deserializeElement, type Path, type PathElement, serializeElement } from './path';

/** FieldSet is a set of paths. Elements are keyed by their serialized form, which is canonical. */
export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, { pe: PathElement; set: FieldSet }>();

  /** of builds a set from paths. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** insert adds a path. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.child(path[i] as PathElement);
    const last = path[path.length - 1] as PathElement;
    node.members.set(serializeElement(last), last);
  }

  /** child is the subtree under an element, made when absent. */
  child(pe: PathElement): FieldSet {
    const k = serializeElement(pe);
    let c = this.children.get(k);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(k, c);
    }
    return c.set;
  }

  /** has tells whether the path is a member. */
  has(path: Path): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(serializeElement(path[i] as PathElement))?.set;
    const last = path[path.length - 1];
    return !!node && !!last && node.members.has(serializeElement(last));
  }

  /** empty tells whether the set holds no path. */
  empty(): boolean {
    if (this.members.size) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** union is every path of either set. */
  union(other: FieldSet): FieldSet {
    const out = this.clone();
    out.addAll(other);
    return out;
  }

  private addAll(other: FieldSet): void {
    for (const [k, pe] of other.members) this.members.set(k, pe);
    for (const [k, c] of other.children) {
      const mine = this.children.get(k);
      if (mine) mine.set.addAll(c.set);
      else this.children.set(k, { pe: c.pe, set: c.set.clone() });
    }
  }

  /** difference is this set's paths that are not in the other. */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const theirs = other.children.get(k);
      const d = theirs ? c.set.difference(theirs.set) : c.set.clone();
      if (!d.empty()) out.children.set(k, { pe: c.pe, set: d });
    }
    return out;
  }

  /** intersection is the paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const theirs = other.children.get(k);
      if (!theirs) continue;
      const i = c.set.intersection(theirs.set);
      if (!i.empty()) out.children.set(k, { pe: c.pe, set: i });
    }
    return out;
  }

  /** withoutPrefixes drops every path under (or at) one of the given paths: an ExcludeFilter of reset fields. */
  withoutPrefixes(prefixes: readonly Path[]): FieldSet {
    const out = this.clone();
    for (const p of prefixes) {
      let node: FieldSet | undefined = out;
      for (let i = 0; i < p.length - 1 && node; i++) node = node.children.get(serializeElement(p[i] as PathElement))?.set;
      const last = p[p.length - 1];
      if (!node || !last) continue;
      node.members.delete(serializeElement(last));
      node.children.delete(serializeElement(last));
    }
    return out;
  }

  /** onlyFields keeps only the paths under (or at) the given top-level fields. */
  onlyFields(fields: readonly string[]): FieldSet {
    const out = new FieldSet();
    for (const f of fields) {
      const k = serializeElement({ field: f });
      const m = this.members.get(k);
      if (m) out.members.set(k, m);
      const c = this.children.get(k);
      if (c) out.children.set(k, { pe: c.pe, set: c.set.clone() });
    }
    return out;
  }

  /** paths lists the members in Set.Iterate's order: a node's members, then its children's, each sorted. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of sorted([...this.members.values()])) out.push([...prefix, pe]);
    for (const c of sortedChildren(this)) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  clone(): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, c] of this.children) out.children.set(k, { pe: c.pe, set: c.set.clone() });
    return out;
  }

  /** toFieldsV1 is the set as a managedFields entry's fieldsV1 holds it, keys in PathElement order. */
  toFieldsV1(includeSelf = false): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.size || this.children.size)) out['.'] = {};
    const keys = new Map<string, PathElement>([...this.members, ...[...this.children].map(([k, c]) => [k, c.pe] as const)]);
    for (const pe of sorted([...keys.values()])) {
      const k = serializeElement(pe);
      const c = this.children.get(k);
      out[k] = c ? c.set.toFieldsV1(this.members.has(k)) : {};
    }
    return out;
  }

  /** fromFieldsV1 reads a fieldsV1 object; it throws on an element that does not parse, as FieldsToSet fails. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const out = new FieldSet();
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new Error('FieldsV1 must be an object');
    for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
      if (k === '.') continue;
      const pe = deserializeElement(k);
      if (!pe) continue;
      const sub = FieldSet.fromFieldsV1(v);
      const isMember = v !== null && typeof v === 'object' && ('.' in v || Object.keys(v).length === 0);
      if (isMember) out.members.set(k, pe);
      if (sub.members.size || sub.children.size) out.children.set(k, { pe, set: sub });
    }
    return out;
  }
}

function sorted(pes: PathElement[]): PathElement[] {
  return pes.sort(compareElements);
}

function sortedChildren(s: FieldSet): { pe: PathElement; set: FieldSet }[] {
  return [...s.children.values()].sort((a, b) => compareElements(a.pe, b.pe));
}
