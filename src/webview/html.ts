// The state tree page's HTML: a strict Content-Security-Policy with a nonce, no remote resources, the page's
// localized strings as inert JSON. Pure, so the browser tests load the same page the extension shows.

/** PageOptions are what the host gives the page: where its script and style live, and its words. */
export interface PageOptions {
  /** cspSource is the webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  strings: Record<string, string>;
  lang?: string;
}

/** PAGE_STRINGS are the page's own English strings by key; the extension localizes each one. */
export const PAGE_STRINGS: Record<string, string> = {
  empty: 'Start a Pod Lifecycle debug session to see the cluster\'s state here.',
  at: 'Virtual time {0}s',
  workloads: 'Workloads',
  noWorkloads: 'No workload objects yet.',
  treeItem: '{0} {1}: {2}',
  nodes: 'Nodes',
  ready: 'Ready',
  notReady: 'NotReady',
  resource: '{0}: {1} requested of {2} allocatable',
  taints: 'Taints:',
  pods: 'Pods:',
  none: 'none',
  decision: 'Scheduler: {0} for {1}',
  decisionCaption: '{0} plugins by node for {1}',
  plugin: 'Plugin',
  total: 'Total',
  watches: 'Watches',
  watchResourceVersion: 'resourceVersion {0}, timeoutSeconds {1}',
  quietWatches: '{0} more with no event since they opened',
  quietPrograms: '{0} more programs whose watches have had no event since they opened',
  timeline: 'Timeline',
  goto: 'Go to {0} at {1}s',
};

/** escapeHtml makes a string safe inside HTML text or a quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** jsonForScript embeds JSON in a <script> element: `<`, `>`, `&` and the line separators cannot end or break it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** renderPage is the page's whole HTML. */
export function renderPage(o: PageOptions): string {
  const csp = [
    "default-src 'none'",
    `style-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(o.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<main id="root" aria-label="${escapeHtml(o.title)}"></main>
<script nonce="${escapeHtml(o.nonce)}" id="strings" type="application/json">${jsonForScript(o.strings)}</script>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}
