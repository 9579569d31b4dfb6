// NodePorts: host ports must be free on the node, 0.0.0.0 conflicting with every address of the same protocol and port.
// Cases from TestNodePorts in pkg/scheduler/framework/plugins/nodeports/node_ports_test.go (ports as "PROTO/IP/PORT").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { ErrReason, NodePorts } from '../../../src/engine/scheduler/plugins/nodeports';
import { makeNode, makePod, runFilter } from './builders';

function podWithPorts(name: string, ...ports: string[]): Pod {
  const pod = makePod(name);
  for (const p of ports) {
    const [protocol, ip, port] = p.split('/');
    pod.hostPort(Number(port), protocol, ip);
  }
  return pod.obj();
}

const FITS = { code: 'Success', reasons: [] };
const CONFLICT = { code: 'Unschedulable', reasons: [ErrReason] };

const cases: { name: string; pod: string[]; existing: string[]; want: object }[] = [
  { name: 'Nothing running', pod: [], existing: [], want: FITS },
  { name: 'Other port', pod: ['UDP/127.0.0.1/8080'], existing: ['UDP/127.0.0.1/9090'], want: FITS },
  { name: 'Same udp port', pod: ['UDP/127.0.0.1/8080'], existing: ['UDP/127.0.0.1/8080'], want: CONFLICT },
  { name: 'Same tcp port', pod: ['TCP/127.0.0.1/8080'], existing: ['TCP/127.0.0.1/8080'], want: CONFLICT },
  { name: 'Different host ip udp', pod: ['UDP/127.0.0.2/8080'], existing: ['UDP/127.0.0.1/8080'], want: FITS },
  { name: 'Different host ip tcp', pod: ['TCP/127.0.0.2/8080'], existing: ['TCP/127.0.0.1/8080'], want: FITS },
  { name: 'Second udp port conflict', pod: ['UDP/127.0.0.1/8080', 'UDP/127.0.0.1/8081'], existing: ['UDP/127.0.0.1/8081'], want: CONFLICT },
  { name: 'First tcp port conflict', pod: ['TCP/127.0.0.1/8080', 'TCP/127.0.0.1/8081'], existing: ['TCP/127.0.0.1/8080'], want: CONFLICT },
  { name: 'First tcp port conflict due to 0.0.0.0 hostIP', pod: ['TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'], existing: ['TCP/0.0.0.0/8001'], want: CONFLICT },
  { name: 'TCP hostPort conflict due to 0.0.0.0 hostIP', pod: ['TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'], existing: ['TCP/10.0.10.10/8001'], want: CONFLICT },
  { name: 'Second tcp port conflict to 0.0.0.0 hostIP', pod: ['TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'], existing: ['TCP/127.0.0.1/8001'], want: CONFLICT },
  { name: 'Second different protocol', pod: ['UDP/0.0.0.0/8001'], existing: ['TCP/0.0.0.0/8001'], want: FITS },
  { name: 'UDP hostPort conflict due to 0.0.0.0 hostIP', pod: ['UDP/0.0.0.0/8001', 'TCP/0.0.0.0/8001'], existing: ['UDP/10.0.10.10/8001'], want: CONFLICT },
  { name: 'A port without hostIP or protocol binds TCP on 0.0.0.0', pod: ['//8001'], existing: ['TCP/192.168.1.1/8001'], want: CONFLICT },
];

for (const c of cases) {
  test(c.name, () => {
    const existing = podWithPorts('existing', ...c.existing);
    existing.spec!.nodeName = 'node1';
    assert.deepEqual(runFilter(new NodePorts(), podWithPorts('p', ...c.pod), makeNode('node1').obj(), [existing]), c.want);
  });
}

test('A sidecar host port counts, a plain init container port does not', () => {
  const existing = podWithPorts('existing', 'TCP/0.0.0.0/80', 'TCP/0.0.0.0/81');
  existing.spec!.nodeName = 'node1';
  const pod = makePod('p').obj();
  pod.spec!.initContainers = [
    { name: 'once', image: 'busybox', ports: [{ containerPort: 80, hostPort: 80 }] },
    { name: 'sidecar', image: 'envoy', restartPolicy: 'Always', ports: [{ containerPort: 81, hostPort: 81 }] },
  ];
  assert.deepEqual(runFilter(new NodePorts(), pod, makeNode('node1').obj(), [existing]), CONFLICT);
  pod.spec!.initContainers.pop();
  assert.deepEqual(runFilter(new NodePorts(), pod, makeNode('node1').obj(), [existing]), FITS);
});

test('NodePorts reads the first hostPort field', () => {
  assert.equal(new NodePorts().fieldPath(podWithPorts('p', 'TCP/0.0.0.0/80')), 'spec.containers[0].ports[0].hostPort');
});
