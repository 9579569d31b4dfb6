// `kubectl delete pod ...` as the console reads it, with kubectl's flag rules
// (staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go Complete and Validate; pflag's invalid-argument message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DELETE_USAGE, isDeleteCommand, parseDeleteCommand } from '../../../src/engine/console/delete';

const web = { namespace: 'default', name: 'web' };

const cases = [
  { name: 'a pod by name, in the default namespace', words: 'pod web', want: { pod: web } },
  { name: 'pod/NAME with a namespace and a grace period', words: 'pod/web -n dev --grace-period=5', want: { pod: { namespace: 'dev', name: 'web' }, gracePeriodSeconds: 5 } },
  { name: '--now is --grace-period=1', words: 'po web --now', want: { pod: web, gracePeriodSeconds: 1 } },
  { name: '--force alone is sent as it is (kubectl turns it into a grace period of 0)', words: '--force pods web', want: { pod: web, force: true } },
  { name: '--grace-period 0 --force, the flag value a word of its own', words: '--grace-period 0 --force pod web', want: { pod: web, gracePeriodSeconds: 0, force: true } },
  { name: '--grace-period=0 without --force is kept (kubectl sends 1)', words: 'pod web --grace-period=0', want: { pod: web, gracePeriodSeconds: 0 } },
  { name: '--now with --grace-period is refused as Complete refuses it', words: 'pod web --now --grace-period=3', want: { error: 'error: --now and --grace-period cannot be specified together' } },
  { name: '--force with a grace period above 0 is refused as Validate refuses it', words: 'pod web --force --grace-period=3', want: { error: 'error: --force and --grace-period greater than 0 cannot be specified together' } },
  { name: '--now with --force is refused too: --now is a grace period of 1', words: 'pod web --now --force', want: { error: 'error: --force and --grace-period greater than 0 cannot be specified together' } },
  { name: 'a grace period that is not a number gets pflag\'s message', words: 'pod web --grace-period=soon', want: { error: 'error: invalid argument "soon" for "--grace-period" flag: strconv.ParseInt: parsing "soon": invalid syntax' } },
  { name: 'an unknown flag gets cobra\'s message', words: 'pod web --cascade=orphan', want: { error: 'error: unknown flag: --cascade' } },
  { name: 'another kind is not deleted here', words: 'deployment web', want: { error: `the console deletes pods only: "${DELETE_USAGE}"` } },
  { name: 'one pod at a time', words: 'pod web api', want: { error: `the console deletes one pod at a time: "${DELETE_USAGE}"` } },
  { name: 'nothing named', words: '', want: { error: `the console runs "${DELETE_USAGE}"` } },
];

for (const c of cases) test(`kubectl delete ${c.words}: ${c.name}`, () => assert.deepEqual(parseDeleteCommand(c.words.split(' ').filter(Boolean)), c.want));

test('isDeleteCommand knows a kubectl delete line from the other commands', () => {
  assert.deepEqual(['kubectl delete pod web', '  kubectl  delete', 'kubectl get pods', 'kubectl deletes', 'delete pod web'].map(isDeleteCommand), [true, true, false, false, false]);
});
