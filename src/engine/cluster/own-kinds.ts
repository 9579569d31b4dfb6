// The kinds that are not API objects: which documents are ours or component config, and the schema checks of our own
// Behavior (field types, unknown fields with the nearest valid name, merging); the ClusterProfile's are profile-doc.ts.
import { appendFieldPath } from '../api/fieldpath';
import { parseQuantity } from '../api/quantity';
import { INFORMER_COMPONENTS, OWN_API_VERSION, defaultBehavior } from './inputs';
import type { Behavior, ContainerBehavior, ImageBehavior, LogLine, SourceDocument, WebhookBehavior } from './inputs';
import { Checker, compact, guard, type Fields } from './checker';
import { POD_METRICS_FIELDS, readCustomMetrics, readExternalMetrics, readPodMetrics } from './behavior-metrics';

export { describeValue } from './checker';
export { parseClusterProfile } from './profile-doc';

const BEHAVIOR_FIELDS = ['apiVersion', 'kind', 'metadata', 'images', 'containers', 'nodes', 'volumes', 'finalizers', 'webhooks', 'metrics', 'metricsServer', 'customMetrics', 'externalMetrics', 'informers'];
const WEBHOOK_FIELDS = ['allowed', 'code', 'message', 'patch', 'warnings', 'delaySeconds', 'unreachable'];
const IMAGE_FIELDS = ['size', 'pullSeconds', 'exists', 'pullSecret'];
const CONTAINER_FIELDS = [
  'startSeconds', 'exitAfterSeconds', 'exitCode', 'readyAfterSeconds', 'livenessFailsAfterSeconds', 'probeResponseSeconds',
  'postStartSeconds', 'postStartFails', 'preStopSeconds', 'preStopFails', 'sigtermSeconds', 'logs',
];
/** Why: the modes of pkg/kubeapiserver/authorizer/modes (AuthorizationModeChoices). */
const OBJECT_REF = /^[A-Za-z][A-Za-z0-9]*\/([^/\s]+\/)?[^/\s]+$/;
const OWN_GROUP = OWN_API_VERSION.split('/')[0] ?? '';

/**
 * CONFIG_KINDS are the component config kinds read into cluster.config, with the versions Kubernetes 1.36 registers.
 * Why: pkg/scheduler/apis/config/scheme, staging/src/k8s.io/apiserver/pkg/apis/apiserver (v1, v1alpha1),
 * staging/src/k8s.io/pod-security-admission/admission/api/scheme.
 */
const CONFIG_KINDS: Record<string, { group: string; versions: string[] }> = {
  KubeSchedulerConfiguration: { group: 'kubescheduler.config.k8s.io', versions: ['v1'] },
  AdmissionConfiguration: { group: 'apiserver.config.k8s.io', versions: ['v1', 'v1alpha1'] },
  PodSecurityConfiguration: { group: 'pod-security.admission.config.k8s.io', versions: ['v1', 'v1beta1', 'v1alpha1'] },
};

/** DocumentSort says where a document belongs: an API object, a component config, or one of our own kinds. */
export type DocumentSort = 'object' | 'config' | 'profile' | 'behavior';

/**
 * sortDocument tells where a document belongs; an unknown kind of our own group, or a config kind in a
 * version Kubernetes does not register, is an error at its line. Other `*.config.k8s.io` kinds are config.
 */
export function sortDocument(doc: SourceDocument): DocumentSort {
  const c = new Checker(doc);
  const apiVersion = doc.object.apiVersion ?? '';
  const kind = doc.object.kind ?? '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const config = CONFIG_KINDS[kind];
  // Why: runtime.notRegisteredErr (staging/src/k8s.io/apimachinery/pkg/runtime/error.go) is what a decoder says here.
  const notRegistered = `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`;
  if (group === OWN_GROUP) {
    if (apiVersion !== OWN_API_VERSION) c.raise('apiVersion', `${notRegistered}; this version of the project reads ${OWN_API_VERSION}`);
    if (kind === 'Behavior') return 'behavior';
    if (kind === 'ClusterProfile') return 'profile';
    c.raise('kind', `${notRegistered}; the kinds of ${OWN_API_VERSION} are ClusterProfile and Behavior`);
  }
  if (config && group === config.group) {
    if (!config.versions.includes(version ?? '')) c.raise('apiVersion', notRegistered);
    return 'config';
  }
  return group?.endsWith('.config.k8s.io') ? 'config' : 'object';
}

