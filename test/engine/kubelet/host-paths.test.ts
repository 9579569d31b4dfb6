// hostPath type checks against the node's filesystem, as pkg/volume/hostpath/host_path.go (checkType) runs them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHostPathType, HostFilesystem } from '../../../src/engine/kubelet/host-paths';

const cases: { name: string; path: string; type?: string; want: string | undefined }[] = [
  { name: 'an unset type is not checked', path: '/nowhere', type: '', want: undefined },
  { name: 'a Directory that is one passes', path: '/var/log', type: 'Directory', want: undefined },
  // typeMatchedOrError: "hostPath %s doesn't exist", then "hostPath type check failed: %s is not a %s, it's a %s".
  { name: 'a missing Directory does not exist', path: '/srv/data', type: 'Directory', want: "hostPath /srv/data doesn't exist" },
  { name: 'a File that is a directory fails with what it is', path: '/etc', type: 'File', want: "hostPath type check failed: /etc is not a file, it's a Directory" },
  { name: 'a Socket that is a file fails', path: '/etc/hosts', type: 'Socket', want: "hostPath type check failed: /etc/hosts is not a socket file, it's a File" },
  { name: 'containerd\'s socket is a Socket', path: '/run/containerd/containerd.sock', type: 'Socket', want: undefined },
  { name: '/dev/null is a CharDevice', path: '/dev/null', type: 'CharDevice', want: undefined },
  { name: 'a CharDevice that is a block device fails', path: '/dev/sda', type: 'CharDevice', want: "hostPath type check failed: /dev/sda is not a character device, it's a BlockDevice" },
  { name: 'a BlockDevice that is missing does not exist', path: '/dev/nvme0n1', type: 'BlockDevice', want: "hostPath /dev/nvme0n1 doesn't exist" },
  { name: 'DirectoryOrCreate makes a missing directory and its parents', path: '/data/cache/web', type: 'DirectoryOrCreate', want: undefined },
  { name: 'DirectoryOrCreate on an existing file fails the type check', path: '/etc/hostname', type: 'DirectoryOrCreate', want: "hostPath type check failed: /etc/hostname is not a directory, it's a File" },
  // makeDir is os.MkdirAll: an ancestor that is a file stops it.
  { name: 'DirectoryOrCreate under a file fails as mkdir does', path: '/etc/hosts/extra', type: 'DirectoryOrCreate', want: 'mkdir /etc/hosts: not a directory' },
  { name: 'FileOrCreate makes a missing file in an existing directory', path: '/var/log/app.log', type: 'FileOrCreate', want: undefined },
  // makeFile is os.OpenFile(O_CREATE): the parent must exist.
  { name: 'FileOrCreate in a missing directory fails as open does', path: '/var/log/app/app.log', type: 'FileOrCreate', want: 'open /var/log/app/app.log: no such file or directory' },
  { name: 'an unknown type is invalid', path: '/tmp', type: 'Pipe', want: 'Pipe is an invalid volume type' },
];
for (const c of cases) test(`hostPath: ${c.name}`, () => assert.equal(checkHostPathType(new HostFilesystem(false), c.path, c.type), c.want));

test('hostPath: what DirectoryOrCreate made is a directory for the next pod on the node', () => {
  const fs = new HostFilesystem(false);
  assert.equal(checkHostPathType(fs, '/data/shared', 'DirectoryOrCreate'), undefined);
  assert.equal(checkHostPathType(fs, '/data/shared', 'Directory'), undefined);
  assert.equal(checkHostPathType(fs, '/data', 'Directory'), undefined);
});

test('hostPath: the control-plane node holds kubeadm\'s admin.conf and etcd data, the workers do not', () => {
  assert.equal(checkHostPathType(new HostFilesystem(true), '/var/lib/etcd', 'Directory'), undefined);
  assert.equal(checkHostPathType(new HostFilesystem(false), '/etc/kubernetes/admin.conf', 'File'), "hostPath /etc/kubernetes/admin.conf doesn't exist");
});
