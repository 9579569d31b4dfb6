// Tests of the project's own kinds: ClusterProfile checks and merging, Behavior parsing, merging and its
// type errors, each with the exact file:line: problem text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Behavior, SourceDocument } from '../../../src/engine/cluster/inputs';
import { parseBehavior, parseClusterProfile, parseDocuments } from '../../../src/engine/cluster/loader';
import { inputError } from './input-error';


/** profileDoc parses one ClusterProfile body as a document. */
function profileDoc(body: string): SourceDocument {
  const [doc] = parseDocuments(`apiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\n${body}`, 'p.yaml');
  assert.ok(doc);
  return doc;
}

const profileErrors: { name: string; body: string; want: string }[] = [
  { name: 'A string for a boolean', body: 'authentication:\n  anonymous: "yes please"\n', want: 'p.yaml:4: authentication.anonymous: expected a boolean, got string "yes please"' },
  { name: 'A misspelt section', body: 'admision: {enable: []}\n', want: 'p.yaml:3: unknown field "admision" (did you mean "admission"?)' },
  { name: 'An unknown field with no near name', body: 'authentication:\n  oidc: {}\n', want: 'p.yaml:4: authentication: unknown field "oidc"' },
  { name: 'A token without a user', body: 'authentication:\n  tokens:\n    - token: abc\n', want: 'p.yaml:5: authentication.tokens[0].user: Required value' },
  { name: 'A numeric uid', body: 'authentication:\n  tokens: [{token: abc, user: bob, uid: 1001}]\n', want: 'p.yaml:4: authentication.tokens[0].uid: expected a string, got number 1001' },
  { name: 'A client CA that is no PEM', body: 'authentication:\n  clientCA: hello\n', want: 'p.yaml:4: authentication.clientCA: data does not contain any valid RSA or ECDSA certificates' },
  { name: 'An unknown authorization mode', body: 'authorization:\n  modes: [Node, Magic]\n', want: 'p.yaml:4: authorization.modes[1]: authorization-mode "Magic" is not a valid mode' },
  { name: 'No authorization mode', body: 'authorization:\n  modes: []\n', want: 'p.yaml:4: authorization.modes: at least one authorization-mode must be passed' },
  { name: 'A repeated mode', body: 'authorization:\n  modes: [RBAC, RBAC]\n', want: 'p.yaml:4: authorization.modes: authorization-mode ["RBAC" "RBAC"] has mode specified more than once' },
  { name: 'Webhook mode with no webhook config', body: 'authorization:\n  modes: [Webhook]\n', want: "p.yaml:4: authorization.modes: authorization-mode Webhook's authorization config file not passed" },
  { name: 'ABAC policies without the ABAC mode', body: 'authorization:\n  abac: [{spec: {user: bob}}]\n', want: 'p.yaml:4: authorization.abac: cannot specify --authorization-policy-file without mode ABAC' },
  { name: 'An ABAC line that is no JSON', body: 'authorization:\n  modes: [ABAC]\n  abac: ["{bad"]\n', want: 'p.yaml:5: authorization.abac[0]: expected a policy mapping or a JSON line, got string "{bad"' },
  { name: 'A plugin both enabled and disabled', body: 'admission:\n  enable: [B, A]\n  disable: [A, B]\n', want: 'p.yaml:4: admission: [A B] in enable-admission-plugins and disable-admission-plugins overlapped' },
  { name: 'A mapping where a list belongs', body: 'admission:\n  enable: {a: 1}\n', want: 'p.yaml:4: admission.enable: expected a sequence of strings, got a mapping' },
  { name: 'A QPS that is no number', body: 'controllerManager:\n  kubeAPIQPS: fast\n', want: 'p.yaml:4: controllerManager.kubeAPIQPS: expected a number, got string "fast"' },
  { name: 'A burst that is no int32', body: 'controllerManager:\n  kubeAPIBurst: 2.5\n', want: 'p.yaml:4: controllerManager.kubeAPIBurst: expected a whole number (int32), got number 2.5' },
  { name: 'A misspelt flag', body: 'controllerManager:\n  kubeApiQps: 50\n', want: 'p.yaml:4: controllerManager: unknown field "kubeApiQps" (did you mean "kubeAPIQPS"?)' },
  // client-go's clientset refuses a QPS without a burst; with a QPS of 0, a burst below 0 refuses every request.
  { name: 'A QPS without a burst', body: 'controllerManager:\n  kubeAPIQPS: 50\n  kubeAPIBurst: 0\n', want: 'p.yaml:5: controllerManager.kubeAPIBurst: burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0' },
  { name: 'A burst below 0 at QPS 0', body: 'controllerManager:\n  kubeAPIQPS: 0\n  kubeAPIBurst: -1\n', want: 'p.yaml:5: controllerManager.kubeAPIBurst: every request of the controllers\' clients would fail: rate: Wait(n=1) exceeds limiter\'s burst -1' },
];

