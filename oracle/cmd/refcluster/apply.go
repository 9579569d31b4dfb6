package main

// Putting the cluster file's objects into the running API server, as system:masters: kinds that
// others depend on first, an object the server already made itself (its bootstrap RBAC, system
// namespaces and PriorityClasses, the kubernetes Service) is kept as the server made it. Status
// written by kubelets or controllers in a real cluster is written here through the status
// subresource: Nodes, existing Pods, ResourceQuota usage; a namespace that the file shows
// terminating is created with a holding finalizer and deleted.

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/klog/v2"
)

// holdFinalizer keeps a namespace the cluster file shows as Terminating in that state.
const holdFinalizer = "podlifecycle.debug/terminating"

// kindOrder says which kinds go first; the rest follow in file order, Pods last.
var kindOrder = []string{
	"Namespace", "CustomResourceDefinition", "PriorityClass", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding",
	"ServiceAccount", "Secret", "ConfigMap", "LimitRange", "ResourceQuota", "StorageClass", "RuntimeClass",
	"PersistentVolume", "PersistentVolumeClaim", "Service", "Node",
}

// applier creates objects through the dynamic client.
type applier struct {
	dyn     dynamic.Interface
	mapper  meta.RESTMapper
	caPEM   []byte
	initial map[string]bool // refs of what the cluster holds once started, kept by reset
}

func newApplier(cfg *rest.Config, caPEM []byte) (*applier, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	groups, err := restmapper.GetAPIGroupResources(dc)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &applier{dyn: dyn, mapper: restmapper.NewDiscoveryRESTMapper(groups), caPEM: caPEM, initial: map[string]bool{}}, nil
}

// resource finds the REST client of an object's kind (namespaced or not).
func (a *applier) resource(o *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := o.GroupVersionKind()
	m, err := a.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns := o.GetNamespace()
		if ns == "" {
			ns = "default"
			o.SetNamespace(ns)
		}
		return a.dyn.Resource(m.Resource).Namespace(ns), nil
	}
	return a.dyn.Resource(m.Resource), nil
}

// applyAll creates every object in dependency order; failures are reported and skipped.
func (a *applier) applyAll(ctx context.Context, objs []*unstructured.Unstructured) {
	rank := func(k string) int {
		for i, name := range kindOrder {
			if name == k {
				return i
			}
		}
		if k == "Pod" {
			return len(kindOrder) + 1
		}
		return len(kindOrder)
	}
	sorted := append([]*unstructured.Unstructured(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i].GetKind()) < rank(sorted[j].GetKind()) })
	for _, o := range sorted {
		if err := a.apply(ctx, o.DeepCopy()); err != nil {
			fmt.Fprintf(os.Stderr, "refcluster: cannot create %s: %v\n", refOf(o), err)
		}
	}
}

