// The pod-lifecycle CLI as a process on Services, Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas and
// PriorityClasses that kube-apiserver's validation refuses: outcome Rejected at apiserver.validate, the 422 Invalid
// Status and kubectl's printed error, word for word as kube-apiserver 1.36.3 gives them (pkg/apis/core/validation and
// pkg/apis/scheduling/validation; the Service's cluster IP checks run before allocation, pkg/registry/core/service/storage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

const DIR = 'test/fixtures/validation';
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const LOOPBACK = 'may not be in the loopback range (127.0.0.0/8, ::1/128)';

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  objects: { kind: string; metadata: { name: string } }[];
}

function run(fixture: string): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [CLI, 'run', `${DIR}/${fixture}`, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

/** Each case: the fixture, the kind and its name, the Status's qualified kind when it has a group, and the causes in order. */
const cases: { name: string; fixture: string; kind: string; object: string; qualified?: string; causes: string[] }[] = [
  {
    name: 'A Service with two unnamed ports needs a name on each',
    fixture: 'service-unnamed-ports.yaml', kind: 'Service', object: 'web',
    causes: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
  },
  {
    name: 'A targetPort name that is not an IANA service name is refused',
    fixture: 'service-target-port-name.yaml', kind: 'Service', object: 'web',
    causes: ['spec.ports[0].targetPort: Invalid value: "HTTP_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
  },
  {
    name: 'A nodePort on a ClusterIP Service is forbidden',
    fixture: 'service-node-port-cluster-ip.yaml', kind: 'Service', object: 'web',
    causes: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
  },
  {
    name: 'Ports 0 and 70000 are out of range, and so are the targetPorts defaulted from them',
    fixture: 'service-port-range.yaml', kind: 'Service', object: 'web',
    causes: [
      `spec.ports[0].port: Invalid value: 0: ${PORT_RANGE}`, `spec.ports[0].targetPort: Invalid value: 0: ${PORT_RANGE}`,
      `spec.ports[1].port: Invalid value: 70000: ${PORT_RANGE}`, `spec.ports[1].targetPort: Invalid value: 70000: ${PORT_RANGE}`,
    ],
  },
  {
    name: 'A selector value with a space is not a label value',
    fixture: 'service-selector-label.yaml', kind: 'Service', object: 'web',
    causes: ["spec.selector: Invalid value: \"web server\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
  },
  {
    name: 'One port name twice and one port and protocol twice are duplicates, the pair shown as Go prints it',
    fixture: 'service-duplicate-port.yaml', kind: 'Service', object: 'web',
    causes: ['spec.ports[1].name: Duplicate value: "http"', 'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}'],
  },
  {
    name: 'An ExternalName Service needs its externalName',
    fixture: 'service-external-name.yaml', kind: 'Service', object: 'db',
    causes: ['spec.externalName: Required value'],
  },
  {
    name: 'A clusterIP that is no address is refused before allocation',
    fixture: 'service-cluster-ip.yaml', kind: 'Service', object: 'web',
    causes: ['spec.clusterIPs[0]: Invalid value: "10.96.300.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  },
  {
    name: 'A headless Service may not be of type NodePort',
    fixture: 'service-headless-node-port.yaml', kind: 'Service', object: 'web',
    causes: ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"],
  },
  {
    name: 'Unsupported protocol and session affinity, source ranges and a traffic policy a ClusterIP Service cannot have',
    fixture: 'service-bad-values.yaml', kind: 'Service', object: 'web',
    causes: [
      'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ],
  },
  {
    name: 'A Service name is a DNS label in 1.36: a leading digit passes, an underscore does not',
    fixture: 'service-name-digit.yaml', kind: 'Service', object: '1web_a',
    causes: ["metadata.name: Invalid value: \"1web_a\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"],
  },
  {
    name: 'A ClientIP affinity timeout of 0 is out of range',
    fixture: 'service-affinity-timeout.yaml', kind: 'Service', object: 'web',
    causes: ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400'],
  },
  {
    name: 'Unknown IP family and policy are refused before any address is drawn',
    fixture: 'service-ip-family-policy.yaml', kind: 'Service', object: 'web',
    causes: [
      'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      'spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ],
  },
  {
    name: 'A loopback external IP, an unknown internal traffic policy and traffic distribution',
    fixture: 'service-external-ips.yaml', kind: 'Service', object: 'web',
    causes: [
      `spec.externalIPs[0]: Invalid value: "127.0.0.1": ${LOOPBACK}`,
      'spec.internalTrafficPolicy: Unsupported value: "Nearby": supported values: "Cluster", "Local"',
      'spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
    ],
  },
  {
    name: 'One node port asked for twice is already allocated when the second port asks',
    fixture: 'service-node-port-twice.yaml', kind: 'Service', object: 'web',
    causes: ['spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated'],
  },
  {
    name: 'LoadBalancer fields and a health check node port on a ClusterIP Service',
    fixture: 'service-lb-fields.yaml', kind: 'Service', object: 'web',
    causes: [
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.healthCheckNodePort: Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ],
  },
  {
    name: 'A namespace finalizer without a domain must be a standard one',
    fixture: 'namespace-finalizer.yaml', kind: 'Namespace', object: 'team-a',
    causes: ['spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified'],
  },
  {
    name: 'A ServiceAccount name is a DNS subdomain',
    fixture: 'service-account-name.yaml', kind: 'ServiceAccount', object: 'Builder',
    causes: ["metadata.name: Invalid value: \"Builder\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
  },
  {
    name: 'A default limit above the max is refused, and so is the default request taken from it',
    fixture: 'limit-range-default-above-max.yaml', kind: 'LimitRange', object: 'limits',
    causes: [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than max value 1',
      'spec.limits[0].default[cpu]: Invalid value: "1": default value 2 is greater than max value 1',
    ],
  },
  {
    name: 'A default request below the min is refused',
    fixture: 'limit-range-min-above-request.yaml', kind: 'LimitRange', object: 'limits',
    causes: ['spec.limits[0].defaultRequest[memory]: Invalid value: "64Mi": min value 128Mi is greater than default request value 64Mi'],
  },
  {
    name: 'An unknown limit type, a default on a Pod item and a ratio below 1',
    fixture: 'limit-range-bad-type.yaml', kind: 'LimitRange', object: 'limits',
    causes: [
      'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
      "spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[1].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ],
  },
  {
    name: 'A ratio above max/min is printed with %f, and a claim item needs a storage bound',
    fixture: 'limit-range-ratio.yaml', kind: 'LimitRange', object: 'limits',
    causes: [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "4": ratio 4 is greater than max/min = 2.000000',
      'spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ],
  },
  {
    name: 'A negative quota is refused',
    fixture: 'resource-quota-negative.yaml', kind: 'ResourceQuota', object: 'quota',
    causes: ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0'],
  },
  {
    name: 'A resource name quota does not know gets both name errors',
    fixture: 'resource-quota-unknown.yaml', kind: 'ResourceQuota', object: 'quota',
    causes: [
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
    ],
  },
  {
    name: 'An object count must be a whole number',
    fixture: 'resource-quota-fraction.yaml', kind: 'ResourceQuota', object: 'quota',
    causes: ['spec.hard[secrets]: Invalid value: "500m": must be an integer'],
  },
  {
    name: 'Conflicting scopes, one of which does not apply to memory',
    fixture: 'resource-quota-scopes.yaml', kind: 'ResourceQuota', object: 'quota',
    causes: [
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource',
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes',
    ],
  },
  {
    name: 'A PriorityClass name with the system- prefix is reserved',
    fixture: 'priority-class-system.yaml', kind: 'PriorityClass', qualified: 'PriorityClass.scheduling.k8s.io', object: 'system-critical',
    causes: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-critical is not a known system priority class"],
  },
  {
    name: 'A user priority above one billion and an unknown preemption policy',
    fixture: 'priority-class-too-high.yaml', kind: 'PriorityClass', qualified: 'PriorityClass.scheduling.k8s.io', object: 'urgent',
    causes: [
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
      'preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report } = run(c.fixture);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    const joined = c.causes.length === 1 ? c.causes[0]! : `[${c.causes.join(', ')}]`;
    assert.deepEqual(report.rejection, {
      ...report.rejection,
      phase: 'apiserver.validate', code: 422, reason: 'Invalid',
      message: `${c.qualified ?? c.kind} "${c.object}" is invalid: ${joined}`,
    });
    const kubectl = c.causes.length === 1
      ? `The ${c.kind} "${c.object}" is invalid: ${c.causes[0]}`
      : `The ${c.kind} "${c.object}" is invalid: \n${c.causes.map((cause) => `* ${cause}`).join('\n')}`;
    assert.equal(report.kubectl, kubectl);
    assert.ok(!report.objects.some((o) => o.kind === c.kind && o.metadata.name === c.object), 'nothing was stored');
  });
}

test('Valid objects of these kinds are all stored', () => {
  const { status, report } = run('accepted-kinds.yaml');
  assert.equal(status, 0);
  const stored = (kind: string, name: string) => report.objects.some((o) => o.kind === kind && o.metadata.name === name);
  for (const [kind, name] of [['Namespace', 'team-a'], ['ServiceAccount', 'builder'], ['Service', 'web-headless'], ['Service', 'db'],
    ['LimitRange', 'limits'], ['ResourceQuota', 'quota'], ['PriorityClass', 'high']] as const) {
    assert.ok(stored(kind, name), `${kind} ${name} is stored`);
  }
});
