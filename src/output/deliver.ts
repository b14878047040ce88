import type { Expectation } from '../inputs/read-expectation.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { CheckResult, OutputReport, Report } from '../types.js';
import { type CheckCommand, runCheckCommand } from './check-command.js';
import { evaluateExpectations } from './expectations.js';
import type { FinalRedirect } from './final-redirect.js';
import {
  closeStaged,
  createStagedFile,
  discardStaged,
  publishStaged,
  type StagedFile,
  stagingPath,
} from './staged-file.js';

// --output FILE and what must hold before the product replaces it (docs/publishing-outputs.md).
export interface DeliveryPlan {
  file: string;
  // --atomic-redirects: the product is what this redirection of the -c text writes, not the run's
  // stdout; the stage opens the staged file itself.
  redirect: FinalRedirect | null;
  keepPartial: boolean;
  expect: Expectation[];
  commands: CheckCommand[];
}

// A checker without --timeout gets this long; with it, what is left of the run's time limit.
export const DEFAULT_CHECK_TIMEOUT_MS = 5 * 60 * 1000;

interface Delivered {
  output: OutputReport;
  checks: CheckResult[];
  // Set when a signal to safe-run ended the checks: the run counts as interrupted by it.
  stoppedBy: NodeJS.Signals | null;
}

interface SettleOptions {
  checkTimeoutMs: number;
  killAfterMs: number;
  stop: Promise<NodeJS.Signals>;
  guard: Watchdog | null;
}

// Stages FILE's product. The guard is told about the staged file before it exists.
export function stageOutput(plan: DeliveryPlan, guard: Watchdog | null): StagedFile {
  const where = stagingPath(plan.file);
  guard?.watchFile(where.path);
  return createStagedFile(plan.file, where);
}

// After the run: checks on the staged output, then publish or discard. FILE changes only by one
// rename, and only when the run succeeded and every check passed.
export async function settleOutput(
  plan: DeliveryPlan,
  staged: StagedFile,
  report: Report,
  options: SettleOptions,
): Promise<Delivered> {
  await closeStaged(staged);
  const bytes = staged.bytes();
  let stoppedBy: NodeJS.Signals | null = null;
  const stop = options.stop.then((signal) => {
    stoppedBy = signal;
    return `safe-run received ${signal}`;
  });
  const checks = await runChecks(plan, staged, report, { ...options, stop });
  const failed = checks.find((check) => check.status === 'failed');
  const writeError = staged.error();
  let why: string | null = !report.ok
    ? 'the run did not succeed'
    : writeError
      ? `writing the staged file failed (${writeError})`
      : failed
        ? `check ${failed.check} failed`
        : stoppedBy
          ? `safe-run received ${stoppedBy}`
          : null;
  if (why === null) {
    const problem = publishStaged(staged);
    if (problem) why = `renaming it over ${staged.file} failed (${problem})`;
  }
  const published = why === null;
  const kept = published ? null : discardStaged(staged, plan.keepPartial);
  options.guard?.forgetFile(staged.path);
  const output: OutputReport = {
    file: staged.file,
    staged: staged.path,
    bytes,
    published,
    kept,
    reason: published
      ? 'the run succeeded and every check passed'
      : `${why}: ${staged.file} was left as it was`,
  };
  return { output, checks, stoppedBy };
}

async function runChecks(
  plan: DeliveryPlan,
  staged: StagedFile,
  report: Report,
  options: Omit<SettleOptions, 'stop'> & { stop: Promise<string> },
): Promise<CheckResult[]> {
  const names = [...plan.expect.map((e) => e.text), ...plan.commands.map((c) => `cmd: ${c.text}`)];
  if (!report.ok || staged.error()) {
    const detail = !report.ok ? 'the run did not succeed' : 'the staged file could not be written';
    return names.map((check) => ({ check, status: 'skipped', detail, durationMs: null }));
  }
  const results: CheckResult[] = [];
  const t0 = monotonicMs();
  const verdicts = plan.expect.length > 0 ? evaluateExpectations(staged.path, plan.expect) : [];
  const builtInMs = Math.round(monotonicMs() - t0);
  for (const [i, verdict] of verdicts.entries()) {
    results.push({
      check: names[i]!,
      status: verdict.passed ? 'passed' : 'failed',
      detail: verdict.detail,
      durationMs: builtInMs,
    });
  }
  let interrupted = false;
  void options.stop.then(() => {
    interrupted = true;
  });
  for (const command of plan.commands) {
    const check = `cmd: ${command.text}`;
    if (interrupted) {
      results.push({ check, status: 'skipped', detail: 'safe-run was stopped first', durationMs: null });
      continue;
    }
    const started = monotonicMs();
    const verdict = await runCheckCommand(command, staged.path, {
      timeoutMs: options.checkTimeoutMs,
      killAfterMs: options.killAfterMs,
      stop: options.stop,
      guard: options.guard,
    });
    results.push({
      check,
      status: verdict.passed ? 'passed' : 'failed',
      detail: verdict.detail,
      durationMs: Math.round(monotonicMs() - started),
    });
  }
  return results;
}
