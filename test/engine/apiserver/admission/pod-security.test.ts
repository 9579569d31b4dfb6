// The PodSecurity plugin as the admission chain calls it: namespace labels, enforce/audit/warn, exemptions, pod
// templates, namespace requests and updates, with the messages of staging/src/k8s.io/pod-security-admission/admission.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, KubeObject, Pod } from '../../../../src/engine/api/types';
import type { AdmissionAttributes, AdmissionResult } from '../../../../src/engine/apiserver/admission/plugin';
import { configurePodSecurity, podSecurity } from '../../../../src/engine/apiserver/admission/pod-security';
import { loadRunFiles } from '../../../../src/engine/cluster/files';
import { parseDocuments } from '../../../../src/engine/cluster/loader';
import { Store } from '../../../../src/engine/cluster/store';
import type { EngineContext } from '../../../../src/engine/context';
import { VirtualClock } from '../../../../src/engine/runtime/clock';
import { Simulation } from '../../../../src/engine/simulation';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');

/** makeNamespace builds a Namespace with these labels. */
function makeNamespace(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } };
}

const nginx: Container = { name: 'app', image: 'nginx:1.27' };
/** hardened passes restricted: non-root, no escalation, drop ALL, RuntimeDefault seccomp. */
const hardened: Container = {
  name: 'app', image: 'nginx:1.27',
  securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
};

/** makePod builds pod `web` in a namespace; the service account volume is there, as admission adds it. */
function makePod(namespace: string, containers: Container[] = [nginx], spec: Partial<NonNullable<Pod['spec']>> = {}): KubeObject {
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace },
    spec: { containers, volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }], ...spec },
  };
  return pod as KubeObject;
}

/** makeDeployment wraps a pod template in a Deployment. */
function makeDeployment(namespace: string, containers: Container[] = [nginx]): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
  };
}

const RESOURCES: Record<string, [string, string]> = { Pod: ['', 'pods'], Namespace: ['', 'namespaces'], Deployment: ['apps', 'deployments'], ReplicaSet: ['apps', 'replicasets'] };

/** attributes builds a CREATE (or UPDATE) of an object by a user. */
function attributes(obj: KubeObject, user = 'kubernetes-admin', oldObject?: KubeObject): AdmissionAttributes {
  const [group, resource] = RESOURCES[String(obj.kind)]!;
  return {
    operation: oldObject ? 'UPDATE' : 'CREATE', kind: String(obj.kind), group, resource, subresource: '',
    namespace: obj.kind === 'Namespace' ? '' : obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '', object: obj,
    ...(oldObject ? { oldObject } : {}), user: { name: user, groups: ['system:authenticated'] },
  };
}

/** context is a store holding the objects, with the PodSecurity configuration of these YAML documents. */
function context(objects: KubeObject[], config = ''): EngineContext {
  const store = new Store();
  for (const o of objects) store.put(o);
  const ctx = { store, clock: new VirtualClock() } as unknown as EngineContext;
  configurePodSecurity(ctx, config ? parseDocuments(config, 'cluster.yaml') : []);
  return ctx;
}

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const RESTRICTED_NGINX = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

