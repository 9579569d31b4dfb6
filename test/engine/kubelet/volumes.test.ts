// The volume manager's pieces that need no cluster: the mount back-off and which volumes a pod's containers use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/engine/api/types';
import { nextDurationBeforeRetry, usedVolumeNames } from '../../../src/engine/kubelet/volumes';

test('the mount back-off starts at 500 ms and doubles up to 2m2s', () => {
  // pkg/util/goroutinemap/exponentialbackoff (ExponentialBackoff.Update).
  const seen: number[] = [];
  for (let d = 0, i = 0; i < 12; i++) seen.push((d = nextDurationBeforeRetry(d)));
  assert.deepEqual(seen, [500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 122_000, 122_000, 122_000, 122_000]);
});

test('the volumes a pod waits for are those its init, regular and ephemeral containers mount or use as devices', () => {
  // pkg/volume/util (GetPodVolumeNames) as the populator and getExpectedVolumes call it.
  const pod: Pod = {
    spec: {
      initContainers: [{ name: 'init', volumeMounts: [{ name: 'seed', mountPath: '/seed' }] }],
      containers: [{ name: 'app', volumeMounts: [{ name: 'data', mountPath: '/data' }], volumeDevices: [{ name: 'raw', devicePath: '/dev/xvda' }] }],
      ephemeralContainers: [{ name: 'debug', volumeMounts: [{ name: 'tools', mountPath: '/tools' }] }],
      volumes: [{ name: 'seed' }, { name: 'data' }, { name: 'raw' }, { name: 'tools' }, { name: 'unused' }],
    },
  };
  assert.deepEqual([...usedVolumeNames(pod)].sort(), ['data', 'raw', 'seed', 'tools']);
});
