// The shapes of the requests' parameters, as the Language Server Protocol defines them, checked before a handler
// reads them: a client that sends no position or a string for a line gets InvalidParams naming the field, never an
// internal error.
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';

/** invalid is the InvalidParams error for a request. */
function invalid(method: string, problem: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${problem}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** documentOf reads `textDocument.uri`. */
export function documentOf(method: string, params: unknown): string {
  if (!isObject(params)) throw invalid(method, 'the parameters must be an object');
  const doc = params['textDocument'];
  if (!isObject(doc) || typeof doc['uri'] !== 'string') throw invalid(method, '"textDocument.uri" must be a string');
  return doc['uri'];
}

/** positionOf reads `position`: a line and a character, each a whole number of 0 or more. */
export function positionOf(method: string, params: unknown): { line: number; character: number } {
  const position = isObject(params) ? params['position'] : undefined;
  if (!isObject(position)) throw invalid(method, '"position" must be an object with "line" and "character"');
  if (!isCount(position['line'])) throw invalid(method, '"position.line" must be a whole number of 0 or more');
  if (!isCount(position['character'])) throw invalid(method, '"position.character" must be a whole number of 0 or more');
  return { line: position['line'] as number, character: position['character'] as number };
}

/** diagnosticsOf reads `context.diagnostics` of a code action request; no context is no diagnostics. */
export function diagnosticsOf<T>(method: string, params: unknown): T[] {
  const context = isObject(params) ? params['context'] : undefined;
  if (context === undefined || context === null) return [];
  if (!isObject(context)) throw invalid(method, '"context" must be an object');
  const diagnostics = context['diagnostics'];
  if (diagnostics === undefined || diagnostics === null) return [];
  if (!Array.isArray(diagnostics)) throw invalid(method, '"context.diagnostics" must be a list');
  // Diagnostics the server did not publish are ignored by the service; shapes that could not be one are left out.
  return diagnostics.filter((d) => isObject(d) && isObject(d['range'])) as T[];
}