/** parseBehavior checks and merges Behavior documents (later wins; finalizers accumulate); defaults stay unfilled. */
export function parseBehavior(docs: SourceDocument[]): Behavior {
  const behavior = defaultBehavior();
  for (const doc of docs) guard(doc, () => mergeBehavior(behavior, readBehavior(new Checker(doc))));
  return behavior;
}

/** readBehavior checks one Behavior document. */
function readBehavior(c: Checker): Behavior {
  const doc = c.doc.object as Fields;
  c.kind('Behavior');
  c.known('', doc, BEHAVIOR_FIELDS);
  c.mapping('metadata', doc['metadata']);
  return {
    images: c.named('images', doc['images'], IMAGE_FIELDS, (path, e) => readImage(c, path, e)) ?? {},
    containers: c.named('containers', doc['containers'], CONTAINER_FIELDS, (path, e) => readContainer(c, path, e)) ?? {},
    nodes: c.named('nodes', doc['nodes'], ['kubelet', 'downAfterSeconds'], (path, e) => {
      return compact({
        kubelet: c.oneOf(appendFieldPath(path, 'kubelet'), e['kubelet'], ['up', 'down'] as const),
        downAfterSeconds: c.seconds(appendFieldPath(path, 'downAfterSeconds'), e['downAfterSeconds']),
      });
    }) ?? {},
    volumes: c.named('volumes', doc['volumes'], ['unmountSeconds'], (path, e) => {
      return compact({ unmountSeconds: c.secondsOrNever(appendFieldPath(path, 'unmountSeconds'), e['unmountSeconds']) });
    }) ?? {},
    finalizers: readFinalizers(c, doc['finalizers']),
    webhooks: c.named('webhooks', doc['webhooks'], WEBHOOK_FIELDS, (path, e) => readWebhook(c, path, e)) ?? {},
    metrics: c.named('metrics', doc['metrics'], POD_METRICS_FIELDS, (path, e) => readPodMetrics(c, path, e)) ?? {},
    customMetrics: readCustomMetrics(c, doc['customMetrics']),
    externalMetrics: readExternalMetrics(c, doc['externalMetrics']),
    ...compact({ metricsServer: c.boolean('metricsServer', doc['metricsServer']) }),
    ...readInformers(c, doc['informers']),
  };
}

/** readInformers checks `informers`: per component (kube-scheduler, kube-controller-manager, kubelet, kube-proxy), a delaySeconds. */
function readInformers(c: Checker, value: unknown): Pick<Behavior, 'informers'> {
  const map = c.mapping('informers', value);
  if (!map) return {};
  c.known('informers', map, INFORMER_COMPONENTS);
  return { informers: c.named('informers', map, ['delaySeconds'], (path, e) => compact({ delaySeconds: c.seconds(appendFieldPath(path, 'delaySeconds'), e['delaySeconds']) })) ?? {} };
}

/** readWebhook checks one entry of `webhooks`: an admission webhook's answer. */
function readWebhook(c: Checker, path: string, e: Fields): WebhookBehavior {
  const at = (name: string): string => appendFieldPath(path, name);
  const code = e['code'];
  if (code !== undefined && (typeof code !== 'number' || !Number.isInteger(code) || code < 100 || code > 599)) c.expect(at('code'), 'an HTTP status code', code);
  const patch = e['patch'];
  if (patch !== undefined && !Array.isArray(patch)) c.expect(at('patch'), 'a sequence of JSONPatch operations', patch);
  return compact({
    allowed: c.boolean(at('allowed'), e['allowed']),
    code: code as number | undefined,
    message: c.string(at('message'), e['message']),
    patch: patch as unknown[] | undefined,
    warnings: c.strings(at('warnings'), e['warnings']),
    delaySeconds: c.seconds(at('delaySeconds'), e['delaySeconds']),
    unreachable: c.boolean(at('unreachable'), e['unreachable']),
  });
}

/** readImage checks one entry of `images`. */
function readImage(c: Checker, path: string, e: Fields): ImageBehavior {
  const at = (name: string): string => appendFieldPath(path, name);
  return compact({
    size: readSize(c, at('size'), e['size']),
    pullSeconds: c.seconds(at('pullSeconds'), e['pullSeconds']),
    exists: c.boolean(at('exists'), e['exists']),
    pullSecret: c.string(at('pullSecret'), e['pullSecret']),
  });
}