for (const { name, body, want } of profileErrors) {
  test(`ClusterProfile: ${name} is refused`, () => assert.equal(inputError(() => parseClusterProfile(profileDoc(body))).message, want));
}

test('ClusterProfile: ABAC lines may be mappings or JSON text', () => {
  const line = '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "bob"}}';
  const profile = parseClusterProfile(profileDoc(`authorization:\n  modes: [ABAC]\n  abac:\n    - {spec: {user: alice}}\n    - '${line}'\n`));
  assert.deepEqual(profile.authorization.abac, [{ spec: { user: 'alice' } }, JSON.parse(line)]);
});

const managerFlags: { name: string; bodies: string[]; want: unknown }[] = [
  { name: 'unset: none in the profile (the engine uses the manager\'s defaults, 20 and 30)', bodies: ['admission: {enable: []}\n'], want: undefined },
  { name: 'one flag set: the other is the default', bodies: ['controllerManager:\n  kubeAPIQPS: 100\n'], want: { kubeAPIQPS: 100, kubeAPIBurst: 30 } },
  { name: 'a later document sets the other', bodies: ['controllerManager:\n  kubeAPIQPS: 100\n', 'controllerManager:\n  kubeAPIBurst: 200\n'], want: { kubeAPIQPS: 100, kubeAPIBurst: 200 } },
  { name: 'below 0: no limit', bodies: ['controllerManager:\n  kubeAPIQPS: -1\n'], want: { kubeAPIQPS: -1, kubeAPIBurst: 30 } },
];
for (const c of managerFlags) {
  test(`ClusterProfile: kube-controller-manager's flags, ${c.name}`, () => {
    let profile = parseClusterProfile(profileDoc(c.bodies[0]!));
    for (const body of c.bodies.slice(1)) profile = parseClusterProfile(profileDoc(body), profile);
    assert.deepEqual(profile.controllerManager, c.want);
  });
}

/** behaviorDocs parses Behavior bodies, one document each. */
function behaviorDocs(...bodies: string[]): SourceDocument[] {
  return bodies.flatMap((body) => parseDocuments(`apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n${body}`, 'b.yaml'));
}

