// A pod's conditions in an EndpointSlice. See staging/src/k8s.io/endpointslice/utils.go (podToEndpoint).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/engine/api/types';
import { endpointConditions } from '../../../src/engine/controllers/endpoints';

const pod = (ready: boolean, terminating: boolean): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'web', ...(terminating ? { deletionTimestamp: '2026-01-01T00:00:30Z' } : {}) },
  spec: { containers: [] },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
} as Pod);

const cases: { name: string; ready: boolean; terminating: boolean; publish: boolean; want: { ready: boolean; serving: boolean; terminating: boolean } }[] = [
  { name: 'a ready pod is ready and serving', ready: true, terminating: false, publish: false, want: { ready: true, serving: true, terminating: false } },
  { name: 'a pod not ready is neither', ready: false, terminating: false, publish: false, want: { ready: false, serving: false, terminating: false } },
  { name: 'a terminating pod still passing readiness is serving but not ready', ready: true, terminating: true, publish: false, want: { ready: false, serving: true, terminating: true } },
  { name: 'publishNotReadyAddresses makes every endpoint ready', ready: false, terminating: true, publish: true, want: { ready: true, serving: false, terminating: true } },
];
for (const c of cases) test(`podToEndpoint: ${c.name}`, () => assert.deepEqual(endpointConditions(pod(c.ready, c.terminating), c.publish), c.want));
