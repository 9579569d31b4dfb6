package main

// Nodes without kubelets: this loop does what each node's kubelet would to stay Ready. It renews the
// node's Lease in kube-node-lease and posts the node's conditions with a fresh heartbeat, so the node
// lifecycle controller neither marks it Unknown nor taints it. Right after creation it also lifts the
// not-ready taint that the TaintNodesByCondition admission plugin puts on every new Node, as the node
// lifecycle controller does once the node reports Ready.
//
// A case may stop one node's "kubelet" (a `kubelet-down NODE` line on stdin, sent by the runner for a Behavior's
// `kubelet: down` node): its heartbeats stop, so the node lifecycle controller marks it Unknown after the node
// monitor grace period and taints it unreachable, as it would a node whose kubelet died. `reset` brings it back.

import (
	"context"
	"slices"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

const heartbeatPeriod = 10 * time.Second

// downNodes are the nodes whose kubelet a case stopped: no heartbeat for them until the next reset.
var downNodes sync.Map

// stopKubelet stops one node's heartbeats (a `kubelet-down NODE` line).
func stopKubelet(name string) {
	downNodes.Store(name, true)
	klog.InfoS("kubelet down: no more heartbeats", "node", name)
}

// keepNodesReady beats for every node until ctx ends; fileTaints are each node's taints as the file gives them.
func keepNodesReady(ctx context.Context, cs kubernetes.Interface, fileTaints map[string][]corev1.Taint) {
	for {
		for name, taints := range fileTaints {
			if _, down := downNodes.Load(name); !down {
				beat(ctx, cs, name, taints)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(heartbeatPeriod):
		}
	}
}

// beat renews one node's Lease and status heartbeat.
func beat(ctx context.Context, cs kubernetes.Interface, name string, fileTaints []corev1.Taint) {
	now := metav1.NewMicroTime(time.Now())
	leases := cs.CoordinationV1().Leases(corev1.NamespaceNodeLease)
	lease, err := leases.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		lease = &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: corev1.NamespaceNodeLease},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: ptr.To(name), LeaseDurationSeconds: ptr.To[int32](40), RenewTime: &now},
		}
		_, err = leases.Create(ctx, lease, metav1.CreateOptions{})
	} else if err == nil {
		lease.Spec.RenewTime = &now
		_, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	}
	if err != nil && ctx.Err() == nil {
		klog.ErrorS(err, "node lease", "node", name)
	}

	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	for i := range node.Status.Conditions {
		node.Status.Conditions[i].LastHeartbeatTime = metav1.NewTime(now.Time)
	}
	if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
		klog.ErrorS(err, "node status", "node", name)
		return
	}
	liftNotReadyTaint(ctx, cs, name, fileTaints)
}

// liftNotReadyTaint removes node.kubernetes.io/not-ready when the file does not give it to the node.
func liftNotReadyTaint(ctx context.Context, cs kubernetes.Interface, name string, fileTaints []corev1.Taint) {
	isNotReady := func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeNotReady }
	if slices.ContainsFunc(fileTaints, isNotReady) {
		return
	}
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil || !slices.ContainsFunc(node.Spec.Taints, isNotReady) {
		return
	}
	node.Spec.Taints = slices.DeleteFunc(node.Spec.Taints, isNotReady)
	if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
		klog.ErrorS(err, "lift not-ready taint", "node", name)
	}
}

// restartKubelets brings back the nodes a case stopped: heartbeats again, and the file's conditions posted (the node
// lifecycle controller marked them Unknown), after which that controller lifts its unreachable taints itself; it
// waits (up to 30 s) until each such node has the taints its file gives it.
func restartKubelets(ctx context.Context, cs kubernetes.Interface, fileConditions map[string][]corev1.NodeCondition, fileTaints map[string][]corev1.Taint) {
	var names []string
	downNodes.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	for _, name := range names {
		downNodes.Delete(name)
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		now := metav1.Now()
		node.Status.Conditions = nil
		for _, c := range fileConditions[name] {
			c.LastHeartbeatTime, c.LastTransitionTime = now, now
			node.Status.Conditions = append(node.Status.Conditions, c)
		}
		if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "restore node status", "node", name)
		}
		beat(ctx, cs, name, fileTaints[name])
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, name := range names {
		for time.Now().Before(deadline) {
			node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
			if err == nil && len(node.Spec.Taints) == len(fileTaints[name]) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}

// freshConditions stamps a file's node conditions with the current time before the Node is created.
func freshConditions(conds []any) {
	now := time.Now().UTC().Format(time.RFC3339)
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok {
			m["lastHeartbeatTime"], m["lastTransitionTime"] = now, now
		}
	}
}
