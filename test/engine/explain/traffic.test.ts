// The race between kube-proxy dropping a deleted pod's endpoint and the kubelet's SIGTERM, read from trace entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trafficOnDelete } from '../../../src/engine/explain/traffic';
import type { DiagnosisTraceEntry } from '../../../src/engine/explain/pod-view';

const POD = 'Pod/default/web-1';
const at = (t: number, phase: string, result: string, detail: Record<string, unknown> = {}, object = POD): DiagnosisTraceEntry => ({ at: t, phase, object, result, detail });
const sends = at(2, 'kubeproxy.sync', 'kube-proxy on 3 nodes sends default/web:http (10.96.0.20:80/TCP) to 10.244.1.2:8080 through KUBE-SEP-X; 2 endpoints', { endpoint: '10.244.1.2:8080' });
const deleted = (t: number) => at(t, 'apiserver.delete', 'graceful deletion');
const sigterm = (t: number) => at(t, 'kubelet.terminate', 'StopContainer app: SIGTERM, SIGKILL after 30s');
const dropped = (t: number) => at(t, 'kubeproxy.sync', 'kube-proxy on 3 nodes no longer sends new connections for default/web:http (10.96.0.20:80/TCP) to 10.244.1.2:8080 (its pod is terminating; it still serves, but the ready endpoints are preferred); 1 endpoint');
const fallback = (t: number) => at(t, 'kubeproxy.sync', 'kube-proxy on 3 nodes: default/web:http: 1 endpoint, serving but terminating', { terminatingFallback: true, endpoints: ['10.244.1.2:8080'] }, 'Service/default/web');

const cases: { name: string; trace: DiagnosisTraceEntry[]; want?: { exposed: boolean; fallback: boolean; sigtermAt?: number; stoppedAt?: number; summary: RegExp; advice?: RegExp } }[] = [
  { name: 'a pod no Service sent traffic to has no traffic section', trace: [deleted(5), sigterm(5)] },
  { name: 'a pod that was not deleted has none', trace: [sends] },
  {
    name: 'SIGTERM before the nodes dropped the endpoint: exposed, with the preStop advice',
    trace: [sends, deleted(10), sigterm(10), dropped(11)],
    want: { exposed: true, fallback: false, sigtermAt: 10, stoppedAt: 11, summary: /stopped sending it new connections at 11s, 1s after the delete; its containers got SIGTERM at 10s, 1s earlier: a request sent in between reached a process that was shutting down$/, advice: /^a preStop hook that waits/ },
  },
  {
    name: 'a preStop hook that outlasts the sync: SIGTERM after the nodes dropped it',
    trace: [sends, deleted(10), dropped(11), sigterm(15)],
    want: { exposed: false, fallback: false, sigtermAt: 15, stoppedAt: 11, summary: /its containers got SIGTERM at 15s, 4s later: no new connection reached a process shutting down$/ },
  },
  {
    name: 'every endpoint terminating: kube-proxy keeps sending to it until it leaves the slice',
    trace: [sends, deleted(10), sigterm(10), fallback(11), dropped(13)],
    want: { exposed: true, fallback: true, sigtermAt: 10, stoppedAt: 13, summary: /no other endpoint of the Service was ready/, advice: /^every endpoint of the Service was terminating/ },
  },
  {
    name: 'the run ended before kube-proxy dropped it',
    trace: [sends, deleted(10), sigterm(10)],
    want: { exposed: true, fallback: false, sigtermAt: 10, summary: /^the nodes still sent it new connections when the run ended \(kube-proxy had not dropped 10\.244\.1\.2:8080\)/, advice: /^a preStop hook/ },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const got = trafficOnDelete(c.trace, POD);
    if (!c.want) return assert.equal(got, undefined);
    assert.ok(got);
    assert.deepEqual({ exposed: got.exposed, fallback: got.fallback, sigtermAt: got.sigtermAt, stoppedAt: got.stoppedAt }, { exposed: c.want.exposed, fallback: c.want.fallback, sigtermAt: c.want.sigtermAt, stoppedAt: c.want.stoppedAt });
    assert.match(got.summary, c.want.summary);
    if (c.want.advice) assert.match(got.advice ?? '', c.want.advice);
    else assert.equal(got.advice, undefined);
  });
}
