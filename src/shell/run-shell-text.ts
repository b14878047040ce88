import type { RunIO } from '../engine/run-pipeline.js';
import type { Report, Settings } from '../types.js';
import { parseText } from './plan-shell.js';
import { startShellPlan } from './start-text.js';

// The state a session keeps between calls: the logical directory, the exported environment, the
// shell-only variables. `$?` is not kept: each call starts as a new `bash -c` would.
export interface SessionState {
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
  // Names exported while they had no value (shell-state.ts), exported once a later call assigns them.
  exportedUnset?: string[];
}

// Runs one command text as `bash -o pipefail -c TEXT` would (or refuses it with a RequestError before
// anything starts), from a session's state, and returns the report and the state after the last step
// that ran, so that `cd` and `export` carry over to the next call (an MCP session). Aborting `signal`
// stops the run as SIGTERM to safe-run would (a client that cancels its call).
export async function runShellText(
  text: string,
  state: SessionState,
  settings: Settings,
  io: RunIO = {},
  signal?: AbortSignal,
): Promise<{ report: Report; state: SessionState }> {
  const parsed = parseText(text, null);
  const initial = { ...state, status: 0 };
  const shell = {
    script: parsed.script!,
    source: parsed.source,
    arg0: 'bash',
    args: [],
    errexit: false,
    file: false,
    okCodes: [],
  };
  const handle = startShellPlan(shell, initial, settings, io);
  const stop = () => handle.cancel('SIGTERM');
  signal?.addEventListener('abort', stop, { once: true });
  const { report, state: after } = await handle.result.finally(() =>
    signal?.removeEventListener('abort', stop),
  );
  const { cwd, env, vars, exportedUnset } = after;
  return { report, state: { cwd, env, vars, ...(exportedUnset ? { exportedUnset } : {}) } };
}
