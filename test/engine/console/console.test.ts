// The debug console over a real run: kubectl get/describe/auth can-i, etcdctl get, help, and expressions, each
// compared whole with what kubectl (or etcdctl) prints. The run is examples/pod.yaml on the embedded cluster,
// paused at its end: virtual time 2 s, the pod created at 0 s, the nodes an hour before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConsole } from '../../../src/engine/console/index';
import type { Simulation } from '../../../src/engine/simulation';
import { fill, fixture, simulate } from './simulate';

let podRun: Simulation | undefined;
const pod = (): Simulation => (podRun ??= simulate(fixture('../../examples/pod.yaml')));
const lines = (...l: string[]) => l.join('\n');

const ok = (sim: Simulation, text: string, want: string) => assert.deepEqual(evaluateConsole(sim, text), { output: want });
const fails = (sim: Simulation, text: string, message: string) => assert.deepEqual(evaluateConsole(sim, text), { error: true, message });

const commands: { name: string; line: string; want: string }[] = [
  {
    // printPod's columns; AGE is HumanDuration of 2 s; tab writer padding 3.
    name: 'kubectl get pods prints printPod\'s columns with the age on the virtual clock',
    line: 'kubectl get pods',
    want: lines('NAME   READY   STATUS    RESTARTS   AGE', 'web    1/1     Running   0          2s'),
  },
  {
    name: 'kubectl get pods -o wide adds IP, NODE, NOMINATED NODE and READINESS GATES',
    line: 'kubectl get pods -o wide',
    want: lines(
      'NAME   READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES',
      'web    1/1     Running   0          2s    {POD_IP}   {NODE}   <none>           <none>',
    ),
  },
  {
    name: 'kubectl get pods -A puts the namespace first',
    line: 'kubectl get pods -A',
    want: lines('NAMESPACE   NAME   READY   STATUS    RESTARTS   AGE', 'default     web    1/1     Running   0          2s'),
  },
  {
    // printNode: STATUS from the Ready condition, ROLES from node-role.kubernetes.io/ labels.
    name: 'kubectl get nodes prints status, roles, age and kubelet version',
    line: 'kubectl get nodes',
    want: lines(
      'NAME            STATUS   ROLES           AGE   VERSION',
      'control-plane   Ready    control-plane   60m   v1.36.0',
      'worker-1        Ready    <none>          60m   v1.36.0',
      'worker-2        Ready    <none>          60m   v1.36.0',
    ),
  },
  {
    // printEvent: LAST SEEN TYPE REASON OBJECT MESSAGE, in the server's (event name) order. Since 1.35 (#134043) the
    // kubelet's Created and Started name no container: it is the event's involvedObject.fieldPath, which only -o wide
    // (SUBOBJECT) and -o yaml/json show (kuberuntime_container.go startContainer, printers.go printEvent, v1.36.3).
    name: 'kubectl get events lists the recorded events with their last-seen age',
    line: 'kubectl get events',
    want: lines(
      'LAST SEEN   TYPE     REASON      OBJECT    MESSAGE',
      '2s          Normal   Scheduled   pod/web   Successfully assigned default/web to {NODE}',
      '2s          Normal   Pulling     pod/web   Pulling image "nginx:1.27"',
      '0s          Normal   Pulled      pod/web   Successfully pulled image "nginx:1.27" in 2s (2s including waiting). Image size: 52428800 bytes.',
      '0s          Normal   Created     pod/web   Container created',
      '0s          Normal   Started     pod/web   Container started',
    ),
  },
  {
    // printEvent with -o wide: SUBOBJECT is involvedObject.fieldPath, the container of each kubelet event
    // (pkg/printers/internalversion/printers.go printEvent, pkg/kubelet/container/ref.go GenerateContainerRef, v1.36.3).
    name: 'kubectl get events -o wide names the container of each kubelet event in SUBOBJECT',
    line: 'kubectl get events -o wide',
    want: lines(
      'LAST SEEN   TYPE     REASON      OBJECT    SUBOBJECT              SOURCE              MESSAGE                                                                                            FIRST SEEN   COUNT   NAME',
      '2s          Normal   Scheduled   pod/web                          default-scheduler   Successfully assigned default/web to {NODE}                                                      2s           1       web.18867251edfa0000',
      '2s          Normal   Pulling     pod/web   spec.containers{app}   kubelet, {NODE}   Pulling image "nginx:1.27"                                                                         2s           1       web.18867251edfa0001',
      '0s          Normal   Pulled      pod/web   spec.containers{app}   kubelet, {NODE}   Successfully pulled image "nginx:1.27" in 2s (2s including waiting). Image size: 52428800 bytes.   0s           1       web.18867252652f9402',
      '0s          Normal   Created     pod/web   spec.containers{app}   kubelet, {NODE}   Container created                                                                                  0s           1       web.18867252652f9403',
      '0s          Normal   Started     pod/web   spec.containers{app}   kubelet, {NODE}   Container started                                                                                  0s           1       web.18867252652f9404',
    ),
  },
  { name: 'kubectl get ns uses printNamespace\'s STATUS column', line: 'kubectl get ns', want: lines('NAME              STATUS   AGE', 'default           Active   60m', 'kube-node-lease   Active   60m', 'kube-public       Active   60m', 'kube-system       Active   60m') },
  // printServiceAccount prints NAME and AGE, no SECRETS (printers.go at v1.36.3, and what kube-apiserver
  // 1.36.3 returns: npm run oracle -- --only tables).
  { name: 'a short name and a name select one object', line: 'kubectl get sa default', want: lines('NAME      AGE', 'default   60m') },
  { name: 'kubectl get -o name prints kind/name', line: 'kubectl get pods -o name', want: 'pod/web' },
  { name: 'kubectl get -o jsonpath runs the template on the object', line: "kubectl get pod web -o jsonpath='{.status.podIP} {.spec.nodeName}'", want: '{POD_IP} {NODE}' },
  { name: 'kubectl get -o jsonpath on a list reaches the items', line: "kubectl get pods -o jsonpath='{.items[*].metadata.name}'", want: 'web' },
  {
    name: 'range ... end prints one line per condition',
    line: 'kubectl get pod web -o jsonpath=\'{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}\'',
    want: 'PodReadyToStartContainers=True\nInitialized=True\nReady=True\nContainersReady=True\nPodScheduled=True\n',
  },
  { name: 'an empty namespace prints kubectl\'s no-resources line', line: 'kubectl get pods -n kube-system', want: 'No resources found in kube-system namespace.' },
  { name: 'help lists the commands', line: 'help', want: evaluateHelp() },
];

