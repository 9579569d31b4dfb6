// kubectl auth can-i through the engine's authenticators, impersonation and authorizer chain, printed as
// staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go prints a SelfSubjectAccessReview's answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConsole } from '../../../src/engine/console/index';
import type { Simulation } from '../../../src/engine/simulation';
import { fixture, simulate } from './simulate';

let adminRun: Simulation | undefined;
const admin = (): Simulation => (adminRun ??= simulate(fixture('../../examples/pod.yaml')));
let anonymousRun: Simulation | undefined;
const anonymous = (): Simulation => (anonymousRun ??= simulate(fixture('../../examples/pod.yaml'), {}, { kind: 'anonymous' }));

const cases: { name: string; sim: () => Simulation; line: string; want: { output: string } | { error: true; message: string } }[] = [
  { name: 'the cluster admin may create pods', sim: admin, line: 'kubectl auth can-i create pods', want: { output: 'yes' } },
  { name: 'the admin may do anything anywhere', sim: admin, line: "kubectl auth can-i '*' '*' -A", want: { output: 'yes' } },
  { name: 'a user no binding names may not create pods', sim: admin, line: 'kubectl auth can-i create pods --as bob', want: { output: 'no' } },
  { name: 'the default service account may not list pods', sim: admin, line: 'kubectl auth can-i list pods --as system:serviceaccount:default:default', want: { output: 'no' } },
  { name: 'a member of system:masters may do anything', sim: admin, line: 'kubectl auth can-i delete nodes --as jane --as-group system:masters', want: { output: 'Warning: resource \'nodes\' is not namespace scoped\nyes' } },
  {
    // The Node authorizer answers for system:nodes with its reason; cani.go prints "no - <reason>".
    name: 'a kubelet may not read every node, and the Node authorizer says why',
    sim: admin, line: 'kubectl auth can-i get nodes --as system:node:worker-1 --as-group system:nodes',
    want: { output: "Warning: resource 'nodes' is not namespace scoped\nno - node 'worker-1' cannot read all nodes, only its own Node object" },
  },
  { name: 'an unknown resource is warned about, then asked as written', sim: admin, line: 'kubectl auth can-i get foos', want: { output: "Warning: the server doesn't have a resource type 'foos'\nyes" } },
  { name: 'an unknown verb is warned about', sim: admin, line: 'kubectl auth can-i frob pods', want: { output: "Warning: verb 'frob' is not a known verb\nyes" } },
  {
    // system:basic-user, which grants selfsubjectaccessreviews, is bound to system:authenticated only.
    name: 'an anonymous user may not even ask',
    sim: anonymous, line: 'kubectl auth can-i get pods',
    want: { error: true, message: 'Error from server (Forbidden): selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope' },
  },
  {
    name: 'an anonymous kubectl get is forbidden by the same authorizers',
    sim: anonymous, line: 'kubectl get pods',
    want: { error: true, message: 'Error from server (Forbidden): pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"' },
  },
  { name: 'can-i needs a verb and a resource', sim: admin, line: 'kubectl auth can-i get', want: { error: true, message: 'error: you must specify two arguments: verb resource or verb resourcename.' } },
];

for (const c of cases) test(c.name, () => assert.deepEqual(evaluateConsole(c.sim(), c.line), c.want));
