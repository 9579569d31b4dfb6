// Cluster files whose objects kube-apiserver would refuse on create, run as a process: exit 2 with one line naming the
// file, the line and the API server's words, before the run starts. The words: errors.NewAlreadyExists (storage's
// "already exists"), errors.NewInvalid over the strategy's Validate (pkg/apis/core/validation/validation.go ValidateNode,
// which reports spec.taints as metadata.taints; pkg/apis/apps/validation ValidateDeployment; ValidateService, on the
// Service as the allocators left it), and the decoding
// BadRequest of a quantity that does not parse (apimachinery resource.ParseQuantity), at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

const DIR = 'test/fixtures/cluster-validation';

const cases = [
  { file: 'duplicate-nodes.yaml', want: `${DIR}/duplicate-nodes.yaml:13: nodes "n1" already exists` },
  { file: 'pods-one-name.yaml', want: `${DIR}/pods-one-name.yaml:13: pods "old" already exists` },
  {
    file: 'taint-explode.yaml',
    want: `${DIR}/taint-explode.yaml:9: Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: "Explode": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
  },
  {
    file: 'taints-duplicate.yaml',
    want: `${DIR}/taints-duplicate.yaml:9: Node "n1" is invalid: [metadata.taints[1]: Duplicate value: {"Key":"gpu","Value":"b","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair, status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0]`,
  },
  {
    file: 'cpu-abc.yaml',
    want: `${DIR}/cpu-abc.yaml:9: Node in version "v1" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  },
  {
    file: 'deployment-invalid.yaml',
    want: `${DIR}/deployment-invalid.yaml:12: Deployment.apps "api" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: \`selector\` does not match template \`labels\``,
  },
  {
    file: 'service-unnamed-ports.yaml',
    want: `${DIR}/service-unnamed-ports.yaml:23: Service "web" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]`,
  },
];

for (const c of cases) {
  test(`a cluster file the API server would refuse stops before the run, exit 2: ${c.file}`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', 'examples/pod.yaml', '--cluster', `${DIR}/${c.file}`, '--json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `error: ${c.want}\n`);
  });
}

test('the same object in two cluster files is the second file\'s AlreadyExists', () => {
  const node = `${DIR}/../quota/nodes.yaml`;
  const r = spawnSync(process.execPath, [CLI, 'run', 'examples/pod.yaml', '--cluster', node, '--cluster', node], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^error: test\/fixtures\/cluster-validation\/\.\.\/quota\/nodes\.yaml:\d+: nodes "[a-z0-9-]+" already exists\n$/);
});
