// PodSecurity's levels, versions and configuration: label parsing with the real errors, which checks each level and
// version runs and in what order, how failures join, and the PodSecurityConfiguration kube-apiserver would refuse.
// Sources: staging/src/k8s.io/pod-security-admission/api/helpers.go, policy/registry.go, policy/checks.go, admission/api.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIGURATION, loadPodSecurityConfiguration } from '../../../../src/engine/apiserver/admission/pod-security/config';
import {
  LATEST, levelVersionString, majorMinor, parseLevel, parseVersion, policyToEvaluate, type Policy,
} from '../../../../src/engine/apiserver/admission/pod-security/levels';
import { aggregateCheckResults, forbiddenDetail, forbiddenReason, MAX_VERSION, planEvaluation } from '../../../../src/engine/apiserver/admission/pod-security/registry';
import { parseDocuments } from '../../../../src/engine/cluster/loader';
import { inputError } from '../../cluster/input-error';

const parseCases = [
  // api/helpers.go ParseLevel: `must be one of %s` over validLevels, falling back to restricted.
  { name: 'A known level parses as itself', got: parseLevel('baseline'), want: { value: 'baseline' } },
  { name: 'An unknown level is restricted with an error', got: parseLevel('Restricted'), want: { value: 'restricted', error: 'must be one of privileged, baseline, restricted' } },
  // api/helpers.go ParseVersion: `^v1\.([0-9]|[1-9][0-9]*)$`, else latest with an error.
  { name: 'latest parses as the latest version', got: parseVersion('latest'), want: { value: LATEST } },
  { name: 'v1.0 parses', got: parseVersion('v1.0'), want: { value: majorMinor(1, 0) } },
  { name: 'v1.36 parses', got: parseVersion('v1.36'), want: { value: majorMinor(1, 36) } },
  { name: 'A leading zero is not a version', got: parseVersion('v1.07'), want: { value: LATEST, error: 'must be "latest" or "v1.x"' } },
  { name: 'A version without the v is not a version', got: parseVersion('1.30'), want: { value: LATEST, error: 'must be "latest" or "v1.x"' } },
  { name: 'Major version 2 is not a version', got: parseVersion('v2.0'), want: { value: LATEST, error: 'must be "latest" or "v1.x"' } },
];
for (const c of parseCases) test(c.name, () => assert.deepEqual(c.got, c.want));

const PRIVILEGED: Policy = DEFAULT_CONFIGURATION.defaults;
const P = 'pod-security.kubernetes.io/';

