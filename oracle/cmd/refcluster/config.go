package main

// The control plane's configuration: certificates and kubeconfigs for each client, the files the
// ClusterProfile stands for (client CA bundle, static tokens, ABAC policy, authorization webhook),
// and each component's flags — kubeadm's defaults where the engine follows kubeadm (service CIDR
// 10.96.0.0/12, pod CIDR 10.244.0.0/16, Node,RBAC, NodeRestriction on top of the default plugins).

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
)

const (
	serviceCIDR   = "10.96.0.0/12"  // kubeadm's default --service-cluster-ip-range, the engine's 10.96.0.1 / 10.96.0.10
	podCIDR       = "10.244.0.0/16" // the default cluster's --pod-network-cidr (flannel)
	advertiseAddr = "192.168.49.2"  // the control-plane node's InternalIP in the default cluster
)

// runFiles are the paths of what writeFiles made.
type runFiles struct {
	dir                                  string
	servingCert, servingKey              string
	webhookCert, webhookKey              string
	adminCert, adminKey, adminKubeconfig string
	mastersCert, mastersKey              string
	saKey, saPub, clientCABundle         string
	tokenFile, abacFile, admissionConfig string
	schedulerConfig, authzWebhookConfig  string
	authzWebhookURL                      string
}

// writeFiles makes the certificates, kubeconfigs and profile files of the run.
func writeFiles(dir string, p *pki, c *cluster) (*runFiles, error) {
	f := &runFiles{dir: dir}
	var err error
	must := func(e error) {
		if err == nil {
			err = e
		}
	}
	var e error
	f.servingCert, f.servingKey, e = p.issue("apiserver", "kube-apiserver", nil,
		[]string{"127.0.0.1", "localhost", "10.96.0.1", advertiseAddr, "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"})
	must(e)
	f.webhookCert, f.webhookKey, e = p.issue("webhooks", "webhooks", nil, append([]string{"127.0.0.1", "localhost"}, serviceHosts(c)...))
	must(e)
	// kubeadm's admin.conf user; and a system:masters identity for this program's own writes.
	f.adminCert, f.adminKey, e = p.issue("admin", "kubernetes-admin", []string{"kubeadm:cluster-admins"}, nil)
	must(e)
	f.mastersCert, f.mastersKey, e = p.issue("refcluster", "refcluster", []string{"system:masters"}, nil)
	must(e)
	// The scheduler's and the controller manager's identities (their kubeconfigs are written by populate). The
	// engine's components act whatever the authorization modes; without RBAC theirs would be refused
	// everything, so they are then system:masters too.
	var components []string
	if !contains(c.Profile.Authorization.Modes, "RBAC") {
		components = []string{"system:masters"}
	}
	_, _, e = p.issue("scheduler", "system:kube-scheduler", components, nil)
	must(e)
	_, _, e = p.issue("controller-manager", "system:kube-controller-manager", components, nil)
	must(e)
	f.saKey, f.saPub, e = p.serviceAccountKey()
	must(e)
	if err != nil {
		return nil, err
	}
	f.adminKubeconfig = pathIn(dir, "admin.kubeconfig")

	// --client-ca-file: this cluster's CA, then the profile's.
	ca, _ := os.ReadFile(p.CAFile)
	f.clientCABundle = pathIn(dir, "client-ca.crt")
	must(os.WriteFile(f.clientCABundle, append(ca, []byte("\n"+c.Profile.Authentication.ClientCA)...), 0o600))

	if tokens := c.Profile.Authentication.Tokens; len(tokens) > 0 {
		var lines []string
		for _, t := range tokens {
			lines = append(lines, fmt.Sprintf("%s,%s,%s,%q", t.Token, t.User, t.UID, strings.Join(t.Groups, ",")))
		}
		f.tokenFile = pathIn(dir, "tokens.csv")
		must(os.WriteFile(f.tokenFile, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	}
	if abac := c.Profile.Authorization.ABAC; len(abac) > 0 {
		var lines []string
		for _, line := range abac {
			if s, ok := line.(string); ok {
				lines = append(lines, s)
			} else {
				b, _ := json.Marshal(line)
				lines = append(lines, string(b))
			}
		}
		f.abacFile = pathIn(dir, "abac.jsonl")
		must(os.WriteFile(f.abacFile, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	}
	if c.Admission != nil {
		f.admissionConfig = pathIn(dir, "admission.yaml")
		must(os.WriteFile(f.admissionConfig, c.Admission, 0o600))
	}
	return f, err
}

// writeAuthzWebhookConfig writes the kubeconfig that points the Webhook authorizer at the in-process server.
func writeAuthzWebhookConfig(f *runFiles, caFile string) error {
	f.authzWebhookConfig = pathIn(f.dir, "authz-webhook.kubeconfig")
	return writeKubeconfig(f.authzWebhookConfig, f.authzWebhookURL, caFile, "", "")
}

// apiserverFlags are kube-apiserver's flags as kubeadm writes them, with the profile's choices.
func apiserverFlags(f *runFiles, c *cluster, etcdURL string, port int) []string {
	prof := c.Profile
	anonymous := prof.Authentication.Anonymous == nil || *prof.Authentication.Anonymous
	args := []string{
		"--advertise-address=" + advertiseAddr,
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--allow-privileged=true",
		"--authorization-mode=" + strings.Join(prof.Authorization.Modes, ","),
		"--client-ca-file=" + f.clientCABundle,
		"--enable-admission-plugins=" + strings.Join(append([]string{"NodeRestriction"}, prof.Admission.Enable...), ","),
		"--enable-bootstrap-token-auth=true",
		"--etcd-servers=" + etcdURL,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + f.saPub,
		"--service-account-signing-key-file=" + f.saKey,
		"--service-cluster-ip-range=" + serviceCIDR,
		"--tls-cert-file=" + f.servingCert,
		"--tls-private-key-file=" + f.servingKey,
		"--cert-dir=" + pathIn(f.dir, "apiserver-certs"),
		fmt.Sprintf("--anonymous-auth=%t", anonymous),
		"--endpoint-reconciler-type=none",
	}
	if len(prof.Admission.Disable) > 0 {
		args = append(args, "--disable-admission-plugins="+strings.Join(prof.Admission.Disable, ","))
	}
	if f.tokenFile != "" {
		args = append(args, "--token-auth-file="+f.tokenFile)
	}
	if f.abacFile != "" {
		args = append(args, "--authorization-policy-file="+f.abacFile)
	}
	if contains(prof.Authorization.Modes, "Webhook") {
		args = append(args, "--authorization-webhook-config-file="+f.authzWebhookConfig, "--authorization-webhook-version=v1")
	}
	if f.admissionConfig != "" {
		args = append(args, "--admission-control-config-file="+f.admissionConfig)
	}
	return args
}

// schedulerFlags run kube-scheduler with the cluster file's KubeSchedulerConfiguration, if any.
func schedulerFlags(f *runFiles, c *cluster, kubeconfig string) ([]string, error) {
	args := []string{"--secure-port=0"}
	if c.Scheduler == nil {
		return append(args, "--kubeconfig="+kubeconfig, "--leader-elect=false"), nil
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(c.Scheduler, &cfg); err != nil {
		return nil, err
	}
	cfg["clientConnection"] = map[string]any{"kubeconfig": kubeconfig}
	cfg["leaderElection"] = map[string]any{"leaderElect": false}
	out, _ := yaml.Marshal(cfg)
	f.schedulerConfig = pathIn(f.dir, "scheduler-config.yaml")
	if err := os.WriteFile(f.schedulerConfig, out, 0o600); err != nil {
		return nil, err
	}
	return append(args, "--config="+f.schedulerConfig), nil
}

// controllerManagerFlags are kubeadm's kube-controller-manager flags. The resource quota controller is
// off: the cluster file's quota usage stands, as the engine takes it (see writeQuotaStatus).
func controllerManagerFlags(f *runFiles, caFile, caKey, kubeconfig string) []string {
	return []string{
		"--kubeconfig=" + kubeconfig,
		"--secure-port=0",
		"--leader-elect=false",
		"--use-service-account-credentials=true",
		"--service-account-private-key-file=" + f.saKey,
		"--root-ca-file=" + caFile,
		"--cluster-signing-cert-file=" + caFile,
		"--cluster-signing-key-file=" + caKey,
		"--controllers=*,bootstrap-signer-controller,token-cleaner-controller,-resourcequota-controller",
		"--allocate-node-cidrs=true",
		"--cluster-cidr=" + podCIDR,
		"--service-cluster-ip-range=" + serviceCIDR,
		"--cluster-name=kubernetes",
	}
}

// restConfig is a client of the API server with a client certificate.
func restConfig(server, caFile, certFile, keyFile string) (*rest.Config, error) {
	return &rest.Config{
		Host:            server,
		TLSClientConfig: rest.TLSClientConfig{CAFile: caFile, CertFile: certFile, KeyFile: keyFile},
		QPS:             200, Burst: 400,
	}, nil
}

// writeKubeconfig writes a one-context kubeconfig (no user credentials when certFile is empty).
func writeKubeconfig(path, server, caFile, certFile, keyFile string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	user := &clientcmdapi.AuthInfo{}
	if certFile != "" {
		if user.ClientCertificateData, err = os.ReadFile(certFile); err != nil {
			return err
		}
		if user.ClientKeyData, err = os.ReadFile(keyFile); err != nil {
			return err
		}
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["refcluster"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos["user"] = user
	cfg.Contexts["refcluster"] = &clientcmdapi.Context{Cluster: "refcluster", AuthInfo: "user", Namespace: "default"}
	cfg.CurrentContext = "refcluster"
	return clientcmd.WriteToFile(*cfg, path)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return b
}
