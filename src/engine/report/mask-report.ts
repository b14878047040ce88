import { maskText } from '../../capture/mask.js';
import type { Report } from '../../types.js';

// Masks secrets in the report's free text: argv, names, messages, reasons, commands, warnings.
// Keys, numbers, statuses and other enumerated values are never touched, so a masked value (even a
// one-letter --mask value) cannot change what the report says happened, nor its exit code. The
// streams' kept text is masked when it is captured.
export function maskReport(report: Report, secrets: readonly string[]): Report {
  if (!secrets.some((secret) => secret.length > 0)) return report;
  const m = (text: string) => maskText(text, secrets);
  const n = (text: string | null) => (text === null ? null : m(text));
  return {
    ...report,
    verdict: { ...report.verdict, reason: m(report.verdict.reason) },
    next: n(report.next),
    warnings: report.warnings.map(m),
    leftovers: report.leftovers.map((item) => ({ ...item, command: m(item.command), how: m(item.how) })),
    facts: report.facts.map((fact) => ({
      ...fact,
      summary: m(fact.summary),
      message: m(fact.message),
      program: m(fact.program),
      pathVar: n(fact.pathVar),
    })),
    ...(report.steps
      ? {
          steps: report.steps.map((step) => ({
            ...step,
            text: m(step.text),
            cwd: m(step.cwd),
            ...(step.expansions
              ? { expansions: step.expansions.map((e) => ({ word: m(e.word), fields: e.fields.map(m) })) }
              : {}),
          })),
        }
      : {}),
    stages: report.stages.map((stage) => ({
      ...stage,
      name: m(stage.name),
      argv: stage.argv.map(m),
      error: stage.error ? { ...stage.error, message: m(stage.error.message) } : null,
      stop: stage.stop
        ? {
            ...stage.stop,
            reason: m(stage.stop.reason),
            snapshot: stage.stop.snapshot.map((proc) => ({
              ...proc,
              command: m(proc.command),
              explanation: m(proc.explanation),
              peers: proc.peers?.map((peer) => ({ ...peer, command: m(peer.command) })) ?? null,
            })),
            deadlock: stage.stop.deadlock
              ? { ...stage.stop.deadlock, explanation: m(stage.stop.deadlock.explanation) }
              : null,
          }
        : null,
    })),
  };
}
