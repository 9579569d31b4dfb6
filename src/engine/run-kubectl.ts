// The kubectl commands of a run: the first apply of the manifest (its first refusal is the run's rejection), later
// applies of other files, and later commands on nodes (cordon, uncordon, drain), all printing to the run's output.
import { refOf, type KubeObject } from './api/types';
import type { ApiServer } from './apiserver/server';
import type { SimulationInputs, SourceDocument } from './cluster/inputs';
import type { EngineContext, SourceIndex } from './context';
import type { Credentials } from './kubectl/apply';
import { runNodeCommand } from './kubectl/drain';
import { applyFile, applyManifest, type ApplySession, verbosityOf } from './kubectl/manifest-apply';
import { commandLine } from './kubectl/node-command';
import type { Rejection } from './outcome';
import type { Millis } from './runtime/clock';
import type { Steps } from './runtime/step';
import type { KubectlCommandRun, LaterKubectl, SimulationOptions } from './simulation-options';

/** RunKubectlDeps is what the run's kubectl shares with the run: the server, who it is, and where it prints. */
export interface RunKubectlDeps {
  api: ApiServer;
  ctx: EngineContext;
  credentials: Credentials;
  inputs: SimulationInputs;
  options: SimulationOptions;
  sources: SourceIndex;
  /** applied are the manifest's objects as the server stored them, by reference. */
  applied: Map<string, KubeObject>;
  output: string[];
  log: string[];
  commands: KubectlCommandRun[];
  /** now is the run's time in seconds since kubectl started, when a command is recorded. */
  now: () => number;
  /** refused is told of each refusal of the first apply. */
  refused: (rejection: Rejection) => void;
}

/** RunKubectl runs the run's kubectl commands. */
export class RunKubectl {
  /** pending counts the later applies and commands still to come or running: the create stage does not end before them. */
  pending = 0;

  constructor(private readonly deps: RunKubectlDeps) {}

  /** session is what the run's kubectl commands share: the server, the identity, the clock, the output. */
  get session(): ApplySession {
    const { api, ctx, credentials, options } = this.deps;
    return {
      api, credentials, clock: ctx.clock, print: (text) => this.deps.output.push(text),
      printLog: (line) => this.deps.log.push(line), kubeconfig: options.kubeconfig ?? '~/.kube/config',
      ...(options.home ? { home: options.home } : {}),
    };
  }

  /**
   * schedule queues the run's commands: the apply of the manifest now (not on a live cluster, whose clients send what
   * they send), then the later applies and node commands at their times.
   */
  schedule(push: (at: Millis, label: string, task: () => Steps<void>) => void, now: Millis): void {
    const { options } = this.deps;
    if (!options.live) push(now, 'kubectl apply', () => this.applyAll());
    // Later applies (kubectl apply -f again, with another file: a rollout paused or resumed, a new image).
    for (const later of options.thenApply ?? []) {
      this.pending++;
      push(now + Math.max(0, later.afterSeconds) * 1000, 'kubectl apply', () => this.applyLater(later.manifest, later.file));
    }
    // Later kubectl commands on nodes (cordon, uncordon, drain); the run does not settle while one is to come or runs.
    for (const later of options.thenKubectl ?? []) {
      this.pending++;
      push(now + Math.max(0, later.afterSeconds) * 1000, `kubectl ${later.command.verb}`, () => this.onNode(later));
    }
  }

  /** applyAll is the run's first kubectl command; its first refusal is the run's rejection. */
  private *applyAll(): Steps<void> {
    yield* applyManifest(this.session, this.deps.inputs, (obj, doc) => {
      const ref = refOf(obj);
      this.deps.applied.set(ref, obj);
      this.deps.sources.add(ref, doc);
    }, this.deps.refused);
  }

  /** applyLater is one later `kubectl apply -f`: what it prints joins kubectl's output; a refusal is not the run's rejection. */
  private *applyLater(docs: SourceDocument[], file: string | undefined): Steps<void> {
    this.pending--;
    yield* applyFile(this.session, docs, file, (obj, doc) => this.deps.sources.add(refOf(obj), doc), verbosityOf(this.deps.inputs));
  }

  /** onNode runs one later kubectl command on a node: its lines join kubectl's output; its failure is not the run's rejection. */
  private *onNode(later: LaterKubectl): Steps<void> {
    const run: KubectlCommandRun = { at: this.deps.now(), command: commandLine(later.command), output: '' };
    this.deps.commands.push(run);
    const print = (line: string) => {
      this.deps.output.push(line);
      run.output = run.output ? `${run.output}\n${line}` : line;
    };
    try {
      yield* runNodeCommand({ api: this.deps.api, ctx: this.deps.ctx, credentials: this.deps.credentials, print }, later.command);
    } finally {
      this.pending--;
    }
  }
}
