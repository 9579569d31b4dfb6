// The HTTPS listener of `serve`: kube-apiserver's TLS on 127.0.0.1 with the serving certificate, asking every client
// for a certificate and handing each request's credentials (verified client certificate, bearer token) to a handler.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ADMIN_USER } from '../engine/apiserver/authn/x509';
import type { Credentials } from '../engine/apiserver/authn/authenticator';
import { createServePki, pemBlock, type ServePki } from './pki';

/** PresentedCertificate is the leaf certificate a client sent, whether it chains to a trusted CA, and why not. */
export interface PresentedCertificate {
  pem: string;
  verified: boolean;
  /** error is OpenSSL's verification error code (UNABLE_TO_VERIFY_LEAF_SIGNATURE, CERT_HAS_EXPIRED …) when not verified. */
  error?: string;
}

/**
 * ServeRequest is what the listener learned about a request beyond HTTP: the credentials in the engine's shape
 * (ApiRequest.credentials: the certificate only when it chains to a trusted CA, the bearer token) and the
 * certificate as presented, verified or not.
 */
export interface ServeRequest {
  credentials: Pick<Credentials, 'token' | 'certificatePem'>;
  clientCertificate?: PresentedCertificate;
}

/** ServeHandler answers one request; a throw or a rejection becomes a 500 (or a dropped connection once the head is sent). */
export type ServeHandler = (req: IncomingMessage, res: ServerResponse, request: ServeRequest) => void | Promise<void>;

/** HttpsOptions configure the listener: the port (0: any free one), the handler, the PKI and other trusted client CAs. */
export interface HttpsOptions {
  port?: number;
  handler: ServeHandler;
  /** pki is the CA and serving certificate; without one a fresh PKI is made, with an admin certificate for kubernetes-admin. */
  pki?: ServePki;
  /** clientCAs are more PEM bundles a client certificate may chain to (the profile's --client-ca-file). */
  clientCAs?: readonly string[];
  /** onError hears what went wrong on a connection (handshake failures, malformed requests, handler errors); nothing stops. */
  onError?: (error: Error) => void;
}

/** HttpsServer is a running listener. */
export interface HttpsServer {
  port: number;
  /** url is `https://127.0.0.1:PORT`. */
  url: string;
  /** ca is the PEM of the CA the serving certificate chains to (a kubeconfig's certificate-authority-data). */
  ca: string;
  pki: ServePki;
  /** close stops listening, ends every open connection and resolves once the server has closed. */
  close(): Promise<void>;
}

/**
 * bearerToken reads the token of an Authorization header as kube-apiserver's bearertoken authenticator does:
 * trimmed, split on spaces, `bearer` in any case, a non-empty token; anything else carries no token.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

/** CLIENT_ERROR_STATUS is the status line for a request the HTTP parser refused, by Node's error code; else 400. */
const CLIENT_ERROR_STATUS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** presentedCertificate reads the client certificate of a TLS connection and whether OpenSSL verified its chain. */
export function presentedCertificate(socket: TLSSocket): PresentedCertificate | undefined {
  const peer = socket.getPeerCertificate();
  if (!peer || !peer.raw || peer.raw.length === 0) return undefined;
  const pem = pemBlock('CERTIFICATE', peer.raw);
  if (socket.authorized) return { pem, verified: true };
  const error = socket.authorizationError;
  return { pem, verified: false, error: error instanceof Error ? error.message : String(error ?? 'unverified') };
}

/**
 * startHttps listens on 127.0.0.1 with the serving certificate. Clients are asked for a certificate but need not
 * send one (requestCert, not rejectUnauthorized): kube-apiserver's tls.RequestClientCert with its client CAs
 * advertised. client-go sends its certificate whatever CAs are listed, so OpenSSL checks the chain against our CA and
 * `clientCAs` (purpose sslclient, i.e. extKeyUsage clientAuth, and the validity period); only a verified certificate
 * reaches `credentials`, and every presented one is in `clientCertificate`.
 * HTTP/1.1 only (no h2 in ALPN), as net/http falls back to it.
 */
export async function startHttps(options: HttpsOptions): Promise<HttpsServer> {
  const pki = options.pki ?? createServePki(ADMIN_USER);
  // The http layer may hear a TLS failure again as a client error: each error is reported once.
  const reported = new WeakSet<Error>();
  const report = (error: Error): void => {
    if (reported.has(error)) return;
    reported.add(error);
    try {
      options.onError?.(error);
    } catch {
      // A listener that throws must not take the server down.
    }
  };
  const server: Server = createServer({
    cert: pki.serving.certificatePem,
    key: pki.serving.keyPem,
    ca: [pki.ca.certificatePem, ...(options.clientCAs ?? [])],
    requestCert: true,
    rejectUnauthorized: false,
    ALPNProtocols: ['http/1.1'],
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => serve(req, res, options.handler, report));
  // A failed handshake (garbage bytes, a client refusing our certificate) ends that socket only.
  server.on('tlsClientError', (error: Error, socket: TLSSocket) => {
    report(error);
    socket.destroy();
  });
  // Malformed HTTP or a peer that resets: answer when the socket can still take it, as net/http does.
  server.on('clientError', (error: Error, socket: Socket) => {
    report(error);
    const code = 'code' in error ? String(error.code) : '';
    if (!socket.writable || code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${CLIENT_ERROR_STATUS[code] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
  });
  server.on('error', report);
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error): void => reject(error);
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    ca: pki.ca.certificatePem,
    pki,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** serve runs the handler on one request and keeps whatever it throws inside this request. */
function serve(req: IncomingMessage, res: ServerResponse, handler: ServeHandler, report: (error: Error) => void): void {
  // A client that goes away mid-request makes these emit errors; without listeners they would be thrown.
  req.on('error', report);
  res.on('error', report);
  const clientCertificate = presentedCertificate(req.socket as TLSSocket);
  const token = bearerToken(req.headers.authorization);
  const credentials: ServeRequest['credentials'] = {
    ...(token !== undefined ? { token } : {}),
    ...(clientCertificate?.verified ? { certificatePem: clientCertificate.pem } : {}),
  };
  const fail = (error: unknown): void => {
    report(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) res.destroy();
    else {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(`${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred', reason: 'InternalError', code: 500 })}\n`);
    }
  };
  try {
    const done = handler(req, res, { credentials, ...(clientCertificate ? { clientCertificate } : {}) });
    if (done instanceof Promise) done.catch(fail);
  } catch (error) {
    fail(error);
  }
}
