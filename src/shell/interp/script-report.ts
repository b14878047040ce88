import { nextStep } from '../../engine/report/next-step.js';
import { monotonicMs } from '../../monotonic-ms.js';
import { signalNumber } from '../../policy/signals.js';
import { decideVerdict } from '../../policy/verdict.js';
import type { Report, Verdict } from '../../types.js';
import type { Ending } from './run-script.js';
import type { Runtime } from './runtime.js';

// The report of a whole text: every step and stage it ran; the verdict is the last step's own when
// the text's status is that step's (so a tolerated SIGPIPE or an --ok-codes code still counts as
// safe-run decides), else the text's status as bash would end with it.
export function scriptReport(rt: Runtime, ending: Ending, clock: { startedAt: Date; t0: number }): Report {
  const { recorder } = rt;
  const lastIndex = recorder.steps.length;
  const last = recorder.steps[lastIndex - 1];
  let verdict: Verdict;
  if (rt.stoppedBy?.startsWith('refused: ')) {
    verdict = {
      ok: false,
      exitCode: 125,
      blamedStage: null,
      reason: `a command was refused when it was reached: ${rt.stoppedBy.slice(9)}`,
    };
  } else if (
    last?.verdict &&
    (last.status === ending.status || rt.stoppedBy !== null || rt.cancelled !== null) &&
    ending.why !== 'exit'
  ) {
    verdict = { ...last.verdict, blamedStage: recorder.blamedStage(lastIndex) };
  } else verdict = statusVerdict(rt, ending);
  const leftovers = recorder.steps.flatMap((step) => step.leftovers);
  const facts = recorder.steps.flatMap((step) => step.facts);
  const warnings = [...new Set(recorder.steps.flatMap((step) => step.warnings))];
  const merged: Omit<Report, 'next' | 'output' | 'checks'> = {
    schemaVersion: 1,
    ok: verdict.ok,
    exitCode: verdict.exitCode,
    policy: rt.settings.policy,
    verdict,
    startedAt: clock.startedAt.toISOString(),
    durationMs: Math.round(monotonicMs() - clock.t0),
    stages: recorder.stages,
    settings: rt.settings,
    leftovers,
    facts,
    warnings,
  };
  return {
    ...merged,
    next: verdict.ok ? null : nextStep(merged, false),
    output: null,
    checks: [],
    steps: recorder.stepReports(),
    command: rt.command,
    fallback: null,
  };
}

// A step's verdict by the policy, its stages numbered as the report numbers them; a text of several
// steps says which one it was.
function stepVerdict(rt: Runtime, index: number): Verdict {
  const { recorder } = rt;
  const step = recorder.steps[index - 1]!;
  const stages = step.stages.map((stage, i) => ({ ...stage, index: recorder.globalStage(index, i + 1) }));
  const cancelled = rt.cancelled;
  const verdict = decideVerdict(stages, {
    policy: rt.settings.policy,
    sigpipe: rt.settings.sigpipe,
    stdoutReaderGone: false,
    interruptedBy: cancelled ? { signal: cancelled, number: signalNumber(cancelled) } : null,
    timeLimit: step.verdict?.exitCode === 124 && step.verdict.blamedStage === null ? step.verdict.reason.replace(/ fired after.*$/, '') : null,
  });
  if (recorder.steps.length <= 1) return verdict;
  return { ...verdict, reason: `step ${index} (the last that ran): ${verdict.reason}` };
}

function statusVerdict(rt: Runtime, ending: Ending): Verdict {
  const { status, why } = ending;
  const ok = status === 0;
  const failed = [...rt.recorder.steps].reverse().find((step) => step.status === status && status !== 0);
  const blamedStage = failed
    ? (rt.recorder.blamedStage(failed.index) ?? failed.stageIndexes.at(-1) ?? null)
    : null;
  const reason = ok
    ? `policy ${rt.settings.policy}: satisfied`
    : why === 'exit'
      ? `the text ended with exit ${status}`
      : why === 'errexit'
        ? `errexit (set -e): ${failed ? `"${failed.text}" at line ${failed.line} failed with status ${status}` : `a command failed with status ${status}`}`
        : `the text's last command failed with status ${status}`;
  return { ok, exitCode: status, blamedStage, reason };
}
