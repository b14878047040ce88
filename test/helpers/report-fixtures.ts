import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import type { Report, Settings, StageResult, StageStatus, StreamReport } from '../../src/types.js';

// Small factories for report data, so that unit tests of the policy and the reporters state only what
// matters to them; everything else is a plausible, finished, successful stage.

export function streamReport(overrides: Partial<StreamReport> = {}): StreamReport {
  return {
    bytes: 0,
    truncated: false,
    omittedBytes: 0,
    text: '',
    binary: false,
    logFile: null,
    ...overrides,
  };
}

// A stage that ended with `status`, with the exit code and signal such a stage usually has.
export function stageResult(
  index: number,
  status: StageStatus,
  overrides: Partial<StageResult> = {},
): StageResult {
  const name = overrides.name ?? `stage${index}`;
  return {
    index,
    name,
    argv: [name],
    resolvedPath: `/usr/bin/${name}`,
    status,
    succeeded: status === 'ok',
    exitCode: status === 'failed' ? 1 : status === 'ok' ? 0 : null,
    signal: typicalSignal(status),
    pid: status === 'not-started' || status === 'skipped' ? null : 1000 + index,
    startedAt: status === 'not-started' || status === 'skipped' ? null : '2026-01-01T00:00:00.000Z',
    durationMs: status === 'not-started' || status === 'skipped' ? null : 12,
    optional: false,
    stdout: streamReport(),
    stderr: streamReport(),
    stop: null,
    error: null,
    hint: null,
    meaning: null,
    ...overrides,
  };
}

function typicalSignal(status: StageStatus): string | null {
  if (status === 'sigpipe') return 'SIGPIPE';
  if (status === 'signaled') return 'SIGSEGV';
  if (status === 'timeout' || status === 'limit' || status === 'cancelled') return 'SIGTERM';
  return null;
}

export function settingsWith(overrides: Partial<Settings> = {}): Settings {
  return { ...DEFAULT_SETTINGS, facts: null, ...overrides };
}

// A report around `stages`; its verdict is ok unless given.
export function reportOf(stages: StageResult[], overrides: Partial<Report> = {}): Report {
  const verdict = overrides.verdict ?? {
    ok: true,
    exitCode: 0,
    blamedStage: null,
    reason: 'policy pipefail: satisfied',
  };
  return {
    schemaVersion: 1,
    ok: verdict.ok,
    exitCode: verdict.exitCode,
    policy: 'pipefail',
    verdict,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 20,
    stages,
    settings: settingsWith(),
    leftovers: [],
    facts: [],
    warnings: [],
    next: null,
    output: null,
    checks: [],
    ...overrides,
  };
}
