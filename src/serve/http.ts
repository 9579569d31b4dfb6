// The HTTP side of serve's answers: reading a request body within kube-apiserver's limit, and writing an object or
// a metav1.Status as JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { goJson } from '../engine/api/go-json';
import { badRequest, type Status, StatusError } from '../engine/apiserver/request';
import { goJsonSyntaxError, summarizeData } from './json-syntax';
import { decodeProtobuf, ProtobufError } from './protobuf/decode';
import { onTheWire } from './secret-wire';

/** MAX_BODY_BYTES is kube-apiserver's limit of a request body (MaxRequestBodyBytes, 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** readBody reads a request's body; past the limit it is a 413 RequestEntityTooLarge. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
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
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** contentType is a request's media type without its parameters. */
export function contentType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * readJson reads a body as the object `into` names (Pod, Eviction, SelfSubjectAccessReview): JSON, or the protobuf
 * kubectl's typed clients send. One that does not decode is the handlers' 400, with encoding/json's or the protobuf
 * serializer's complaint and a summary of the body. See apiserver/pkg/endpoints/handlers/rest.go (transformDecodeError)
 * and apimachinery/pkg/runtime/serializer/json/meta.go (Interpret: `couldn't get version/kind; json parse error`).
 */
export async function readJson(req: IncomingMessage, into: string): Promise<Record<string, unknown>> {
  const body = await readBody(req);
  const unrecognized = (err: string): StatusError => badRequest(`the object provided is unrecognized (must be of type ${into}): ${err} (${summarizeData(body)})`);
  if (contentType(req) === PROTOBUF) {
    try {
      return decodeProtobuf(body);
    } catch (e) {
      if (e instanceof ProtobufError) throw unrecognized(e.message);
      throw e;
    }
  }
  const syntax = goJsonSyntaxError(body);
  if (syntax) throw unrecognized(`couldn't get version/kind; json parse error: ${syntax}`);
  const value: unknown = JSON.parse(body.toString('utf8'));
  // Interpret unmarshals the body into a struct of apiVersion and kind: null leaves it empty (the handler's default kind
  // applies), any other non-object is encoding/json's UnmarshalTypeError.
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    const goType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw unrecognized(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  return value as Record<string, unknown>;
}

/** PROTOBUF is the media type of Kubernetes' protobuf encoding. */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** status builds a metav1.Status of a failure. */
export function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** noSuchResource is the 404 of a path the server serves nothing at (a resource, version or subresource it lacks). */
export function noSuchResource(): Status {
  return status(404, 'NotFound', 'the server could not find the requested resource');
}

/**
 * sendJson writes a JSON answer with its code and any warnings (as kube-apiserver's Warning headers). The body ends with
 * a line break, as the API machinery's JSON serializer writes it (json.NewEncoder(w).Encode: apimachinery
 * pkg/runtime/serializer/json/json.go doEncode, v0.36.3): kubectl's -v=8 log shows such a body on lines of its own.
 */
export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  if (res.headersSent || res.destroyed) return;
  const text = `${goJson(onTheWire(body))}\n`;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...warningHeader(warnings) });
  res.end(text);
}

/** warningHeader is kube-apiserver's Warning header of a request's warnings (none when there are none). */
export function warningHeader(warnings: readonly string[]): { Warning?: string[] } {
  return warnings.length ? { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {};
}

/**
 * sendRawJson writes an answer marshalled whole, with no line break at the end: `indented` as
 * responsewriters.WriteRawJSON writes /version (two spaces; staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
 * responsewriters/writers.go, v0.36.3), or compact as kube-openapi's handler3 writes the OpenAPI v3 index.
 */
export function sendRawJson(res: ServerResponse, code: number, body: unknown, indented: boolean): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.end(indented ? JSON.stringify(body, null, 2) : goJson(body));
}

/**
 * sendStatus writes a Status as the answer, with its own code, and a Retry-After header when it asks for a retry
 * (responsewriters.ErrorNegotiated).
 */
export function sendStatus(res: ServerResponse, s: Status): void {
  const retryAfter = s.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0 && !res.headersSent) res.setHeader('Retry-After', String(retryAfter));
  sendJson(res, s.code, s);
}

/** sendError writes an API error as its Status; anything else as a 500 InternalError. */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof StatusError) sendStatus(res, e.status);
  else sendStatus(res, status(500, 'InternalError', `Internal error occurred: ${(e as Error)?.message ?? String(e)}`));
}
