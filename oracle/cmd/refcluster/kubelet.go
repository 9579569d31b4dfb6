package main

// A stand-in kubelet (--pods-run), as KWOK's default stages have one: no containers run, but each pod bound to a node
// whose heartbeats are on is given at once the status the engine's kubelet writes for containers that start at once
// and are ready, and a pod deleted gracefully is removed (deleted with grace 0), as the kubelet's status manager does
// once the containers stopped. So the controllers that wait for Ready pods (deployment rollouts, disruption budgets,
// the autoscaler) act as they would on a cluster with kubelets. The status is the stand-in's own: the oracle compares
// what the controllers do with Ready pods, never the pod status fields written here.
//
// What it writes follows the kubelet's status for a running pod: pkg/kubelet/kubelet_pods.go (generateAPIPodStatus,
// convertToAPIContainerStatuses), pkg/kubelet/status/generate.go (GeneratePodReadyCondition,
// GenerateContainersReadyCondition, GeneratePodInitializedCondition, GeneratePodReadyToStartContainersCondition) and
// pkg/kubelet/status/status_manager.go (the final delete with grace 0 and a UID precondition), k8s.io/kubernetes v1.36.3.
// A node's pod IPs come from its podCIDR, the first pod's being .2 (the bridge takes .1), as the engine's IPAM gives them.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// standInKubelet runs the pods of the cluster file's nodes.
type standInKubelet struct {
	cs    kubernetes.Interface
	nodes map[string]bool // the cluster file's nodes: a pod bound elsewhere has no kubelet at all
	pods  cache.Indexer
	queue workqueue.TypedRateLimitingInterface[string]

	mu     sync.Mutex
	nextIP map[string]int // the next host number of each node's podCIDR
}

// runPods starts the stand-in kubelet for the given nodes; it stops with ctx.
func runPods(ctx context.Context, cs kubernetes.Interface, nodes map[string][]corev1.Taint) *standInKubelet {
	k := &standInKubelet{cs: cs, nodes: map[string]bool{}, nextIP: map[string]int{},
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	for name := range nodes {
		k.nodes[name] = true
	}
	factory := informers.NewSharedInformerFactory(cs, 0)
	informer := factory.Core().V1().Pods().Informer()
	k.pods = informer.GetIndexer()
	enqueue := func(obj any) {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			k.queue.Add(key)
		}
	}
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) }})
	factory.Start(ctx.Done())
	go func() {
		<-ctx.Done()
		k.queue.ShutDown()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		return k
	}
	klog.InfoS("stand-in kubelet: pods bound to a node with heartbeats run and become Ready at once")
	go k.work(ctx)
	go k.work(ctx)
	return k
}

// resetIPs starts each node's pod IPs again from .2 (a reset: the case's pods are gone).
func (k *standInKubelet) resetIPs() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.nextIP = map[string]int{}
}

func (k *standInKubelet) work(ctx context.Context) {
	for {
		key, quit := k.queue.Get()
		if quit {
			return
		}
		if err := k.sync(ctx, key); err != nil && ctx.Err() == nil {
			klog.ErrorS(err, "stand-in kubelet", "pod", key)
			k.queue.AddRateLimited(key)
		} else {
			k.queue.Forget(key)
		}
		k.queue.Done(key)
	}
}

// sync runs one pod: a graceful delete finishes, a bound pod not yet started starts and is Ready.
func (k *standInKubelet) sync(ctx context.Context, key string) error {
	obj, exists, err := k.pods.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := obj.(*corev1.Pod)
	node := pod.Spec.NodeName
	if node == "" || !k.nodes[node] {
		return nil
	}
	if _, down := downNodes.Load(node); down {
		return nil // its kubelet is stopped: the pod stays as it is, as it would on a node that stopped reporting
	}
	if pod.DeletionTimestamp != nil {
		// The containers stopped at once; the status manager then deletes the pod with grace 0 and the pod's UID.
		err := k.cs.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
			GracePeriodSeconds: ptr.To[int64](0), Preconditions: metav1.NewUIDPreconditions(string(pod.UID))})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		return err
	}
	if pod.Status.Phase != corev1.PodPending || pod.Status.StartTime != nil {
		return nil // started already (or finished by someone else)
	}
	nodeObj, err := k.cs.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
	if err != nil {
		return err
	}
	updated := pod.DeepCopy()
	k.runningStatus(updated, nodeObj)
	_, err = k.cs.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // the informer brings the newer pod
	}
	return err
}

