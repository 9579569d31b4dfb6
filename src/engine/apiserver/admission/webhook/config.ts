// The webhooks of the cluster's MutatingWebhookConfiguration and ValidatingWebhookConfiguration objects, with the
// v1 defaults applied, in the order kube-apiserver calls them: configurations sorted by name, webhooks in list order.
import type { KubeObject, LabelSelector } from '../../../api/types';
import type { Store } from '../../../cluster/store';
import type { RuleWithOperations } from './matching';

/** ServiceReference is a webhook's in-cluster service (admissionregistration/v1 ServiceReference). */
export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

/** MatchCondition is one CEL condition a webhook's request must meet. */
export interface MatchCondition {
  name: string;
  expression: string;
}

/** Webhook is one entry of a configuration's `webhooks`, defaulted as SetDefaults_ValidatingWebhook/MutatingWebhook do. */
export interface Webhook {
  name: string;
  clientConfig: { url?: string; service?: ServiceReference };
  rules: RuleWithOperations[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: LabelSelector;
  objectSelector: LabelSelector;
  sideEffects?: string;
  timeoutSeconds: number;
  reinvocationPolicy: 'Never' | 'IfNeeded';
  matchConditions: MatchCondition[];
}

/** WebhookAccessor is a webhook with its configuration, as webhook.WebhookAccessor carries them; uid is unique in the chain. */
export interface WebhookAccessor {
  uid: string;
  configuration: string;
  index: number;
  webhook: Webhook;
}

/** WebhookConfigurationKind names the two configuration kinds. */
export type WebhookConfigurationKind = 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const asObject = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * defaultWebhook applies the admissionregistration/v1 defaults: failurePolicy Fail, matchPolicy Equivalent, empty
 * selectors, timeoutSeconds 10, reinvocationPolicy Never, rule scope `*`, service port 443.
 * Why: pkg/apis/admissionregistration/v1/defaults.go.
 */
export function defaultWebhook(raw: unknown): Webhook {
  const w = asObject(raw);
  const client = asObject(w['clientConfig']);
  const service = client['service'] === undefined ? undefined : asObject(client['service']);
  const timeout = w['timeoutSeconds'];
  return {
    name: typeof w['name'] === 'string' ? w['name'] : '',
    clientConfig: {
      ...(typeof client['url'] === 'string' ? { url: client['url'] } : {}),
      ...(service ? {
        service: {
          namespace: String(service['namespace'] ?? ''), name: String(service['name'] ?? ''),
          ...(typeof service['path'] === 'string' ? { path: service['path'] } : {}),
          port: typeof service['port'] === 'number' ? service['port'] : 443,
        },
      } : {}),
    },
    rules: asArray<RuleWithOperations>(w['rules']).map((r) => ({ ...r, scope: r.scope ?? '*' })),
    failurePolicy: w['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    matchPolicy: w['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
    namespaceSelector: asObject(w['namespaceSelector']) as LabelSelector,
    objectSelector: asObject(w['objectSelector']) as LabelSelector,
    ...(typeof w['sideEffects'] === 'string' ? { sideEffects: w['sideEffects'] } : {}),
    timeoutSeconds: typeof timeout === 'number' ? timeout : 10,
    reinvocationPolicy: w['reinvocationPolicy'] === 'IfNeeded' ? 'IfNeeded' : 'Never',
    matchConditions: asArray<MatchCondition>(w['matchConditions']),
  };
}

/**
 * webhooksOf lists the webhooks of every configuration of a kind: configurations sorted by name, then each one's webhooks
 * in order; the uid is `<configuration>/<index>`, as the webhook accessors name them.
 * Why: mutating_webhook_manager.go / validating_webhook_manager.go (sort by name, then mergeWebhookConfigurations).
 */
export function webhooksOf(store: Store, kind: WebhookConfigurationKind): WebhookAccessor[] {
  const configs = store.list<KubeObject>(kind).slice().sort((a, b) => {
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  return configs.flatMap((config) => asArray<unknown>(config['webhooks']).map((raw, index) => {
    const configuration = config.metadata?.name ?? '';
    return { uid: `${configuration}/${index}`, configuration, index, webhook: defaultWebhook(raw) };
  }));
}