test('Behavior: the design example parses as written', () => {
  const body = `images:
  "acme/missing:1.0": {exists: false}
  "registry.acme.io/app:2": {pullSecret: regcred, pullSeconds: 3}
containers:
  app:
    startSeconds: 1
    exitAfterSeconds: 5
    exitCode: 1
    readyAfterSeconds: 10
    livenessFailsAfterSeconds: 60
    probeResponseSeconds: 0.5
    postStartSeconds: 0
    postStartFails: false
    preStopSeconds: 20
    sigtermSeconds: never
  web/sidecar: {sigtermSeconds: 2.5}
nodes:
  worker-2: {kubelet: down}
volumes:
  data: {unmountSeconds: never}
finalizers:
  - Pod/default/web
  - Namespace/shop
metrics:
  "web-*":
    cpu: [{at: 0, value: 100m}, {at: 60, value: "1.5"}]
    memory: [{at: 0, value: 64Mi}]
`;
  const want: Behavior = {
    images: { 'acme/missing:1.0': { exists: false }, 'registry.acme.io/app:2': { pullSecret: 'regcred', pullSeconds: 3 } },
    containers: {
      app: {
        startSeconds: 1, exitAfterSeconds: 5, exitCode: 1, readyAfterSeconds: 10, livenessFailsAfterSeconds: 60, probeResponseSeconds: 0.5,
        postStartSeconds: 0, postStartFails: false, preStopSeconds: 20, sigtermSeconds: 'never',
      },
      'web/sidecar': { sigtermSeconds: 2.5 },
    },
    nodes: { 'worker-2': { kubelet: 'down' } },
    volumes: { data: { unmountSeconds: 'never' } },
    finalizers: ['Pod/default/web', 'Namespace/shop'],
    webhooks: {},
    metrics: { 'web-*': { cpu: [{ at: 0, value: 100 }, { at: 60, value: 1500 }], memory: [{ at: 0, value: 64 * 1024 * 1024 * 1000 }] } },
    customMetrics: {},
    externalMetrics: {},
  };
  assert.deepEqual(parseBehavior(behaviorDocs(body)), want);
});

test('Behavior: documents merge, later wins field by field and finalizers accumulate', () => {
  const behavior = parseBehavior(behaviorDocs(
    'images:\n  "nginx:1.27": {pullSeconds: 3, exists: true}\nfinalizers: [Pod/default/a]\n',
    'images:\n  "nginx:1.27": {pullSeconds: 5}\n  busybox:\nfinalizers: [Pod/default/b, Pod/default/a]\n',
  ));
  assert.deepEqual(behavior.images, { 'nginx:1.27': { pullSeconds: 5, exists: true }, busybox: {} });
  assert.deepEqual(behavior.finalizers, ['Pod/default/a', 'Pod/default/b']);
});

test('Behavior: no documents give the empty default', () => {
  assert.deepEqual(parseBehavior([]), { images: {}, containers: {}, nodes: {}, volumes: {}, finalizers: [], webhooks: {}, metrics: {}, customMetrics: {}, externalMetrics: {} });
});

test('Behavior: per-container, custom, object and external metrics parse into milli-units', () => {
  const body = `
metrics:
  "web-*":
    containers:
      app: {cpu: [{at: 0, value: 300m}]}
    pods:
      packets-per-second: [{at: 0, value: 3k}]
customMetrics:
  requests-per-second:
    Ingress/main-route: [{at: 5, value: "2"}]
externalMetrics:
  queue_length: [{at: 0, value: 12}]
  queue_messages_ready:
  - {labels: {queue: worker_tasks}, samples: [{at: 0, value: 30}]}
`;
  const b = parseBehavior(behaviorDocs(body));
  assert.deepEqual(b.metrics, { 'web-*': { containers: { app: { cpu: [{ at: 0, value: 300 }] } }, pods: { 'packets-per-second': [{ labels: {}, samples: [{ at: 0, value: 3_000_000 }] }] } } });
  assert.deepEqual(b.customMetrics, { 'requests-per-second': { 'Ingress/main-route': [{ labels: {}, samples: [{ at: 5, value: 2000 }] }] } });
  assert.deepEqual(b.externalMetrics, {
    queue_length: [{ labels: {}, samples: [{ at: 0, value: 12_000 }] }],
    queue_messages_ready: [{ labels: { queue: 'worker_tasks' }, samples: [{ at: 0, value: 30_000 }] }],
  });
});

test('Behavior: a custom pod or object metric may be a sequence of labelled series, as an external one', () => {
  const body = `
metrics:
  "web-*":
    pods:
      packets-per-second:
      - {labels: {direction: in}, samples: [{at: 0, value: 3k}]}
      - {labels: {direction: out}, samples: [{at: 0, value: 1k}]}
customMetrics:
  requests-per-second:
    Ingress/main-route:
    - {labels: {verb: GET}, samples: [{at: 0, value: 30k}]}
`;
  const b = parseBehavior(behaviorDocs(body));
  assert.deepEqual(b.metrics['web-*']?.pods, { 'packets-per-second': [
    { labels: { direction: 'in' }, samples: [{ at: 0, value: 3_000_000 }] },
    { labels: { direction: 'out' }, samples: [{ at: 0, value: 1_000_000 }] },
  ] });
  assert.deepEqual(b.customMetrics, { 'requests-per-second': { 'Ingress/main-route': [{ labels: { verb: 'GET' }, samples: [{ at: 0, value: 30_000_000 }] }] } });
});

