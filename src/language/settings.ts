// The language server's settings (`podLifecycle.*` in VS Code): the cluster to check against, and a switch per rule.

/** RULES names every diagnostic rule that can be switched off, as the settings and the diagnostics' `code` name them. */
export const RULES = {
  /** syntax: the file is not YAML the loader can read. */
  syntax: 'syntax',
  /** decode: kube-apiserver cannot decode the object (unknown field, wrong type). */
  decode: 'decode',
  /** validation: kube-apiserver's validation refuses the object. */
  validation: 'validation',
  /** admission: an admission plugin, authorization or the namespace of the cluster refuses the object. */
  admission: 'admission',
  /** scheduling: kube-scheduler finds no node for the pod in the cluster. */
  scheduling: 'scheduling',
  /** controllers: a controller cannot create the pods of a workload in the cluster. */
  controllers: 'controllers',
  /** noResources: a container without resource requests or limits. */
  noResources: 'hint.noResources',
  /** latestTag: an image with the `:latest` tag or none. */
  latestTag: 'hint.latestTag',
  /** noProbes: a long-running container without readiness or liveness probe. */
  noProbes: 'hint.noProbes',
} as const;

/** Rule is the name of one switchable rule. */
export type Rule = (typeof RULES)[keyof typeof RULES];

/** Settings are the server's settings: cluster files (none: the embedded cluster) and the rules switched on. */
export interface Settings {
  readonly cluster: readonly string[];
  readonly rules: Readonly<Record<Rule, boolean>>;
}

/** DEFAULT_SETTINGS: the embedded cluster, every rule on. */
export const DEFAULT_SETTINGS: Settings = {
  cluster: [],
  rules: Object.fromEntries(Object.values(RULES).map((rule) => [rule, true])) as Record<Rule, boolean>,
};

/**
 * readSettings reads the `podLifecycle` section as the client sends it: `cluster` (a file or a list of files) and
 * `diagnostics.<rule>` booleans (`diagnostics.hint.latestTag`); anything else keeps its default.
 */
export function readSettings(section: unknown): Settings {
  if (typeof section !== 'object' || section === null) return DEFAULT_SETTINGS;
  const s = section as { cluster?: unknown; diagnostics?: unknown };
  const cluster = typeof s.cluster === 'string' ? [s.cluster] : Array.isArray(s.cluster) ? s.cluster.filter((f): f is string => typeof f === 'string') : [];
  const rules = { ...DEFAULT_SETTINGS.rules };
  const switches = typeof s.diagnostics === 'object' && s.diagnostics !== null ? (s.diagnostics as Record<string, unknown>) : {};
  for (const rule of Object.values(RULES)) {
    const [head, tail] = rule.split('.');
    const value = tail ? (switches[head ?? ''] as Record<string, unknown> | undefined)?.[tail] ?? switches[rule] : switches[rule];
    if (typeof value === 'boolean') rules[rule] = value;
  }
  return { cluster: cluster.filter((f) => f.trim() !== ''), rules };
}
