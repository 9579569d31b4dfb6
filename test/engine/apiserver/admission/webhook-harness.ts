// Builders for the webhook plugin tests: webhook configurations, the service they are served from, and a context
// whose Behavior holds the webhooks' answers.
import type { Pod } from '../../../../src/engine/api/types';
import type { WebhookBehavior } from '../../../../src/engine/cluster/inputs';
import type { EngineContext } from '../../../../src/engine/context';
import { makeContext, makeNamespace, makePod } from './plugin-harness';

/** SERVICE is the webhooks' Service: webhook-system/pod-policy at 10.96.120.15:443. */
export const SERVICE = {
  apiVersion: 'v1', kind: 'Service', metadata: { name: 'pod-policy', namespace: 'webhook-system' },
  spec: { type: 'ClusterIP', clusterIP: '10.96.120.15', ports: [{ name: 'https', port: 443, targetPort: 8443 }] },
};

/** hook is a webhook on pod creates served by SERVICE at /<name>, with the given fields over those defaults. */
export function hook(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name, clientConfig: { service: { namespace: 'webhook-system', name: 'pod-policy', path: `/${name.split('.')[0]}` } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None', admissionReviewVersions: ['v1'], ...fields,
  };
}

/** configuration is a Mutating- or ValidatingWebhookConfiguration named `name` with these webhooks. */
export function configuration(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, ...webhooks: object[]): object {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}

/** webhookContext is a context with namespaces default (env=prod) and webhook-system, SERVICE, the objects and the answers. */
export function webhookContext(objects: readonly object[], answers: Record<string, WebhookBehavior> = {}): EngineContext {
  const ns = { ...makeNamespace('default'), metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default', env: 'prod' } } };
  const ctx = makeContext([ns, makeNamespace('webhook-system'), SERVICE, ...objects]);
  ctx.behavior.webhooks = answers;
  return ctx;
}

/** labelledPod is pod web in default labelled app=web. */
export function labelledPod(labels: Record<string, string> = { app: 'web' }): Pod {
  return makePod('web', {}, { labels });
}
