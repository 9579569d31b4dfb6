// A manifest whose plain scalars look like numbers to the YAML 1.1 schema but not to go-yaml v2, which kubectl uses
// (go.yaml.in/yaml/v2 v2.4.3 resolve.go, under sigs.k8s.io/yaml v1.6.0 at Kubernetes 1.36): `e1` is a string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

test('a pod named e1 with the label app: e1 is created and runs', () => {
  const { status, report, stderr } = runJson('run', 'test/fixtures/decode/e1.yaml');
  assert.equal(status, 0, stderr);
  assert.equal(report.kubectl, 'pod/e1 created');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'e1');
  assert.deepEqual(pod?.metadata.labels, { app: 'e1' });
});
