// The console's `help`: what can be typed while the run is paused.

/** HELP_TEXT lists the commands and expressions the console understands. */
export const HELP_TEXT = `Commands (run against the simulated cluster as it is at this step):
  kubectl get RESOURCE[,RESOURCE...] [NAME...] [-n NAMESPACE | -A] [-o wide|name|json|yaml|jsonpath=TEMPLATE]
                [--sort-by FIELD] [--show-labels]
  kubectl describe (pod|node) [NAME...] [-n NAMESPACE]
  kubectl auth can-i VERB RESOURCE[/SUBRESOURCE] [NAME] [-n NAMESPACE | -A] [--as USER] [--as-group GROUP]...
  etcdctl get KEY [--prefix] [--keys-only] [--print-value-only] [--limit N]
  dig NAME                          what the cluster's DNS answers for NAME, looked up as the current pod resolves it
                                    (web, web.default, web-0.web, 10-244-1-5.default.pod, kubernetes.default.svc...)
  explain [POD]                     why the pod is where it is at this step: what kube-scheduler has decided so far,
                                    or why it is stuck Terminating, not Ready, restarting or Failed
  help

While paused after the run's first kubectl delete (a pod stuck Terminating, say):
  kubectl delete pod NAME [-n NAMESPACE] [--grace-period=N] [--force] [--now]
                                    one more delete at this virtual time: the run is replayed with it and
                                    pauses on it; the console says what changed

At any pause, a kubectl command on a node at this virtual time (the run is replayed with it and pauses on its
first step; the console prints what kubectl prints, to the end of the run):
  kubectl cordon NODE
  kubectl uncordon NODE
  kubectl drain NODE [--ignore-daemonsets] [--delete-emptydir-data] [--force] [--disable-eviction]
                [--grace-period=N] [--timeout=DURATION] [--skip-wait-for-delete-timeout=N] [--pod-selector=SELECTOR]

Expressions (over the current pod; values print as JSON, strings as they are):
  status.phase                      a field path on the pod (pod. may be written first)
  spec.containers[0].image          list items by index; [*] for all of them; [1:3] for a slice
  node.status.allocatable           the node the pod is bound to
  events[*].reason                  the recorded events, as core/v1 Events
  pod.status.conditions[?(@.type=="Ready")].status
                                    a filter, as kubectl's JSONPath writes it (==, !=, <, <=, >, >=)
  {.metadata.name}{" "}{.status.podIP}
                                    a kubectl -o jsonpath template, braces and all
  ..image                           every "image" field, at any depth`;
