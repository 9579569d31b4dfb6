// explain on a run with a DaemonSet: node by node, its daemon pod, or why the DaemonSet controller gives the node none
// (NodeShouldRunDaemonPod in pkg/controller/daemon/daemon_controller.go, v1.36.3: node selector or affinity, taints).
import assert from 'node:assert/strict';
import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './harness';

const CLI = join(ROOT, 'dist', 'cli.js');

interface DaemonSetReport { daemonSet: string; nodes: { node: string; pod?: string; phase?: string; why?: string }[] }

const TAINTED = 'the node\'s taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated';
const UNMATCHED = 'the node does not match the pod template\'s node selector or required node affinity';

const cases: { name: string; file: string; want: [string, string][] }[] = [
  { name: 'the control plane\'s NoSchedule taint keeps it from the daemon pod; the workers have theirs', file: 'agent.yaml', want: [['control-plane', TAINTED], ['worker-1', 'Running'], ['worker-2', 'Running']] },
  { name: 'a node selector leaves out the nodes it does not match', file: 'selector.yaml', want: [['control-plane', UNMATCHED], ['worker-1', UNMATCHED], ['worker-2', 'Running']] },
  { name: 'a DaemonSet that tolerates the taint runs on every node', file: 'tolerating.yaml', want: [['control-plane', 'Running'], ['worker-1', 'Running'], ['worker-2', 'Running']] },
];

for (const c of cases) {
  test(`explain says which nodes have the daemon pod and why the others have none: ${c.name}`, () => {
    const json = spawnSync(process.execPath, [CLI, 'explain', `test/fixtures/daemonset/${c.file}`, '--json'], { cwd: ROOT, encoding: 'utf8' });
    const [d] = (JSON.parse(json.stdout) as { daemonSets: DaemonSetReport[] }).daemonSets;
    assert.deepEqual(d!.nodes.map((n) => [n.node, n.why ?? n.phase ?? '']), c.want);
    const text = spawnSync(process.execPath, [CLI, 'explain', `test/fixtures/daemonset/${c.file}`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }).stdout;
    const running = c.want.filter(([, w]) => w === 'Running').length;
    assert.match(text, new RegExp(`^DAEMONSET ${d!.daemonSet}: a daemon pod on ${running} of 3 nodes$`, 'm'));
  });
}
