// `kubectl cordon`, `uncordon` and `drain` as the console reads them, with kubectl's flag rules: pflag's messages for a
// value of the wrong form, cobra's for an unknown flag, Complete's usage error without a node
// (staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go at v0.36.3). The engine's console leaves them to the debugger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConsole } from '../../../src/engine/console';
import { isNodeCommand, parseNodeCommand } from '../../../src/engine/console/node-command';
import { DEFAULT_DRAIN_FLAGS } from '../../../src/engine/kubectl/node-command';
import { commandLine } from '../../../src/engine/kubectl/node-command';
import { simulate } from '../../support/budgets';

const drain = (flags: Partial<typeof DEFAULT_DRAIN_FLAGS> = {}) => ({ verb: 'drain', node: 'worker-1', flags: { ...DEFAULT_DRAIN_FLAGS, ...flags } });

const cases = [
  { name: 'cordon a node', words: 'cordon worker-1', want: { verb: 'cordon', node: 'worker-1' } },
  { name: 'uncordon a node', words: 'uncordon worker-2', want: { verb: 'uncordon', node: 'worker-2' } },
  { name: 'drain with kubectl\'s defaults', words: 'drain worker-1', want: drain() },
  {
    name: 'drain with every flag, values inline and as the next word',
    words: 'drain worker-1 --ignore-daemonsets --delete-emptydir-data --force --disable-eviction --grace-period 10 --timeout=1m30s --skip-wait-for-delete-timeout=60 --pod-selector=app=web',
    want: drain({ ignoreDaemonSets: true, deleteEmptyDirData: true, force: true, disableEviction: true, gracePeriodSeconds: 10, timeoutMs: 90_000, skipWaitForDeleteTimeoutSeconds: 60, podSelector: 'app=web' }),
  },
  { name: 'a boolean set false', words: 'drain worker-1 --force=false', want: drain() },
  { name: 'a timeout without a unit, in pflag\'s words', words: 'drain worker-1 --timeout=30', want: { error: 'error: invalid argument "30" for "--timeout" flag: time: missing unit in duration "30"\nSee \'kubectl drain --help\' for usage.' } },
  { name: 'a boolean of the wrong form', words: 'drain worker-1 --force=maybe', want: { error: 'error: invalid argument "maybe" for "--force" flag: strconv.ParseBool: parsing "maybe": invalid syntax\nSee \'kubectl drain --help\' for usage.' } },
  { name: 'a pod selector that does not parse, in Complete\'s words', words: 'drain worker-1 --pod-selector==x', want: { error: 'error: --pod-selector=<pod_selector> must be a valid label selector\nSee \'kubectl drain --help\' for usage.' } },
  { name: 'a flag drain has not, in cobra\'s words', words: 'drain worker-1 --cascade=orphan', want: { error: 'error: unknown flag: --cascade\nSee \'kubectl drain --help\' for usage.' } },
  { name: 'a drain flag on cordon', words: 'cordon worker-1 --force', want: { error: 'error: unknown flag: --force\nSee \'kubectl cordon --help\' for usage.' } },
  { name: 'no node: Complete\'s usage error', words: 'drain', want: { error: 'error: USAGE: drain NODE [flags]\nSee \'kubectl drain -h\' for help and examples' } },
  { name: 'one node at a time', words: 'uncordon worker-1 worker-2', want: { error: 'the console uncordons one node at a time: "kubectl uncordon NODE"' } },
];

for (const c of cases) test(`console kubectl ${c.words}: ${c.name}`, () => assert.deepEqual(parseNodeCommand(c.words.split(' ').filter(Boolean)), c.want));

test('isNodeCommand knows kubectl cordon, uncordon and drain lines from the others', () => {
  assert.deepEqual(['kubectl drain worker-1', ' kubectl  cordon', 'kubectl uncordon x', 'kubectl drained', 'kubectl get nodes', 'drain worker-1'].map(isNodeCommand), [true, true, true, false, false, false]);
});

test('commandLine writes the flags given, in kubectl\'s spelling', () => {
  assert.equal(commandLine(drain({ ignoreDaemonSets: true, timeoutMs: 120_000, gracePeriodSeconds: 0 }) as never), 'kubectl drain worker-1 --ignore-daemonsets --grace-period=0 --timeout=2m0s');
  assert.equal(commandLine({ verb: 'uncordon', node: 'worker-2' }), 'kubectl uncordon worker-2');
});

test('the engine\'s console leaves a drain to the debugger, which replays the run with it', () => {
  const sim = simulate('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n');
  assert.deepEqual(evaluateConsole(sim, 'kubectl drain worker-1'), { error: true, message: 'error: kubectl drain is run by the debugger, which replays the run with the command at the current virtual time; it is not available here' });
});
