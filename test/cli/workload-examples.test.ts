// The workload examples run as the README says, on the example cluster, to the outcome and the key lines their
// comments promise: a StatefulSet's ordinals and claims in order, a DaemonSet kept off the tainted node, a CronJob's
// Jobs every minute with its history limit at work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJson, type Report } from './harness';

const CLUSTER = ['--cluster', 'examples/cluster.yaml'];

/** eventsFrom lists one component's events of one reason as "AT MESSAGE". */
const eventsFrom = (r: Report, source: string, reason: string) => r.events.filter((e) => e.source === source && e.reason === reason).map((e) => `${e.at} ${e.message}`);

const cases: { name: string; args: string[]; outcome: string; check: (r: Report) => void }[] = [
  {
    name: 'the StatefulSet example creates each claim then its pod, one ordinal at a time, and binds every claim',
    args: ['examples/statefulset.yaml', ...CLUSTER], outcome: 'Running',
    check: (r) => {
      assert.deepEqual(eventsFrom(r, 'statefulset-controller', 'SuccessfulCreate'), [
        '0 Create Claim www-web-0 Pod web-0 in StatefulSet web success', '0 Create Pod web-0 in StatefulSet web successful',
        '2 Create Claim www-web-1 Pod web-1 in StatefulSet web success', '2 Create Pod web-1 in StatefulSet web successful',
        '4 Create Claim www-web-2 Pod web-2 in StatefulSet web success', '4 Create Pod web-2 in StatefulSet web successful',
      ]);
      assert.deepEqual(eventsFrom(r, 'default-scheduler', 'Scheduled').map((m) => m.replace(/^\S+ /, '')), [
        'Successfully assigned default/web-0 to big-1', 'Successfully assigned default/web-1 to small-1', 'Successfully assigned default/web-2 to big-1',
      ]);
      const claims = r.objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((o) => `${o.metadata.name} ${String(o.spec?.volumeName)} ${String(o.status?.phase)}`);
      assert.deepEqual(claims.sort(), ['www-web-0 pv-1 Bound', 'www-web-1 pv-2 Bound', 'www-web-2 pv-3 Bound']);
    },
  },
  {
    name: 'the DaemonSet example puts one pod on each node but the tainted gpu-1',
    args: ['examples/daemonset.yaml', ...CLUSTER], outcome: 'Running',
    check: (r) => {
      const need = r.trace.find((t) => t.phase === 'controllers.daemonset' && t.result.includes('need a daemon pod'));
      assert.equal(need?.result, '2 of 3 nodes need a daemon pod: big-1, small-1');
      assert.deepEqual(need?.detail.nodes, { 'big-1': 'needs a daemon pod', 'gpu-1': 'should not run a daemon pod', 'small-1': 'needs a daemon pod' });
      const nodes = r.objects.filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('log-agent-')).map((o) => String(o.spec?.nodeName));
      assert.deepEqual(nodes.sort(), ['big-1', 'small-1']);
    },
  },
  {
    name: 'the DaemonSet example on the embedded cluster stays off the tainted control-plane node',
    args: ['examples/daemonset.yaml'], outcome: 'Running',
    check: (r) => {
      const need = r.trace.find((t) => t.phase === 'controllers.daemonset' && t.result.includes('need a daemon pod'));
      assert.equal(need?.result, '2 of 3 nodes need a daemon pod: worker-1, worker-2');
    },
  },
  {
    name: 'the CronJob example starts a Job each minute, and its history limit deletes the oldest success',
    args: ['examples/cronjob.yaml', ...CLUSTER, '--for', '4m'], outcome: 'Succeeded',
    check: (r) => {
      assert.deepEqual(eventsFrom(r, 'cronjob-controller', 'SuccessfulCreate'), ['60.1 Created job hello-29453761', '120.1 Created job hello-29453762', '180.1 Created job hello-29453763']);
      assert.deepEqual(eventsFrom(r, 'cronjob-controller', 'SuccessfulDelete'), ['186.1 Deleted job hello-29453761']);
      const jobs = r.objects.filter((o) => o.kind === 'Job').map((o) => o.metadata.name);
      assert.deepEqual(jobs.sort(), ['hello-29453762', 'hello-29453763']);
    },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report } = runJson('run', ...c.args);
    assert.equal(report.outcome, c.outcome);
    assert.equal(status, 0);
    c.check(report);
  });
}
