// Reading the identity out of a kubeconfig, as kubectl does: the context's user and its credentials.
// See staging/src/k8s.io/client-go/tools/clientcmd (client_config.go, validation.go).
import { dirname, isAbsolute, join } from 'node:path';
import { checkKubeconfigShape } from './kubeconfig-shape';
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
 * credentials into an Identity: a bearer token (inline or a token file), or a client certificate (inline data or a
 * file, with its key given as client-go requires); a user with neither is anonymous.
 */
export function identityFromKubeconfig(file: string, text: string, contextName: string | undefined, read: ReadFile): Identity {
  const doc = parseDocuments(text, file)[0];
  if (!doc || doc.object.kind !== 'Config') throw new InputError(file, 1, 'not a kubeconfig (kind: Config)');
  const lineOf = (path: string): number => (doc.fields.get(path)?.value.start.line ?? 0) + 1;
  const shape = checkKubeconfigShape(doc.object);
  if (shape) throw new InputError(file, lineOf(shape.path), `error loading config file "${file}": ${shape.message}`);
  const cfg = doc.object as unknown as { 'current-context'?: string; contexts?: Named<{ user?: string }>[]; users?: Named<Record<string, unknown>>[] };
  const name = contextName ?? cfg['current-context'];
  if (!name) throw new InputError(file, 1, 'no context chosen: the kubeconfig has no current-context and no --context was given');
  const ctxIndex = (cfg.contexts ?? []).findIndex((c) => c?.name === name);
  if (ctxIndex < 0) throw new InputError(file, 1, `context was not found for specified context: ${name}`);
  const userName = cfg.contexts?.[ctxIndex]?.context?.user ?? '';
  const userIndex = (cfg.users ?? []).findIndex((u) => u?.name === userName);
  if (userIndex < 0) throw new InputError(file, lineOf(`contexts[${ctxIndex}].context.user`), `user "${userName}" of context "${name}" is not in the kubeconfig`);
  const user = cfg.users?.[userIndex]?.user ?? {};
  const at = (key: string): number => lineOf(`users[${userIndex}].user.${key}`);
  const readRelative = (key: string, path: string, what: string): string => {
    const full = isAbsolute(path) ? path : join(dirname(file), path);
    try {
      return read(full);
    } catch (err) {
      throw new InputError(file, at(key), `unable to read ${what} ${path} for ${userName} due to ${(err as Error).message}`);
    }
  };
  // A bearer token wins over a token file (client_config.go); client-go trims the file's whitespace.
  if (typeof user.token === 'string' && user.token !== '') return { kind: 'token', token: user.token };
  if (typeof user.tokenFile === 'string' && user.tokenFile !== '') return { kind: 'token', token: readRelative('tokenFile', user.tokenFile, 'token-file').trim() };
  const certData = typeof user['client-certificate-data'] === 'string' ? user['client-certificate-data'] : undefined;
  const certFile = typeof user['client-certificate'] === 'string' ? user['client-certificate'] : undefined;
  if (!certData && !certFile) return { kind: 'anonymous' };
  // See staging/src/k8s.io/client-go/tools/clientcmd/validation.go (validateAuthInfo): a certificate needs its key.
  if (!user['client-key-data'] && !user['client-key']) {
    throw new InputError(file, at(certData ? 'client-certificate-data' : 'client-certificate'), `client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method`);
  }
  const pem = certData ? Buffer.from(certData, 'base64').toString('utf8') : readRelative('client-certificate', certFile ?? '', 'client-cert');
  // tls.X509KeyPair, when client-go builds its transport, refuses data without a PEM certificate.
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new InputError(file, at(certData ? 'client-certificate-data' : 'client-certificate'), 'tls: failed to find any PEM data in certificate input');
  }
  return { kind: 'certificate', certificatePem: pem };
}