/** readSize reads an image size: bytes, or a quantity such as 72Mi (parsed as resource.Quantity does). */
function readSize(c: Checker, path: string, value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' && typeof value !== 'string') return c.expect(path, 'a quantity such as 72Mi, or a number of bytes', value);
  let bytes: number;
  try {
    bytes = parseQuantity(value).value();
  } catch (err) {
    return c.fail(path, `invalid quantity ${JSON.stringify(String(value))}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return bytes >= 0 ? bytes : c.expect(path, 'a non-negative size', value);
}

/** readContainer checks one entry of `containers`. */
function readContainer(c: Checker, path: string, e: Fields): ContainerBehavior {
  const at = (name: string): string => appendFieldPath(path, name);
  const exitCode = e['exitCode'];
  if (exitCode !== null && exitCode !== undefined && !(Number.isInteger(exitCode) && (exitCode as number) >= 0 && (exitCode as number) <= 255)) {
    c.expect(at('exitCode'), 'an integer from 0 to 255', exitCode);
  }
  return compact({
    startSeconds: c.seconds(at('startSeconds'), e['startSeconds']),
    exitAfterSeconds: c.seconds(at('exitAfterSeconds'), e['exitAfterSeconds']),
    exitCode: c.seconds(at('exitCode'), exitCode),
    readyAfterSeconds: c.seconds(at('readyAfterSeconds'), e['readyAfterSeconds']),
    livenessFailsAfterSeconds: c.seconds(at('livenessFailsAfterSeconds'), e['livenessFailsAfterSeconds']),
    probeResponseSeconds: c.seconds(at('probeResponseSeconds'), e['probeResponseSeconds']),
    postStartSeconds: c.seconds(at('postStartSeconds'), e['postStartSeconds']),
    postStartFails: c.boolean(at('postStartFails'), e['postStartFails']),
    preStopSeconds: c.seconds(at('preStopSeconds'), e['preStopSeconds']),
    preStopFails: c.boolean(at('preStopFails'), e['preStopFails']),
    sigtermSeconds: c.secondsOrNever(at('sigtermSeconds'), e['sigtermSeconds']),
    logs: readLogLines(c, at('logs'), e['logs']),
  });
}

/** readLogLines checks a container's `logs`: a sequence of `{at, line}`, `at` in seconds and not falling. */
function readLogLines(c: Checker, path: string, raw: unknown): LogLine[] | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!Array.isArray(raw)) return c.expect(path, 'a sequence of {at, line} log lines', raw);
  let last = 0;
  return raw.map((item: unknown, i) => {
    const itemPath = appendFieldPath(path, i);
    const entry = c.mapping(itemPath, item) ?? c.expect(itemPath, 'a mapping with at and line', item);
    c.known(itemPath, entry, ['at', 'line']);
    const when = c.seconds(appendFieldPath(itemPath, 'at'), entry['at']) ?? 0;
    if (when < last) c.fail(appendFieldPath(itemPath, 'at'), `log lines must be in order of at (${when} after ${last})`);
    last = when;
    const line = c.string(appendFieldPath(itemPath, 'line'), entry['line']) ?? c.expect(appendFieldPath(itemPath, 'line'), 'a string', entry['line']);
    return { at: when, line };
  });
}

/** readFinalizers checks the `Kind/namespace/name` (or `Kind/name`) references of `finalizers`. */
function readFinalizers(c: Checker, value: unknown): string[] {
  const refs = c.strings('finalizers', value) ?? [];
  refs.forEach((ref, i) => {
    if (!OBJECT_REF.test(ref)) c.expect(appendFieldPath('finalizers', i), 'Kind/namespace/name or Kind/name', ref);
  });
  return refs;
}

/** mergeBehavior lays one Behavior over another: entries merge field by field, finalizers accumulate. */
function mergeBehavior(into: Behavior, from: Behavior): void {
  if (from.informers) into.informers ??= {};
  for (const key of ['images', 'containers', 'nodes', 'volumes', 'webhooks', 'metrics', 'informers'] as const) {
    const target = (into[key] ?? {}) as Record<string, object>;
    for (const [name, entry] of Object.entries((from[key] ?? {}) as Record<string, object>)) {
      const value = { ...(target[name] ?? {}), ...entry };
      Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  // A metric's objects merge one by one; an external metric's series are replaced as a whole.
  for (const [name, byObject] of Object.entries(from.customMetrics)) {
    Object.defineProperty(into.customMetrics, name, { value: { ...(into.customMetrics[name] ?? {}), ...byObject }, enumerable: true, writable: true, configurable: true });
  }
  for (const [name, series] of Object.entries(from.externalMetrics)) {
    Object.defineProperty(into.externalMetrics, name, { value: series, enumerable: true, writable: true, configurable: true });
  }
  for (const ref of from.finalizers) if (!into.finalizers.includes(ref)) into.finalizers.push(ref);
  if (from.metricsServer !== undefined) into.metricsServer = from.metricsServer;
}
