// Reading the identity out of a kubeconfig, as kubectl does: the context's user and its credentials.
// See staging/src/k8s.io/client-go/tools/clientcmd (client_config.go, validation.go).
import { dirname, isAbsolute, join } from 'node:path';
import { parseDocuments } from './loader';
import { type Identity, InputError } from './inputs';

/** ReadFile reads a file's text; it throws when the file cannot be read. */
export type ReadFile = (path: string) => string;

interface Named<T> {
  name?: string;
  context?: T;
  user?: T;
}

/**
 * identityFromKubeconfig picks the context (the named one, else current-context) and turns its user's
 * credentials into an Identity: a bearer token, or a client certificate (inline data or a file).
 */
export function identityFromKubeconfig(file: string, text: string, contextName: string | undefined, read: ReadFile): Identity {
  const doc = parseDocuments(text, file)[0];
  if (!doc || doc.object.kind !== 'Config') throw new InputError(file, 1, 'not a kubeconfig (kind: Config)');
  const cfg = doc.object as unknown as { 'current-context'?: string; contexts?: Named<{ user?: string }>[]; users?: Named<Record<string, unknown>>[] };
  const name = contextName ?? cfg['current-context'];
  if (!name) throw new InputError(file, 1, 'no context chosen: the kubeconfig has no current-context and no --context was given');
  const ctxIndex = (cfg.contexts ?? []).findIndex((c) => c.name === name);
  if (ctxIndex < 0) throw new InputError(file, 1, `context was not found for specified context: ${name}`);
  const userName = cfg.contexts?.[ctxIndex]?.context?.user ?? '';
  const userIndex = (cfg.users ?? []).findIndex((u) => u.name === userName);
  const lineOf = (path: string): number => (doc.fields.get(path)?.value.start.line ?? 0) + 1;
  if (userIndex < 0) throw new InputError(file, lineOf(`contexts[${ctxIndex}].context.user`), `user "${userName}" of context "${name}" is not in the kubeconfig`);
  const user = cfg.users?.[userIndex]?.user ?? {};
  if (typeof user.token === 'string') return { kind: 'token', token: user.token };
  if (typeof user['client-certificate-data'] === 'string') {
    return { kind: 'certificate', certificatePem: Buffer.from(user['client-certificate-data'], 'base64').toString('utf8') };
  }
  if (typeof user['client-certificate'] === 'string') {
    const path = user['client-certificate'];
    const full = isAbsolute(path) ? path : join(dirname(file), path);
    try {
      return { kind: 'certificate', certificatePem: read(full) };
    } catch (err) {
      throw new InputError(file, lineOf(`users[${userIndex}].user.client-certificate`), `cannot read client certificate ${path}: ${(err as Error).message}`);
    }
  }
  return { kind: 'anonymous' };
}
