// The label and field selectors of a list or watch, as kube-apiserver applies them: labels by the labels package,
// fields by each kind's GetAttrs/SelectableFields. See staging/src/k8s.io/apimachinery/pkg/fields/selector.go and
// pkg/registry/core/pod/strategy.go (ToSelectableFields), node/strategy.go, secret/strategy.go, event/strategy.go.
import { parseSelector, type Selector, SelectorError, selectorMatches } from '../engine/api/labels';
import type { KubeObject } from '../engine/api/types';
import { badRequest } from '../engine/apiserver/request';

type Getter = (o: unknown) => string;

/** dig reads a field path of an object. */
function dig(o: unknown, path: readonly string[]): unknown {
  let v = o;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** text is a field as its selectable-fields function writes it: a string, '' when absent. */
const text = (...path: string[]): Getter => (o) => String(dig(o, path) ?? '');
/** flag is a boolean field written as "true" or "false". */
const flag = (...path: string[]): Getter => (o) => String(dig(o, path) === true);
/** count is an integer field written in decimal, 0 when absent. */
const count = (...path: string[]): Getter => (o) => String(dig(o, path) ?? 0);

/** FIELDS are the selectable fields of each kind besides metadata.name and metadata.namespace. */
const FIELDS: Readonly<Record<string, Readonly<Record<string, Getter>>>> = {
  Pod: {
    'spec.nodeName': text('spec', 'nodeName'), 'spec.restartPolicy': text('spec', 'restartPolicy'), 'spec.schedulerName': text('spec', 'schedulerName'),
    'spec.serviceAccountName': text('spec', 'serviceAccountName'), 'spec.hostNetwork': flag('spec', 'hostNetwork'), 'status.phase': text('status', 'phase'),
    'status.podIP': text('status', 'podIP'), 'status.nominatedNodeName': text('status', 'nominatedNodeName'),
  },
  Node: { 'spec.unschedulable': flag('spec', 'unschedulable') },
  Namespace: { 'status.phase': text('status', 'phase') },
  Secret: { type: text('type') },
  ReplicaSet: { 'status.replicas': count('status', 'replicas') },
  ReplicationController: { 'status.replicas': count('status', 'replicas') },
  Job: { 'status.successful': count('status', 'succeeded') },
  Event: Object.fromEntries([
    ...['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [`involvedObject.${f}`, text('involvedObject', f)]),
    ['reason', text('reason')], ['reportingComponent', text('reportingComponent')], ['source', text('source', 'component')], ['type', text('type')],
  ]),
};

const META: Readonly<Record<string, Getter>> = { 'metadata.name': text('metadata', 'name'), 'metadata.namespace': text('metadata', 'namespace') };

/** FieldRequirement is one `field=value` or `field!=value` of a field selector. */
interface FieldRequirement {
  field: string;
  value: string;
  equal: boolean;
  get: Getter;
}

/** ListFilter is what a list or watch keeps: the objects its label and field selectors match. */
export interface ListFilter {
  labels: Selector | undefined;
  fields: FieldRequirement[];
}

/** listFilter reads the labelSelector and fieldSelector of a query for a kind; a bad one is a 400 as the server's. */
export function listFilter(kind: string, query: URLSearchParams): ListFilter {
  const labelText = query.get('labelSelector') ?? '';
  let labels: Selector | undefined;
  try {
    labels = labelText ? parseSelector(labelText) : undefined;
  } catch (e) {
    // The parser's error is labels.Parse's, which the handler's parameter decoding returns as a BadRequest as it is.
    if (e instanceof SelectorError) throw badRequest(e.message);
    throw e;
  }
  const fields: FieldRequirement[] = [];
  const fieldText = query.get('fieldSelector') ?? '';
  for (const term of fieldText ? fieldText.split(',') : []) {
    const m = /^([^!=]+)(==|!=|=)(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${fieldText}'; can't understand '${term}'`);
    const field = m[1]!.trim();
    const get = META[field] ?? FIELDS[kind]?.[field];
    // The registry's GetAttrs knows only its selectable fields (pkg/registry/generic/registry/store.go: field label not supported).
    if (!get) throw badRequest(`field label not supported: ${field}`);
    fields.push({ field, value: m[3]!.trim(), equal: m[2] !== '!=', get });
  }
  return { labels, fields };
}

/** matches tells whether an object passes the filter. */
export function matches(filter: ListFilter, obj: KubeObject): boolean {
  if (filter.labels && !selectorMatches(filter.labels, obj.metadata?.labels)) return false;
  return filter.fields.every((f) => (f.get(obj) === f.value) === f.equal);
}