const policyCases: { name: string; labels: Record<string, string>; want: [string, string, string]; errors: string[] }[] = [
  { name: 'No labels keep the defaults', labels: {}, want: ['privileged:latest', 'privileged:latest', 'privileged:latest'], errors: [] },
  { name: 'Each mode reads its level and version labels', labels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.29', [`${P}warn`]: 'restricted' }, want: ['baseline:v1.29', 'privileged:latest', 'restricted:latest'], errors: [] },
  {
    // api/helpers.go PolicyToEvaluate: enforce fails closed, audit and warn fail open.
    name: 'A bad enforce level is restricted, a bad audit or warn level privileged',
    labels: { [`${P}enforce`]: 'x', [`${P}audit`]: 'y', [`${P}warn`]: 'z' }, want: ['restricted:latest', 'privileged:latest', 'privileged:latest'],
    errors: [
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "x": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "y": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "z": must be one of privileged, baseline, restricted',
    ],
  },
  {
    name: 'A bad version is latest', labels: { [`${P}audit`]: 'baseline', [`${P}audit-version`]: 'v1' }, want: ['privileged:latest', 'baseline:latest', 'privileged:latest'],
    errors: ['metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v1": must be "latest" or "v1.x"'],
  },
  // api/helpers.go PolicyToEvaluate (v0.36.3): "Default warn to the enforce level when explicitly set to a more
  // restrictive level". The reference cluster warns on a Deployment in a namespace labelled enforce=restricted alone.
  { name: 'An enforce label alone makes warn the same level and version', labels: { [`${P}enforce`]: 'restricted' }, want: ['restricted:latest', 'privileged:latest', 'restricted:latest'], errors: [] },
  { name: 'Warn takes the enforce version too', labels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.30' }, want: ['baseline:v1.30', 'privileged:latest', 'baseline:v1.30'], errors: [] },
  { name: 'A warn-version label keeps its version under the enforce level', labels: { [`${P}enforce`]: 'restricted', [`${P}warn-version`]: 'v1.29' }, want: ['restricted:latest', 'privileged:latest', 'restricted:v1.29'], errors: [] },
  { name: 'A warn label stops the defaulting, even a less strict one', labels: { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'privileged' }, want: ['restricted:latest', 'privileged:latest', 'privileged:latest'], errors: [] },
  {
    name: 'A bad enforce level does not default warn', labels: { [`${P}enforce`]: 'x' }, want: ['restricted:latest', 'privileged:latest', 'privileged:latest'],
    errors: ['metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "x": must be one of privileged, baseline, restricted'],
  },
];
test('Warn is not lowered to an enforce level less strict than the configured one', () => {
  const defaults: Policy = { ...PRIVILEGED, warn: { level: 'restricted', version: LATEST } };
  const { policy } = policyToEvaluate({ [`${P}enforce`]: 'baseline' }, defaults);
  assert.equal(levelVersionString(policy.warn), 'restricted:latest');
});

for (const c of policyCases) {
  test(c.name, () => {
    const { policy, errors } = policyToEvaluate(c.labels, PRIVILEGED);
    assert.deepEqual([levelVersionString(policy.enforce), levelVersionString(policy.audit), levelVersionString(policy.warn)], c.want);
    assert.deepEqual(errors.map((e) => `${e.field}: ${e.body}`), c.errors);
  });
}

test('latest and versions past the newest check revision evaluate as v1.35', () => {
  assert.deepEqual(MAX_VERSION, majorMinor(1, 35));
  assert.deepEqual(planEvaluation({ level: 'restricted', version: LATEST }).version, majorMinor(1, 35));
  assert.deepEqual(planEvaluation({ level: 'baseline', version: majorMinor(1, 99) }).version, majorMinor(1, 35));
  assert.deepEqual(planEvaluation({ level: 'baseline', version: majorMinor(1, 20) }).version, majorMinor(1, 20));
});

const planCases = [
  { name: 'Privileged runs no check', level: 'privileged' as const, version: LATEST, want: [] as string[], overridden: [] as string[] },
  {
    name: 'Baseline runs its twelve checks sorted by ID', level: 'baseline' as const, version: LATEST, overridden: [],
    want: ['appArmorProfile', 'capabilities_baseline', 'hostNamespaces', 'hostPathVolumes', 'hostPorts', 'hostProbesAndHostLifecycle', 'privileged', 'procMount', 'seLinuxOptions', 'seccompProfile_baseline', 'sysctls', 'windowsHostProcess'],
  },
  {
    // policy/registry.go populate: the baseline checks a restricted revision overrides are dropped; restricted checks follow.
    name: 'Restricted runs the baseline checks it does not override, then its own, each sorted', level: 'restricted' as const, version: LATEST,
    overridden: ['capabilities_baseline', 'hostPathVolumes', 'procMount', 'seccompProfile_baseline'],
    want: ['appArmorProfile', 'hostNamespaces', 'hostPorts', 'hostProbesAndHostLifecycle', 'privileged', 'seLinuxOptions', 'sysctls', 'windowsHostProcess',
      'allowPrivilegeEscalation', 'capabilities_restricted', 'procMount_restricted', 'restrictedVolumes', 'runAsNonRoot', 'runAsUser', 'seccompProfile_restricted'],
  },
  {
    name: 'Restricted at v1.18 has no seccomp or capabilities check of its own and keeps the baseline ones', level: 'restricted' as const, version: majorMinor(1, 18),
    overridden: ['hostPathVolumes'],
    want: ['appArmorProfile', 'capabilities_baseline', 'hostNamespaces', 'hostPorts', 'privileged', 'procMount', 'seLinuxOptions', 'seccompProfile_baseline', 'sysctls', 'windowsHostProcess',
      'allowPrivilegeEscalation', 'restrictedVolumes', 'runAsNonRoot'],
  },
];
for (const c of planCases) {
  test(c.name, () => {
    const plan = planEvaluation({ level: c.level, version: c.version });
    assert.deepEqual(plan.checks.map((s) => s.check.id), c.want);
    assert.deepEqual([...plan.overridden].sort(), c.overridden);
  });
}

test('Failing checks join as reasons, and as reasons with their details in parentheses', () => {
  // policy/checks.go ForbiddenReason and ForbiddenDetail; an empty reason is "unknown forbidden reason".
  const a = aggregateCheckResults([
    { allowed: false, forbiddenReason: 'host ports', forbiddenDetail: '8080, 9090' }, { allowed: true },
    { allowed: false, forbiddenReason: 'privileged containers' }, { allowed: false, forbiddenReason: '', forbiddenDetail: 'x' },
  ]);
  assert.equal(a.allowed, false);
  assert.equal(forbiddenReason(a), 'host ports, privileged containers, unknown forbidden reason');
  assert.equal(forbiddenDetail(a), 'host ports (8080, 9090), privileged containers, unknown forbidden reason (x)');
});

const PSC = (body: string): string => `apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n${body}`;
const load = (text: string) => loadPodSecurityConfiguration(parseDocuments(text, 'cluster.yaml'));

test('No configuration is privileged at latest in every mode with no exemptions', () => {
  assert.deepEqual(loadPodSecurityConfiguration([]), DEFAULT_CONFIGURATION);
});

test('A configuration fills the defaults it leaves out with privileged and latest', () => {
  // admission/api/load/load_test.go "v1 - yaml".
  const config = load(PSC('defaults:\n  enforce: baseline\n  enforce-version: v1.7\nexemptions:\n  usernames: ["alice","bob"]\n  namespaces: ["kube-system"]\n  runtimeClasses: ["special"]\n'));
  assert.deepEqual(config.defaults, { enforce: { level: 'baseline', version: majorMinor(1, 7) }, audit: { level: 'privileged', version: LATEST }, warn: { level: 'privileged', version: LATEST } });
  assert.deepEqual(config.exemptions, { usernames: ['alice', 'bob'], namespaces: ['kube-system'], runtimeClasses: ['special'] });
  assert.equal(config.source, 'cluster.yaml (PodSecurityConfiguration)');
});

const errorCases = [
  {
    // admission.go CompleteConfiguration -> admission/api/helpers.go ToPolicy, wrapped "%s configuration error: %w".
    name: 'A bad default level stops kube-apiserver with ToPolicy\'s words', text: PSC('defaults:\n  enforce: strict\n'), line: 4,
    problem: 'PodSecurity configuration error: Enforce.Level: must be one of privileged, baseline, restricted',
  },
  {
    name: 'Two bad defaults are listed together', text: PSC('defaults:\n  warn: strict\n  audit-version: "1.30"\n'), line: 5,
    problem: 'PodSecurity configuration error: [Audit.Version: must be "latest" or "v1.x", Warn.Level: must be one of privileged, baseline, restricted]',
  },
  {
    // admission/api/validation/validation.go validateNamespaces, wrapped "%s invalid: %w".
    name: 'An exempt namespace that is not a DNS label is invalid', text: PSC('exemptions:\n  namespaces: [Kube_System]\n'), line: 4,
    problem: 'PodSecurity invalid: exemptions.namespaces[0]: Invalid value: "Kube_System": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
  },
  { name: 'A repeated exempt user is a duplicate', text: PSC('exemptions:\n  usernames: [alice, alice]\n'), line: 4, problem: 'PodSecurity invalid: exemptions.usernames[1]: Duplicate value: "alice"' },
  {
    // The scheme's codec is strict (admission/api/scheme/scheme.go serializer.EnableStrict); load_test.go "unknown field".
    name: 'An unknown field is a strict decoding error', text: PSC('deflaults:\n  enforce: baseline\n'), line: 3,
    problem: 'couldn\'t init admission plugin "PodSecurity": strict decoding error: unknown field "deflaults"',
  },
  {
    name: 'An AdmissionConfiguration that points at a file cannot be followed', line: 5,
    text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n  - name: PodSecurity\n    path: /etc/kubernetes/podsecurity.yaml\n',
    problem: 'plugins[0].path: the simulation does not read files an AdmissionConfiguration names: put the PodSecurityConfiguration under configuration',
  },
  {
    name: 'An embedded configuration of an unknown version is not registered', line: 6,
    text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n  - name: PodSecurity\n    configuration:\n      apiVersion: pod-security.admission.config.k8s.io/v99\n      kind: PodSecurityConfiguration\n',
    problem: 'couldn\'t init admission plugin "PodSecurity": no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v99" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go"',
  },
];
for (const c of errorCases) {
  test(c.name, () => {
    const err = inputError(() => load(c.text));
    assert.deepEqual([err.file, err.line, err.problem], ['cluster.yaml', c.line, c.problem]);
  });
}
