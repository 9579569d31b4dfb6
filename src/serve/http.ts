// The HTTP side of serve's answers: reading a request body within kube-apiserver's limit, and writing an object or
// a metav1.Status as JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, type Status, StatusError } from '../engine/apiserver/request';

/** MAX_BODY_BYTES is kube-apiserver's limit of a request body (MaxRequestBodyBytes, 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** readBody reads a request's body as text; past the limit it is a 413 RequestEntityTooLarge. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new StatusError(status(413, 'RequestEntityTooLarge', `the server has received a request that is too large (limit is ${MAX_BODY_BYTES} bytes)`)));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** readJson reads a body as a JSON object; anything else is a 400 with the decoder's complaint. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding request body: ${(e as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  return value as Record<string, unknown>;
}

/** status builds a metav1.Status of a failure. */
export function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** sendJson writes a JSON answer with its code and any warnings (as kube-apiserver's Warning headers). */
export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
  if (warnings.length) headers['Warning'] = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(text);
}

/** sendStatus writes a Status as the answer, with its own code. */
export function sendStatus(res: ServerResponse, s: Status): void {
  sendJson(res, s.code, s);
}

/** sendError writes an API error as its Status; anything else as a 500 InternalError. */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof StatusError) sendStatus(res, e.status);
  else sendStatus(res, status(500, 'InternalError', `Internal error occurred: ${(e as Error)?.message ?? String(e)}`));
}
