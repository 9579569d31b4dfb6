// Writes src/serve/protobuf/schema.ts: the protobuf layout of the built-in API types serve decodes (field numbers,
// JSON names, Go kinds, pointer/omitempty flags), read by reflection from k8s.io/api v0.36.3 struct tags.
// Usage: cd oracle && go run ./cmd/protobuf-schema > ../src/serve/protobuf/schema.ts
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// special are the types with a JSON form of their own, named by the kind decode.ts gives them.
var special = map[reflect.Type]string{
	reflect.TypeFor[metav1.Time]():          "time",
	reflect.TypeFor[metav1.MicroTime]():     "microtime",
	reflect.TypeFor[metav1.Duration]():      "duration",
	reflect.TypeFor[metav1.FieldsV1]():      "rawjson",
	reflect.TypeFor[runtime.RawExtension](): "rawjson",
	reflect.TypeFor[resource.Quantity]():    "quantity",
	reflect.TypeFor[intstr.IntOrString]():   "intstr",
}

// name is a struct's key: its package below k8s.io/api or k8s.io/apimachinery/pkg/apis, a dot, its name.
func name(t reflect.Type) string {
	pkg := strings.TrimPrefix(strings.TrimPrefix(t.PkgPath(), "k8s.io/api/"), "k8s.io/apimachinery/pkg/apis/")
	return pkg + "." + t.Name()
}

// kind is the kind of a field's (element) type; structs it names are queued for their own entries.
func kind(t reflect.Type, queue func(reflect.Type)) string {
	if k, ok := special[t]; ok {
		return k
	}
	switch t.Kind() {
	case reflect.Pointer:
		return kind(t.Elem(), queue)
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "uint"
	case reflect.Float64:
		return "double"
	case reflect.Float32:
		return "float"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes"
		}
		// A named slice (authorization's ExtraValue) is a message of one repeated field, items.
		return "items:" + kind(t.Elem(), queue)
	case reflect.Map:
		return kind(t.Key(), queue) + "=" + kind(t.Elem(), queue)
	case reflect.Struct:
		queue(t)
		return "msg:" + name(t)
	}
	panic(fmt.Sprintf("no kind for %s", t))
}

// fields lists a struct's fields that have a protobuf tag, in declaration order.
func fields(t reflect.Type, queue func(reflect.Type)) string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("protobuf")
		if !ok {
			continue
		}
		num, err := strconv.Atoi(strings.Split(tag, ",")[1])
		if err != nil {
			panic(err)
		}
		jsonTag := strings.Split(f.Tag.Get("json"), ",")
		ft, flags := f.Type, ""
		if strings.Contains(f.Tag.Get("json"), ",omitempty") {
			flags += "o"
		}
		if ft.Kind() == reflect.Pointer {
			flags += "p"
			ft = ft.Elem()
		}
		var k string
		switch {
		case ft.Kind() == reflect.Slice && ft.Name() == "" && ft.Elem().Kind() != reflect.Uint8:
			flags += "r"
			k = kind(ft.Elem(), queue)
		case ft.Kind() == reflect.Map:
			flags += "m"
			k = kind(ft, queue)
		default:
			k = kind(ft, queue)
		}
		if f.Anonymous && jsonTag[0] == "" {
			flags += "i"
		}
		out = append(out, fmt.Sprintf("[%d,%s,%s,%s]", num, quote(jsonTag[0]), quote(k), quote(flags)))
	}
	return "[" + strings.Join(out, ",") + "]"
}

func main() {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		admissionregistrationv1.AddToScheme, appsv1.AddToScheme, authorizationv1.AddToScheme, autoscalingv1.AddToScheme,
		autoscalingv2.AddToScheme, batchv1.AddToScheme, corev1.AddToScheme, discoveryv1.AddToScheme, nodev1.AddToScheme,
		policyv1.AddToScheme, rbacv1.AddToScheme, schedulingv1.AddToScheme, storagev1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	kinds := map[string]string{}
	types := map[string]string{}
	var pending []reflect.Type
	queue := func(t reflect.Type) {
		if _, ok := types[name(t)]; !ok {
			types[name(t)] = ""
			pending = append(pending, t)
		}
	}
	// The kinds of the groups' own types: not the meta/v1 ones metav1.AddToGroupVersion registers in every group
	// version (WatchEvent, Status, APIGroup..., the *Options; decode.ts maps DeleteOptions itself), nor the
	// subresources' query-parameter kinds (PodLogOptions, PodExecOptions, NodeProxyOptions...), never a body.
	for gvk, t := range scheme.AllKnownTypes() {
		if !strings.HasPrefix(t.PkgPath(), "k8s.io/api/") || strings.HasSuffix(gvk.Kind, "Options") {
			continue
		}
		kinds[gvk.GroupVersion().String()+"/"+gvk.Kind] = name(t)
		queue(t)
	}
	for len(pending) > 0 {
		t := pending[0]
		pending = pending[1:]
		types[name(t)] = fields(t, queue)
	}
	var b strings.Builder
	b.WriteString(`// Code generated by oracle/cmd/protobuf-schema (cd oracle && go run ./cmd/protobuf-schema) from k8s.io/api v0.36.3 and k8s.io/apimachinery v0.36.3; do not edit.
// Each type's fields: [protobuf field number, JSON name, kind, flags (o omitempty, p pointer, r repeated, m map, i inline)].
// The data is derived from the Kubernetes source code: Copyright The Kubernetes Authors, Apache License 2.0.

/** ProtoField is one field of a Go API struct as its protobuf and JSON tags describe it. */
export type ProtoField = readonly [number: number, json: string, kind: string, flags: string];

/** PROTOBUF_KINDS maps ` + "`group/version/Kind`" + ` (the core group as ` + "`v1/Pod`" + `) to its Go type. */
export const PROTOBUF_KINDS: Readonly<Record<string, string>> = {
`)
	for _, k := range sorted(kinds) {
		fmt.Fprintf(&b, "  %s: %s,\n", quote(k), quote(kinds[k]))
	}
	b.WriteString(`};

/** PROTOBUF_TYPES holds every struct those kinds reach, by package and name (` + "`apps/v1.DeploymentSpec`" + `). */
export const PROTOBUF_TYPES: Readonly<Record<string, readonly ProtoField[]>> = {
`)
	for _, k := range sorted(types) {
		fmt.Fprintf(&b, "  %s: %s,\n", quote(k), types[k])
	}
	b.WriteString("};\n")
	if _, err := os.Stdout.WriteString(b.String()); err != nil {
		panic(err)
	}
}

// quote writes a string as a single-quoted TypeScript literal (JSON's escapes, a quote escaped).
func quote(s string) string {
	j, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	body := strings.ReplaceAll(string(j[1:len(j)-1]), `\"`, `"`)
	return "'" + strings.ReplaceAll(body, "'", `\'`) + "'"
}

// sorted is a map's keys in byte order.
func sorted(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
