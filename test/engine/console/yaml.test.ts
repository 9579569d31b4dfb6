// kubectl -o yaml's text: go-yaml v2 as sigs.k8s.io/yaml drives it (gopkg.in/yaml.v2 encode.go, resolve.go, emitterc.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goYaml } from '../../../src/engine/console/yaml';

const cases: { name: string; value: unknown; want: string }[] = [
  { name: 'keys are sorted and lists sit at their key\'s indentation', value: { b: [{ z: 1, x: 2 }], a: 'v' }, want: 'a: v\nb:\n- x: 2\n  z: 1\n' },
  { name: 'strings (keys too) a YAML 1.1 reader would take for a timestamp, number or bool are double-quoted', value: { t: '2026-01-01T00:00:00Z', rv: '1180', b: 'True', y: 'yes', e: '' }, want: 'b: "True"\ne: ""\nrv: "1180"\nt: "2026-01-01T00:00:00Z"\n"y": "yes"\n' },
  { name: 'strings that cannot be plain are single-quoted', value: { m: 'containers with unready status: [app]', l: '[x]', s: ' lead' }, want: "l: '[x]'\nm: 'containers with unready status: [app]'\ns: ' lead'\n" },
  { name: 'a string with a final newline is a literal block; without one, a stripped block', value: { a: 'x\ny\n', b: 'x\ny' }, want: 'a: |\n  x\n  y\nb: |-\n  x\n  y\n' },
  { name: 'null, empty maps and empty lists print inline', value: { z: null, m: {}, l: [] }, want: 'l: []\nm: {}\nz: null\n' },
  {
    name: 'a long plain string is folded at the first space past column 80',
    value: { message: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: not helpful.' },
    want: "message: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient\n  cpu. preemption: not helpful.'\n",
  },
];

for (const c of cases) test(c.name, () => assert.equal(goYaml(c.value), c.want));
