// Writes the inputs of the scale benchmark: a cluster file of N worker nodes (as `kubectl get nodes -o yaml` lists
// them) and a Deployment of R replicas. Usage: node bench/scale-inputs.mjs DIR R N — prints the two paths.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** nodeList is N Ready worker nodes of 8 CPUs, 32 GiB and 110 pods, in three zones, as one `kind: List`. */
export function nodeList(n) {
  const lines = ['apiVersion: v1', 'kind: List', 'items:'];
  for (let i = 0; i < n; i++) {
    const name = `node-${i}`;
    const third = Math.floor(i / 250) % 250;
    lines.push(
      '- apiVersion: v1',
      '  kind: Node',
      '  metadata:',
      `    name: ${name}`,
      `    labels: {kubernetes.io/arch: amd64, kubernetes.io/hostname: ${name}, kubernetes.io/os: linux, topology.kubernetes.io/zone: zone-${'abc'[i % 3]}}`,
      `  spec: {podCIDR: 10.${100 + Math.floor(i / 62500)}.${third}.0/24}`,
      '  status:',
      `    addresses: [{address: 172.16.${Math.floor(i / 250)}.${(i % 250) + 1}, type: InternalIP}, {address: ${name}, type: Hostname}]`,
      '    allocatable: {cpu: "8", memory: 32Gi, pods: "110", ephemeral-storage: "56453061334"}',
      '    capacity: {cpu: "8", memory: 32Gi, pods: "110", ephemeral-storage: 61255492Ki}',
      '    conditions: [{type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}]',
      '    nodeInfo: {architecture: amd64, operatingSystem: linux, kubeletVersion: v1.36.0, containerRuntimeVersion: containerd://2.1.4}',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** deployment is a Deployment of R replicas of nginx asking for 100m CPU and 64 MiB each. */
export function deployment(r) {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${r}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: app
          image: nginx:1.27
          resources:
            requests: {cpu: 10m, memory: 16Mi}
`;
}

/** writeInputs writes both files into dir and returns their paths. */
export function writeInputs(dir, r, n) {
  mkdirSync(dir, { recursive: true });
  const cluster = join(dir, `nodes-${n}.yaml`);
  const manifest = join(dir, `deployment-${r}.yaml`);
  writeFileSync(cluster, nodeList(n));
  writeFileSync(manifest, deployment(r));
  return { cluster, manifest };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, r, n] = process.argv.slice(2);
  const paths = writeInputs(dir ?? 'out/scale', Number(r ?? 100), Number(n ?? 100));
  console.log(`${paths.manifest}\n${paths.cluster}`);
}
