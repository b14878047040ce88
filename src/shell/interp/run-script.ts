import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStopper } from '../../engine/fifo-open.js';
import type { RunHandle, RunIO } from '../../engine/run-pipeline.js';
import { RunSupport } from '../../engine/run-support.js';
import { monotonicMs } from '../../monotonic-ms.js';
import type { Interruption, Report, Settings, StepReport } from '../../types.js';
import { Oracle } from '../expand/oracle.js';
import { isShellDefault } from '../expand/variable.js';
import type { Script, SimpleCommand, Stmt } from '../syntax/nodes.js';
import { type Bytes, fromBytes } from '../syntax/source.js';
import { checkExtglobLine } from './extglob-check.js';
import { initShell, type StartState } from './init-shell.js';
import { type Job, Jobs } from './jobs-table.js';
import { Recorder } from './recorder.js';
import { Runner } from './runner.js';
import type { Runtime } from './runtime.js';
import { scriptReport } from './script-report.js';
import type { Shell } from './shell.js';
import { type Ending, ExitSignal } from './signals.js';
import { stopReason } from './stops.js';

// How long a process substitution's list still running at the text's end may take to end by itself.
const SUBSTITUTION_GRACE_MS = 5000;
// ... ending this long before the run's time limit, if it has one.
const DEADLINE_MARGIN_MS = 250;

interface ScriptPlan {
  script: Script;
  source: Bytes;
  arg0: Bytes;
  args: Bytes[];
  // -e / set -e from the start (bash -e).
  errexit: boolean;
  // A script file's text (--script), not a -c text.
  file: boolean;
  okCodes: (command: SimpleCommand) => number[] | null;
}

export interface ScriptHandle extends RunHandle {
  readonly result: Promise<{ report: Report; state: StartState }>;
}

// Runs a parsed text in a shell of its own: the interpreter walks it, each pipeline of programs one
// engine run, everything sharing the run's time limit, watchdog and report.
export function startScript(
  plan: ScriptPlan,
  initial: StartState,
  settings: Settings,
  io: RunIO = {},
  given: RunSupport | null = null,
): ScriptHandle {
  const support = given ?? new RunSupport();
  const sh = initShell(initial, plan.arg0, plan.args);
  if (settings.policy !== 'last') sh.setOption('pipefail', true);
  if (plan.errexit) sh.setOption('errexit', true);
  sh.file = plan.file;
  if (plan.file) sh.callStack.push('main');
  const { rt, interrupt, dispose } = newRuntime(plan, initial, settings, io, support);
  const startedAt = new Date();
  const t0 = monotonicMs();
  const runner = new Runner(rt, sh, { parentStep: null, iteration: null, source: plan.source });
  const result = runAll(runner, plan.script)
    .then((ending) => ({ report: scriptReport(rt, ending, { startedAt, t0 }), state: finalState(sh) }))
    .finally(async () => {
      await dispose();
      if (!given) support.close();
    });
  return {
    result,
    report: result.then((r) => r.report),
    cancel: (signal, by) => {
      // (A second one while the EXIT trap runs after a stop ends the trap's time.)
      rt.grace?.end();
      rt.cancelled ??= { signal, by };
      interrupt({ signal, by });
      for (const handle of rt.running) handle.cancel(signal, by);
      for (const job of rt.jobs.list) job.cancel(signal, by);
    },
    inspect: () => [...rt.running].at(-1)?.inspect() ?? null,
    progress: () => [...rt.running].flatMap((handle) => handle.progress()),
  };
}

// The state a run shares across its commands, what stops it, and what it must give back at its end
// (the expansion helper, scratch files, the --stdin file).
function newRuntime(
  plan: ScriptPlan,
  initial: StartState,
  settings: Settings,
  io: RunIO,
  support: RunSupport,
): { rt: Runtime; interrupt: (interruption: Interruption) => void; dispose: () => Promise<void> } {
  let scratch: string | null = null;
  let interrupt: (interruption: Interruption) => void = () => {};
  // The text's time limit counts from one moment, for every step (each is an engine run of its own).
  const limitSince = io.limitSince ?? monotonicMs();
  const stopper = openStopper(
    new Promise<Interruption>((resolve) => {
      interrupt = resolve;
    }),
    settings,
    limitSince,
  );
  const rt: Runtime = {
    settings,
    environment: initial.env,
    command: fromBytes(plan.source),
    support,
    oracle: new Oracle(initial.env),
    io: { ...io, limitSince },
    recorder: new Recorder(),
    stdin: { fd: null },
    pid: process.pid,
    deadline: settings.timeoutMs === null ? null : limitSince + settings.timeoutMs,
    cancelled: null,
    stoppedBy: null,
    refused: null,
    grace: null,
    timedOutBefore: null,
    stepsOfText: null,
    openStop: stopper.stop,
    running: new Set(),
    jobs: new Jobs(),
    okCodesFor: plan.okCodes,
    scratch: () => {
      scratch ??= fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-scratch-'));
      return scratch;
    },
  };
  const dispose = async () => {
    stopper.dispose();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    if (rt.stdin.fd !== null) fs.closeSync(rt.stdin.fd);
    await rt.oracle.close();
  };
  return { rt, interrupt: (signal) => interrupt(signal), dispose };
}

