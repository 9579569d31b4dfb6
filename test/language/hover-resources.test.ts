// Hover on resources: a quantity under requests or limits says the amount and what reads it; requests that are set
// show no default; and every "Read by" is the map line breakpoints stop by (src/engine/runtime/field-readers.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../src/language/service';
import { DEFAULT_SETTINGS } from '../../src/language/settings';
import { readersOf } from '../../src/engine/runtime/field-readers';

const POD = [
  'apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', 'spec:', '  containers:', '    - name: app', '      image: nginx:1.27',
  '      resources:', '        requests:', '          cpu: 250m', '          memory: 64Mi', '        limits:', '          cpu: "1"',
  '          memory: 128Mi', '          nvidia.com/gpu: 2', '',
].join('\n');

function hoverAt(line: number, needle: string): string {
  const service = new LanguageService(() => '');
  service.configure(DEFAULT_SETTINGS);
  service.update('file:///resources.yaml', 1, POD);
  const character = (POD.split('\n')[line] ?? '').indexOf(needle) + 1;
  const hover = service.hover('file:///resources.yaml', { line, character });
  return (hover?.contents as { value: string } | undefined)?.value ?? '';
}

/** readByOf lists the phases of a hover's "Read by". */
function readByOf(value: string): string[] {
  const list = /Read by:\n((?:- .*\n?)*)/.exec(value)?.[1] ?? '';
  return [...list.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);
}

const cases: { name: string; line: number; needle: string; field: string; want: RegExp[]; not?: RegExp }[] = [
  {
    name: 'a cpu request says the amount in cores and millicores, what it is for, and what reads it',
    line: 10, needle: 'cpu', field: 'spec.containers[0].resources.requests.cpu',
    want: [/^\*\*cpu\*\* request `resource\.Quantity`/, /`250m` = 0\.25 CPU \(250 millicores\)/, /the scheduler reserves on the node/, /`scheduler\.filter` — NodeResourcesFit/],
  },
  {
    name: 'a memory request says the amount in bytes',
    line: 11, needle: 'memory', field: 'spec.containers[0].resources.requests.memory',
    want: [/`64Mi` = 67,108,864 bytes \(64 MiB\)/, /`kubelet\.admit`/],
  },
  {
    name: 'a quoted cpu limit is read as the quantity it holds, and the limit says what happens above it',
    line: 13, needle: 'cpu', field: 'spec.containers[0].resources.limits.cpu',
    want: [/^\*\*cpu\*\* limit/, /`1` = 1 CPU \(1,000 millicores\)/, /throttled, not killed/, /`apiserver\.admit\.mutating` — LimitRanger/],
  },
  {
    name: 'a memory limit says the container is OOMKilled above it',
    line: 14, needle: 'memory', field: 'spec.containers[0].resources.limits.memory',
    want: [/`128Mi` = 134,217,728 bytes \(128 MiB\)/, /OOMKilled/],
  },
  {
    name: 'an extended resource is counted as it is',
    line: 15, needle: 'nvidia', field: 'spec.containers[0].resources.limits.nvidia.com/gpu',
    want: [/^\*\*nvidia\.com\/gpu\*\* limit/, /`2` = 2/],
  },
  {
    name: 'requests that are set show no default (limits would have filled them in)',
    line: 9, needle: 'requests', field: 'spec.containers[0].resources.requests',
    want: [/^\*\*requests\*\*/, /`scheduler\.filter`/], not: /Default:/,
  },
  {
    name: 'the image is read by ImageLocality\'s score as well as by the image pull',
    line: 7, needle: 'image', field: 'spec.containers[0].image',
    want: [/`scheduler\.score` — ImageLocality/, /`kubelet\.imagePull`/],
  },
];

for (const c of cases) {
  test(`hover: ${c.name}`, () => {
    const value = hoverAt(c.line, c.needle);
    for (const w of c.want) assert.match(value, w);
    if (c.not) assert.doesNotMatch(value, c.not);
    // One source: the hover lists what the map of field readers says, in its order.
    assert.deepEqual(readByOf(value), readersOf(c.field).map((r) => r.phase));
  });
}