const behaviorErrors: { name: string; body: string; want: string }[] = [
  { name: 'A word for a number', body: 'images:\n  "nginx:1.27":\n    pullSeconds: three\n', want: 'b.yaml:5: images["nginx:1.27"].pullSeconds: expected a number, got string "three"' },
  { name: 'A misspelt image field', body: 'images:\n  "nginx:1.27": {pullSecods: 3}\n', want: 'b.yaml:4: images["nginx:1.27"]: unknown field "pullSecods" (did you mean "pullSeconds"?)' },
  { name: 'A misspelt top-level field', body: 'image:\n  nginx: {}\n', want: 'b.yaml:3: unknown field "image" (did you mean "images"?)' },
  { name: 'A negative duration', body: 'containers:\n  app: {startSeconds: -1}\n', want: 'b.yaml:4: containers.app.startSeconds: expected a non-negative number, got number -1' },
  { name: 'An exit code out of range', body: 'containers:\n  app: {exitCode: 300}\n', want: 'b.yaml:4: containers.app.exitCode: expected an integer from 0 to 255, got number 300' },
  { name: 'A word other than never', body: 'containers:\n  app: {sigtermSeconds: forever}\n', want: 'b.yaml:4: containers.app.sigtermSeconds: expected a number or never, got string "forever"' },
  { name: 'A string for a boolean', body: 'containers:\n  app: {postStartFails: "no"}\n', want: 'b.yaml:4: containers.app.postStartFails: expected a boolean, got string "no"' },
  { name: 'A container that is not a mapping', body: 'containers:\n  app: 5\n', want: 'b.yaml:4: containers.app: expected a mapping, got number 5' },
  { name: 'A kubelet state YAML 1.1 reads as a boolean', body: 'nodes:\n  worker-2: {kubelet: off}\n', want: 'b.yaml:4: nodes.worker-2.kubelet: expected one of "up", "down", got boolean false' },
  { name: 'A bad unmount duration', body: 'volumes:\n  data: {unmountSeconds: [1]}\n', want: 'b.yaml:4: volumes.data.unmountSeconds: expected a number, got a sequence' },
  { name: 'A finalizer reference without a kind', body: 'finalizers:\n  - Pod/default/web\n  - web\n', want: 'b.yaml:5: finalizers[1]: expected Kind/namespace/name or Kind/name, got string "web"' },
  { name: 'Metrics samples out of order', body: 'metrics:\n  web-*:\n    cpu:\n      - {at: 60, value: 1}\n      - {at: 30, value: 2}\n', want: 'b.yaml:7: metrics["web-*"].cpu[1].at: samples must be in rising order of at (30 after 60)' },
  { name: 'A metrics value that is no quantity', body: 'metrics:\n  web-*:\n    cpu: [{at: 0, value: lots}]\n', want: `b.yaml:5: metrics["web-*"].cpu[0].value: invalid quantity "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` },
  { name: 'A metrics resource other than cpu or memory', body: 'metrics:\n  web-*: {gpu: []}\n', want: 'b.yaml:4: metrics["web-*"]: unknown field "gpu" (did you mean "cpu"?)' },
  { name: 'Finalizers that are not a list', body: 'finalizers: Pod/default/web\n', want: 'b.yaml:3: finalizers: expected a sequence of strings, got string "Pod/default/web"' },
];

for (const { name, body, want } of behaviorErrors) {
  test(`Behavior: ${name} is refused at its line`, () => assert.equal(inputError(() => parseBehavior(behaviorDocs(body))).message, want));
}