interface Want {
  error?: { code: number; reason: string; message: string };
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

interface Case {
  name: string;
  objects: KubeObject[];
  config?: string;
  request: AdmissionAttributes;
  want: Want;
}

const PSC = (body: string): string => `apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n${body}`;

const cases: Case[] = [
  {
    // admission.go EvaluatePod: forbiddenResponse "violates PodSecurity %q: %s" with ForbiddenDetail, reasons in check order.
    name: 'A plain nginx pod in a restricted namespace is refused with every failing check, in order',
    objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })], request: attributes(makePod('secure')),
    want: {
      error: { code: 403, reason: 'Forbidden', message: `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_NGINX}` },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' },
    },
  },
  {
    name: 'A hardened pod in a restricted namespace is admitted', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })], request: attributes(makePod('secure', [hardened])),
    want: { auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' } },
  },
  {
    // admission.go EvaluatePod: warnings "would violate PodSecurity %q: %s" when the request is allowed.
    name: 'A warn-only namespace admits the pod with a would-violate warning',
    objects: [makeNamespace('relaxed', { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/warn-version': 'latest' })],
    request: attributes(makePod('relaxed')),
    want: { warnings: [`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`], auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' } },
  },
  {
    name: 'An audit-only namespace records the violation as an audit annotation and warns nothing',
    objects: [makeNamespace('audited', { 'pod-security.kubernetes.io/audit': 'baseline' })],
    request: attributes(makePod('audited', [{ ...nginx, securityContext: { privileged: true } }], { hostNetwork: true })),
    want: {
      auditAnnotations: {
        'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
        'pod-security.kubernetes.io/audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)',
      },
    },
  },
  {
    // admission.go: "avoid adding warnings to a request we're already going to reject with an error".
    name: 'A refused pod gets no warning even when warn is stricter than enforce',
    objects: [makeNamespace('mixed', { [ENFORCE]: 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' })],
    request: attributes(makePod('mixed', [{ ...nginx, securityContext: { privileged: true } }])),
    want: {
      error: { code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)' },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest' },
    },
  },
  {
    name: 'A pinned enforce version is named in the message', objects: [makeNamespace('pinned', { [ENFORCE]: 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.30' })],
    request: attributes(makePod('pinned', [nginx], { hostPID: true })),
    want: {
      error: { code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: violates PodSecurity "baseline:v1.30": host namespaces (hostPID=true)' },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'baseline:v1.30' },
    },
  },
  {
    // response.go sharedAllowedPrivilegedResponse.
    name: 'An unlabelled namespace is privileged in every mode and admits anything', objects: [makeNamespace('default')],
    request: attributes(makePod('default', [{ ...nginx, securityContext: { privileged: true } }])),
    want: { auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' } },
  },
  {
    // api/helpers.go PolicyToEvaluate: a bad enforce level is restricted, with the label error as an audit annotation.
    name: 'An invalid enforce label fails closed: the pod is evaluated at restricted and the error is audited',
    objects: [makeNamespace('typo', { [ENFORCE]: 'restriced' })], request: attributes(makePod('typo')),
    want: {
      error: { code: 403, reason: 'Forbidden', message: `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_NGINX}` },
      auditAnnotations: {
        'pod-security.kubernetes.io/error': 'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "restriced": must be one of privileged, baseline, restricted',
        'pod-security.kubernetes.io/enforce-policy': 'restricted:latest',
      },
    },
  },
  {
    name: 'An invalid warn label fails open and a bad version falls back to latest, both errors audited',
    objects: [makeNamespace('typo', { 'pod-security.kubernetes.io/warn': 'strict', 'pod-security.kubernetes.io/warn-version': '1.30' })], request: attributes(makePod('typo')),
    want: {
      auditAnnotations: {
        'pod-security.kubernetes.io/error': 'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "strict": must be one of privileged, baseline, restricted, '
          + 'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]',
        'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
      },
    },
  },
  {
    // admission.go ValidateNamespace: invalidResponse on create.
    name: 'A namespace created with an invalid label is refused as Invalid', objects: [], request: attributes(makeNamespace('bad', { [ENFORCE]: 'foo' })),
    want: { error: { code: 422, reason: 'Invalid', message: 'Namespace "bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted' } },
  },
  {
    name: 'A namespace created with two invalid labels lists both', objects: [], request: attributes(makeNamespace('bad', { [ENFORCE]: 'foo', 'pod-security.kubernetes.io/enforce-version': 'v2.0' })),
    want: {
      error: {
        code: 422, reason: 'Invalid',
        message: 'Namespace "bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v2.0": must be "latest" or "v1.x"]',
      },
    },
  },
  {
    // admission.go ValidatePodController: templates are evaluated with enforce=false, but warn defaults to the enforce
    // level (api/helpers.go PolicyToEvaluate, v0.36.3): the reference cluster prints this warning on the Deployment.
    name: 'A Deployment in an enforce-only namespace is not refused but warned: warn takes the enforce level',
    objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })], request: attributes(makeDeployment('secure')),
    want: { warnings: [`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`] },
  },
  {
    name: 'A Deployment in a warn namespace gets the would-violate warning for its template',
    objects: [makeNamespace('secure', { [ENFORCE]: 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' })], request: attributes(makeDeployment('secure')),
    want: { warnings: [`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`] },
  },
  {
    name: 'A PodSecurityConfiguration sets the defaults of unlabelled namespaces', objects: [makeNamespace('default')],
    config: PSC('defaults:\n  enforce: baseline\n  warn: restricted\n'), request: attributes(makePod('default', [nginx], { hostIPC: true })),
    want: {
      error: { code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)' },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest' },
    },
  },
  {
    name: 'A PodSecurityConfiguration inside an AdmissionConfiguration is read too', objects: [makeNamespace('default')],
    config: `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n  - name: EventRateLimit\n    path: eventconfig.yaml\n  - name: PodSecurity\n    configuration:\n      apiVersion: pod-security.admission.config.k8s.io/v1\n      kind: PodSecurityConfiguration\n      defaults:\n        enforce: restricted\n        enforce-version: v1.35\n`,
    request: attributes(makePod('default')),
    want: {
      error: { code: 403, reason: 'Forbidden', message: `pods "web" is forbidden: violates PodSecurity "restricted:v1.35": ${RESTRICTED_NGINX}` },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:v1.35' },
    },
  },
  {
    // response.go allowedByExemptResponse("namespace").
    name: 'An exempt namespace admits anything', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })],
    config: PSC('exemptions:\n  namespaces: [secure]\n'), request: attributes(makePod('secure')), want: { auditAnnotations: { 'pod-security.kubernetes.io/exempt': 'namespace' } },
  },
  {
    name: 'An exempt user is admitted', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })],
    config: PSC('exemptions:\n  usernames: [system:serviceaccount:ci:deployer]\n'), request: attributes(makePod('secure'), 'system:serviceaccount:ci:deployer'),
    want: { auditAnnotations: { 'pod-security.kubernetes.io/exempt': 'user' } },
  },
  {
    name: 'A pod of an exempt runtime class is admitted', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })],
    config: PSC('exemptions:\n  runtimeClasses: [gvisor]\n'), request: attributes(makePod('secure', [nginx], { runtimeClassName: 'gvisor' })),
    want: { auditAnnotations: { 'pod-security.kubernetes.io/exempt': 'runtimeClass' } },
  },
  {
    // admission.go ValidatePod: NewInternalError(fmt.Errorf("failed to lookup namespace %q", ...)).
    name: 'A pod in a namespace that does not exist is a 500', objects: [], request: attributes(makePod('ghost')),
    want: {
      error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to lookup namespace "ghost"' },
      auditAnnotations: { 'pod-security.kubernetes.io/error': 'Internal error occurred: failed to lookup namespace "ghost"' },
    },
  },
  {
    // admission.go isSignificantPodUpdate: only container counts, images and seccomp annotations matter.
    name: 'A pod update that changes no image is not evaluated', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })],
    request: attributes({ ...makePod('secure'), metadata: { name: 'web', namespace: 'secure', labels: { a: 'b' } } }, 'kubernetes-admin', makePod('secure')), want: {},
  },
  {
    name: 'A pod update that changes an image is evaluated', objects: [makeNamespace('secure', { [ENFORCE]: 'restricted' })],
    request: attributes(makePod('secure', [{ ...nginx, image: 'nginx:1.28' }]), 'kubernetes-admin', makePod('secure')),
    want: {
      error: { code: 403, reason: 'Forbidden', message: `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_NGINX}` },
      auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' },
    },
  },
  {
    // admission.go EvaluatePodsInNamespace: the new enforce level is dry-run on the namespace's pods.
    name: 'Tightening enforce on a namespace warns of the existing pods that violate it',
    objects: [makeNamespace('team'), { ...makePod('team'), metadata: { name: 'a', namespace: 'team' } }, { ...makePod('team'), metadata: { name: 'b', namespace: 'team' } }, { ...makePod('team', [hardened]), metadata: { name: 'c', namespace: 'team' } }],
    request: attributes(makeNamespace('team', { [ENFORCE]: 'restricted' }), 'kubernetes-admin', makeNamespace('team')),
    want: {
      warnings: [
        'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
        'a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      ],
    },
  },
];

