package main

// Bringing the cluster up: waiting for kube-apiserver, putting the cluster file in, starting the scheduler and
// the controller manager, and waiting until the cluster is as a case expects it (the engine's starting state).

import (
	"context"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// waitReady polls /readyz until it answers ok.
func waitReady(ctx context.Context, cfg *rest.Config, errc <-chan error) error {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-errc:
			return fmt.Errorf("before ready: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
		body, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err == nil && string(body) == "ok" {
			return nil
		}
	}
	return fmt.Errorf("kube-apiserver was not ready in 3 minutes")
}

// populate creates the cluster file's objects, starts the heartbeats, the scheduler and the controller
// manager, and waits for what a case needs: every namespace's default ServiceAccount and Ready nodes.
// With podsRun, the stand-in kubelet (kubelet.go) runs the pods bound to the file's nodes.
func populate(ctx context.Context, masters *rest.Config, p *pki, c *cluster, dir string, podsRun bool, errc chan error) error {
	a, err := newApplier(masters, mustRead(p.CAFile))
	if err != nil {
		return err
	}
	taints := map[string][]corev1.Taint{}
	conditions := map[string][]corev1.NodeCondition{}
	for _, o := range c.Objects {
		if o.GetKind() != "Node" {
			continue
		}
		conds, _, _ := unstructured.NestedSlice(o.Object, "status", "conditions")
		freshConditions(conds)
		_ = unstructured.SetNestedSlice(o.Object, conds, "status", "conditions")
		var node corev1.Node
		_ = runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &node)
		taints[o.GetName()] = node.Spec.Taints
		conditions[o.GetName()] = node.Status.Conditions
	}
	a.applyAll(ctx, c.Objects)
	cs, err := kubernetes.NewForConfig(masters)
	if err != nil {
		return err
	}
	defaultServiceAccounts(ctx, cs)
	go keepNodesReady(ctx, cs, taints)
	var pods *standInKubelet
	if podsRun {
		pods = runPods(ctx, cs, taints)
	}

	server := masters.Host
	files := map[string]string{}
	for _, who := range []struct{ name, cn string }{{"scheduler", "scheduler"}, {"controller-manager", "controller-manager"}} {
		path := pathIn(dir, who.name+".kubeconfig")
		if err := writeKubeconfig(path, server, p.CAFile, pathIn(dir, who.cn+".crt"), pathIn(dir, who.cn+".key")); err != nil {
			return err
		}
		files[who.name] = path
	}
	schedArgs, err := schedulerFlags(&runFiles{dir: dir}, c, files["scheduler"])
	if err != nil {
		return err
	}
	if err := runScheduler(ctx, schedArgs); err != nil {
		return err
	}
	f := &runFiles{saKey: pathIn(dir, "sa.key")}
	kcmArgs := controllerManagerFlags(f, p.CAFile, pathIn(dir, "ca.key"), files["controller-manager"])
	if q := c.Profile.ControllerManager.KubeAPIQPS; q != nil {
		kcmArgs = append(kcmArgs, fmt.Sprintf("--kube-api-qps=%g", *q))
	}
	if b := c.Profile.ControllerManager.KubeAPIBurst; b != nil {
		kcmArgs = append(kcmArgs, fmt.Sprintf("--kube-api-burst=%d", *b))
	}
	if !contains(c.Profile.Authorization.Modes, "RBAC") {
		// Without RBAC the controllers' service accounts may do nothing: they act as the controller manager.
		kcmArgs = append(kcmArgs, "--use-service-account-credentials=false")
	}
	if err := runControllerManager(ctx, kcmArgs); err != nil {
		return err
	}
	if err := waitSettled(ctx, cs, taints, errc); err != nil {
		return err
	}
	go func() {
		for range resets {
			restartKubelets(ctx, cs, conditions, taints)
			a.reset(ctx, c)
			pods.resetIPs()
			fmt.Println("reset done")
		}
	}()
	return nil
}

// waitSettled waits until every namespace has its default ServiceAccount, the aggregated ClusterRoles have
// their rules and no node carries a taint it should not (up to two minutes; what is missing then is reported and the run goes on).
func waitSettled(ctx context.Context, cs kubernetes.Interface, taints map[string][]corev1.Taint, errc <-chan error) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		missing := settledMissing(ctx, cs, taints)
		if missing == "" {
			return nil
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "refcluster: not settled after 2 minutes: %s\n", missing)
			return nil
		}
		select {
		case err := <-errc:
			return fmt.Errorf("while settling: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// settledMissing says what is not there yet, or "".
func settledMissing(ctx context.Context, cs kubernetes.Interface, taints map[string][]corev1.Taint) string {
	nss, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err.Error()
	}
	for _, ns := range nss.Items {
		if ns.Status.Phase != corev1.NamespaceActive {
			continue
		}
		if _, err := cs.CoreV1().ServiceAccounts(ns.Name).Get(ctx, "default", metav1.GetOptions{}); err != nil {
			return "ServiceAccount " + ns.Name + "/default"
		}
	}
	// The aggregated ClusterRoles (admin, edit, view...) get their rules from the clusterrole-aggregation controller.
	roles, err := cs.RbacV1().ClusterRoles().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err.Error()
	}
	for _, r := range roles.Items {
		if r.AggregationRule != nil && len(r.Rules) == 0 {
			return "the rules of ClusterRole " + r.Name
		}
	}
	for name, want := range taints {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "Node " + name
		}
		if len(node.Spec.Taints) != len(want) {
			return "the taints of Node " + name
		}
	}
	return ""
}

// defaultServiceAccounts gives every namespace its default ServiceAccount at once, as the engine's cluster has it
// from the start (the serviceaccount controller would make it a moment later).
func defaultServiceAccounts(ctx context.Context, cs kubernetes.Interface) {
	nss, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, ns := range nss.Items {
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns.Name}}
		_, _ = cs.CoreV1().ServiceAccounts(ns.Name).Create(ctx, sa, metav1.CreateOptions{})
	}
}
