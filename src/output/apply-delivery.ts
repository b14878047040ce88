import { maskText } from '../capture/mask.js';
import { signalNumber } from '../policy/signals.js';
import type { CheckResult, OutputReport, Report } from '../types.js';

interface DeliveryOutcome {
  output: OutputReport;
  checks: CheckResult[];
  stoppedBy: NodeJS.Signals | null;
}

// Adds what happened to --output FILE to a finished run's report. A run the stages won can still
// fail here: a failed check, a product that could not be written, or a signal during the checks.
// A run that had already failed keeps its verdict; only `next` says FILE was left alone.
export function applyDelivery(
  report: Report,
  outcome: DeliveryOutcome,
  secrets: readonly string[] = [],
): Report {
  const { stoppedBy } = outcome;
  // A checker's last line is free text from a program, as a stage's stderr is: masked the same way.
  const checks = outcome.checks.map((check) => ({
    ...check,
    check: maskText(check.check, secrets),
    detail: maskText(check.detail, secrets),
  }));
  const m = (text: string) => maskText(text, secrets);
  const shown = outcome.output;
  const output = {
    ...shown,
    file: m(shown.file),
    staged: m(shown.staged),
    kept: shown.kept && m(shown.kept),
    reason: m(shown.reason),
  };
  const base = { ...report, output, checks };
  if (!report.ok) {
    const kept = output.kept ? `; what was produced is in ${output.kept}` : '';
    const next = report.next ? `${report.next}. ` : '';
    return { ...base, next: `${next}${output.file} was not replaced${kept}` };
  }
  if (output.published) return base;
  if (stoppedBy) {
    const exitCode = 128 + signalNumber(stoppedBy);
    const reason = `safe-run was stopped by ${stoppedBy} during the checks; ${output.file} was not replaced`;
    return {
      ...base,
      ok: false,
      exitCode,
      verdict: { ok: false, exitCode, blamedStage: null, reason },
      next: 'safe-run was interrupted: run again when you mean to',
    };
  }
  const failed = checks.find((check) => check.status === 'failed');
  const reason = failed
    ? `check ${failed.check} failed (${failed.detail}); ${output.file} was not replaced`
    : `${output.reason}`;
  const look = output.kept
    ? `look at ${output.kept}`
    : 'run with --keep-partial to look at what was produced';
  const next = failed
    ? `the stages succeeded but the output failed check ${failed.check} (${failed.detail}): ${look}`
    : `the stages succeeded but the output could not be published (${output.reason})`;
  return {
    ...base,
    ok: false,
    exitCode: 1,
    verdict: { ok: false, exitCode: 1, blamedStage: null, reason },
    next,
  };
}