/** summary keeps what a case compares: the error's code, reason and message, the warnings and the audit annotations. */
function summary(result: AdmissionResult): Want {
  const annotations = (result.detail?.['auditAnnotations'] ?? {}) as Record<string, string>;
  return {
    ...(result.error ? { error: { code: result.error.code, reason: result.error.reason, message: result.error.message } } : {}),
    ...(result.warnings?.length ? { warnings: result.warnings } : {}),
    ...(Object.keys(annotations).length ? { auditAnnotations: annotations } : {}),
  };
}

for (const k of cases) {
  test(k.name, () => {
    const ctx = context(k.objects, k.config);
    assert.ok(podSecurity.handles(k.request));
    assert.deepEqual(summary(podSecurity.validate!(k.request, ctx)), k.want);
  });
}

test('The trace lists every check run at each evaluated level, with its revision and result', () => {
  const ctx = context([makeNamespace('secure', { [ENFORCE]: 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' })]);
  const result = podSecurity.validate!(attributes(makePod('secure')), ctx);
  const evaluations = result.detail?.['evaluations'] as { policy: string; modes: string[]; evaluatedAs: string; checks: { id: string; level: string; revision: string; allowed: boolean }[] }[];
  assert.deepEqual(evaluations.map((e) => [e.policy, e.modes, e.evaluatedAs]), [['restricted:latest', ['enforce'], 'restricted:v1.35'], ['privileged:latest', ['audit'], 'privileged:latest']]);
  assert.deepEqual(evaluations[0]!.checks.map((c) => `${c.level}/${c.id}@${c.revision}:${c.allowed ? 'ok' : 'fail'}`), [
    'baseline/appArmorProfile@v1.0:ok', 'baseline/hostNamespaces@v1.0:ok', 'baseline/hostPorts@v1.0:ok', 'baseline/hostProbesAndHostLifecycle@v1.34:ok',
    'baseline/privileged@v1.0:ok', 'baseline/seLinuxOptions@v1.31:ok', 'baseline/sysctls@v1.32:ok', 'baseline/windowsHostProcess@v1.0:ok',
    'restricted/allowPrivilegeEscalation@v1.25:fail', 'restricted/capabilities_restricted@v1.25:fail', 'restricted/procMount_restricted@v1.35:ok',
    'restricted/restrictedVolumes@v1.0:ok', 'restricted/runAsNonRoot@v1.35:fail', 'restricted/runAsUser@v1.35:ok', 'restricted/seccompProfile_restricted@v1.25:fail',
  ]);
  assert.deepEqual(result.detail?.['policy'], { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'baseline:latest' });
  assert.equal(result.note, 'enforce=restricted:latest, audit=privileged:latest, warn=baseline:latest; enforce refused 4 check(s)');
});

test('The plugin handles creates and updates of pods, namespaces and pod controllers only', () => {
  const pod = attributes(makePod('default'));
  assert.equal(podSecurity.handles(pod), true);
  assert.equal(podSecurity.handles({ ...pod, operation: 'DELETE' }), false);
  assert.equal(podSecurity.handles({ ...pod, resource: 'services', kind: 'Service' }), false);
  assert.equal(podSecurity.handles({ ...pod, group: 'batch', resource: 'cronjobs', kind: 'CronJob' }), true);
});

test('A simulation configured with the cluster\'s AdmissionConfiguration enforces its defaults', () => {
  // What the Simulation constructor does once it calls configurePodSecurity(ctx, inputs.cluster.config).
  const fixtures = 'test/fixtures/podsecurity';
  const inputs = loadRunFiles(
    { manifest: `${fixtures}/pod-host-network.yaml`, clusters: [`${fixtures}/cluster.yaml`, `${fixtures}/admission-config.yaml`], identity: { kind: 'default' } },
    (path) => readFileSync(join(ROOT, path), 'utf8'),
  );
  const sim = new Simulation(inputs);
  configurePodSecurity(sim.ctx, inputs.cluster.config);
  const result = sim.run();
  assert.equal(result.outcome, 'Rejected');
  assert.equal(result.kubectl, `Error from server (Forbidden): error when creating "${fixtures}/pod-host-network.yaml": pods "web" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)`);
  const step = result.trace.find((e) => e.step?.name === 'PodSecurity');
  assert.equal(step?.detail['configuration'], `${fixtures}/admission-config.yaml (AdmissionConfiguration plugins[0].configuration)`);
});
