// kubectl's client side of server-side printing: the priority 0 columns (all with -o wide), headers upper-cased, and
// each cell as tableprinter.go writes it (staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go, printTable).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { printTable } from '../../../src/engine/console/tables';

const now = Date.parse('2026-01-01T01:00:00Z');
const event = (message: string): KubeObject => ({
  kind: 'Event', metadata: { name: 'web.1', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
  involvedObject: { kind: 'Pod', name: 'web' }, reason: 'Failed', message, type: 'Warning', source: { component: 'kubelet' }, count: 2,
  firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:30:00Z',
});
const priorityClass: KubeObject = { kind: 'PriorityClass', metadata: { name: 'high', creationTimestamp: '2026-01-01T00:00:00Z' }, value: 1000, globalDefault: true };

const cases: { name: string; kind: string; obj: KubeObject; wide: boolean; want: { header: string[]; rows: string[][] } }[] = [
  {
    name: 'without -o wide only the priority 0 columns print',
    kind: 'Event', obj: event('boom'), wide: false,
    want: { header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], rows: [['30m', 'Warning', 'Failed', 'pod/web', 'boom']] },
  },
  {
    name: '-o wide prints every column, an integer cell in decimal',
    kind: 'Event', obj: event('boom'), wide: true,
    want: {
      header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'],
      rows: [['30m', 'Warning', 'Failed', 'pod/web', '', 'kubelet', 'boom', '60m', '2', 'web.1']],
    },
  },
  {
    name: 'a string cell stops at its first line break, with an ellipsis',
    kind: 'Event', obj: event('first line\nsecond line'), wide: false,
    want: { header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], rows: [['30m', 'Warning', 'Failed', 'pod/web', 'first line...']] },
  },
  {
    name: 'an escape character prints as ^[',
    kind: 'Event', obj: event('\x1b[31mred'), wide: false,
    want: { header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], rows: [['30m', 'Warning', 'Failed', 'pod/web', '^[[31mred']] },
  },
  {
    name: 'integer and boolean cells print as Go prints them',
    kind: 'PriorityClass', obj: priorityClass, wide: false,
    want: { header: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'], rows: [['high', '1000', 'true', '60m', '']] },
  },
];

for (const c of cases) test(c.name, () => assert.deepEqual(printTable(c.kind, [c.obj], now, c.wide), c.want));