test('Behavior: a document of another kind is refused', () => {
  const docs = parseDocuments('apiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\n', 'x.yaml');
  assert.equal(inputError(() => parseBehavior(docs)).message, 'x.yaml:2: kind: expected a Behavior (apiVersion: podlifecycle.debug/v1alpha1), got ClusterProfile (apiVersion: podlifecycle.debug/v1alpha1)');
});

// Sizes go through parseQuantity (src/engine/api/quantity.ts), so they are tested last.
const sizeCases: { name: string; size: string; want: number }[] = [
  { name: 'A binary-suffixed quantity', size: '72Mi', want: 72 * 1024 * 1024 },
  { name: 'A decimal-suffixed quantity', size: '"1.5G"', want: 1_500_000_000 },
  { name: 'A plain number of bytes', size: '1000', want: 1000 },
];

for (const { name, size, want } of sizeCases) {
  test(`Behavior: ${name} is an image size in bytes`, () => {
    assert.equal(parseBehavior(behaviorDocs(`images:\n  nginx: {size: ${size}}\n`)).images['nginx']?.size, want);
  });
}

test('Behavior: a size that is no quantity is refused with the quantity error', () => {
  const err = inputError(() => parseBehavior(behaviorDocs('images:\n  nginx:\n    size: 72Mx\n')));
  assert.match(err.message, /^b\.yaml:5: images\.nginx\.size: invalid quantity "72Mx": /);
});

test('Behavior: a negative size is refused', () => {
  assert.equal(inputError(() => parseBehavior(behaviorDocs('images:\n  nginx: {size: -1Mi}\n'))).message, 'b.yaml:4: images.nginx.size: expected a non-negative size, got string "-1Mi"');
});

// authorization.webhook: the answers of the authorization webhook (AuthzWebhookRule in src/engine/cluster/inputs.ts).
test('ClusterProfile: webhook rules parse with their fields, in order', () => {
  const profile = parseClusterProfile(profileDoc([
    'authorization:',
    '  modes: [Webhook, RBAC]',
    '  webhook:',
    '    - {user: bob, verb: create, resource: pods, namespace: default, decision: deny, reason: "pods come from CI"}',
    '    - {group: auditors, decision: allow}',
    '    - {decision: noOpinion}',
    '',
  ].join('\n')));
  assert.deepEqual(profile.authorization.modes, ['Webhook', 'RBAC']);
  assert.deepEqual(profile.authorization.webhook, [
    { user: 'bob', verb: 'create', resource: 'pods', namespace: 'default', decision: 'deny', reason: 'pods come from CI' },
    { group: 'auditors', decision: 'allow' },
    { decision: 'noOpinion' },
  ]);
});

const authzWebhookErrors: { name: string; body: string; want: string }[] = [
  { name: 'A webhook rule without a decision', body: 'authorization:\n  modes: [Webhook]\n  webhook:\n    - {user: bob}\n', want: 'p.yaml:6: authorization.webhook[0].decision: Required value' },
  { name: 'A webhook decision of another word', body: 'authorization:\n  modes: [Webhook]\n  webhook:\n    - {decision: reject}\n', want: 'p.yaml:6: authorization.webhook[0].decision: expected one of "allow", "deny", "noOpinion", got string "reject"' },
  { name: 'A misspelt webhook field', body: 'authorization:\n  modes: [Webhook]\n  webhook:\n    - {decision: allow, namespce: x}\n', want: 'p.yaml:6: authorization.webhook[0]: unknown field "namespce" (did you mean "namespace"?)' },
  { name: 'A webhook that is not a sequence', body: 'authorization:\n  modes: [Webhook]\n  webhook: {decision: allow}\n', want: 'p.yaml:5: authorization.webhook: expected a sequence, got a mapping' },
  { name: 'A webhook rule that is not a mapping', body: 'authorization:\n  modes: [Webhook]\n  webhook: [allow]\n', want: 'p.yaml:5: authorization.webhook[0]: expected a mapping, got string "allow"' },
  { name: 'A numeric webhook user', body: 'authorization:\n  modes: [Webhook]\n  webhook:\n    - {user: 7, decision: allow}\n', want: 'p.yaml:6: authorization.webhook[0].user: expected a string, got number 7' },
];

