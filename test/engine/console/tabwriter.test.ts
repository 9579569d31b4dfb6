// Go's text/tabwriter as kubectl's get and describe use it: column blocks, padding, minimum widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESCRIBE_TABWRITER, GET_TABWRITER, tabwrite } from '../../../src/engine/console/tabwriter';

const cases: { name: string; input: string; opts: typeof GET_TABWRITER; want: string }[] = [
  {
    // cli-runtime/pkg/printers/tabwriter.go: minwidth 6, padding 3; the last cell of a line is not padded.
    name: 'kubectl get pads each column to its widest cell plus three spaces',
    input: 'NAME\tREADY\tSTATUS\tRESTARTS\tAGE\nweb\t1/1\tRunning\t0\t5s',
    opts: GET_TABWRITER,
    want: 'NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          5s',
  },
  {
    name: 'a column narrower than the minimum width of 6 is widened to it',
    input: 'A\tB\nx\ty',
    opts: GET_TABWRITER,
    want: 'A     B\nx     y',
  },
  {
    // describe.go tabbedString: minwidth 0, padding 2; a line without a tab ends every column block.
    name: 'kubectl describe aligns each run of tabbed lines on its own, whatever their indentation',
    input: 'Name:\tweb\nNamespace:\tdefault\nIPs:\n  IP:\t10.0.0.1\nQoS Class:\tBestEffort\n',
    opts: DESCRIBE_TABWRITER,
    want: 'Name:       web\nNamespace:  default\nIPs:\n  IP:       10.0.0.1\nQoS Class:  BestEffort\n',
  },
  {
    name: 'an empty leading cell is padded, so continuation lines line up under the value',
    input: 'Labels:\ta=b\n\tc=d\nAnnotations:\t<none>\n',
    opts: DESCRIBE_TABWRITER,
    want: 'Labels:       a=b\n              c=d\nAnnotations:  <none>\n',
  },
  {
    name: 'a line ending in a tab keeps the padding of its last cell as trailing spaces',
    input: '  Ready \tTrue \n  PodScheduled \tFalse \n',
    opts: DESCRIBE_TABWRITER,
    want: '  Ready          True \n  PodScheduled   False \n',
  },
  {
    name: 'inner columns form their own blocks inside the outer one',
    input: 'a\tb\tc\naa\tb\nx\tyyyy\tz\n',
    opts: DESCRIBE_TABWRITER,
    want: 'a   b  c\naa  b\nx   yyyy  z\n',
  },
];

for (const c of cases) {
  test(c.name, () => assert.equal(tabwrite(c.input, c.opts), c.want));
}
