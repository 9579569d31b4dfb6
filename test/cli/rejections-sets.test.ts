// StatefulSets and DaemonSets the API server refuses, run through the pod-lifecycle CLI as a process: the outcome and
// the line kubectl prints. The rules are ValidateStatefulSet, ValidateStatefulSetUpdate, ValidateDaemonSet and
// ValidateDaemonSetSpecUpdate of pkg/apis/apps/validation/validation.go (k8s.io/kubernetes v1.36.3); every message
// below is what kube-apiserver 1.36.3 answered `kubectl create --dry-run=server` and `kubectl apply` with the same files.
import assert from 'node:assert/strict';
import test from 'node:test';
import { runJson } from './harness';

const F = 'test/fixtures/apps/sets';
const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const MISMATCH = '`selector` does not match template `labels`';
const STS = 'The StatefulSet "db" is invalid: ';
const DS = 'The DaemonSet "agent" is invalid: ';
const list = (...causes: string[]) => `\n${causes.map((c) => `* ${c}`).join('\n')}`;

const cases: { fixture: string; kubectl: string }[] = [
  { fixture: 'statefulset-policy', kubectl: `${STS}spec.podManagementPolicy: Invalid value: "Sideways": must be 'OrderedReady' or 'Parallel'` },
  { fixture: 'statefulset-strategy', kubectl: `${STS}spec.updateStrategy: Invalid value: {"Type":"Blue","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'` },
  { fixture: 'statefulset-ondelete-ru', kubectl: `${STS}spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":2,"MaxUnavailable":null}: only allowed for updateStrategy 'RollingUpdate'` },
  { fixture: 'statefulset-partition', kubectl: `${STS}spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0` },
  { fixture: 'statefulset-retention', kubectl: `${STS}spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"` },
  { fixture: 'statefulset-vct', kubectl: `${STS}spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required` },
  { fixture: 'statefulset-nomount', kubectl: `${STS}spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"` },
  { fixture: 'statefulset-svc', kubectl: `${STS}spec.serviceName: Invalid value: "Bad_Name": ${DNS_LABEL}` },
  { fixture: 'statefulset-noselector', kubectl: `${STS}${list('spec.selector: Required value', `spec.template.metadata.labels: Invalid value: {"app":"db"}: ${MISMATCH}`)}` },
  { fixture: 'statefulset-empty-selector', kubectl: `${STS}spec.selector: Invalid value: {}: empty selector is invalid for statefulset` },
  {
    fixture: 'statefulset-restart',
    kubectl: `${STS}${list('spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported')}`,
  },
  {
    fixture: 'statefulset-negatives',
    kubectl: `${STS}${list('spec.replicas: Invalid value: -1: must be greater than or equal to 0', 'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0', 'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0')}`,
  },
  { fixture: 'statefulset-name', kubectl: 'The StatefulSet "db.v1" is invalid: metadata.name: Invalid value: "db.v1": must not contain dots' },
  { fixture: 'daemonset-mismatch', kubectl: `${DS}spec.template.metadata.labels: Invalid value: {"app":"agent"}: ${MISMATCH}` },
  { fixture: 'daemonset-noselector', kubectl: `${DS}spec.template.metadata.labels: Invalid value: {"app":"agent"}: ${MISMATCH}` },
  { fixture: 'daemonset-empty-selector', kubectl: `${DS}spec.selector: Invalid value: {}: empty selector is invalid for daemonset` },
  { fixture: 'daemonset-strategy', kubectl: `${DS}spec.updateStrategy: Unsupported value: {"Type":"Blue","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"` },
  { fixture: 'daemonset-zero', kubectl: `${DS}spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0` },
  { fixture: 'daemonset-both', kubectl: `${DS}spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero` },
  {
    fixture: 'daemonset-percent',
    kubectl: `${DS}${list('spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0', 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "200%": must not be greater than 100%', 'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0')}`,
  },
  {
    fixture: 'daemonset-restart',
    kubectl: `${DS}${list('spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported')}`,
  },
];

for (const c of cases) {
  test(`the API server refuses the ${c.fixture.replace('-', ' ')} case at validation (422), as kube-apiserver 1.36 does`, () => {
    const { status, report } = runJson('run', `${F}/${c.fixture}.yaml`);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    assert.equal(report.rejection?.phase, 'apiserver.validate');
    assert.equal(report.rejection?.code, 422);
    assert.equal(report.kubectl, c.kubectl);
    // Nothing of the refused set is stored, so no controller makes a pod for it.
    assert.equal(report.objects.filter((o) => o.kind === 'Pod').length, 0);
  });
}

test('a StatefulSet container may mount its volumeClaimTemplate: the set is accepted, its claim and first pod made', () => {
  const { report } = runJson('run', `${F}/statefulset-ok.yaml`, '--for', '5s');
  assert.equal(report.rejection, undefined);
  // The default cluster has no StorageClass or PersistentVolume: the claim stays Pending, and db-0 with it.
  assert.deepEqual(report.objects.filter((o) => ['StatefulSet', 'PersistentVolumeClaim', 'Pod'].includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`).sort(),
    ['PersistentVolumeClaim/data-db-0', 'Pod/db-0', 'StatefulSet/db']);
});

const updates: { name: string; args: string[]; kubectl: string }[] = [
  {
    name: 'a StatefulSet may not change its serviceName or podManagementPolicy (ValidateStatefulSetUpdate)',
    args: [`${F}/statefulset-ok.yaml`, '--then-apply', `5s,${F}/statefulset-changed.yaml`],
    kubectl: `${STS}spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
  },
  {
    name: 'a DaemonSet may not change its selector (ValidateDaemonSetSpecUpdate)',
    args: [`${F}/daemonset-ok.yaml`, '--then-apply', `5s,${F}/daemonset-changed.yaml`],
    kubectl: `${DS}spec.selector: Invalid value: {"matchLabels":{"app":"agent","v":"2"}}: field is immutable`,
  },
];

for (const c of updates) {
  test(`the API server refuses the update: ${c.name}`, () => {
    const { report } = runJson('run', ...c.args, '--for', '10s');
    const refused = report.trace.find((e) => e.phase === 'apiserver.validate' && e.at === 5 && e.outcome === 'rejected');
    assert.ok(refused, 'the update is refused at validation');
    assert.ok(report.kubectl.includes(c.kubectl), report.kubectl);
  });
}
