// Command refcluster runs a real Kubernetes control plane of the pinned release in one process on
// 127.0.0.1 — embedded etcd, kube-apiserver, kube-scheduler, kube-controller-manager — configured
// like Pod Lifecycle Debugger's embedded cluster, as a reference for differential tests.
//
//	refcluster [--cluster FILE]... [--embedded FILE] [--dir DIR] [--pods-run]
//
// On stdout it prints `kubeconfig PATH`, `server URL`, `dir DIR`, then `ready` once /readyz is ok,
// the cluster file's objects exist and the Nodes are Ready. A line `reset` on stdin clears what the
// last case made (answered by `reset done`); `kubelet-down NODE` stops that node's heartbeats until the
// next reset; with --pods-run a stand-in kubelet (kubelet.go) makes bound pods Running and Ready and finishes their
// graceful deletes; stdin closing, SIGTERM or SIGINT shut it down.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/klog/v2"
	apiserverapp "k8s.io/kubernetes/cmd/kube-apiserver/app"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var clusters stringList
	flag.Var(&clusters, "cluster", "a cluster file (repeatable); default: the embedded cluster")
	embedded := flag.String("embedded", "src/engine/cluster/default-cluster.yaml", "the engine's embedded default cluster")
	dir := flag.String("dir", "", "where to keep certificates, kubeconfigs and etcd data (default: a temporary directory, removed at exit)")
	podsRun := flag.Bool("pods-run", false, "run a stand-in kubelet: pods bound to a node with heartbeats become Running and Ready at once, and a graceful delete finishes at once")
	klog.InitFlags(nil) // the components log through klog to stderr (-v=N for more)
	flag.Parse()

	if err := run(clusters, *embedded, *dir, *podsRun); err != nil {
		fmt.Fprintf(os.Stderr, "refcluster: %v\n", err)
		os.Exit(1)
	}
}

func run(clusters []string, embedded, dir string, podsRun bool) error {
	c, err := loadCluster(embedded, clusters)
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "refcluster-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go stopOnSignalOrEOF(cancel)

	p, err := newPKI(dir)
	if err != nil {
		return err
	}
	files, err := writeFiles(dir, p, c)
	if err != nil {
		return err
	}
	hooks, err := startWebhookServer(ctx, c, files.webhookCert, files.webhookKey)
	if err != nil {
		return err
	}
	files.authzWebhookURL = "https://" + hooks.addr + "/authorize"
	if err := writeAuthzWebhookConfig(files, p.CAFile); err != nil {
		return err
	}
	apiserverapp.SetServiceResolverForTests(hooks)

	ports := freePorts(3)
	etcdURL, stopEtcd, err := startEtcd(dir, ports[0], ports[1])
	if err != nil {
		return err
	}
	defer stopEtcd()

	errc := make(chan error, 3)
	server := fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	if err := runAPIServer(ctx, apiserverFlags(files, c, etcdURL, ports[2]), errc); err != nil {
		return err
	}
	masters, err := restConfig(server, p.CAFile, files.mastersCert, files.mastersKey)
	if err != nil {
		return err
	}
	if err := waitReady(ctx, masters, errc); err != nil {
		return err
	}
	if err := populate(ctx, masters, p, c, dir, podsRun, errc); err != nil {
		return err
	}
	if err := writeKubeconfig(files.adminKubeconfig, server, p.CAFile, files.adminCert, files.adminKey); err != nil {
		return err
	}
	fmt.Printf("kubeconfig %s\nserver %s\ndir %s\nready\n", files.adminKubeconfig, server, dir)

	select {
	case <-ctx.Done():
	case err := <-errc:
		if err != nil {
			return err
		}
	}
	cancel()
	time.Sleep(500 * time.Millisecond) // let the components see the end before etcd goes
	return nil
}

// resets carries `reset` requests from stdin to the running cluster.
var resets = make(chan struct{})

// stopOnSignalOrEOF cancels the run on SIGTERM, SIGINT or the end of stdin; `reset` lines become resets,
// `kubelet-down NODE` lines stop a node's heartbeats.
func stopOnSignalOrEOF(cancel context.CancelFunc) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	eof := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 1 && f[0] == "reset":
				resets <- struct{}{}
			case len(f) == 2 && f[0] == "kubelet-down":
				stopKubelet(f[1])
			}
		}
		close(eof)
	}()
	select {
	case <-sig:
	case <-eof:
	}
	cancel()
}

// freePorts finds n free loopback ports.
func freePorts(n int) []int {
	var ports []int
	var lns []net.Listener
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// pathIn is a file of the run directory.
func pathIn(dir, name string) string { return filepath.Join(dir, name) }
