import type { StepReport } from '../../types.js';
import { toTopLevel } from '../expand/arith-scope.js';
import type { ExpansionError } from '../expand/env.js';
import { Expander } from '../expand/word.js';
import type { AndOr, Command, Pipeline, Redirect, SimpleCommand, Span, Stmt } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { Placement, RunnerApi } from './api.js';
import { assignNamed, referredSubscript } from './assign-named.js';
import { noteInShell, startBackground } from './background.js';
import { definitionText, noteDefinition } from './bash-command.js';
import { runCompound } from './compound.js';
import { errTrapSet, runErrTrap, SIMPLE_LIKE } from './err-trap.js';
import { inExitTrap } from './exit-trap.js';
import { expandEnvOf } from './expand-env.js';
import type { FdTable } from './fds.js';
import { callFunction } from './function-call.js';
import { runPendingTraps } from './job-signals.js';
import { runNested } from './nested-text.js';
import { writeTo } from './output.js';
import { runPipeline } from './pipeline.js';
import { recordSkipped } from './record-step.js';
import type { RedirectFailure } from './redirect-failure.js';
import type { Runtime } from './runtime.js';
import type { Shell } from './shell.js';
import { ExitSignal } from './signals.js';
import { bareCommand, dispatch, runSimple } from './simple.js';
import { jobEnded, letLoopTurn, stoppedMeanwhile, stopReason, timeIsUp } from './stops.js';
import { timed } from './time-report.js';
import { afterStop, graced } from './wait-stop.js';
import { withRedirects } from './with-redirects.js';
import { watchXtraceFd } from './xtrace-fd.js';

// Walks the tree of a text and runs it as bash would, in one shell (a subshell: a runner of its own
// over a copy). Statuses are returned; break, continue, return, exit are thrown (signals.ts).
export class Runner implements RunnerApi {
  readonly ex: Expander;
  constructor(
    readonly rt: Runtime,
    readonly sh: Shell,
    readonly place: Placement,
  ) {
    this.ex = new Expander(expandEnvOf(this));
    // (A variable with the integer attribute takes its text's value as arithmetic.)
    this.sh.vars.integerValue = (text) => String(toTopLevel(() => this.ex.evaluate(text), true));
    this.sh.vars.warn = (message) => void this.error(message);
    this.sh.vars.elementIndex = (name, text) => referredSubscript(this, name, text);
    watchXtraceFd(this);
  }

  async list(stmts: readonly Stmt[]): Promise<number> {
    let status = this.sh.status;
    for (const stmt of stmts) status = await this.stmt(stmt);
    return status;
  }

  private async stmt(stmt: Stmt): Promise<number> {
    if (stmt.background) {
      this.checkStop([]);
      this.sh.status = await startBackground(this, stmt.body);
      return this.sh.status;
    }
    return this.andOr(stmt.body);
  }

  // Stops the text before its next command once safe-run was asked to stop, a limit stopped one, or
  // the time is up; `unrun` (the rest of an and-or list) is shown as not run.
  private checkStop(unrun: readonly { op: '&&' | '||' | null; pipeline: Span }[]): void {
    const { rt } = this;
    const { job } = this.place;
    if (job?.cancelled && !job.exiting) throw jobEnded(job.cancelled.signal);
    if (graced(rt, this.place) || (!rt.cancelled && !rt.stoppedBy && !rt.refused && !timeIsUp(rt))) return;
    // (A list still running after the text ended stops here too, without making the text late.)
    if (!rt.cancelled && !rt.stoppedBy && !rt.refused && rt.stepsOfText === null) {
      rt.stoppedBy = { kind: 'time' };
      rt.timedOutBefore ??= rt.recorder.steps.length + 1;
    }
    const because = stopReason(rt);
    for (const { op, pipeline } of unrun) this.skipped(pipeline, op, because);
    throw new ExitSignal(this.sh.status || 1, 'stopped');
  }

  // a && b || c: each pipeline but the last is a condition (errexit does not apply to it).
  async andOr(list: AndOr): Promise<number> {
    const parts = [{ op: null, pipeline: list.first }, ...list.rest];
    const last = list.rest.length;
    let status = 0;
    for (const [k, { op, pipeline }] of parts.entries()) {
      if (op !== null && (op === '&&' ? status !== 0 : status === 0)) {
        this.skipped(pipeline, op);
        continue;
      }
      await letLoopTurn(this.rt);
      await runPendingTraps(this);
      this.checkStop(parts.slice(k));
      if (!this.place.collect) this.rt.recorder.marks.connector = op;
      status = await this.pipeline(pipeline, k < last);
    }
    return status;
  }

  // A command the text did not run, in the report (not in a pipeline element: its stages are its own).
  skipped(node: Span, connector: '&&' | '||' | null, because?: StepReport['skippedBecause']): void {
    recordSkipped(this, node, connector, because);
  }

