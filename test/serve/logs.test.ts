// kubectl logs against serve with the lines a Behavior gives a container: the current run's lines up to now, the
// last run's with --previous (and while the container waits to restart), as the kubelet reads them back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ServeProcess, startServe } from './serve-process';

const BEHAVIOR = `apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
containers:
  app:
    readyAfterSeconds: 2
    logs:
      - {at: 0, line: "starting nginx"}
      - {at: 1, line: "listening on :80"}
      - {at: 100000, line: "much later"}
  crash:
    exitAfterSeconds: 3
    exitCode: 1
    logs:
      - {at: 0, line: "connecting to the database"}
      - {at: 2, line: "fatal: database unreachable"}
`;

let serve: ServeProcess;

before(async () => {
  serve = await startServe('logs', BEHAVIOR, 200);
});

after(() => serve?.stop());

test('kubectl logs prints the lines the running container has written so far, not those still to come', async () => {
  const pod = serve.file('web.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n    readinessProbe: {tcpSocket: {port: 80}}\n');
  assert.equal((await serve.kubectl('apply', '-f', pod)).code, 0);
  const ready = await serve.kubectl('wait', '--for=condition=Ready', 'pod/web', '--timeout=60s');
  assert.equal(ready.code, 0, ready.stderr);
  const logs = await serve.kubectl('logs', 'web');
  assert.equal(logs.code, 0, logs.stderr);
  assert.equal(logs.stdout, 'starting nginx\nlistening on :80\n');
});

test('kubectl logs --previous prints the lines of the last run of a crashed container, to its exit', async () => {
  const pod = serve.file('crash.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: crash\nspec:\n  containers:\n  - name: crash\n    image: busybox:1.36\n');
  assert.equal((await serve.kubectl('apply', '-f', pod)).code, 0);
  // The restarts come fast at this speed (kubectl wait for restartCount=1 can miss it): polled until there is one, a
  // bounded number of times. Every run writes the same lines, so which run is the last does not matter.
  let restarts = 0;
  for (let i = 0; i < 300 && restarts < 1; i++) restarts = Number((await serve.kubectl('get', 'pod', 'crash', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}')).stdout || 0);
  assert.ok(restarts >= 1, 'the container restarted');
  const previous = await serve.kubectl('logs', 'crash', '--previous');
  assert.equal(previous.code, 0, previous.stderr);
  assert.equal(previous.stdout, 'connecting to the database\nfatal: database unreachable\n');
});
