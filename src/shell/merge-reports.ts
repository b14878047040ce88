import { nextStep } from '../engine/report/next-step.js';
import type { ListItem } from '../model/shell-syntax.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { Report, Settings, StageResult, StepReport, Verdict } from '../types.js';
import { negatedStatus } from './list-rules.js';

// One list item after the run: its report when it ran (stages numbered within the step), else null.
export interface StepOutcome {
  item: ListItem;
  report: Report | null;
  cwd: string;
  builtins: (string | null)[];
  expansions: { word: string; fields: string[] }[];
  // Why a step that did not run was skipped, when not by bash's short circuit (src/shell/run-stops.ts):
  // the run's time limit had run out, the step was refused, or a step before it was; an `exit` step
  // before it ended the text; one of safe-run's limits stopped a stage of a step before it.
  skippedBecause: 'timeout' | 'refused' | 'after-refusal' | 'exit' | 'stopped' | null;
}

export interface MergeContext {
  settings: Settings;
  startedAt: Date;
  t0: number;
  // Set when the run stopped before a step could start (the time limit ran out between steps, or the
  // step was refused): the run's verdict, and what to do next.
  stoppedBefore: { verdict: Verdict; next: string } | null;
  streamedStdout: boolean;
}

// One report for a whole -c list: the stages of every step that ran, numbered across the run, each
// with its step; the verdict and exit code of the last step that ran, as bash's $? after the list.
export function mergeReports(outcomes: StepOutcome[], context: MergeContext): Report {
  const stages: StageResult[] = [];
  const steps: StepReport[] = [];
  const several = outcomes.length > 1;
  let last: LastStep | null = null;
  const leftovers: Report['leftovers'] = [];
  const facts: Report['facts'] = [];
  const warnings: string[] = [];
  outcomes.forEach((outcome, k) => {
    const step = k + 1;
    const { report } = outcome;
    const offset = stages.length;
    for (const stage of report?.stages ?? []) {
      const builtin = outcome.builtins[stage.index - 1];
      stages.push({ ...stage, index: offset + stage.index, step, ...(builtin ? { builtin } : {}) });
    }
    if (report) {
      last = { report, offset, step, negated: outcome.item.pipeline.negated === true };
      leftovers.push(...report.leftovers);
      facts.push(...report.facts.map((fact) => ({ ...fact, stage: fact.stage + offset })));
      for (const warning of report.warnings) if (!warnings.includes(warning)) warnings.push(warning);
    }
    steps.push({
      index: step,
      text: outcome.item.pipeline.text,
      connector: outcome.item.connector,
      ran: report !== null,
      exitCode: report ? negatedStatus(outcome.item, report.exitCode) : null,
      cwd: outcome.cwd,
      stages: (report?.stages ?? []).map((stage) => offset + stage.index),
      ...(outcome.expansions.length > 0 ? { expansions: outcome.expansions } : {}),
      ...(outcome.skippedBecause ? { skippedBecause: outcome.skippedBecause } : {}),
    });
  });
  const final = last as LastStep | null;
  const verdict: Verdict = context.stoppedBefore?.verdict ?? shiftVerdict(final, several);
  const merged: Omit<Report, 'next' | 'output' | 'checks'> = {
    schemaVersion: 1,
    ok: verdict.ok,
    exitCode: verdict.exitCode,
    policy: context.settings.policy,
    verdict,
    startedAt: context.startedAt.toISOString(),
    durationMs: Math.round(monotonicMs() - context.t0),
    stages,
    settings: context.settings,
    leftovers,
    facts,
    warnings,
  };
  return {
    ...merged,
    next: context.stoppedBefore?.next ?? negatedNext(final) ?? nextStep(merged, context.streamedStdout),
    output: null,
    checks: [],
    steps,
    fallback: null,
  };
}

// The step that ran last, whose verdict is the run's.
interface LastStep {
  report: Report;
  offset: number;
  step: number;
  negated: boolean;
}

// What to do when the run failed only because its last step is negated: nothing failed.
function negatedNext(last: LastStep | null): string | null {
  if (!last?.negated || !last.report.verdict.ok) return null;
  return `nothing failed: the last step (${last.step}) is negated by !, so its success is a failure, as in bash; drop the ! if success was meant`;
}

function shiftVerdict(last: LastStep | null, several: boolean): Verdict {
  if (!last) return { ok: true, exitCode: 0, blamedStage: null, reason: 'no step ran' };
  const { verdict } = last.report;
  const shifted = verdict.reason.replace(
    /\bstage (\d+)\b/g,
    (_, n: string) => `stage ${Number(n) + last.offset}`,
  );
  if (last.negated) {
    // `! pipeline` as the last step: its verdict inverted, saying so.
    const where = several ? `step ${last.step} (the last that ran)` : 'the pipeline';
    const said = verdict.ok ? 'it succeeded' : `it failed: ${shifted}`;
    const ok = !verdict.ok;
    return { ok, exitCode: ok ? 0 : 1, blamedStage: null, reason: `${where} is negated by !, and ${said}` };
  }
  return {
    ...verdict,
    blamedStage: verdict.blamedStage === null ? null : verdict.blamedStage + last.offset,
    reason: several ? `step ${last.step} (the last that ran): ${shifted}` : shifted,
  };
}
