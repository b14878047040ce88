import type { RunIO } from '../engine/run-io.js';
import { type RunHandle, startRun } from '../engine/run-pipeline.js';
import type { RunSupport } from '../engine/run-support.js';
import {
  clearStateFiles,
  isCarried,
  readStateFiles,
  type ShellState,
  type StateFiles,
  trapFallback,
  withoutTrap,
} from '../session/state-files.js';
import { planShellText } from '../shell/plan-shell-text.js';
import { startShellPlan } from '../shell/start-text.js';
import type { Plan, Report, Settings } from '../types.js';
import { changesState } from './call-order.js';

// The one place the MCP server turns a command text into a run: parsed once into the plan `-c` makes
// under --fallback bash (each command its own stage, `cd` and `export` carried over; text the front end
// refuses, before or when reached, runs as one supervised bash stage). For the bash stage safe-run
// puts an EXIT trap before the text that hands back its final directory and environment.

export interface PlannedCommand {
  text: string;
  plan: Plan;
  // Whether the call may change the session's directory or exported variables: calls that cannot run
  // beside each other (call-order.ts).
  writes: boolean;
}

// Throws RequestError when the text is not valid shell or a setting is refused; nothing has started.
export function planCommand(text: string, settings: Settings, stateFiles: StateFiles): PlannedCommand {
  const plan = planShellText(
    text,
    { layers: [settings], okCodes: [], cwd: null },
    { fallback: true, env: null, base: {}, errexit: false, script: null },
  );
  trapFallback(plan, stateFiles);
  return { text, plan, writes: changesState(plan) };
}

interface StartRequest {
  state: ShellState;
  // Variables for this call only, over the session's.
  env: Record<string, string>;
  stateFiles: StateFiles;
  // The watchdog and FIFOs the session keeps ready between calls.
  support: RunSupport | null;
  // Processes of the session's jobs, which the text's `kill PID` may signal.
  vouched?: (pid: number) => boolean;
  io: RunIO;
}

export interface CommandOutcome {
  report: Report;
  state: ShellState;
  // Set when bash interpreted the text: what the shell front end does not interpret.
  fallback: { interpreter: 'bash'; reason: string } | null;
  // False when the fallback left no state behind (see readStateFiles): the session kept its old one.
  stateKnown: boolean;
  // The functions the text's shell ended with (none known from bash): they do not carry over.
  functions: string[];
}

export interface CommandHandle extends Pick<RunHandle, 'cancel' | 'progress'> {
  readonly outcome: Promise<CommandOutcome>;
}

export function startCommand(planned: PlannedCommand, request: StartRequest): CommandHandle {
  const { plan } = planned;
  const { state, env, stateFiles, support, io, vouched } = request;
  const start = { cwd: state.cwd, env: { ...state.env, ...env }, vars: {}, vouched };
  clearStateFiles(stateFiles);
  if (plan.shell) {
    const handle = startShellPlan(plan.shell, { ...start, status: 0 }, plan.settings, io, support);
    const outcome = handle.result.then(({ report, state: after }) => ({
      ...settle(report, request, { cwd: after.cwd, env: after.env, vars: {} }),
      functions: after.functions ?? [],
    }));
    return { outcome, cancel: handle.cancel, progress: handle.progress };
  }
  const stages = plan.stages.map((stage) => ({ ...stage, cwd: state.cwd }));
  const handle = startRun({ ...plan, stages, env: start.env }, io, support && { support, more: false });
  const outcome = handle.report.then((report) => ({
    ...settle({ ...report, fallback: report.fallback ?? plan.fallback ?? null }, request, null),
    functions: [],
  }));
  return { outcome, cancel: handle.cancel, progress: handle.progress };
}

// The state after the call: the shell front end's own, or what the bash stage's EXIT trap left.
// Shell-only variables do not leak to the next call (issue 11): only the directory and exports.
function settle(
  report: Report,
  request: StartRequest,
  after: ShellState | null,
): Omit<CommandOutcome, 'functions'> {
  const { state, env, stateFiles } = request;
  if (!report.fallback && after) {
    return { report, state: forgetCallEnv(after, state, env), fallback: null, stateKnown: true };
  }
  const info = report.fallback ?? { construct: 'a construct', column: 1 };
  const fallback = {
    interpreter: 'bash' as const,
    reason: `${info.construct} at column ${info.column} is not interpreted by safe-run`,
  };
  const left = readStateFiles(stateFiles);
  const shown = withoutTrap(report);
  if (!left) return { report: shown, state, fallback, stateKnown: false };
  return { report: shown, state: forgetCallEnv(left, state, env), fallback, stateKnown: true };
}

// Variables given for one call reach its commands' environment, so they come back in the state: they
// do not persist unless the command itself gave them another value. The shell's own (SHLVL, PWD, _)
// are not carried either, as with --session: SHLVL rose by one on every call.
function forgetCallEnv(after: ShellState, before: ShellState, callEnv: Record<string, string>): ShellState {
  const env = { ...after.env };
  const restore = (name: string) => {
    if (name in before.env) env[name] = before.env[name]!;
    else delete env[name];
  };
  for (const [name, value] of Object.entries(callEnv)) if (env[name] === value) restore(name);
  for (const name of Object.keys(env)) if (!isCarried(name)) restore(name);
  return { ...after, env };
}
