// The node's filesystem as hostPath volumes see it: what exists on a kubeadm node, and what pods had the kubelet create.
// The type checks and their errors are pkg/volume/hostpath/host_path.go (checkType, typeMatchedOrError, makeDir, makeFile).

/** FileType is what hostutil.GetFileType reports (pkg/volume/util/hostutil: FileTypeDirectory and the others). */
export type FileType = 'Directory' | 'File' | 'Socket' | 'CharDevice' | 'BlockDevice';

const DIRECTORIES = [
  '/', '/bin', '/boot', '/dev', '/dev/net', '/dev/pts', '/dev/shm', '/etc', '/etc/cni', '/etc/cni/net.d', '/etc/containerd',
  '/etc/kubernetes', '/etc/kubernetes/manifests', '/etc/kubernetes/pki', '/etc/ssl', '/etc/ssl/certs', '/home', '/lib',
  '/lib/modules', '/mnt', '/opt', '/opt/cni', '/opt/cni/bin', '/proc', '/root', '/run', '/run/containerd', '/run/flannel',
  '/sbin', '/srv', '/sys', '/sys/fs', '/sys/fs/cgroup', '/tmp', '/usr', '/usr/bin', '/usr/lib', '/usr/local', '/usr/share',
  '/usr/share/ca-certificates', '/var', '/var/lib', '/var/lib/containerd', '/var/lib/kubelet', '/var/lib/kubelet/pods',
  '/var/lib/kubelet/plugins', '/var/lib/kubelet/plugins_registry', '/var/log', '/var/log/containers', '/var/log/pods',
  '/var/run', '/var/run/containerd', '/var/tmp',
];
const FILES = [
  '/etc/hosts', '/etc/hostname', '/etc/resolv.conf', '/etc/localtime', '/etc/passwd', '/etc/group', '/etc/os-release',
  '/etc/machine-id', '/etc/containerd/config.toml', '/etc/kubernetes/kubelet.conf', '/etc/kubernetes/pki/ca.crt',
  '/etc/cni/net.d/10-flannel.conflist', '/var/lib/kubelet/config.yaml', '/var/lib/kubelet/kubeadm-flags.env',
  '/run/flannel/subnet.env', '/run/xtables.lock',
];
const SOCKETS = ['/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock'];
const CHAR_DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty', '/dev/kmsg', '/dev/fuse', '/dev/net/tun'];
/** BLOCK_DEVICES are representative: a VM's first disk and its partition. */
const BLOCK_DEVICES = ['/dev/sda', '/dev/sda1'];
/** CONTROL_PLANE_PATHS are what kubeadm init leaves on the control-plane node only. */
const CONTROL_PLANE_PATHS: [string, FileType][] = [
  ['/var/lib/etcd', 'Directory'], ['/etc/kubernetes/admin.conf', 'File'], ['/etc/kubernetes/super-admin.conf', 'File'],
  ['/etc/kubernetes/controller-manager.conf', 'File'], ['/etc/kubernetes/scheduler.conf', 'File'], ['/etc/kubernetes/pki/ca.key', 'File'],
  ['/etc/kubernetes/manifests/etcd.yaml', 'File'], ['/etc/kubernetes/manifests/kube-apiserver.yaml', 'File'],
  ['/etc/kubernetes/manifests/kube-controller-manager.yaml', 'File'], ['/etc/kubernetes/manifests/kube-scheduler.yaml', 'File'],
];

/** cleanPath is filepath.Clean for absolute paths: no trailing slash, no empty or `.` elements. */
export function cleanPath(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  return `/${parts.join('/')}`;
}

/** HostFilesystem is one node's filesystem: the kubeadm node's paths plus those hostPath volumes created. */
export class HostFilesystem {
  private readonly entries = new Map<string, FileType>();

  constructor(controlPlane: boolean) {
    for (const p of DIRECTORIES) this.entries.set(p, 'Directory');
    for (const p of FILES) this.entries.set(p, 'File');
    for (const p of SOCKETS) this.entries.set(p, 'Socket');
    for (const p of CHAR_DEVICES) this.entries.set(p, 'CharDevice');
    for (const p of BLOCK_DEVICES) this.entries.set(p, 'BlockDevice');
    if (controlPlane) for (const [p, t] of CONTROL_PLANE_PATHS) this.entries.set(p, t);
  }

  /** typeOf is the type of what is at path, undefined when nothing is. */
  typeOf(path: string): FileType | undefined {
    return this.entries.get(cleanPath(path));
  }

  /** makeDir is os.MkdirAll(path, 0755): it fails on the first ancestor that exists and is not a directory. */
  makeDir(path: string): string | undefined {
    const clean = cleanPath(path);
    const parts = clean.split('/').slice(1);
    for (let i = 1; i <= parts.length; i++) {
      const p = `/${parts.slice(0, i).join('/')}`;
      const t = this.entries.get(p);
      if (t === undefined) this.entries.set(p, 'Directory');
      else if (t !== 'Directory') return `mkdir ${p}: not a directory`;
    }
    return undefined;
  }

  /** makeFile is os.OpenFile(path, O_CREATE, 0644): the parent directory must exist. */
  makeFile(path: string): string | undefined {
    const clean = cleanPath(path);
    const parent = clean.slice(0, clean.lastIndexOf('/')) || '/';
    const t = this.entries.get(parent);
    if (t === undefined) return `open ${clean}: no such file or directory`;
    if (t !== 'Directory') return `open ${clean}: not a directory`;
    if (!this.entries.has(clean)) this.entries.set(clean, 'File');
    return undefined;
  }
}

const DESCRIPTION: Record<FileType, string> = {
  Directory: 'directory', File: 'file', Socket: 'socket file', CharDevice: 'character device', BlockDevice: 'block device',
};

/**
 * checkHostPathType is checkType: DirectoryOrCreate and FileOrCreate create what is missing; every type then must
 * match what is there. Returns the error the mount fails with, undefined when the check passes (or the type is unset).
 */
export function checkHostPathType(fs: HostFilesystem, path: string, type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  const expected = (t: FileType): string | undefined => {
    const actual = fs.typeOf(path);
    if (actual === undefined) return `hostPath ${path} doesn't exist`;
    if (actual !== t) return `hostPath type check failed: ${path} is not a ${DESCRIPTION[t]}, it's a ${actual}`;
    return undefined;
  };
  switch (type) {
    case 'DirectoryOrCreate':
      if (fs.typeOf(path) === undefined) return fs.makeDir(path);
      return expected('Directory');
    case 'Directory': return expected('Directory');
    case 'FileOrCreate':
      if (fs.typeOf(path) === undefined) return fs.makeFile(path);
      return expected('File');
    case 'File': return expected('File');
    case 'Socket': return expected('Socket');
    case 'CharDevice': return expected('CharDevice');
    case 'BlockDevice': return expected('BlockDevice');
    default: return `${type} is an invalid volume type`;
  }
}
