import { planSecrets } from '../capture/mask.js';
import { shellWordKind } from '../engine/resolve/shell-builtins.js';
import { startRun } from '../engine/run-pipeline.js';
import { RequestError } from '../errors.js';
import { type PlanOptions, planFromArgv, planFromInline } from '../plan.js';
import type { Plan, Report } from '../types.js';
import {
  clearStateFiles,
  readStateFiles,
  type ShellState,
  type StateFiles,
  stateTrap,
} from './shell-state.js';

// The one place the MCP server turns a command text into a run. Today: the inline grammar, and for
// any text it refuses (or that needs a stateful builtin such as `cd`), one supervised
// `bash -o pipefail -c TEXT` stage marked as a fallback. The shell front end (issue 10) will take
// this function's place with the same shape: text and state in, report and state out.

export interface CommandRequest {
  text: string;
  state: ShellState;
  // Settings for this call (limits, stdin, output caps).
  options: PlanOptions;
  // Variables for this call only, over the session's.
  env: Record<string, string>;
  // Where the bash fallback leaves the state it ended in.
  stateFiles: StateFiles;
}

export interface CommandOutcome {
  report: Report;
  state: ShellState;
  // Set when bash interpreted the text: why the inline grammar could not.
  fallback: { interpreter: 'bash'; reason: string } | null;
  // False when the fallback left no state behind (see readStateFiles): the session kept its old one.
  stateKnown: boolean;
}

export interface CommandHandle {
  readonly outcome: Promise<CommandOutcome>;
  cancel(signal: NodeJS.Signals): void;
  // The run's secret values: what the tool says beside the report (cwd, why bash) is masked with them.
  readonly secrets: readonly string[];
}

// Builtins that exist as programs too and mean the same there; every other builtin changes or reads
// the shell's own state, which only a shell can do.
const SAME_AS_PROGRAM = new Set(['echo', 'printf', 'test', '[', 'true', 'false', 'kill', 'pwd']);

function inlinePlan(text: string, options: PlanOptions): { plan: Plan } | { reason: string } {
  let plan: Plan;
  try {
    plan = planFromInline(text, options);
  } catch (error) {
    // The refusal without its advice (which is for a person at the CLI): what bash was needed for.
    if (error instanceof RequestError)
      return { reason: error.message.split('\n')[0]!.split('; ')[0]!.replace(/^-c: /, '') };
    throw error;
  }
  const builtin = plan.stages.find((stage) => {
    const name = stage.argv[0]!;
    return shellWordKind(name) !== null && !SAME_AS_PROGRAM.has(name);
  });
  if (builtin) return { reason: `"${builtin.argv[0]}" is a shell builtin` };
  return { plan };
}

function withState(plan: Plan, state: ShellState, env: Record<string, string>): Plan {
  const stages = plan.stages.map((stage) => ({
    ...stage,
    cwd: state.cwd,
    env: { ...state.env, ...env, ...stage.env },
  }));
  return { ...plan, stages };
}

// Variables given for one call are exported to its bash, so they come back in its environment: they
// do not persist unless the command itself gave them another value.
function forgetCallEnv(
  after: ShellState | null,
  before: ShellState,
  callEnv: Record<string, string>,
): ShellState | null {
  if (!after) return null;
  const env = { ...after.env };
  for (const [name, value] of Object.entries(callEnv)) {
    if (env[name] !== value) continue;
    if (name in before.env) env[name] = before.env[name]!;
    else delete env[name];
  }
  return { ...after, env };
}

export function startCommand(request: CommandRequest): CommandHandle {
  const { text, state, options, env, stateFiles } = request;
  const inline = inlinePlan(text, options);
  const fallback = 'reason' in inline ? { interpreter: 'bash' as const, reason: inline.reason } : null;
  const script = `${stateTrap(stateFiles)}\n${text}`;
  const plan = withState(
    'plan' in inline ? inline.plan : planFromArgv(['bash', '-o', 'pipefail', '-c', script], options),
    state,
    env,
  );
  if (fallback) clearStateFiles(stateFiles);
  const handle = startRun(plan);
  const outcome = handle.report.then((report): CommandOutcome => {
    if (!fallback) return { report, state, fallback, stateKnown: true };
    const after = forgetCallEnv(readStateFiles(stateFiles, state), state, env);
    // The report shows the text as the caller wrote it (masked as the report is), not the trap line
    // safe-run put before it.
    const stages = report.stages.map((stage) => {
      const shown = stage.argv[4] ?? '';
      return { ...stage, argv: ['bash', '-o', 'pipefail', '-c', shown.slice(shown.indexOf('\n') + 1)] };
    });
    return { report: { ...report, stages }, state: after ?? state, fallback, stateKnown: after !== null };
  });
  return { outcome, cancel: (signal) => handle.cancel(signal), secrets: planSecrets(plan, process.env) };
}
