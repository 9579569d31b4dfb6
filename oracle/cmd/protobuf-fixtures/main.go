// Prints the protobuf fixtures of test/serve/protobuf.test.ts: each object as Go's protobuf serializer encodes it (hex)
// beside its encoding/json JSON. Usage: cd oracle && go run ./cmd/protobuf-fixtures
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func main() {
	scheme := runtime.NewScheme()
	_ = appsv1.AddToScheme(scheme)
	_ = corev1.AddToScheme(scheme)
	_ = policyv1.AddToScheme(scheme)
	_ = authorizationv1.AddToScheme(scheme)
	s := protobuf.NewSerializer(scheme, scheme)
	replicas := int32(0)
	grace := int64(0)
	maxSurge := intstr.FromString("25%")
	objs := []runtime.Object{
		&appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
			Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &maxSurge}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27", Args: []string{"-g", "daemon off;"},
						Ports:     []corev1.ContainerPort{{ContainerPort: 80}},
						Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}}}}}},
		&policyv1.Eviction{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "Eviction"}, ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: &grace}},
		&metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}, GracePeriodSeconds: &grace, Preconditions: &metav1.Preconditions{UID: func() *types.UID { u := types.UID("1234"); return &u }()}},
		&authorizationv1.SelfSubjectAccessReview{TypeMeta: metav1.TypeMeta{APIVersion: "authorization.k8s.io/v1", Kind: "SelfSubjectAccessReview"},
			Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: "default", Verb: "list", Resource: "pods"}}},
	}
	for _, o := range objs {
		var buf bytes.Buffer
		if err := s.Encode(o, &buf); err != nil {
			panic(err)
		}
		j, _ := json.Marshal(o)
		fmt.Printf("  { kind: %q, protobuf: '%s', json: %s },\n", o.GetObjectKind().GroupVersionKind().Kind, hex.EncodeToString(buf.Bytes()), j)
	}
}