for (const { name, body, want } of authzWebhookErrors) {
  test(`ClusterProfile: ${name} is refused`, () => assert.equal(inputError(() => parseClusterProfile(profileDoc(body))).message, want));
}

// Admission webhooks' answers (Behavior.webhooks), read by the webhook admission plugins by webhook name.
test('Behavior: a webhook answer parses with every field', () => {
  const body = `webhooks:
  pod-policy.example.com:
    allowed: false
    code: 422
    message: "no team label"
    warnings: [deprecated, "soon required"]
    delaySeconds: 3
    unreachable: false
    patch:
      - {op: add, path: /metadata/labels/team, value: payments}
`;
  assert.deepEqual(parseBehavior(behaviorDocs(body)).webhooks, {
    'pod-policy.example.com': {
      allowed: false, code: 422, message: 'no team label', warnings: ['deprecated', 'soon required'], delaySeconds: 3, unreachable: false,
      patch: [{ op: 'add', path: '/metadata/labels/team', value: 'payments' }],
    },
  });
});

test('Behavior: webhook answers merge field by field, later documents winning', () => {
  const behavior = parseBehavior(behaviorDocs(
    'webhooks:\n  slow.example.com: {allowed: false, message: first, delaySeconds: 2}\n',
    'webhooks:\n  slow.example.com: {message: second}\n  other.example.com: {unreachable: true}\n',
  ));
  assert.deepEqual(behavior.webhooks, {
    'slow.example.com': { allowed: false, message: 'second', delaySeconds: 2 },
    'other.example.com': { unreachable: true },
  });
});

const webhookErrors: { name: string; body: string; want: string }[] = [
  { name: 'A code written as a string', body: 'webhooks:\n  x: {code: "403"}\n', want: 'b.yaml:4: webhooks.x.code: expected an HTTP status code, got string "403"' },
  { name: 'A code below 100', body: 'webhooks:\n  x: {code: 99}\n', want: 'b.yaml:4: webhooks.x.code: expected an HTTP status code, got number 99' },
  { name: 'A fractional code', body: 'webhooks:\n  x: {code: 4.5}\n', want: 'b.yaml:4: webhooks.x.code: expected an HTTP status code, got number 4.5' },
  { name: 'A patch that is one operation, not a list', body: 'webhooks:\n  x: {patch: {op: add}}\n', want: 'b.yaml:4: webhooks.x.patch: expected a sequence of JSONPatch operations, got a mapping' },
  { name: 'A misspelt field', body: 'webhooks:\n  x: {alowed: true}\n', want: 'b.yaml:4: webhooks.x: unknown field "alowed" (did you mean "allowed"?)' },
  { name: 'A negative delay', body: 'webhooks:\n  x: {delaySeconds: -2}\n', want: 'b.yaml:4: webhooks.x.delaySeconds: expected a non-negative number, got number -2' },
  { name: 'A word for unreachable', body: 'webhooks:\n  x: {unreachable: "yes"}\n', want: 'b.yaml:4: webhooks.x.unreachable: expected a boolean, got string "yes"' },
  { name: 'Warnings that are not a list', body: 'webhooks:\n  x: {warnings: warn}\n', want: 'b.yaml:4: webhooks.x.warnings: expected a sequence of strings, got string "warn"' },
  { name: 'A message YAML 1.1 reads as a boolean', body: 'webhooks:\n  x:\n    message: no\n', want: 'b.yaml:5: webhooks.x.message: expected a string, got boolean false' },
  { name: 'An answer that is not a mapping', body: 'webhooks:\n  x: 5\n', want: 'b.yaml:4: webhooks.x: expected a mapping, got number 5' },
  { name: 'Webhooks as a list', body: 'webhooks: [a]\n', want: 'b.yaml:3: webhooks: expected a mapping, got a sequence' },
];

for (const { name, body, want } of webhookErrors) {
  test(`Behavior: ${name} is refused at its line`, () => assert.equal(inputError(() => parseBehavior(behaviorDocs(body))).message, want));
}
