// Snippets completion offers, by the type of the mapping the cursor is in: whole blocks people write again and again.

/** Snippet is one block: its label, a line on what it is, the key it adds and its body (LSP snippet syntax). */
export interface Snippet {
  readonly label: string;
  readonly detail: string;
  readonly key: string;
  readonly body: string;
}

/** CONTAINER_SNIPPET is a container with a name, an image, a port and resources. */
export const CONTAINER_SNIPPET: Snippet = {
  label: 'container', detail: 'A container with an image, a port and resources', key: '',
  body: 'name: ${1:app}\nimage: ${2:nginx:1.27}\nports:\n  - containerPort: ${3:80}\nresources:\n  requests:\n    cpu: ${4:100m}\n    memory: ${5:128Mi}\n  limits:\n    memory: ${5:128Mi}',
};

const probe = (key: string, what: string): Snippet => ({
  label: `${key} (httpGet)`, detail: what, key,
  body: `${key}:\n  httpGet:\n    path: \${1:/healthz}\n    port: \${2:80}\n  initialDelaySeconds: \${3:5}\n  periodSeconds: \${4:10}`,
});

/** SNIPPETS_BY_TYPE lists the snippets offered inside a mapping of each type. */
export const SNIPPETS_BY_TYPE: Readonly<Record<string, readonly Snippet[]>> = {
  'core.v1.Container': [
    probe('readinessProbe', 'Ready only once GET /healthz answers'),
    probe('livenessProbe', 'Restart the container when GET /healthz stops answering'),
    { label: 'startupProbe (httpGet)', detail: 'Hold the other probes until the application has started', key: 'startupProbe', body: 'startupProbe:\n  httpGet:\n    path: ${1:/healthz}\n    port: ${2:80}\n  failureThreshold: ${3:30}\n  periodSeconds: ${4:10}' },
    { label: 'resources', detail: 'Requests the scheduler reserves, limits the kubelet enforces', key: 'resources', body: 'resources:\n  requests:\n    cpu: ${1:100m}\n    memory: ${2:128Mi}\n  limits:\n    memory: ${2:128Mi}' },
    { label: 'lifecycle hooks', detail: 'postStart after the start, preStop before SIGTERM', key: 'lifecycle', body: 'lifecycle:\n  postStart:\n    exec:\n      command: ["${1:sh}", "-c", "${2:echo started}"]\n  preStop:\n    exec:\n      command: ["${3:sh}", "-c", "${4:sleep 5}"]' },
    { label: 'securityContext (restricted)', detail: 'What the restricted Pod Security Standard requires', key: 'securityContext', body: 'securityContext:\n  allowPrivilegeEscalation: false\n  capabilities:\n    drop: ["ALL"]\n  runAsNonRoot: true\n  seccompProfile:\n    type: RuntimeDefault' },
  ],
  'core.v1.PodSpec': [
    { label: 'containers (one container)', detail: 'The containers list with one container', key: 'containers', body: `containers:\n  - ${CONTAINER_SNIPPET.body.replace(/\n/g, '\n    ')}` },
    { label: 'tolerations', detail: 'Tolerate a taint so the pod may run on its nodes', key: 'tolerations', body: 'tolerations:\n  - key: ${1:node-role.kubernetes.io/control-plane}\n    operator: ${2|Exists,Equal|}\n    effect: ${3|NoSchedule,PreferNoSchedule,NoExecute|}' },
    { label: 'affinity (node affinity)', detail: 'Run only on nodes with a label', key: 'affinity', body: 'affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n        - matchExpressions:\n            - key: ${1:kubernetes.io/os}\n              operator: ${2|In,NotIn,Exists,DoesNotExist,Gt,Lt|}\n              values: ["${3:linux}"]' },
    { label: 'affinity (pod anti-affinity)', detail: 'Spread the replicas over nodes', key: 'affinity', body: 'affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: ${1:100}\n        podAffinityTerm:\n          topologyKey: ${2:kubernetes.io/hostname}\n          labelSelector:\n            matchLabels:\n              ${3:app}: ${4:web}' },
  ],
};
