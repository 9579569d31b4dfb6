// A run that starts from a kubectl command line: the command read, what it generated written out as kubectl prints it
// (`--dry-run=client -o yaml`) so the run can point at its fields, or its -f files read; then the run's other inputs.
import { type IdentitySpec, loadRunFiles, readInput } from '../../cluster/files';
import { InputError, type SimulationInputs } from '../../cluster/inputs';
import type { ReadFile } from '../../cluster/kubeconfig';
import { parseDocuments } from '../../cluster/loader';
import { sortDocument } from '../../cluster/own-kinds';
import { Random } from '../../runtime/random';
import { GENERATED_FILE, type KubectlCommand } from './common';

export { GENERATED_FILE } from './common';

export type { KubectlInvocation } from './common';
import { parseKubectl, quoteCommandLine } from './commands';
import { withMetaNamespace } from './params';
import { printObject } from './print';


/** KubectlNotSimulated is a kubectl command line the engine does not run: the front says so (unusable input, exit 2). */
export class KubectlNotSimulated extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubectlNotSimulated';
  }
}

/** KubectlRunFiles are a run's files besides the command: clusters, behavior, identity. */
export interface KubectlRunFiles {
  clusters: string[];
  behavior?: string;
  identity: IdentitySpec;
}

/** kubectlCommandLine is the kubectl command line a run starts from (`kubectl run web --image=nginx:1.27`), if any. */
export function kubectlCommandLine(inputs: SimulationInputs): string | undefined {
  const k = inputs.kubectl;
  return k === undefined ? undefined : 'command' in k ? k.command.line : k.refused.line;
}

/**
 * KubectlLines are the shell lines a report shows for a run from a kubectl command line: the command, and the delete of
 * what it made when the run deletes it (`kubectl delete -f FILE` for -f; otherwise named by what kubectl deleted).
 */
export interface KubectlLines {
  line: string;
  deleteLine?: string;
}

/** kubectlLines are the report's shell lines of a run from a kubectl command line, if it is one. */
export function kubectlLines(inputs: SimulationInputs): KubectlLines | undefined {
  const line = kubectlCommandLine(inputs);
  if (line === undefined) return undefined;
  const files = inputs.kubectl && 'command' in inputs.kubectl ? inputs.kubectl.command.files : [];
  return files.length > 0 ? { line, deleteLine: quoteCommandLine(['kubectl', 'delete', ...files.flatMap((f) => ['-f', f])]) } : { line };
}

/** generatedManifest is the YAML of what the run's kubectl command generated, if it generated anything. */
export function generatedManifest(inputs: SimulationInputs): string | undefined {
  const k = inputs.kubectl;
  return k && 'command' in k ? k.generated : undefined;
}

/**
 * loadKubectlRun reads a run that starts from `kubectl ARGS...`: kubectl's refusal becomes the run's first step, a
 * generated object its manifest, -f files are read as MANIFEST is. Throws KubectlNotSimulated for what the engine
 * does not run, InputError for unreadable files. `seed` draws kubectl's random suffixes (sanitizeAndUniquify).
 */
export function loadKubectlRun(argv: readonly string[], files: KubectlRunFiles, read: ReadFile, seed = 1): SimulationInputs {
  const random = new Random(seed);
  const parsed = parseKubectl(argv, { defaultNamespace: 'default', randomString: (n) => random.string(n) });
  if (!parsed.ok && 'notSimulated' in parsed) throw new KubectlNotSimulated(parsed.notSimulated);
  if (!parsed.ok) {
    const inputs = loadWith(GENERATED_FILE, '', files, read);
    const { printed, reason, warnings } = parsed.refused;
    return { ...inputs, manifest: [], kubectl: { refused: { printed, reason, path: parsed.path, line: parsed.line, warnings } } };
  }
  const command = parsed.command;
  if (command.files.length === 0) {
    // The document is what `--dry-run=client -o yaml` prints (the namespace -n gives included), so fields have lines.
    const generated = command.objects.map((o, i) => printObject(withNamespace(o, command), 'yaml', '', i)).join('\n') + '\n';
    const inputs = loadWith(GENERATED_FILE, generated, files, read);
    return { ...inputs, kubectl: { command, generated } };
  }
  const [first, ...more] = command.files;
  const inputs = loadRunFiles({ manifest: first!, clusters: files.clusters, identity: files.identity, ...(files.behavior ? { behavior: files.behavior } : {}) }, read);
  for (const file of more) {
    const input = readInput(file, read);
    for (const doc of parseDocuments(input.text, input.file)) {
      if (sortDocument(doc) !== 'object') throw new InputError(doc.file, doc.range.start.line + 1, 'a Behavior or ClusterProfile goes in the first -f file, a cluster file or --behavior');
      inputs.manifest.push(doc);
    }
  }
  return { ...inputs, kubectl: { command } };
}

/** withNamespace is an object as kubectl names it: in -n's namespace when given (run sets it only on what it prints). */
function withNamespace(obj: KubectlCommand['objects'][number], command: KubectlCommand): KubectlCommand['objects'][number] {
  if (!command.enforceNamespace || obj.metadata?.namespace) return obj;
  return withMetaNamespace(obj, command.namespace);
}

function loadWith(file: string, text: string, files: KubectlRunFiles, read: ReadFile): SimulationInputs {
  return loadRunFiles(
    { manifest: file, clusters: files.clusters, identity: files.identity, ...(files.behavior ? { behavior: files.behavior } : {}) },
    (path) => (path === file ? text : read(path)),
  );
}
