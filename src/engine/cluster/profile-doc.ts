// The ClusterProfile document (`podlifecycle.debug/v1alpha1`): the control plane's flags and files a cluster file
// sets — authentication, authorization, admission, kube-controller-manager's and the kubelets' client limits —
// checked as the components check them at start, and merged over the profile so far (a later document wins).
import { appendFieldPath } from '../api/fieldpath';
import { isObject } from '../api/types';
import { Checker, compact, guard, type Fields } from './checker';
import { CONTROLLER_MANAGER_DEFAULTS, KUBELET_DEFAULTS, defaultProfile } from './inputs';
import type { AuthzWebhookRule, ClusterProfile, ControllerManagerFlags, KubeletFlags, SourceDocument, StaticToken } from './inputs';

const AUTHZ_WEBHOOK_FIELDS = ['user', 'group', 'verb', 'resource', 'namespace', 'decision', 'reason'];
const PROFILE_FIELDS = ['apiVersion', 'kind', 'metadata', 'authentication', 'authorization', 'admission', 'controllerManager', 'kubelet'];
const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];

/** parseClusterProfile checks a ClusterProfile document and merges it over `base` (the defaults unless given). */
export function parseClusterProfile(doc: SourceDocument, base: ClusterProfile = defaultProfile()): ClusterProfile {
  return guard(doc, () => {
    const c = new Checker(doc);
    const profile = mergeProfile(structuredClone(base), readProfile(c));
    checkProfile(c, profile);
    return profile;
  });
}

/** PartialProfile is what one ClusterProfile document sets. */
interface PartialProfile {
  authentication: Partial<ClusterProfile['authentication']>;
  authorization: Partial<ClusterProfile['authorization']>;
  admission: Partial<ClusterProfile['admission']>;
  controllerManager: Partial<ControllerManagerFlags>;
  kubelet: Partial<KubeletFlags>;
}

/** readProfile checks one ClusterProfile document. */
function readProfile(c: Checker): PartialProfile {
  const doc = c.doc.object as Fields;
  c.kind('ClusterProfile');
  c.known('', doc, PROFILE_FIELDS);
  c.mapping('metadata', doc['metadata']);
  const authn = c.mapping('authentication', doc['authentication']) ?? {};
  const authz = c.mapping('authorization', doc['authorization']) ?? {};
  const admission = c.mapping('admission', doc['admission']) ?? {};
  c.known('authentication', authn, ['anonymous', 'tokens', 'clientCA']);
  c.known('authorization', authz, ['modes', 'abac', 'webhook']);
  c.known('admission', admission, ['enable', 'disable']);
  const manager = c.mapping('controllerManager', doc['controllerManager']) ?? {};
  c.known('controllerManager', manager, ['kubeAPIQPS', 'kubeAPIBurst']);
  const kubelet = c.mapping('kubelet', doc['kubelet']) ?? {};
  c.known('kubelet', kubelet, ['kubeAPIQPS', 'kubeAPIBurst']);
  return {
    controllerManager: compact({ kubeAPIQPS: c.number('controllerManager.kubeAPIQPS', manager['kubeAPIQPS']), kubeAPIBurst: readInt32(c, 'controllerManager.kubeAPIBurst', manager['kubeAPIBurst']) }),
    kubelet: compact({ kubeAPIQPS: readInt32(c, 'kubelet.kubeAPIQPS', kubelet['kubeAPIQPS']), kubeAPIBurst: readInt32(c, 'kubelet.kubeAPIBurst', kubelet['kubeAPIBurst']) }),
    authentication: compact({
      anonymous: c.boolean('authentication.anonymous', authn['anonymous']),
      tokens: readTokens(c, authn['tokens']),
      clientCA: readClientCA(c, authn['clientCA']),
    }),
    authorization: compact({ modes: c.strings('authorization.modes', authz['modes']), abac: readAbac(c, authz['abac']), webhook: readAuthzWebhook(c, authz['webhook']) }),
    admission: compact({
      enable: c.strings('admission.enable', admission['enable']),
      disable: c.strings('admission.disable', admission['disable']),
    }),
  };
}

/** readTokens checks the lines of the static token file: token and user are required. */
function readTokens(c: Checker, value: unknown): StaticToken[] | undefined {
  return readMappings(c, 'authentication.tokens', value, ['token', 'user', 'uid', 'groups'], (entry, path) => {
    const required = (name: string): string => {
      return c.string(appendFieldPath(path, name), entry[name]) || c.fail(appendFieldPath(path, name), 'Required value');
    };
    return compact({
      token: required('token'),
      user: required('user'),
      uid: c.string(appendFieldPath(path, 'uid'), entry['uid']),
      groups: c.strings(appendFieldPath(path, 'groups'), entry['groups']),
    });
  });
}

/** readMappings checks a sequence of mappings with known fields, reading each at its path; none when absent. */
function readMappings<T>(c: Checker, path: string, value: unknown, fields: readonly string[], read: (entry: Fields, at: string) => T): T[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) return c.expect(path, 'a sequence', value);
  return value.map((raw: unknown, i) => {
    const at = appendFieldPath(path, i);
    const entry = isObject(raw) ? raw : c.expect(at, 'a mapping', raw);
    c.known(at, entry, fields);
    return read(entry, at);
  });
}

/** readClientCA checks that the client CA holds a PEM certificate (the authn plugin parses it further). */
function readClientCA(c: Checker, value: unknown): string | undefined {
  const pem = c.string('authentication.clientCA', value);
  // Why: staging/src/k8s.io/client-go/util/cert ParseCertsPEM's error for a file with no certificate.
  if (pem !== undefined && !pem.includes('-----BEGIN CERTIFICATE-----')) {
    c.fail('authentication.clientCA', 'data does not contain any valid RSA or ECDSA certificates');
  }
  return pem;
}

