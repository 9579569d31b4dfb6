// kubectl's JSONPath: parsing and evaluation as staging/src/k8s.io/client-go/util/jsonpath does it
// (cases after jsonpath_test.go and parser_test.go), printed as JSONPath.PrintResults prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeTemplate } from '../../../src/engine/console/jsonpath/evaluate';
import { JsonPathError } from '../../../src/engine/console/jsonpath/parser';

const pod = {
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web', 'app.kubernetes.io/name': 'shop' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }, { name: 'log', image: 'busybox:1.36', ports: [{ containerPort: 9000 }] }] },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }],
    containerStatuses: [{ name: 'app', restartCount: 2, ready: true }, { name: 'log', restartCount: 0, ready: false }],
  },
};

const cases: { name: string; template: string; want: string }[] = [
  { name: 'a field path prints a string as it is', template: '{.status.phase}', want: 'Running' },
  { name: 'text outside the braces is printed literally', template: 'phase={.status.phase}!', want: 'phase=Running!' },
  { name: 'a filter with == selects the matching items', template: '{.status.conditions[?(@.type=="Ready")].status}', want: 'False' },
  { name: 'a filter with != selects the others, printed space-separated', template: '{.status.conditions[?(@.status!="True")].type}', want: 'Ready' },
  { name: 'a filter compares numbers with < and >', template: '{.spec.containers[?(@.ports[0].containerPort>100)].name}', want: 'log' },
  { name: 'a filter without an operator keeps the items that have the field', template: '{.status.containerStatuses[?(@.restartCount)].name}', want: 'app log' },
  { name: 'a wildcard over a list yields every item', template: '{.spec.containers[*].image}', want: 'nginx:1.27 busybox:1.36' },
  { name: 'a negative index counts from the end', template: '{.status.conditions[-1].type}', want: 'PodScheduled' },
  { name: 'a slice takes start to end', template: '{.status.conditions[0:2].type}', want: 'Initialized Ready' },
  { name: 'a slice with a step skips items', template: '{.status.conditions[::2].type}', want: 'Initialized PodScheduled' },
  { name: 'a union lists several indexes', template: '{.status.conditions[0,2].type}', want: 'Initialized PodScheduled' },
  { name: 'recursive descent finds a field at any depth', template: '{..image}', want: 'nginx:1.27 busybox:1.36' },
  // parser.go parseArray re-parses a quoted key as `.key`, so its dots still separate fields unless escaped.
  { name: 'a quoted key is read as a dotted path, so a label with dots is not found', template: "{.metadata.labels['app.kubernetes.io/name']}", want: '' },
  { name: 'a quoted key with escaped dots reaches the label', template: "{.metadata.labels['app\\.kubernetes\\.io/name']}", want: 'shop' },
  { name: 'an escaped dot reaches the same label', template: '{.metadata.labels.app\\.kubernetes\\.io/name}', want: 'shop' },
  { name: 'a map prints as compact JSON with sorted keys', template: '{.status.conditions[1]}', want: '{"status":"False","type":"Ready"}' },
  { name: 'range ... end repeats its body for each item', template: '{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}', want: 'Initialized=True\nReady=False\nPodScheduled=True\n' },
  { name: 'a missing key prints nothing, as --allow-missing-template-keys does by default', template: '{.status.nominatedNodeName}', want: '' },
  { name: 'numbers and booleans print as Go prints them', template: '{.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].ready}', want: '2 true' },
];

for (const c of cases) test(c.name, () => assert.equal(executeTemplate(c.template, pod), c.want));

const errors: { name: string; template: string; message: string; executing: boolean }[] = [
  { name: '&& is not part of the language and fails to parse', template: '{.status.conditions[?(@.type=="Ready" && @.status=="True")]}', message: "unrecognized character in action: U+0026 '&'", executing: false },
  { name: 'an unclosed action fails to parse', template: '{.status.phase', message: 'unclosed action', executing: false },
  { name: 'an index past the end fails when run', template: '{.status.conditions[5]}', message: 'array index out of bounds: index 5, length 3', executing: true },
  { name: 'indexing a map fails when run', template: '{.metadata[0]}', message: 'map[string]interface {} is not array or slice', executing: true },
  { name: 'comparing a string with a number is an error', template: '{.status.conditions[?(@.type==1)]}', message: 'incompatible types for comparison', executing: true },
  { name: 'an unknown identifier fails to parse', template: '{foo}', message: 'unrecognized identifier foo', executing: false },
];

for (const c of errors) {
  test(c.name, () => {
    assert.throws(() => executeTemplate(c.template, pod), (e: unknown) => e instanceof JsonPathError && e.message === c.message && e.executing === c.executing);
  });
}
