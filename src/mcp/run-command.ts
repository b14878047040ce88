import { startRun } from '../engine/run-pipeline.js';
import { blankStage } from '../inputs/command-stages.js';
import { type PlanOptions, planFromArgv } from '../plan.js';
import { fallbackStages, parseText } from '../shell/plan-shell.js';
import { runShellText } from '../shell/run-shell-text.js';
import type { FallbackInfo, Plan, Report, Settings } from '../types.js';
import {
  clearStateFiles,
  readStateFiles,
  type ShellState,
  type StateFiles,
  stateTrap,
} from './shell-state.js';

// The one place the MCP server turns a command text into a run: the shell front end (each command its
// own stage, `cd` and `export` carried over), and for text it refuses, `--fallback bash`: one
// supervised bash stage marked as a fallback, whose final directory and environment an EXIT trap
// hands back (docs/agents.md).

export interface CommandRequest {
  text: string;
  state: ShellState;
  // Settings for this call (limits, stdin, output caps).
  options: PlanOptions;
  // Variables for this call only, over the session's.
  env: Record<string, string>;
  // Where the bash fallback leaves the state it ended in.
  stateFiles: StateFiles;
  // Aborted when the client cancels the call: the stages get SIGTERM.
  signal?: AbortSignal;
}

export interface CommandOutcome {
  report: Report;
  state: ShellState;
  // Set when bash interpreted the text: what the shell front end does not interpret.
  fallback: { interpreter: 'bash'; reason: string } | null;
  // False when the fallback left no state behind (see readStateFiles): the session kept its old one.
  stateKnown: boolean;
}

// Throws RequestError when the text is not valid shell or a setting is refused; nothing has started.
export async function runCommand(request: CommandRequest): Promise<CommandOutcome> {
  const { text, state, options, env, signal } = request;
  const parsed = parseText(text, 'bash');
  const settings = planFromArgv(['true'], options).settings;
  if (parsed.fallback) return runFallback(request, settings, parsed.fallback);
  const start = { cwd: state.cwd, env: { ...state.env, ...env }, vars: {} };
  const { report, state: after } = await runShellText(text, start, settings, {}, signal);
  // Shell-only variables do not leak to the next call (issue 11): only the directory and exports
  // (not the names exported without a value, which a new bash -c would not see either).
  const next = forgetCallEnv({ cwd: after.cwd, env: after.env, vars: {} }, state, env);
  return { report, state: next, fallback: null, stateKnown: true };
}

async function runFallback(
  request: CommandRequest,
  settings: Settings,
  info: FallbackInfo,
): Promise<CommandOutcome> {
  const { text, state, env, stateFiles, signal } = request;
  const script = `${stateTrap(stateFiles)}\n${text}`;
  const plan: Plan = {
    source: 'inline',
    stages: fallbackStages(script, settings.policy, blankStage).map((stage) => ({
      ...stage,
      cwd: state.cwd,
    })),
    settings,
    env: { ...state.env, ...env },
    fallback: info,
  };
  clearStateFiles(stateFiles);
  const handle = startRun(plan);
  const stop = () => handle.cancel('SIGTERM');
  signal?.addEventListener('abort', stop, { once: true });
  let report: Report;
  try {
    report = withoutTrap(await handle.report);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  const after = readStateFiles(stateFiles);
  const fallback = {
    interpreter: 'bash' as const,
    reason: `${info.construct} at column ${info.column} is not interpreted by safe-run`,
  };
  if (!after) return { report, state, fallback, stateKnown: false };
  return { report, state: forgetCallEnv(after, state, env), fallback, stateKnown: true };
}

// The report shows the text as the caller wrote it (masked as the report is), not the trap line
// safe-run put before it.
function withoutTrap(report: Report): Report {
  const strip = (shown: string) => shown.slice(shown.indexOf('\n') + 1);
  const stages = report.stages.map((stage) => ({
    ...stage,
    argv: [...stage.argv.slice(0, -1), strip(stage.argv.at(-1) ?? '')],
  }));
  const steps = report.steps?.map((step) => ({ ...step, text: strip(step.text) }));
  return { ...report, stages, ...(steps ? { steps } : {}) };
}

// Variables given for one call reach its commands' environment, so they come back in the state: they
// do not persist unless the command itself gave them another value.
function forgetCallEnv(after: ShellState, before: ShellState, callEnv: Record<string, string>): ShellState {
  const env = { ...after.env };
  for (const [name, value] of Object.entries(callEnv)) {
    if (env[name] !== value) continue;
    if (name in before.env) env[name] = before.env[name]!;
    else delete env[name];
  }
  return { ...after, env };
}
