// What a YAML file is to the extension: a Kubernetes manifest (the Debug and Run buttons, F5 and the breakpoints are
// for it), an input of a run that is not a manifest (a Behavior, a ClusterProfile, a scheduler or admission
// configuration), or another YAML file (a CI workflow, a compose file), which the debugger leaves alone. The server
// tells the client as a file's kind changes (protocol.ts); the client turns it into context keys (see src/manifests.ts).
import { splitSections } from './documents';
import type { DocumentKind } from './protocol';

/**
 * KUBERNETES_API_VERSION matches the apiVersion of a built-in Kubernetes API: the core group's `v1`, the groups
 * without a domain (apps, batch, policy, autoscaling, extensions) and the `*.k8s.io` groups, at any version.
 * See k8s.io/api at v0.36.3: every group it defines is one of these.
 */
const KUBERNETES_API_VERSION = /^(?:v1|(?:apps|batch|policy|autoscaling|extensions|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.k8s\.io)\/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)$/;

/** INPUT_API_VERSION matches the documents a run reads that are not objects of the API: its own kinds and config files. */
const INPUT_API_VERSION = /^(?:podlifecycle\.debug\/|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.config\.k8s\.io\/)/;

/** TOP_KEY reads a top-level `apiVersion:` or `kind:` line; no parse is needed to know a document's kind. */
const TOP_KEY = /^(apiVersion|kind):[ \t]*["']?([^"'#\s]*)/gm;

/** sectionKind is what one `---` section declares. */
function sectionKind(text: string): DocumentKind {
  let apiVersion = '';
  let kind = '';
  for (const m of text.matchAll(TOP_KEY)) {
    if (m[1] === 'apiVersion') apiVersion = m[2] ?? '';
    else kind = m[2] ?? '';
  }
  if (!apiVersion || !kind) return 'other';
  if (INPUT_API_VERSION.test(apiVersion)) return 'input';
  return KUBERNETES_API_VERSION.test(apiVersion) ? 'manifest' : 'other';
}

/** documentKind is a file's kind: a manifest when one of its documents is a Kubernetes object, else an input, else other. */
export function documentKind(text: string): DocumentKind {
  let kind: DocumentKind = 'other';
  for (const section of splitSections(text)) {
    const found = sectionKind(section.text);
    if (found === 'manifest') return 'manifest';
    if (found === 'input') kind = 'input';
  }
  return kind;
}
