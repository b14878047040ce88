import { AGENT_SETTINGS } from '../agent/agent-defaults.js';
import { RequestError } from '../errors.js';
import { formatDuration } from '../format-units.js';
import { DEFAULT_SETTINGS } from '../settings/defaults.js';
import { MAX_DURATION_MS } from '../settings/read-units.js';
import type { Settings } from '../types.js';

// What the server was started with (`safe-run mcp` flags).
export interface ServerOptions {
  // Bytes of output a result shows by default, head and tail, all streams together.
  budget: number;
  // The server's flags over the agent defaults (--timeout, --idle-timeout, --prompt-wait, --mask).
  settings: Partial<Settings>;
  version: string;
}

// The arguments of one `run` call, as the client sent them (types checked by the tool's schema).
export interface RunArgs {
  command: string;
  cwd?: string | undefined;
  timeout?: number | undefined;
  idleTimeout?: number | undefined;
  env?: Record<string, string> | undefined;
  stdin?: string | undefined;
  budget?: number | undefined;
  background?: boolean | undefined;
  yield?: number | undefined;
  report?: 'compact' | 'full' | undefined;
}

export const MIN_BUDGET = 256;
export const MAX_BUDGET = 16 * 1024 * 1024;

// Names a program can receive in its environment, as bash's `export` takes them.
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Seconds from a client, read as the CLI reads a duration: 0 is no limit, anything above 0 is at least
// 1 ms (0.0001 once meant no limit), and a value a Node timer cannot wait for is refused (3000000 once
// fired at once as exit 124, 1e308 was shown as "InfinitymNaNs").
export function secondsToMs(value: number, field: string): number | null {
  if (!Number.isFinite(value) || value < 0) {
    throw new RequestError(
      'usage.duration',
      `"${field}": ${value} is not a duration; give seconds (30, 2.5), or 0 for no limit`,
    );
  }
  if (value === 0) return null;
  const ms = Math.max(1, Math.round(value * 1000));
  if (ms > MAX_DURATION_MS) {
    throw new RequestError(
      'usage.duration-range',
      `"${field}": ${value} seconds is too long; the longest is ${Math.floor(MAX_DURATION_MS / 1000)} (596h, about 24 days), the longest a Node timer can wait; 0 is no limit`,
    );
  }
  return ms;
}

export function checkBudget(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < MIN_BUDGET || value > MAX_BUDGET) {
    throw new RequestError(
      'usage.size',
      `"budget": ${value} is not a byte count from ${MIN_BUDGET} to ${MAX_BUDGET} (16 MiB)`,
    );
  }
  return value;
}

export function checkEnv(env: Record<string, string> | undefined): Record<string, string> {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (!VARIABLE_NAME.test(name)) {
      throw new RequestError(
        'usage.env',
        `"env": ${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit)`,
      );
    }
    if (value.includes('\0')) {
      throw new RequestError(
        'usage.env',
        `"env": the value of ${name} holds a NUL byte, which no environment can`,
      );
    }
  }
  return env ?? {};
}

// The settings of one call, from the settings table's defaults up: the agent defaults, the server's
// flags, then the call's own fields. A call's `timeout` lifts the idle limit too (a build silent for a
// minute under a 10-minute timeout was stopped at 60 s), unless `idleTimeout` says otherwise. A job
// (`background`) has no time or idle limit of its own unless given, and is not stopped at a prompt:
// job_output says that it waits for an answer, and job_input gives one.
export function callSettings(server: ServerOptions, args: RunArgs, budget: number): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS, ...AGENT_SETTINGS, ...server.settings };
  if (args.background) {
    settings.timeoutMs = null;
    settings.idleTimeoutMs = null;
    settings.promptWaitMs = null;
  }
  if (args.timeout !== undefined) {
    settings.timeoutMs = secondsToMs(args.timeout, 'timeout');
    settings.idleTimeoutMs = null;
  }
  if (args.idleTimeout !== undefined) settings.idleTimeoutMs = secondsToMs(args.idleTimeout, 'idleTimeout');
  if (args.yield !== undefined) secondsToMs(args.yield, 'yield');
  // What the report keeps per stream; the output the model reads is the call's transcript.
  settings.maxStdout = budget;
  settings.maxStderr = budget;
  if (settings.timeoutMs === 0) settings.timeoutMs = null;
  if (settings.idleTimeoutMs === 0) settings.idleTimeoutMs = null;
  return settings;
}

// The limits a call meets, in words, for the tool's description.
export function limitsText(server: ServerOptions): { time: string; idle: string; prompt: string } {
  const settings = { ...DEFAULT_SETTINGS, ...AGENT_SETTINGS, ...server.settings };
  const said = (ms: number | null) => (ms === null || ms === 0 ? 'none' : formatDuration(ms));
  return {
    time: said(settings.timeoutMs),
    idle: said(settings.idleTimeoutMs),
    prompt: said(settings.promptWaitMs),
  };
}
