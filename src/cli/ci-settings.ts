import { RequestError } from '../errors.js';
import type { CiFrame } from '../reporters/ci/ci-frame.js';
import { parseDuration } from '../settings/read-units.js';
import type { Settings } from '../types.js';
import type { CliOptions } from './options.js';

// The CI system whose log the table is framed for (reporters/ci/ci-frame.ts).
type CiSystem = CiFrame;

// How safe-run presents a run to a CI log or a terminal; none of it changes what runs or the verdict.
export interface CiSettings {
  system: CiSystem;
  // Time of day on safe-run's own lines and on live stderr lines (never on the streamed stdout).
  timestamps: boolean;
  // The log is read by the GitHub runner: a stage's workflow commands pass through as written, its
  // ::add-mask:: values are masked, and stages are named by header lines that keep every line's start.
  runnerCommands: boolean;
  // Say what each stage is doing after this long without output; null: never.
  heartbeatMs: number | null;
  // Per-stage status lines redrawn on a terminal (still subject to the terminal checks at run time).
  live: boolean;
  junit: string | null;
  // Where GitHub wants the Markdown step summary appended, or null.
  stepSummary: string | null;
}

const DEFAULT_HEARTBEAT_MS = 60_000;
// In CI nobody answers a prompt: a stage quiet this long after printing one is stopped instead of
// holding the job until its own limit (hours). Longer than --agent's 2s: a CI step has the time.
const CI_PROMPT_WAIT_MS = 30_000;

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function detectSystem(env: NodeJS.ProcessEnv): CiSystem {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  return 'none';
}

// GitHub and GitLab put the time on every line of a job log themselves.
function logStampsLines(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true' || env.GITLAB_CI === 'true';
}

function readHeartbeat(text: string | undefined, inCi: boolean): number | null {
  if (text === undefined) return inCi ? DEFAULT_HEARTBEAT_MS : null;
  if (text === '0' || text === 'off') return null;
  return parseDuration(text, '--heartbeat');
}

// The settings CI changes, a layer under SAFE_RUN_OPTIONS, the spec file and the flags, which all
// win: a prompt nobody will answer is stopped after --prompt-wait 30s, and with the heartbeat on (its
// default there) a deadlock stops the run at once (--on-deadlock stop) instead of holding the job
// until its time limit.
export function ciRunSettings(options: CliOptions, env: NodeJS.ProcessEnv): Partial<Settings> {
  if (!isSet(env.CI)) return {};
  const heartbeat = readHeartbeat(options.heartbeat, true) !== null;
  return { promptWaitMs: CI_PROMPT_WAIT_MS, ...(heartbeat ? { onDeadlock: 'stop' } : {}) };
}

// Reads the CI flags and the environment (CI, GITHUB_ACTIONS, GITLAB_CI, GITHUB_STEP_SUMMARY,
// NO_COLOR). Bad values are request errors, found before anything starts.
export function resolveCiSettings(options: CliOptions, env: NodeJS.ProcessEnv): CiSettings {
  const inCi = isSet(env.CI);
  const system = (options.ci as CiSystem | undefined) ?? detectSystem(env);
  const summary = system === 'github' && env.GITHUB_STEP_SUMMARY ? env.GITHUB_STEP_SUMMARY : null;
  if (options.junit !== undefined && options.junit.length === 0) {
    throw new RequestError('usage.junit', '--junit needs a file name, e.g. --junit safe-run.xml');
  }
  return {
    system,
    timestamps: options.timestamps ?? (inCi && !logStampsLines(env)),
    runnerCommands: system === 'github' || env.GITHUB_ACTIONS === 'true',
    heartbeatMs: readHeartbeat(options.heartbeat, inCi),
    live: options.live !== false && !env.NO_COLOR && env.TERM !== 'dumb',
    junit: options.junit ?? null,
    stepSummary: summary,
  };
}
