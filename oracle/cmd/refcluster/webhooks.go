package main

// The remote services a cluster file's ClusterProfile and Behavior stand for, served in-process
// on loopback over TLS: the authorization webhook (answers from authorization.webhook, first
// matching rule decides, as src/engine/apiserver/authz/webhook.ts reads them) and the admission
// webhooks (answers from Behavior.webhooks by webhook name). kube-apiserver reaches a webhook's
// Service through a service resolver that sends every Service to this server; the request still
// names the Service as its host, which with the path tells which webhook is called.

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	authzv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/klog/v2"
)

// webhookServer serves both kinds of webhook on one loopback port.
type webhookServer struct {
	addr  string // 127.0.0.1:PORT
	rules []authzRule
	hooks map[string]answer
	mu    sync.Mutex
	// routes maps "host/path" of a webhook's client config to the webhook names configured there.
	routes map[string][]string
}

// startWebhookServer listens on a free loopback port with the serving certificate given.
func startWebhookServer(ctx context.Context, c *cluster, certFile, keyFile string) (*webhookServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	w := &webhookServer{addr: ln.Addr().String(), rules: c.Profile.Authorization.Webhook, hooks: c.Webhooks, routes: map[string][]string{}}
	for _, o := range c.Objects {
		if k := o.GetKind(); k == "ValidatingWebhookConfiguration" || k == "MutatingWebhookConfiguration" {
			w.addRoutes(o)
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/authorize", w.authorize)
	mux.HandleFunc("/", w.admit)
	srv := &http.Server{Handler: mux, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	return w, nil
}

// addRoutes records where each webhook of a configuration is called.
func (w *webhookServer) addRoutes(o *unstructured.Unstructured) {
	hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
	for _, h := range hooks {
		m, _ := h.(map[string]any)
		name, _ := m["name"].(string)
		cc, _ := m["clientConfig"].(map[string]any)
		key := ""
		if svc, ok := cc["service"].(map[string]any); ok {
			path, _ := svc["path"].(string)
			key = fmt.Sprintf("%s.%s.svc%s", svc["name"], svc["namespace"], path)
		} else if raw, ok := cc["url"].(string); ok {
			if u, err := url.Parse(raw); err == nil {
				key = u.Hostname() + u.Path
			}
		}
		w.routes[key] = append(w.routes[key], name)
	}
}

// serviceHosts are the DNS names of every Service a webhook is called through, for the serving certificate.
func serviceHosts(c *cluster) []string {
	var hosts []string
	for _, o := range c.Objects {
		if k := o.GetKind(); k != "ValidatingWebhookConfiguration" && k != "MutatingWebhookConfiguration" {
			continue
		}
		hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
		for _, h := range hooks {
			svc, ok, _ := unstructured.NestedMap(h.(map[string]any), "clientConfig", "service")
			if ok {
				hosts = append(hosts, fmt.Sprintf("%s.%s.svc", svc["name"], svc["namespace"]))
			}
		}
	}
	return hosts
}

// ResolveEndpoint sends every Service's webhook calls to this server (webhook.ServiceResolver).
func (w *webhookServer) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return &url.URL{Scheme: "https", Host: w.addr}, nil
}

// authorize answers a SubjectAccessReview by the first rule whose given fields all match.
func (w *webhookServer) authorize(rw http.ResponseWriter, r *http.Request) {
	var review authzv1.SubjectAccessReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	s := review.Spec
	eq := func(want, got string) bool { return want == "" || want == "*" || want == got }
	for _, rule := range w.rules {
		resourceOK := rule.Resource == "" || rule.Resource == "*"
		ns := ""
		if ra := s.ResourceAttributes; ra != nil {
			ns = ra.Namespace
			combined := ra.Resource
			if ra.Subresource != "" {
				combined += "/" + ra.Subresource
			}
			resourceOK = resourceOK || rule.Resource == ra.Resource || rule.Resource == combined
		}
		verb := ""
		if s.ResourceAttributes != nil {
			verb = s.ResourceAttributes.Verb
		} else if s.NonResourceAttributes != nil {
			verb = s.NonResourceAttributes.Verb
		}
		groupOK := rule.Group == "" || rule.Group == "*" || slices.Contains(s.Groups, rule.Group)
		if eq(rule.User, s.User) && groupOK && eq(rule.Verb, verb) && resourceOK && eq(rule.Namespace, ns) {
			review.Status = authzv1.SubjectAccessReviewStatus{Allowed: rule.Decision == "allow", Denied: rule.Decision == "deny", Reason: rule.Reason}
			break
		}
	}
	writeJSON(rw, &review)
}

// admit answers an AdmissionReview as the Behavior says the named webhook does.
func (w *webhookServer) admit(rw http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(rw, "not an AdmissionReview", http.StatusBadRequest)
		return
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	name, a := w.answerFor(host + r.URL.Path)
	klog.InfoS("admission webhook called", "webhook", name, "host", r.Host, "path", r.URL.Path)
	if a.Unreachable {
		// A webhook that cannot be reached: drop the connection without an answer.
		if hj, ok := rw.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
	}
	if a.DelaySeconds > 0 {
		select {
		case <-time.After(time.Duration(a.DelaySeconds * float64(time.Second))):
		case <-r.Context().Done():
			return
		}
	}
	allowed := a.Allowed == nil || *a.Allowed
	resp := &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: allowed, Warnings: a.Warnings}
	if !allowed {
		// What the Behavior means by a denial (src/engine/apiserver/admission/webhook/call.ts): code 403 unless
		// it gives one, and the reason apimachinery gives that code, as a controller-runtime webhook answers.
		code := a.Code
		if code == 0 {
			code = http.StatusForbidden
		}
		resp.Result = &metav1.Status{Code: code, Reason: reasonForCode(code), Message: a.Message}
	}
	if len(a.Patch) > 0 {
		raw, _ := json.Marshal(a.Patch)
		pt := admissionv1.PatchTypeJSONPatch
		resp.PatchType, resp.Patch = &pt, raw
	}
	review.Response, review.Request = resp, nil
	writeJSON(rw, &review)
}

// answerFor finds the webhook called at host/path and its answer (the first one with an answer when several share it).
func (w *webhookServer) answerFor(route string) (string, answer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	route = strings.TrimSuffix(route, "/")
	for key, names := range w.routes {
		if strings.TrimSuffix(key, "/") != route {
			continue
		}
		for _, n := range names {
			if a, ok := w.hooks[n]; ok {
				return n, a
			}
		}
		if len(names) > 0 {
			return names[0], answer{}
		}
	}
	return "", answer{}
}

// reasonForCode is the StatusReason of an HTTP code, as apimachinery's errors name them.
func reasonForCode(code int32) metav1.StatusReason {
	reasons := map[int32]metav1.StatusReason{
		400: metav1.StatusReasonBadRequest, 401: metav1.StatusReasonUnauthorized, 403: metav1.StatusReasonForbidden,
		404: metav1.StatusReasonNotFound, 405: metav1.StatusReasonMethodNotAllowed, 406: metav1.StatusReasonNotAcceptable,
		409: metav1.StatusReasonConflict, 410: metav1.StatusReasonGone, 413: metav1.StatusReasonRequestEntityTooLarge,
		415: metav1.StatusReasonUnsupportedMediaType, 422: metav1.StatusReasonInvalid, 429: metav1.StatusReasonTooManyRequests,
		500: metav1.StatusReasonInternalError, 503: metav1.StatusReasonServiceUnavailable, 504: metav1.StatusReasonTimeout,
	}
	return reasons[code]
}

func writeJSON(rw http.ResponseWriter, v any) {
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(v)
}

// caBundle is the CA as a webhook configuration's clientConfig.caBundle wants it (base64 in JSON).
func caBundle(pem []byte) string { return base64.StdEncoding.EncodeToString(pem) }
