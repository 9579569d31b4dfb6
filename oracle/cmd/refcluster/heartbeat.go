package main

// Nodes without kubelets: this loop does what each node's kubelet would to stay Ready. It renews the
// node's Lease in kube-node-lease and posts the node's conditions with a fresh heartbeat, so the node
// lifecycle controller neither marks it Unknown nor taints it. Right after creation it also lifts the
// not-ready taint that the TaintNodesByCondition admission plugin puts on every new Node, as the node
// lifecycle controller does once the node reports Ready.

import (
	"context"
	"slices"
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

// keepNodesReady beats for every node until ctx ends; fileTaints are each node's taints as the file gives them.
func keepNodesReady(ctx context.Context, cs kubernetes.Interface, fileTaints map[string][]corev1.Taint) {
	for {
		for name, taints := range fileTaints {
			beat(ctx, cs, name, taints)
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

// freshConditions stamps a file's node conditions with the current time before the Node is created.
func freshConditions(conds []any) {
	now := time.Now().UTC().Format(time.RFC3339)
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok {
			m["lastHeartbeatTime"], m["lastTransitionTime"] = now, now
		}
	}
}
