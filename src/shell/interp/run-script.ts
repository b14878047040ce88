import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStopper } from '../../engine/fifo-open.js';
import type { RunHandle, RunIO } from '../../engine/run-pipeline.js';
import { RunSupport } from '../../engine/run-support.js';
import { monotonicMs } from '../../monotonic-ms.js';
import type { Interruption, Report, Settings } from '../../types.js';
import { Oracle } from '../expand/oracle.js';
import { isShellDefault } from '../expand/variable.js';
import type { Script, SimpleCommand } from '../syntax/nodes.js';
import { type Bytes, fromBytes } from '../syntax/source.js';
import { initShell, type StartState } from './init-shell.js';
import { Jobs } from './jobs-table.js';
import { Recorder } from './recorder.js';
import { runAll } from './run-all.js';
import { Runner } from './runner.js';
import type { Runtime } from './runtime.js';
import { scriptReport } from './script-report.js';
import type { Shell } from './shell.js';

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
  if (plan.file) {
    sh.callStack.push('main');
    sh.sources.push(plan.arg0);
    sh.sourceLines.push(0);
  }
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
    ansiRead: new WeakMap(),
    openStop: stopper.stop,
    running: new Set(),
    jobs: new Jobs(),
    shellSignals: new Map(),
    vouched: initial.vouched ?? null,
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
  const state = { cwd: fromBytes(sh.cwd), env, vars, status: sh.status, functions: [...sh.functions.keys()] };
  return exportedUnset.length > 0 ? { ...state, exportedUnset } : state;
}
