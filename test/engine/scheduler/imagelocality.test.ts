// ImageLocality: image sizes already on a node, scaled by their spread, mapped onto 0-100 per image source.
// Cases from TestImageLocalityPriority and TestNormalizedImageName in
// pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../src/engine/api/types';
import { normalizedImageName } from '../../../src/engine/scheduler/plugins/imagelocality';
import { framework, makeNode, makePod, MB, runScore, type NodeBuilder, type PodBuilder } from './builders';

const node403002000 = (name: string): NodeBuilder => makeNode(name).image(40 * MB, 'gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1').image(300 * MB, 'gcr.io/300:latest', 'gcr.io/300:v1').image(2000 * MB, 'gcr.io/2000:latest');
const node25010 = (name: string): NodeBuilder => makeNode(name).image(250 * MB, 'gcr.io/250:latest').image(10 * MB, 'gcr.io/10:latest', 'gcr.io/10:v1');
const node60040900 = (name: string): NodeBuilder => makeNode(name).image(600 * MB, 'gcr.io/600:latest').image(40 * MB, 'gcr.io/40:latest').image(900 * MB, 'gcr.io/900:latest');
const node300600900 = (name: string): NodeBuilder => makeNode(name).image(300 * MB, 'gcr.io/300:latest').image(600 * MB, 'gcr.io/600:latest').image(900 * MB, 'gcr.io/900:latest');
const node400030 = (name: string): NodeBuilder => makeNode(name).image(4000 * MB, 'gcr.io/4000:latest').image(30 * MB, 'gcr.io/30:latest');
const node203040 = (name: string): NodeBuilder => makeNode(name).image(20 * MB, 'gcr.io/20:latest').image(30 * MB, 'gcr.io/30:latest').image(40 * MB, 'gcr.io/40:latest');
const images = (...names: string[]): PodBuilder => names.reduce((p, image) => p.container(image), makePod('p'));

const cases: { name: string; pod: PodBuilder; nodes: Node[]; want: [string, number][] }[] = [
  { name: 'Two images spread on two nodes, prefer the larger image one', pod: images('gcr.io/40', 'gcr.io/250'), nodes: [node403002000('node1').obj(), node25010('node2').obj()], want: [['node1', 0], ['node2', 5]] },
  { name: 'Two images on one node, prefer this node', pod: images('gcr.io/40', 'gcr.io/300'), nodes: [node403002000('node1').obj(), node25010('node2').obj()], want: [['node1', 7], ['node2', 0]] },
  { name: 'If exceed limit, use limit', pod: images('gcr.io/10', 'gcr.io/4000'), nodes: [node400030('node1').obj(), node25010('node2').obj()], want: [['node1', 100], ['node2', 0]] },
  { name: 'If exceed limit, use limit (with node which has no images present)', pod: images('gcr.io/10', 'gcr.io/4000'), nodes: [node400030('node1').obj(), node25010('node2').obj(), makeNode('node3').obj()], want: [['node1', 66], ['node2', 0], ['node3', 0]] },
  { name: 'Pod with multiple large images, node2 is preferred', pod: images('gcr.io/300', 'gcr.io/600', 'gcr.io/900'), nodes: [node60040900('node1').obj(), node300600900('node2').obj(), makeNode('node3').obj()], want: [['node1', 32], ['node2', 36], ['node3', 0]] },
  { name: 'Pod with multiple small images', pod: images('gcr.io/30', 'gcr.io/40'), nodes: [node203040('node1').obj(), node400030('node2').obj()], want: [['node1', 1], ['node2', 0]] },
  { name: 'Include InitContainers: two images spread on two nodes, prefer the larger image one', pod: makePod('p').container('gcr.io/30').initImage('gcr.io/300'), nodes: [node403002000('node1').obj(), node203040('node2').obj()], want: [['node1', 6], ['node2', 0]] },
];

for (const c of cases) {
  test(c.name, () => {
    const got = runScore(framework(), 'ImageLocality', c.pod.obj(), c.nodes);
    assert.deepEqual(got, c.want.map(([name, score]) => ({ name, score })));
  });
}

const names: [string, string, string][] = [
  ['Add :latest postfix 1', 'root', 'root:latest'],
  ['Add :latest postfix 2', 'gcr.io:5000/root', 'gcr.io:5000/root:latest'],
  ['Keep it as is 1', 'root:tag', 'root:tag'],
  ['Keep it as is 2', 'root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2', 'root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2'],
];

for (const [name, input, output] of names) {
  test(name, () => assert.equal(normalizedImageName(input), output));
}
