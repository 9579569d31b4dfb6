package main

// Reading cluster files as the engine reads them (src/engine/cluster/files.ts, loader.ts,
// own-kinds.ts): YAML documents of API objects (a `kind: List` is expanded), component config
// kinds (KubeSchedulerConfiguration, AdmissionConfiguration), and our own kinds ClusterProfile
// (control-plane flags) and Behavior (of which only the admission webhooks' answers matter here).
// With no cluster file the embedded default cluster serves whole; with cluster files, its
// bootstrap kinds (namespaces, RBAC, PriorityClasses, ConfigMaps, Services) still come first
// unless a file defines the same object, and the Nodes come only from the files.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const ownAPIVersion = "podlifecycle.debug/v1alpha1"

// bootstrapKinds are what every cluster has even when a cluster file lacks them (files.ts API_SERVER_BOOTSTRAP_KINDS).
var bootstrapKinds = map[string]bool{
	"Namespace": true, "ClusterRole": true, "ClusterRoleBinding": true, "Role": true, "RoleBinding": true,
	"PriorityClass": true, "ConfigMap": true, "Service": true,
}

// cluster is everything the cluster files say.
type cluster struct {
	Objects   []*unstructured.Unstructured
	Scheduler []byte            // a KubeSchedulerConfiguration document, as YAML, if any
	Admission []byte            // an AdmissionConfiguration document, as YAML, if any
	Profile   profile           // the merged ClusterProfile
	Webhooks  map[string]answer // Behavior.webhooks: an admission webhook's answer by webhook name
}

// profile is the ClusterProfile: the flags and files of the control plane that no API object holds.
type profile struct {
	Authentication struct {
		Anonymous *bool         `json:"anonymous"`
		Tokens    []staticToken `json:"tokens"`
		ClientCA  string        `json:"clientCA"`
	} `json:"authentication"`
	Authorization struct {
		Modes   []string    `json:"modes"`
		ABAC    []any       `json:"abac"`
		Webhook []authzRule `json:"webhook"`
	} `json:"authorization"`
	Admission struct {
		Enable  []string `json:"enable"`
		Disable []string `json:"disable"`
	} `json:"admission"`
	// ControllerManager is kube-controller-manager's --kube-api-qps and --kube-api-burst (its defaults when unset).
	ControllerManager struct {
		KubeAPIQPS   *float64 `json:"kubeAPIQPS"`
		KubeAPIBurst *int64   `json:"kubeAPIBurst"`
	} `json:"controllerManager"`
}

type staticToken struct {
	Token  string   `json:"token"`
	User   string   `json:"user"`
	UID    string   `json:"uid"`
	Groups []string `json:"groups"`
}

// authzRule is one answer of the authorization webhook (src/engine/apiserver/authz/webhook.ts).
type authzRule struct {
	User, Group, Verb, Resource, Namespace string
	Decision                               string `json:"decision"`
	Reason                                 string `json:"reason"`
}

// answer is what an admission webhook answers (Behavior.webhooks.NAME).
type answer struct {
	Allowed      *bool    `json:"allowed"`
	Code         int32    `json:"code"`
	Message      string   `json:"message"`
	Patch        []any    `json:"patch"`
	Warnings     []string `json:"warnings"`
	DelaySeconds float64  `json:"delaySeconds"`
	Unreachable  bool     `json:"unreachable"`
}

// loadCluster reads the cluster files (or the embedded cluster when there are none).
func loadCluster(embeddedFile string, files []string) (*cluster, error) {
	c := &cluster{Webhooks: map[string]answer{}}
	profileDoc := map[string]map[string]any{}
	var own []*unstructured.Unstructured
	for _, f := range files {
		docs, err := readDocuments(f)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if err := c.sort(d, &own, profileDoc); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
	}
	embedded, err := readDocuments(embeddedFile)
	if err != nil {
		return nil, fmt.Errorf("the embedded cluster: %w", err)
	}
	defined := map[string]bool{}
	for _, o := range own {
		defined[refOf(o)] = true
	}
	for _, d := range embedded {
		o := &unstructured.Unstructured{Object: d}
		if len(files) == 0 || (bootstrapKinds[o.GetKind()] && !defined[refOf(o)]) {
			c.Objects = append(c.Objects, o)
		}
	}
	c.Objects = append(c.Objects, own...)
	raw, _ := json.Marshal(profileDoc)
	if err := json.Unmarshal(raw, &c.Profile); err != nil {
		return nil, fmt.Errorf("ClusterProfile: %w", err)
	}
	if len(c.Profile.Authorization.Modes) == 0 {
		c.Profile.Authorization.Modes = []string{"Node", "RBAC"}
	}
	return c, nil
}

// sort puts one document where it belongs.
func (c *cluster) sort(d map[string]any, own *[]*unstructured.Unstructured, profileDoc map[string]map[string]any) error {
	apiVersion, _ := d["apiVersion"].(string)
	kind, _ := d["kind"].(string)
	group := ""
	if i := strings.Index(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	switch {
	case apiVersion == ownAPIVersion && kind == "ClusterProfile":
		// Later documents win, section by section and key by key (own-kinds.ts mergeProfile).
		for _, section := range []string{"authentication", "authorization", "admission", "controllerManager"} {
			if m, ok := d[section].(map[string]any); ok {
				if profileDoc[section] == nil {
					profileDoc[section] = map[string]any{}
				}
				for k, v := range m {
					profileDoc[section][k] = v
				}
			}
		}
	case apiVersion == ownAPIVersion && kind == "Behavior":
		hooks, _ := d["webhooks"].(map[string]any)
		for name, v := range hooks {
			raw, _ := json.Marshal(v)
			a := c.Webhooks[name]
			if err := json.Unmarshal(raw, &a); err != nil {
				return fmt.Errorf("Behavior webhooks.%s: %w", name, err)
			}
			c.Webhooks[name] = a
		}
	case kind == "KubeSchedulerConfiguration":
		c.Scheduler, _ = yaml.Marshal(d)
	case kind == "AdmissionConfiguration":
		c.Admission, _ = yaml.Marshal(d)
	case strings.HasSuffix(group, ".config.k8s.io"):
		// Other component config (e.g. a bare PodSecurityConfiguration) has no place in this cluster.
	default:
		*own = append(*own, &unstructured.Unstructured{Object: d})
	}
	return nil
}

// readDocuments reads every YAML document of a file; a `kind: List` gives its items.
func readDocuments(file string) ([]map[string]any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if d == nil {
			continue
		}
		if kind, _ := d["kind"].(string); strings.HasSuffix(kind, "List") && d["items"] != nil {
			items, _ := d["items"].([]any)
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					if m["kind"] == nil {
						m["kind"] = strings.TrimSuffix(kind, "List")
					}
					out = append(out, m)
				}
			}
			continue
		}
		out = append(out, d)
	}
}

// refOf names an object as Kind/namespace/name (or Kind/name when cluster-scoped).
func refOf(o *unstructured.Unstructured) string {
	if o.GetNamespace() != "" {
		return o.GetKind() + "/" + o.GetNamespace() + "/" + o.GetName()
	}
	return o.GetKind() + "/" + o.GetName()
}
