// Reading a run's input files through an injected reader: the manifest, the clusters (or the embedded one), the behavior and the identity.
import { refOf } from '../api/types';
import { DEFAULT_CLUSTER_FILE, DEFAULT_CLUSTER_YAML } from './default-cluster';
import { type Identity, InputError, type SimulationInputs, type SourceDocument } from './inputs';
import { identityFromKubeconfig, type ReadFile } from './kubeconfig';
import { type InputFile, loadInputs, parseDocuments } from './loader';

/** IdentitySpec is the identity as the user asked for it on the command line or in launch.json. */
export type IdentitySpec =
  | { kind: 'default' }
  | { kind: 'kubeconfig'; file: string; context?: string }
  | { kind: 'token'; token: string }
  | { kind: 'anonymous' }
  | { kind: 'impersonate'; user: string; groups: string[] };

/** RunFiles names the files of a run. */
export interface RunFiles {
  manifest: string;
  clusters: string[];
  behavior?: string;
  identity: IdentitySpec;
}

/**
 * API_SERVER_BOOTSTRAP_KINDS are what kube-apiserver and kubeadm put in every cluster: the system
 * namespaces, the bootstrap RBAC policy, the system PriorityClasses, the root CA ConfigMaps and the
 * `kubernetes` Service. A cluster file that lacks them still has them, unless it defines its own.
 */
const API_SERVER_BOOTSTRAP_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'PriorityClass', 'ConfigMap', 'Service']);

/** readInput reads one file; an unreadable one is an InputError at line 1. */
export function readInput(path: string, read: ReadFile): InputFile {
  try {
    return { file: path, text: read(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new InputError(path, 1, `cannot read the file: ${why}`);
  }
}

/** loadRunFiles reads and parses everything a run needs. Errors are InputErrors naming file and line. */
export function loadRunFiles(files: RunFiles, read: ReadFile): SimulationInputs {
  return loadWith(readInput(files.manifest, read), files, read);
}

/** loadClusterFiles reads the clusters and the behavior of a live cluster (serve): no manifest, the default identity. */
export function loadClusterFiles(files: Pick<RunFiles, 'clusters' | 'behavior'>, read: ReadFile): SimulationInputs {
  return loadWith({ file: '', text: '' }, { ...files, identity: { kind: 'default' } }, read);
}

function loadWith(manifest: InputFile, files: Omit<RunFiles, 'manifest'>, read: ReadFile): SimulationInputs {
  const clusters = files.clusters.map((f) => readInput(f, read));
  const behavior = files.behavior ? readInput(files.behavior, read) : undefined;
  const identity = resolveIdentity(files.identity, read);
  const inputs = loadInputs({ manifest, clusters, ...(behavior ? { behavior } : {}), identity });
  const own = new Set(inputs.cluster.objects.map((d) => refOf(d.object)));
  const base = clusters.length ? embeddedCluster().filter((d) => API_SERVER_BOOTSTRAP_KINDS.has(String(d.object.kind)) && !own.has(refOf(d.object))) : embeddedCluster();
  inputs.cluster.objects.unshift(...base);
  return inputs;
}

let embedded: SourceDocument[] | undefined;

/** embeddedCluster parses the embedded default cluster once; its documents are only read, never changed. */
export function embeddedCluster(): SourceDocument[] {
  // The fast reader of the plain subset reads it, with the same ranges as the full reader would give, when it can.
  embedded ??= parseDocuments(DEFAULT_CLUSTER_YAML, DEFAULT_CLUSTER_FILE, { eagerRanges: true, lazyRanges: true });
  return embedded;
}

function resolveIdentity(spec: IdentitySpec, read: ReadFile): Identity {
  if (spec.kind !== 'kubeconfig') return spec;
  const file = readInput(spec.file, read);
  return identityFromKubeconfig(file.file, file.text, spec.context, read);
}