function evaluateHelp(): string {
  const r = evaluateConsole(pod(), 'help');
  return 'output' in r ? r.output : '';
}

for (const c of commands) test(c.name, () => ok(pod(), c.line, fill(pod(), 'web', c.want)));

test('kubectl get -o json prints the object with sorted keys and four-space indentation', () => {
  const r = evaluateConsole(pod(), 'kubectl get pod web -o json');
  assert.ok('output' in r);
  assert.ok(r.output.startsWith('{\n    "apiVersion": "v1",\n    "kind": "Pod",\n    "metadata": {\n        "annotations": {\n'));
  assert.equal(JSON.parse(r.output).status.podIP, fill(pod(), 'web', '{POD_IP}'));
});

test('kubectl get -o yaml quotes timestamps and resource versions as go-yaml does', () => {
  const r = evaluateConsole(pod(), 'kubectl get pod web -o yaml');
  assert.ok('output' in r);
  assert.match(r.output, /^apiVersion: v1\nkind: Pod\nmetadata:\n/);
  assert.match(r.output, /\n  creationTimestamp: "2026-01-01T00:00:00Z"\n/);
  assert.match(r.output, /\n  resourceVersion: "\d+"\n/);
  assert.match(r.output, /\n  - lastProbeTime: null\n    lastTransitionTime: "2026-01-01T00:00:00Z"\n/);
});

const errors: { name: string; line: string; message: string }[] = [
  { name: 'a missing pod is the API server\'s NotFound', line: 'kubectl get pod nope', message: 'Error from server (NotFound): pods "nope" not found' },
  { name: 'an unknown resource type is kubectl\'s own error', line: 'kubectl get foos', message: 'error: the server doesn\'t have a resource type "foos"' },
  { name: 'a kubectl format the console does not print says which it does', line: 'kubectl get pods -o custom-columns=NAME:.metadata.name', message: 'error: the console prints -o wide, name, json, yaml and jsonpath=TEMPLATE, not -o custom-columns' },
  { name: 'a format kubectl does not know is kubectl\'s error', line: 'kubectl get pods -o table', message: 'error: unable to match a printer suitable for the output format "table", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml' },
  { name: 'an unknown flag is cobra\'s error', line: 'kubectl get pods --bogus', message: 'error: unknown flag: --bogus' },
  { name: 'a template that cannot parse is reported as kubectl does', line: "kubectl get pod web -o jsonpath='{.a && .b}'", message: "error: error parsing jsonpath {.a && .b}, unrecognized character in action: U+0026 '&'" },
  {
    name: 'a template that fails while running is reported as kubectl does, without the object dump',
    line: "kubectl get pod web -o jsonpath='{.status.conditions[9]}'",
    message: 'error: error executing jsonpath "{.status.conditions[9]}": Error executing template: array index out of bounds: index 9, length 5. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{.status.conditions[9]}',
  },
  { name: 'an unknown command suggests help', line: 'frobnicate the pod', message: 'unknown command "frobnicate"; type help for what the console understands' },
  { name: 'an unsupported kubectl command says what the console runs', line: 'kubectl logs web', message: 'error: unknown command "logs" for "kubectl"; the console runs get, describe and auth can-i (type help)' },
];

