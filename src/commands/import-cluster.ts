// Import Cluster from Current kubectl Context: `kubectl get ... -o yaml` of the objects the simulation reads, turned
// into a cluster file. No credential is asked for, written or logged: Secrets are never fetched, kubeconfig is never
// read here (kubectl reads it), environment values and credential-like flags (`--password=...`) in pods are
// redacted, and only the first line of kubectl's error is shown. Pure but for the process runner, which the caller gives.
import { parseAllDocuments, stringify } from 'yaml';

/** IMPORTED_RESOURCES are the kinds a cluster file holds (see DESIGN: Inputs), as kubectl names them. */
export const IMPORTED_RESOURCES = [
  'namespaces', 'nodes', 'serviceaccounts', 'roles.rbac.authorization.k8s.io', 'clusterroles.rbac.authorization.k8s.io',
  'rolebindings.rbac.authorization.k8s.io', 'clusterrolebindings.rbac.authorization.k8s.io', 'resourcequotas', 'limitranges',
  'priorityclasses.scheduling.k8s.io', 'runtimeclasses.node.k8s.io', 'services', 'persistentvolumes', 'persistentvolumeclaims',
  'storageclasses.storage.k8s.io', 'pods',
];

/** RunResult is what a finished process gave back. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runner runs kubectl with arguments (no shell). */
export type Runner = (args: string[]) => Promise<RunResult>;

/** kubectlArgs is the one `kubectl get` that reads everything, across namespaces. */
export function kubectlArgs(context?: string): string[] {
  return ['get', IMPORTED_RESOURCES.join(','), '--all-namespaces', '-o', 'yaml', ...(context ? ['--context', context] : [])];
}

/** ImportResult is the cluster file's text and what it holds, by kind. */
export interface ImportResult {
  yaml: string;
  counts: Record<string, number>;
}

/** ImportError is a failure with a message safe to show. */
export class ImportError extends Error {}

/** REDACTED stands in for a value that may be a credential. */
export const REDACTED = '<redacted by Pod Lifecycle Debugger>';

/** ANNOTATIONS_DROPPED may carry whole manifests, secrets included. */
const ANNOTATIONS_DROPPED = ['kubectl.kubernetes.io/last-applied-configuration'];

/** sanitizeObject removes what the server alone writes and whatever may be a credential. */
export function sanitizeObject(obj: Record<string, unknown>): Record<string, unknown> | undefined {
  const kind = obj['kind'];
  if (kind === 'Secret' || typeof kind !== 'string') return undefined;
  const copy = structuredClone(obj);
  const meta = copy['metadata'] as Record<string, unknown> | undefined;
  if (meta) {
    delete meta['managedFields'];
    const annotations = meta['annotations'] as Record<string, string> | undefined;
    if (annotations) {
      for (const a of ANNOTATIONS_DROPPED) delete annotations[a];
      if (Object.keys(annotations).length === 0) delete meta['annotations'];
    }
  }
  if (kind === 'ServiceAccount') delete copy['secrets'];
  if (kind === 'Pod') redactEnv(copy['spec'] as Record<string, unknown> | undefined);
  return copy;
}

/** SECRET_FLAG matches a command-line flag whose value may be a credential: `--password`, `-db-token`, `--api-key`. */
const SECRET_FLAG = /^(--?[\w.-]*(?:pass(?:word|wd)?|secret|token|api[-_]?key|credential|auth)[\w.-]*)(=.*)?$/i;

function redactEnv(spec: Record<string, unknown> | undefined): void {
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of (spec?.[list] as { env?: { value?: string }[]; command?: unknown; args?: unknown }[] | undefined) ?? []) {
      for (const e of c.env ?? []) if (e.value !== undefined) e.value = REDACTED;
      if (Array.isArray(c.command)) c.command = redactFlags(c.command);
      if (Array.isArray(c.args)) c.args = redactFlags(c.args);
    }
  }
}

/** redactFlags redacts the value of each credential-like flag, written `--password=x` or `--password x`. */
function redactFlags(words: unknown[]): unknown[] {
  const out = [...words];
  for (let i = 0; i < out.length; i++) {
    const m = typeof out[i] === 'string' ? SECRET_FLAG.exec(out[i] as string) : null;
    if (!m) continue;
    if (m[2] !== undefined) out[i] = `${m[1]}=${REDACTED}`;
    else if (typeof out[i + 1] === 'string' && !(out[i + 1] as string).startsWith('-')) out[++i] = REDACTED;
  }
  return out;
}

/** commentText writes a value into a YAML comment: quoted and escaped, so no line break (YAML 1.1's included) ends it. */
function commentText(value: string): string {
  return JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** toClusterFile turns kubectl's `-o yaml` (a List) into the cluster file's text. */
export function toClusterFile(kubectlYaml: string, context: string, now: Date): ImportResult {
  const docs = parseAllDocuments(kubectlYaml);
  const items: Record<string, unknown>[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new ImportError(`kubectl's output is not YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
    const value = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown> | null;
    if (!value) continue;
    const list = value['kind'] === 'List' && Array.isArray(value['items']) ? (value['items'] as Record<string, unknown>[]) : [value];
    for (const item of list) items.push(item);
  }
  const counts: Record<string, number> = {};
  const kept: Record<string, unknown>[] = [];
  for (const item of items) {
    const clean = sanitizeObject(item);
    if (!clean) continue;
    counts[clean['kind'] as string] = (counts[clean['kind'] as string] ?? 0) + 1;
    kept.push(clean);
  }
  if (kept.length === 0) throw new ImportError('kubectl returned no objects.');
  const header = [
    `# Imported from kubectl context ${commentText(context)} on ${now.toISOString()} by Pod Lifecycle Debugger.`,
    '# Secrets are not imported; environment values and credential-like flags of pods are redacted.',
  ].join('\n');
  return { yaml: `${header}\n${stringify({ apiVersion: 'v1', kind: 'List', items: kept }, { lineWidth: 0 })}`, counts };
}

/** importCluster asks kubectl for the current (or given) context, then reads its objects. */
export async function importCluster(run: Runner, context: string | undefined, now: Date): Promise<ImportResult & { context: string }> {
  const current = context ?? (await currentContext(run));
  const result = await run(kubectlArgs(context));
  if (result.code !== 0) throw new ImportError(`kubectl get failed: ${firstLine(result.stderr) || `exit code ${result.code}`}`);
  return { ...toClusterFile(result.stdout, current, now), context: current };
}

async function currentContext(run: Runner): Promise<string> {
  const result = await run(['config', 'current-context']);
  if (result.code !== 0) throw new ImportError(`kubectl has no current context: ${firstLine(result.stderr) || `exit code ${result.code}`}`);
  return result.stdout.trim();
}

function firstLine(s: string): string {
  return s.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
}