// runningStatus writes the status of a pod whose containers all started at once and are ready.
func (k *standInKubelet) runningStatus(pod *corev1.Pod, node *corev1.Node) {
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	s := &pod.Status
	s.Phase = corev1.PodRunning
	s.StartTime = &now
	s.ObservedGeneration = pod.Generation
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			s.HostIP, s.HostIPs = a.Address, []corev1.HostIP{{IP: a.Address}}
			break
		}
	}
	if !pod.Spec.HostNetwork {
		if ip := k.podIP(node); ip != "" {
			s.PodIP, s.PodIPs = ip, []corev1.PodIP{{IP: ip}}
		}
	} else {
		s.PodIP, s.PodIPs = s.HostIP, []corev1.PodIP{{IP: s.HostIP}}
	}
	s.InitContainerStatuses = nil
	for _, c := range pod.Spec.InitContainers {
		st := containerStatus(pod, c, now)
		if c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
			// A regular init container ran to completion before the containers started.
			st.Ready, st.Started = false, ptr.To(false)
			st.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now, ContainerID: st.ContainerID}}
		}
		s.InitContainerStatuses = append(s.InitContainerStatuses, st)
	}
	s.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		s.ContainerStatuses = append(s.ContainerStatuses, containerStatus(pod, c, now))
	}
	ready := readinessGatesReady(pod)
	setCondition(pod, corev1.PodReadyToStartContainers, corev1.ConditionTrue, "", "", now)
	setCondition(pod, corev1.PodInitialized, corev1.ConditionTrue, "", "", now)
	setCondition(pod, corev1.ContainersReady, corev1.ConditionTrue, "", "", now)
	if ready == "" {
		setCondition(pod, corev1.PodReady, corev1.ConditionTrue, "", "", now)
	} else {
		// generate.go GeneratePodReadyCondition: ReadinessGatesNotReady with the first missing gate's message.
		setCondition(pod, corev1.PodReady, corev1.ConditionFalse, "ReadinessGatesNotReady", ready, now)
	}
}

// readinessGatesReady is "" when every readiness gate's condition is True, else generate.go's message for the first that is not.
func readinessGatesReady(pod *corev1.Pod) string {
	for _, g := range pod.Spec.ReadinessGates {
		found := false
		for _, c := range pod.Status.Conditions {
			if c.Type == g.ConditionType {
				found = true
				if c.Status != corev1.ConditionTrue {
					return fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", g.ConditionType, c.Status)
				}
			}
		}
		if !found {
			return fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", g.ConditionType)
		}
	}
	return ""
}

// containerStatus is a running, started and ready container of the pod.
func containerStatus(pod *corev1.Pod, c corev1.Container, now metav1.Time) corev1.ContainerStatus {
	id := fmt.Sprintf("containerd://%x", sha256.Sum256([]byte(string(pod.UID)+"/"+c.Name)))
	return corev1.ContainerStatus{
		Name: c.Name, Image: fullImage(c.Image), ImageID: "", ContainerID: id,
		Ready: true, Started: ptr.To(true), RestartCount: 0,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
	}
}

// fullImage is an image reference as the container runtime reports it: docker.io and library/ made explicit.
func fullImage(image string) string {
	first, _, hasSlash := strings.Cut(image, "/")
	switch {
	case !hasSlash:
		return "docker.io/library/" + image
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		return "docker.io/" + image
	}
	return image
}

// setCondition sets one pod condition, keeping its transition time when its status does not change.
func setCondition(pod *corev1.Pod, t corev1.PodConditionType, status corev1.ConditionStatus, reason, message string, now metav1.Time) {
	c := corev1.PodCondition{Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: now, ObservedGeneration: pod.Generation}
	for i, old := range pod.Status.Conditions {
		if old.Type == t {
			if old.Status == status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			pod.Status.Conditions[i] = c
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}

// podIP is the node's next pod IP from its podCIDR (none when it has none).
func (k *standInKubelet) podIP(node *corev1.Node) string {
	_, cidr, err := net.ParseCIDR(node.Spec.PodCIDR)
	if err != nil || cidr.IP.To4() == nil {
		return ""
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	n, ok := k.nextIP[node.Name]
	if !ok {
		n = 2
	}
	ones, bits := cidr.Mask.Size()
	if size := 1 << (bits - ones); n >= size-1 {
		n = 2
	}
	k.nextIP[node.Name] = n + 1
	ip := cidr.IP.To4()
	v := (uint32(ip[0])<<24 | uint32(ip[1])<<16 | uint32(ip[2])<<8 | uint32(ip[3])) + uint32(n)
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String()
}