for (const c of errors) test(c.name, () => fails(pod(), c.line, c.message));

const expressions: { name: string; expr: string; want: string }[] = [
  { name: 'a field path is read on the current pod', expr: 'status.phase', want: 'Running' },
  { name: 'pod. may start the path', expr: 'pod.spec.containers[0].image', want: 'nginx:1.27' },
  { name: 'a condition is reached by index', expr: 'status.conditions[0].type', want: 'PodReadyToStartContainers' },
  { name: 'a bare JSONPath filter selects the Ready condition', expr: 'pod.status.conditions[?(@.type=="Ready")].status', want: 'True' },
  { name: 'a braced JSONPath template runs as kubectl -o jsonpath', expr: '{.status.conditions[?(@.type=="Ready")].status}', want: 'True' },
  { name: 'node is the node the pod is bound to', expr: 'node.metadata.name', want: '{NODE}' },
  { name: 'events are the recorded events as core/v1 Events', expr: 'events[*].reason', want: 'Scheduled Pulling Pulled Created Started' },
  // The kubelet's events carry the container's reference as involvedObject.fieldPath; the scheduler's has none (omitempty).
  { name: 'a kubelet event names its container in involvedObject.fieldPath', expr: 'events[*].involvedObject.fieldPath', want: 'spec.containers{app} spec.containers{app} spec.containers{app} spec.containers{app}' },
  { name: 'a wildcard then an index walks every container', expr: 'spec.containers[*].ports[0].containerPort', want: '80' },
  { name: 'recursive descent finds every image field', expr: 'pod..image', want: 'nginx:1.27 docker.io/library/nginx:1.27' },
  { name: 'an object prints as indented JSON', expr: 'metadata.labels', want: '{\n  "app": "web"\n}' },
  { name: 'a known field that is not set prints nothing', expr: 'status.nominatedNodeName', want: '' },
];

for (const c of expressions) test(c.name, () => ok(pod(), c.expr, fill(pod(), 'web', c.want)));

const expressionErrors: { name: string; expr: string; message: string }[] = [
  { name: 'a mistyped field is named with where it was looked for and the closest field', expr: 'pod.status.phse', message: 'unknown field "phse" in pod.status; did you mean "phase"?' },
  { name: 'a mistyped field without pod. is reported against the pod all the same', expr: 'spec.conatiners', message: 'unknown field "conatiners" in pod.spec; did you mean "containers"?' },
  { name: 'a field of a list asks for an index', expr: 'spec.containers.image', message: 'pod.spec.containers is a list, it has no field "image"; index it first, e.g. [0] or [*]' },
  { name: 'an index past the end says where', expr: 'status.conditions[9]', message: 'array index out of bounds: index 9, length 5 in pod.status.conditions' },
  { name: 'a field of a string is refused', expr: 'status.phase.length', message: 'pod.status.phase is a string, it has no field "length"' },
  { name: 'an expression that cannot parse says why', expr: 'status.conditions[?(@.type=="Ready" && @.status=="True")]', message: 'cannot parse "status.conditions[?(@.type==\\"Ready\\" && @.status==\\"True\\")]": unrecognized character in action: U+0026 \'&\'' },
];

for (const c of expressionErrors) test(c.name, () => fails(pod(), c.expr, c.message));

test('an expression for a pod that does not exist yet says so', () => {
  const sim = simulate(fixture('../../examples/pod.yaml'), {}, { kind: 'anonymous' });
  fails(sim, 'status.phase', 'there is no pod yet: the manifest has not been applied, or it made none');
});

test('the scope names the pod expressions speak of; without it, the workload\'s first pod', () => {
  const sim = simulate(fixture('../../examples/deployment.yaml'));
  const names = sim.pods().map((p) => p.metadata?.name ?? '');
  assert.equal(names.length, 3);
  assert.deepEqual(evaluateConsole(sim, 'metadata.name'), { output: names[0] });
  assert.deepEqual(evaluateConsole(sim, 'metadata.name', { podRef: `Pod/default/${names[2]}` }), { output: names[2] });
  assert.deepEqual(evaluateConsole(sim, 'metadata.ownerReferences[0].kind', { podRef: `Pod/default/${names[1]}` }), { output: 'ReplicaSet' });
});

test('nothing typed is answered, never thrown', () => {
  for (const line of ['', '   ', '{', '}}', '[[', '..', 'pod[', "kubectl get pods -o jsonpath='{", 'etcdctl get', 'kubectl auth can-i']) {
    const r = evaluateConsole(pod(), line);
    assert.ok('output' in r || (r.error === true && r.message.length > 0), line);
  }
});