// apply creates one object and writes the status the file gives it.
func (a *applier) apply(ctx context.Context, o *unstructured.Unstructured) error {
	status, hasStatus := o.Object["status"].(map[string]any)
	terminating := o.GetKind() == "Namespace" && (o.GetDeletionTimestamp() != nil || status["phase"] == "Terminating")
	for _, f := range []string{"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink", "generation"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	if o.GetKind() != "Node" {
		delete(o.Object, "status")
	}
	if terminating {
		o.SetFinalizers(append(o.GetFinalizers(), holdFinalizer))
	}
	if strings.HasSuffix(o.GetKind(), "WebhookConfiguration") {
		a.fillCABundles(o)
	}
	client, err := a.resource(o)
	if err != nil {
		return err
	}
	if refOf(o) == "Service/default/kubernetes" {
		a.initial[refOf(o)] = true
		return nil // kube-apiserver makes and keeps it (its ClusterIP is the range's first address)
	}
	created, err := client.Create(ctx, o, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		a.initial[refOf(o)] = true
		return nil // the server made it itself: keep its own
	}
	if err != nil {
		return err
	}
	a.initial[refOf(o)] = true
	switch {
	case terminating:
		return client.Delete(ctx, o.GetName(), metav1.DeleteOptions{})
	case o.GetKind() == "ResourceQuota":
		return a.writeQuotaStatus(ctx, client, created, status)
	case o.GetKind() == "Pod" && hasStatus:
		created.Object["status"] = status
		_, err = client.UpdateStatus(ctx, created, metav1.UpdateOptions{})
		return err
	}
	return nil
}

// writeQuotaStatus writes the usage the file gives a ResourceQuota (or zero usage of every hard limit):
// the quota controller is off, so the ResourceQuota admission plugin works from what the file says.
func (a *applier) writeQuotaStatus(ctx context.Context, client dynamic.ResourceInterface, q *unstructured.Unstructured, status map[string]any) error {
	hard, _, _ := unstructured.NestedMap(q.Object, "spec", "hard")
	used := map[string]any{}
	for k := range hard {
		used[k] = "0"
	}
	if u, ok := status["used"].(map[string]any); ok {
		used = u
	}
	q.Object["status"] = map[string]any{"hard": hard, "used": used}
	_, err := client.UpdateStatus(ctx, q, metav1.UpdateOptions{})
	return err
}

// fillCABundles gives a webhook configuration's service client configs this cluster's CA when they carry none.
func (a *applier) fillCABundles(o *unstructured.Unstructured) {
	hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
	for _, h := range hooks {
		m := h.(map[string]any)
		cc, _ := m["clientConfig"].(map[string]any)
		if cc != nil && cc["caBundle"] == nil {
			cc["caBundle"] = caBundle(a.caPEM)
		}
	}
	_ = unstructured.SetNestedSlice(o.Object, hooks, "webhooks")
}

// workloadResources are cleared by reset: whatever a case created of them, and the Pods they made.
var workloadResources = []schema.GroupVersionResource{
	{Group: "apps", Version: "v1", Resource: "deployments"},
	{Group: "apps", Version: "v1", Resource: "replicasets"},
	{Group: "apps", Version: "v1", Resource: "statefulsets"},
	{Group: "apps", Version: "v1", Resource: "daemonsets"},
	{Group: "batch", Version: "v1", Resource: "jobs"},
	{Group: "batch", Version: "v1", Resource: "cronjobs"},
}

// reset brings the cluster back to its start between cases: workloads and Pods not in the cluster file
// are deleted at once (no kubelet would ever finish a graceful delete), events are cleared, and quotas
// get their usage back.
func (a *applier) reset(ctx context.Context, c *cluster) {
	now := int64(0)
	bg := metav1.DeletePropagationBackground
	drop := func(gvr schema.GroupVersionResource, kind string) int {
		list, err := a.dyn.Resource(gvr).Namespace("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return 0
		}
		n := 0
		for _, item := range list.Items {
			item.SetKind(kind)
			if a.initial[refOf(&item)] || item.GetNamespace() == "kube-system" {
				continue
			}
			n++
			_ = a.dyn.Resource(gvr).Namespace(item.GetNamespace()).Delete(ctx, item.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &now, PropagationPolicy: &bg})
		}
		return n
	}
	for _, gvr := range workloadResources {
		drop(gvr, kindOfResource(gvr.Resource))
	}
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	for i := 0; i < 20 && drop(pods, "Pod") > 0; i++ {
		time.Sleep(300 * time.Millisecond)
	}
	// Events of the last case would be mistaken for this one's.
	events := schema.GroupVersionResource{Version: "v1", Resource: "events"}
	if nss, err := a.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).List(ctx, metav1.ListOptions{}); err == nil {
		for _, ns := range nss.Items {
			if ns.GetName() != "kube-system" {
				_ = a.dyn.Resource(events).Namespace(ns.GetName()).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
			}
		}
	}
	for _, o := range c.Objects {
		if o.GetKind() != "ResourceQuota" {
			continue
		}
		client, err := a.resource(o.DeepCopy())
		if err != nil {
			continue
		}
		q, err := client.Get(ctx, o.GetName(), metav1.GetOptions{})
		if err == nil {
			status, _ := o.Object["status"].(map[string]any)
			if err := a.writeQuotaStatus(ctx, client, q, status); err != nil {
				klog.ErrorS(err, "reset quota", "quota", refOf(o))
			}
		}
	}
}

// kindOfResource turns a workload resource's plural into its kind.
func kindOfResource(r string) string {
	kinds := map[string]string{"deployments": "Deployment", "replicasets": "ReplicaSet", "statefulsets": "StatefulSet",
		"daemonsets": "DaemonSet", "jobs": "Job", "cronjobs": "CronJob"}
	return kinds[r]
}