  private async pipeline(pipeline: Pipeline, condition: boolean): Promise<number> {
    // set -n: commands are read and never run (bash gives each the status 0 without running it).
    if (this.sh.option('noexec')) return 0;
    const exempt = condition || pipeline.bang;
    // A `!` is its step's (a pipeline's, or a simple command's); a compound command's steps are its own.
    const own = pipeline.commands.length > 1 || pipeline.commands[0]?.kind === 'simple';
    if (!this.place.collect) this.rt.recorder.marks.negated = pipeline.bang && own;
    const run = async () => {
      if (pipeline.commands.length === 0) return 0;
      if (pipeline.commands.length === 1) return this.command(pipeline.commands[0]!);
      const status = await runPipeline(this, pipeline);
      this.sh.status = status;
      if (!pipeline.bang) await this.failed(status);
      return status;
    };
    let status = await timed(this, pipeline, () => (exempt ? this.exempt(run) : run()));
    if (pipeline.bang) status = status === 0 ? 1 : 0;
    this.sh.status = status;
    return status;
  }

  async command(command: Command): Promise<number> {
    const trapped = errTrapSet(this.sh);
    let status: number;
    if (command.kind !== 'simple') noteInShell(this);
    if (command.kind === 'simple') status = await runSimple(this, command);
    else if (command.kind === 'function') {
      this.sh.define(command);
      noteDefinition(this, command);
      status = 0;
    } else status = await runCompound(this, command);
    this.sh.status = status;
    const simpleLike = SIMPLE_LIKE.has(command.kind);
    if (simpleLike) this.sh.pipestatus = [status];
    if (simpleLike) await this.failed(status, trapped);
    return status;
  }

  subshell(fds?: FdTable, place: Partial<Placement> = {}): Runner {
    const copy = this.sh.subshellCopy();
    if (fds) {
      copy.fds.release();
      copy.fds = fds;
    }
    return new Runner(this.rt, copy, { ...this.place, ...place });
  }

  withRedirects(
    redirects: readonly Redirect[],
    work: () => Promise<number>,
    failed?: (failure: RedirectFailure) => void | Promise<void>,
  ): Promise<number> {
    return withRedirects(this, redirects, work, failed);
  }

  async exempt<T>(work: () => Promise<T>): Promise<T> {
    this.sh.errexitIgnored++;
    try {
      return await work();
    } finally {
      this.sh.errexitIgnored--;
    }
  }

  // The ERR trap (err-trap.ts), then errexit.
  private async failed(status: number, trapped = true): Promise<void> {
    await runErrTrap(this, status, trapped);
    this.checkErrexit(status);
  }

  checkStopped(node?: Span): void {
    if (stoppedMeanwhile(this.rt, this.place.job)) this.checkStop(node ? [{ op: null, pipeline: node }] : []);
  }

  checkErrexit(status: number): void {
    if (status !== 0 && this.sh.option('errexit') && this.sh.errexitIgnored === 0) {
      throw new ExitSignal(status, 'errexit', { line: this.sh.lineno, message: null });
    }
  }

  async error(message: string): Promise<void> {
    const { sh } = this;
    await writeTo(this.rt, sh.fds.get(2), `${sh.messageName()}: line ${sh.lineno}: ${message}\n`);
  }

  // A function call: its arguments as $1..., its locals in a scope of their own, `return` ends it.
  callFunction(name: string, args: string[]): Promise<number> {
    // Its commands are steps of their own, even when the call is one element of a pipeline; their
    // places are in the text it was defined in.
    const source = definitionText(this.sh.functions.get(name)) ?? this.place.source;
    const body =
      this.place.collect || source !== this.place.source
        ? new Runner(this.rt, this.sh, { ...this.place, collect: undefined, source })
        : this;
    return callFunction(body, name, args);
  }

  // A failed expansion: bash prints why and the shell ends (status 1, or 127 for unset parameters);
  // failglob's only ends the eval, sourced file or trap action it is in, if any.
  async expansionFailed(error: ExpansionError): Promise<number> {
    await this.error(error.message);
    const at = { line: this.sh.lineno, message: error.message };
    throw new ExitSignal(this.sh.fatalStatus(error.status), 'error', at, error.discard);
  }

  // `indirect`: set -x traces it one level deeper (all but the EXIT trap).
  async runText(text: Bytes, options: Parameters<RunnerApi['runText']>[1]): Promise<number> {
    const deeper = options.indirect === false ? 0 : 1;
    const trap = options.label === 'trap' ? 1 : 0;
    this.sh.traceDepth += deeper;
    this.sh.runningTrap += trap;
    try {
      return await runNested(
        this,
        (source) => new Runner(this.rt, this.sh, { ...this.place, source, collect: undefined }),
        text,
        options,
      );
    } finally {
      this.sh.traceDepth -= deeper;
      this.sh.runningTrap -= trap;
    }
  }

  // The EXIT trap, once, as the shell (or subshell) ends; $? is kept unless the trap exits.
  async runExitTrap(): Promise<void> {
    const action = this.sh.traps.get('EXIT');
    if (action === undefined) return;
    this.sh.traps.delete('EXIT');
    const trap = afterStop(this.rt) ? new Runner(this.rt, this.sh, { ...this.place, afterStop: true }) : this;
    await inExitTrap(this.sh, () =>
      trap.runText(action, { label: 'trap', indirect: this.sh.exitTrapDeeper }),
    );
  }

  runCommandWords(words: Bytes[], options: { functions: boolean; command?: SimpleCommand }): Promise<number> {
    // Words run without a command node of their own (command NAME ..., a pipeline's element).
    return dispatch(this, options.command ?? bareCommand(this.sh.lineno), words, null, options);
  }

  // NAME or NAME[index] given as text (read, getopts, printf -v...).
  assignNamed(target: Bytes, value: Bytes): Promise<number> {
    return assignNamed(this, target, value);
  }
}