/** readAuthzWebhook checks the authorization webhook's answers, each with its decision. */
function readAuthzWebhook(c: Checker, value: unknown): AuthzWebhookRule[] | undefined {
  return readMappings(c, 'authorization.webhook', value, AUTHZ_WEBHOOK_FIELDS, (entry, path) => {
    const at = (name: string): string => appendFieldPath(path, name);
    const decision = c.oneOf(at('decision'), entry['decision'], ['allow', 'deny', 'noOpinion'] as const) ?? c.fail(at('decision'), 'Required value');
    return compact({
      user: c.string(at('user'), entry['user']), group: c.string(at('group'), entry['group']), verb: c.string(at('verb'), entry['verb']),
      resource: c.string(at('resource'), entry['resource']), namespace: c.string(at('namespace'), entry['namespace']),
      decision, reason: c.string(at('reason'), entry['reason']),
    });
  });
}

/** readAbac checks ABAC policy lines: each a policy mapping, or a JSON line holding one. */
function readAbac(c: Checker, value: unknown): unknown[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) return c.expect('authorization.abac', 'a sequence', value);
  return value.map((line: unknown, i) => {
    const policy = typeof line === 'string' ? parseJson(line) : line;
    return isObject(policy) ? policy : c.expect(appendFieldPath('authorization.abac', i), 'a policy mapping or a JSON line', line);
  });
}

/** parseJson reads JSON text, giving undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** mergeProfile lays the fields one document sets over the profile so far. */
function mergeProfile(base: ClusterProfile, part: PartialProfile): ClusterProfile {
  return {
    authentication: { ...base.authentication, ...part.authentication },
    authorization: { ...base.authorization, ...part.authorization },
    admission: { ...base.admission, ...part.admission },
    // Flags no document sets stay unset: the manager's defaults, as when the profile says nothing of them.
    ...(base.controllerManager || Object.keys(part.controllerManager).length > 0
      ? { controllerManager: { ...CONTROLLER_MANAGER_DEFAULTS, ...base.controllerManager, ...part.controllerManager } }
      : {}),
    ...(base.kubelet || Object.keys(part.kubelet).length > 0 ? { kubelet: { ...KUBELET_DEFAULTS, ...base.kubelet, ...part.kubelet } } : {}),
  };
}

/** readInt32 checks a whole number of Go's int32 (a flag or configuration field such as --kube-api-burst). */
function readInt32(c: Checker, path: string, value: unknown): number | undefined {
  const n = c.number(path, value);
  if (n !== undefined && (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31)) return c.expect(path, 'a whole number (int32)', value);
  return n;
}

/**
 * checkProfile refuses what kube-apiserver refuses to start with.
 * Why: pkg/kubeapiserver/options/authorization.go Validate and
 * staging/src/k8s.io/apiserver/pkg/server/options/admission.go Validate, with their wording.
 */
function checkProfile(c: Checker, profile: ClusterProfile): void {
  const modes = profile.authorization.modes;
  if (modes.length === 0) c.fail('authorization.modes', 'at least one authorization-mode must be passed');
  modes.forEach((mode, i) => {
    if (AUTHORIZATION_MODES.includes(mode)) return;
    c.fail(appendFieldPath('authorization.modes', i), `authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
  });
  // The profile's webhook answers stand in for the webhook's config file.
  if (modes.includes('Webhook') && profile.authorization.webhook.length === 0) c.fail('authorization.modes', "authorization-mode Webhook's authorization config file not passed");
  if (new Set(modes).size !== modes.length) {
    c.fail('authorization.modes', `authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  }
  if (profile.authorization.abac.length > 0 && !modes.includes('ABAC')) {
    c.fail('authorization.abac', 'cannot specify --authorization-policy-file without mode ABAC');
  }
  const { enable, disable } = profile.admission;
  const both = [...new Set(enable.filter((name) => disable.includes(name)))].sort();
  if (both.length > 0) c.fail('admission', `[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  // kube-controller-manager builds each controller's clientset with these: client-go refuses a QPS without a burst.
  // Why: staging/src/k8s.io/client-go/kubernetes/clientset.go (NewForConfigAndClient), v0.36.3.
  const manager = profile.controllerManager;
  if (manager && manager.kubeAPIQPS > 0 && manager.kubeAPIBurst <= 0) {
    c.fail('controllerManager.kubeAPIBurst', 'burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0');
  }
  // With a QPS of 0 each API group's client makes a limiter of client-go's 5 a second and this burst, which refuses every
  // request when below 0 (golang.org/x/time/rate WaitN): the controllers could do nothing.
  if (manager && manager.kubeAPIQPS === 0 && manager.kubeAPIBurst < 0) {
    c.fail('controllerManager.kubeAPIBurst', `every request of the controllers' clients would fail: rate: Wait(n=1) exceeds limiter's burst ${manager.kubeAPIBurst}`);
  }
  // The kubelet refuses negative limits at start. Why: pkg/kubelet/apis/config/validation/validation.go, v1.36.3.
  const kubelet = profile.kubelet;
  if (kubelet && kubelet.kubeAPIBurst < 0) c.fail('kubelet.kubeAPIBurst', `invalid configuration: kubeAPIBurst (--kube-api-burst) ${kubelet.kubeAPIBurst} must not be a negative number`);
  if (kubelet && kubelet.kubeAPIQPS < 0) c.fail('kubelet.kubeAPIQPS', `invalid configuration: kubeAPIQPS (--kube-api-qps) ${kubelet.kubeAPIQPS} must not be a negative number`);
}
