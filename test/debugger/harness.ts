// Shared helpers of the debug adapter's tests: dist/debugAdapter.js over stdio, driven by the DAP test client.
// Every wait is for an event or a response, never a sleep.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';

export const root = resolve(__dirname, '..', '..', '..');
export const adapter = join(root, 'dist', 'debugAdapter.js');
export const podYaml = join(root, 'examples', 'pod.yaml');
export const deploymentYaml = join(root, 'examples', 'deployment.yaml');
export const fixture = (name: string): string => join(root, 'test', 'debugger', 'fixtures', name);

/** withSession runs a test against a fresh adapter process and always disconnects it. */
export async function withSession(body: (dc: DebugClient) => Promise<void>): Promise<void> {
  const dc = new DebugClient('node', adapter, 'pod-lifecycle');
  await dc.start();
  try {
    await body(dc);
  } finally {
    await dc.stop();
  }
}

/** Stopped is a `stopped` event, which always names its thread in this adapter. */
export type Stopped = DebugProtocol.StoppedEvent & { body: { threadId: number } };

/** Setup is what the client sends before configurationDone, as VS Code would. */
export interface Setup {
  functions?: DebugProtocol.FunctionBreakpoint[];
  exceptions?: string[];
  lines?: { path: string; breakpoints: DebugProtocol.SourceBreakpoint[] };
  initialize?: Partial<DebugProtocol.InitializeRequestArguments>;
}

/**
 * startWith goes through the handshake — initialize, launch, the breakpoints, configurationDone — and returns the
 * first `stopped` (or `terminated`) event, with the breakpoints as the adapter answered them.
 */
export async function startWith(dc: DebugClient, args: Record<string, unknown>, setup: Setup = {}, waitFor: 'stopped' | 'terminated' = 'stopped'): Promise<{
  event: Stopped; functions: DebugProtocol.Breakpoint[]; lines: DebugProtocol.Breakpoint[];
}> {
  const initialized = dc.waitForEvent('initialized');
  await dc.initializeRequest({ adapterID: 'pod-lifecycle', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path', ...setup.initialize });
  await initialized;
  const event = dc.waitForEvent(waitFor);
  const launched = dc.launchRequest({ manifest: podYaml, ...args } as DebugProtocol.LaunchRequestArguments);
  const functions = (await dc.setFunctionBreakpointsRequest({ breakpoints: setup.functions ?? [] })).body.breakpoints;
  await dc.setExceptionBreakpointsRequest({ filters: setup.exceptions ?? [] });
  const lines = setup.lines
    ? (await dc.setBreakpointsRequest({ source: { path: setup.lines.path }, breakpoints: setup.lines.breakpoints })).body.breakpoints
    : [];
  await dc.configurationDoneRequest();
  await launched;
  return { event: (await event) as Stopped, functions, lines };
}

/** resume sends a continue, step or reverse request and waits for the stop it leads to. */
export async function resume(dc: DebugClient, request: 'continueRequest' | 'nextRequest' | 'stepInRequest' | 'stepOutRequest' | 'stepBackRequest' | 'reverseContinueRequest', threadId: number): Promise<Stopped> {
  const stopped = dc.waitForEvent('stopped');
  await dc[request]({ threadId });
  return (await stopped) as Stopped;
}

export async function topFrames(dc: DebugClient, threadId: number): Promise<DebugProtocol.StackFrame[]> {
  return (await dc.stackTraceRequest({ threadId })).body.stackFrames;
}

/** scopes returns the scopes of the top frame of a thread, by name. */
export async function scopes(dc: DebugClient, threadId: number): Promise<Map<string, DebugProtocol.Scope>> {
  const frameId = (await topFrames(dc, threadId))[0]!.id;
  return new Map((await dc.scopesRequest({ frameId })).body.scopes.map((s) => [s.name, s]));
}

export async function variables(dc: DebugClient, variablesReference: number, args: Partial<DebugProtocol.VariablesArguments> = {}): Promise<Map<string, DebugProtocol.Variable>> {
  const body = (await dc.variablesRequest({ variablesReference, ...args })).body;
  return new Map(body.variables.map((v) => [v.name, v]));
}

/** expand follows a path of variable names from a reference and returns the last variable. */
export async function expand(dc: DebugClient, variablesReference: number, path: string[]): Promise<{ variable: DebugProtocol.Variable; parent: number }> {
  let ref = variablesReference;
  let found: DebugProtocol.Variable | undefined;
  let parent = ref;
  for (const name of path) {
    parent = ref;
    found = (await variables(dc, ref)).get(name);
    assert.ok(found, `no variable ${name} in ${path.join('.')}`);
    ref = found.variablesReference;
  }
  return { variable: found!, parent };
}

/** evaluate evaluates a Debug Console line in the top frame of a thread. */
export async function evaluate(dc: DebugClient, threadId: number, expression: string): Promise<string> {
  const frameId = (await topFrames(dc, threadId))[0]!.id;
  return (await dc.evaluateRequest({ expression, frameId, context: 'repl' })).body.result;
}

/** plain strips the ANSI colors of Debug Console output. */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** collectOutput records the Debug Console output, ANSI colors stripped. */
export function collectOutput(dc: DebugClient): DebugProtocol.OutputEvent['body'][] {
  const output: DebugProtocol.OutputEvent['body'][] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => output.push({ ...e.body, output: plain(e.body.output) }));
  return output;
}

/** collectEvents records every event of one kind. */
export function collectEvents<T extends DebugProtocol.Event>(dc: DebugClient, name: string): T[] {
  const events: T[] = [];
  dc.on(name, (e: T) => events.push(e));
  return events;
}

/** raw sends a request and returns the response as it came, failed or not (with its error id). */
export function raw(dc: DebugClient, command: string, args: unknown): Promise<DebugProtocol.Response> {
  // The client's own send leaves out arguments that are not a non-empty object: this one sends them as they are.
  const client = dc as unknown as { sequence: number; pendingRequests: Map<number, (r: DebugProtocol.Response) => void>; outputStream: NodeJS.WritableStream };
  return new Promise((resolve) => {
    const seq = client.sequence++;
    const json = JSON.stringify(args === undefined ? { type: 'request', seq, command } : { type: 'request', seq, command, arguments: args });
    client.pendingRequests.set(seq, resolve);
    client.outputStream.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`, 'utf8');
  });
}
