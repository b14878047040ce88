import type { Settings } from './types.js';

// Defaults, with the reason for each in docs/. Kept in one place so the CLI, spec files and the
// library agree.
export const DEFAULT_SETTINGS: Settings = {
  policy: 'pipefail',
  sigpipe: 'tolerate',
  stdin: { kind: 'inherit' },
  timeoutMs: null,
  idleTimeoutMs: null,
  promptWaitMs: null,
  killAfterMs: 5000,
  drainTimeoutMs: 2000,
  // Tens of KiB per stream: enough for a failing test's output, small enough for an agent's context.
  maxStdout: 32 * 1024,
  maxStderr: 32 * 1024,
  onLimit: 'truncate',
  liveStdout: 'full',
  logDir: null,
  maxLog: 100 * 1024 * 1024,
  leftovers: 'kill',
  failFast: false,
  mask: [],
  facts: null,
};