function skipReason(why: ExitSignal['why']): StepReport['skippedBecause'] {
  return why === 'errexit' || why === 'error' ? why : 'exit';
}

// Runs the statement at `k`; returns the index of the last statement it took. An error bash
// discards (failglob's no match, a bad substitution, an arithmetic error) ends the line bash read
// it on: the statements after it there are skipped, the status is the error's, and the text goes on
// with the next line (under set -e, only after an arithmetic error). `discarded`: that error.
async function runLine(
  runner: Runner,
  stmts: readonly Stmt[],
  k: number,
): Promise<{ last: number; discarded: Ending['at'] }> {
  const stmt = stmts[k]!;
  try {
    await runner.list([stmt]);
    return { last: k, discarded: null };
  } catch (error) {
    if (!(error instanceof ExitSignal) || !error.discard) throw error;
    if (error.discard !== 'arith' && runner.sh.option('errexit'))
      throw new ExitSignal(error.status, 'errexit', error.at);
    runner.sh.status = error.status;
    let last = k;
    while (last + 1 < stmts.length && stmts[last + 1]!.start.line <= stmt.end.line) {
      const { body } = stmts[++last]!;
      runner.skipped(body.first, null, 'error');
      for (const { op, pipeline } of body.rest) runner.skipped(pipeline, op, 'error');
    }
    return { last, discarded: error.at };
  }
}

async function runAll(runner: Runner, script: Script): Promise<Ending> {
  let ending: Ending;
  let reached = 0;
  try {
    // The last line's error, when bash discarded it: the text ends on it.
    let discarded: Ending['at'] = null;
    for (let k = 0; k < script.stmts.length; k++) {
      reached = k + 1;
      checkExtglobLine(runner, script.stmts, k);
      const line = await runLine(runner, script.stmts, k);
      k = line.last;
      discarded = line.discarded;
    }
    ending = { status: runner.sh.status, why: 'end', at: discarded };
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    runner.sh.status = error.status;
    ending = { status: error.status, why: error.why, at: error.at };
    const because = error.why === 'stopped' ? stopReason(runner.rt) : skipReason(error.why);
    for (const stmt of script.stmts.slice(reached)) {
      runner.skipped(stmt.body.first, null, because);
      for (const { op, pipeline } of stmt.body.rest) runner.skipped(pipeline, op, because);
    }
  }
  try {
    await runner.runExitTrap();
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    ending = { status: error.status, why: error.why === 'stopped' ? 'stopped' : ending.why };
  }
  runner.rt.stepsOfText = runner.rt.recorder.steps.length;
  // The shell's own descriptors go first: `exec > >(tee log)` left tee's input held by safe-run itself,
  // so tee could not end before it was stopped.
  runner.sh.fds.release();
  await endJobs(runner);
  return ending;
}

// Background jobs still running when the text ends are the run's leftovers: stopped (the report says
// so), as every process is that outlives its stage. A process substitution's list first gets a while
// to end by itself: it does once the command that used it is done (its input ends, or its reader
// went), and bash leaves it to, so its output still comes (`tee >(wc -c) >/dev/null` in a pipeline,
// whose lists no `wait` of the text waits for; under load they had not started when the text ended).
async function endJobs(runner: Runner): Promise<void> {
  const { rt } = runner;
  const lists = rt.jobs.running().filter((job) => job.substitution);
  // Never into the run's time limit: a list stopped by it would read as the run's own timeout.
  const left =
    rt.deadline === null ? Number.POSITIVE_INFINITY : rt.deadline - monotonicMs() - DEADLINE_MARGIN_MS;
  const grace = Math.min(SUBSTITUTION_GRACE_MS, left);
  if (lists.length > 0 && grace > 0) await settleWithin(lists, grace);
  for (const job of rt.jobs.running()) job.cancel('SIGTERM', 'text-end');
  await Promise.all(rt.jobs.list.map((job) => job.done.catch(() => 1)));
}

async function settleWithin(jobs: readonly Job[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.all(jobs.map((job) => job.done.catch(() => 1))), bound]);
  clearTimeout(timer);
}

// What a session keeps for its next call: the directory, the exported variables, the others.
function finalState(sh: Shell): StartState {
  const env: Record<string, string> = {};
  const vars: Record<string, string> = {};
  const exportedUnset: string[] = [];
  for (const name of sh.vars.names()) {
    const variable = sh.vars.getRaw(name);
    if (!variable || variable.attrs.readonly) continue;
    // (OSTYPE and the like as the shell set them: the next call sets them again.)
    if (isShellDefault(variable) && !variable.attrs.exported) continue;
    if (variable.value === null && variable.attrs.exported && name !== 'OLDPWD') exportedUnset.push(name);
    if (variable.value?.kind !== 'scalar') continue;
    const value = variable.value.value;
    if (variable.attrs.exported) env[name] = fromBytes(value);
    else if (sh.defaults.get(name) !== value) vars[name] = fromBytes(value);
  }
  const state = { cwd: fromBytes(sh.cwd), env, vars, status: sh.status };
  return exportedUnset.length > 0 ? { ...state, exportedUnset } : state;
}
