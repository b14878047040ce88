import { planSecrets } from '../../capture/mask.js';
import { maskShortened } from '../../capture/mask-cut.js';
import { maskReport } from '../../engine/report/mask-report.js';
import { chooseAdvice } from '../../engine/report/next-step.js';
import { monotonicMs } from '../../monotonic-ms.js';
import { adviceText, stopReason } from '../../outcome-text/render.js';
import { WORDINGS } from '../../outcome-text/wordings.js';
import { signalNumber } from '../../policy/signals.js';
import { decideVerdict } from '../../policy/verdict.js';
import type { Advice, Report, Verdict } from '../../types.js';
import type { Runtime } from './runtime.js';
import { backgroundAdvice, exitAdvice, negatedAdvice, shellEndAdvice } from './script-advice.js';
import type { Ending } from './signals.js';

// The report of a whole text: every step and stage it ran; the verdict is the last step's own when
// the text's status is that step's (so a tolerated SIGPIPE or an --ok-codes code still counts as
// safe-run decides), else the text's status as bash would end with it.
export function scriptReport(rt: Runtime, ending: Ending, clock: { startedAt: Date; t0: number }): Report {
  const { recorder } = rt;
  const verdict = runVerdict(rt, ending);
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
  const advice = verdict.ok
    ? backgroundAdvice(recorder.stages)
    : (stopAdvice(rt) ??
      negatedAdvice(rt, verdict) ??
      shellEndAdvice(verdict, ending) ??
      exitAdvice(verdict, ending, recorder.stages) ??
      chooseAdvice(merged, false, rt.cancelled?.by !== undefined));
  const report: Report = {
    ...merged,
    next: advice && adviceText(advice),
    output: null,
    checks: [],
    steps: recorder.stepReports(),
    command: rt.command,
    fallback: null,
  };
  // The text, its steps and the verdict carry what the user wrote: masked as every report is.
  const secrets = planSecrets({ stages: [], settings: rt.settings }, rt.environment);
  return { ...maskReport(report, secrets), command: maskShortened(rt.command, secrets) };
}

// The run's verdict, by what ended it: a signal to safe-run, a refusal, the time limit between steps,
// else the last step that ran (negated, or judged by the policy), else the text's status.
function runVerdict(rt: Runtime, ending: Ending): Verdict {
  const verdict = textVerdict(rt, ending);
  if (rt.cancelled || rt.refused) return verdict;
  return limitVerdict(rt) ?? verdict;
}

// One of safe-run's own limits stopped a stage somewhere in the text (a background job's, say, while
// the text went on with `wait`): the run is not ok, whatever came after, as `timeout 2 bash -c` is not,
// and its status is the limit's, not that of what the stop cut short (`x=$(< fifo)` failed with 1).
// The time limit can also stop what is no stage: a builtin's redirection waiting for a FIFO's other
// end inside `$(...)` (`echo $(echo 1 > fifo) | ...`: it said ok, exit 0).
function limitVerdict(rt: Runtime): Verdict | null {
  if (rt.stoppedBy?.kind !== 'limit') return null;
  const stopped = stoppedStep(rt);
  if (stopped !== null) return stoppedVerdict(rt, stopped);
  const limit = stopReason({ kind: 'pipeline-timeout', limitMs: rt.settings.timeoutMs ?? 0 });
  const reason = WORDINGS.text.limitDuring(limit, limitStep(rt));
  return { ok: false, exitCode: 124, blamedStage: null, reason };
}

// The step where a limit that stopped no stage came: where safe-run itself waited in a FIFO's open
// (`$(< fifo)`, a builtin's redirection inside a substitution), which did not run (its command was
// not run with what the stop left), else the last that ran.
function limitStep(rt: Runtime): number {
  const ofText = rt.recorder.steps.slice(0, rt.stepsOfText ?? undefined);
  const ran = [...ofText].reverse().find((step) => step.skipped === undefined);
  const cut = ofText.find(
    (step) => step.skipped?.because === 'timeout' || step.skipped?.because === 'stopped',
  );
  return cut?.index ?? ran?.index ?? 1;
}

// The verdict of the step where a limit stopped a stage: its own, unless that leaves the stopped stage
// out (one of a substitution in its words, which its own verdict does not judge).
// Said as the last step that ran when it was one, of several (an EXIT trap's may come after it).
function stoppedVerdict(rt: Runtime, index: number): Verdict {
  const own = ownVerdict(rt, index);
  const { recorder } = rt;
  const stages = recorder.steps[index - 1]!.stages.map((stage, i) => ({
    ...stage,
    index: recorder.globalStage(index, i + 1),
  }));
  const verdict = own.ok
    ? decideVerdict(
        stages.filter((stage) => stage.status === 'timeout' || stage.status === 'limit'),
        {
          policy: rt.settings.policy,
          sigpipe: rt.settings.sigpipe,
          stdoutReaderGone: false,
          interruptedBy: null,
        },
      )
    : own;
  const ran = recorder.steps
    .slice(0, rt.stepsOfText ?? undefined)
    .filter((step) => step.skipped === undefined);
  if (ran.length <= 1 || ran.at(-1)!.index !== index) return verdict;
  return { ...verdict, reason: WORDINGS.text.lastStep(index, verdict.reason) };
}

// The first step with a stage that a limit stopped, or null.
function stoppedStep(rt: Runtime): number | null {
  const stopped = rt.recorder.steps.find((step) =>
    step.stages.some((stage) => stage.status === 'timeout' || stage.status === 'limit'),
  );
  return stopped?.index ?? null;
}

function textVerdict(rt: Runtime, ending: Ending): Verdict {
  // The last step of the text that ran (steps a stop kept from running come after it, and so do the
  // steps of background jobs ended with the text).
  const ofText = rt.recorder.steps.slice(0, rt.stepsOfText ?? undefined);
  const last = [...ofText].reverse().find((step) => step.skipped === undefined);
  const lastIndex = last?.index ?? 0;
  if (rt.cancelled) {
    const { signal, by } = rt.cancelled;
    const reason = WORDINGS.verdict.interrupted(signal, by);
    return { ok: false, exitCode: 128 + signalNumber(signal), blamedStage: null, reason };
  } else if (rt.refused) {
    const { step, why } = rt.refused;
    return { ok: false, exitCode: 125, blamedStage: null, reason: WORDINGS.text.refused(step, why) };
  } else if (rt.timedOutBefore !== null) {
    const limit = stopReason({ kind: 'pipeline-timeout', limitMs: rt.settings.timeoutMs ?? 0 });
    const reason = WORDINGS.text.timedOutBefore(limit, rt.timedOutBefore);
    return { ok: false, exitCode: 124, blamedStage: null, reason };
  } else if (rt.stoppedBy?.kind === 'refused') {
    const reason = WORDINGS.text.refusedWhenReached(rt.stoppedBy.why);
    return { ok: false, exitCode: 125, blamedStage: null, reason };
  } else if (last?.negated && last.status === ending.status && ending.why === 'end') {
    return negatedVerdict(rt, lastIndex);
  } else if (
    last &&
    (last.verdict || rt.stoppedBy !== null) &&
    (last.status === ending.status || rt.stoppedBy !== null || rt.cancelled !== null) &&
    ending.why !== 'exit'
  ) {
    return stepVerdict(rt, lastIndex);
  }
  return statusVerdict(rt, ending);
}

// A step's verdict by the policy, its stages numbered as the report numbers them (a verdict that
// blames no stage, a time limit's or a signal's, is the step's own).
function stepVerdict(rt: Runtime, index: number): Verdict {
  const verdict = ownVerdict(rt, index);
  const ran = rt.recorder.steps.filter((step) => step.skipped === undefined).length;
  if (ran <= 1 || verdict.ok) return verdict;
  return { ...verdict, reason: WORDINGS.text.lastStep(index, verdict.reason) };
}

function ownVerdict(rt: Runtime, index: number): Verdict {
  const { recorder } = rt;
  const step = recorder.steps[index - 1]!;
  const own = step.verdict;
  if (own && own.blamedStage === null) return own;
  const stages = step.stages.map((stage, i) => ({ ...stage, index: recorder.globalStage(index, i + 1) }));
  return decideVerdict(stages, {
    policy: rt.settings.policy,
    sigpipe: rt.settings.sigpipe,
    stdoutReaderGone: false,
    interruptedBy: null,
  });
}

// The stage a failed step's status came from: the one its verdict blames, else its last.
function blamedIn(rt: Runtime, index: number): number | null {
  const step = rt.recorder.steps[index - 1]!;
  if (step.stages.length === 0) return null;
  if (step.verdict?.blamedStage && step.verdict.blamedStage !== null)
    return stepVerdict(rt, index).blamedStage;
  return rt.recorder.globalStage(index, step.stages.length);
}

function statusVerdict(rt: Runtime, ending: Ending): Verdict {
  const { status, why } = ending;
  const ok = status === 0;
  // An error of the shell's own (why 'error', or a discarded one on the last line) is no step's.
  const ownError = why === 'error' || (why === 'end' && Boolean(ending.at));
  const failed = ownError
    ? undefined
    : [...rt.recorder.steps].reverse().find((step) => step.status === status && status !== 0);
  const blamedStage = failed ? blamedIn(rt, failed.index) : null;
  const said = WORDINGS.text;
  const reason = ok
    ? WORDINGS.verdict.satisfied(rt.settings.policy, 0)
    : why === 'exit'
      ? said.exited(status)
      : why === 'errexit'
        ? said.errexit(failed ?? null, status)
        : why === 'error' || ending.at
          ? said.shellError(ending.at?.line ?? null, ending.at?.message ?? null, status)
          : said.lastCommand(status);
  return { ok, exitCode: status, blamedStage, reason };
}

// `! pipeline` as the last step: its own outcome inverted, saying so.
function negatedVerdict(rt: Runtime, index: number): Verdict {
  const step = rt.recorder.steps[index - 1]!;
  const ran = rt.recorder.steps.filter((other) => other.skipped === undefined).length;
  const innerOk = step.status !== 0;
  const failed = innerOk
    ? null
    : step.verdict
      ? ownVerdict(rt, index).reason
      : `status ${step.status === 0 ? 1 : 0}`;
  const reason = WORDINGS.text.negated(ran > 1 ? index : null, failed);
  return { ok: step.status === 0, exitCode: step.status, blamedStage: null, reason };
}

// What to do when the run stopped before a step: the time limit, or a step refused when reached
// (the steps before it ran, so the advice is the whole text given to bash, as one supervised stage).
function stopAdvice(rt: Runtime): Advice | null {
  if (rt.timedOutBefore !== null) return { kind: 'steps-timed-out', step: rt.timedOutBefore };
  // The time limit stopped no stage (limitVerdict) but kept steps from running.
  if (rt.stoppedBy?.kind === 'limit' && !rt.cancelled && stoppedStep(rt) === null)
    return { kind: 'limit-during', step: limitStep(rt) };
  if (rt.refused) return { kind: 'refused-step', step: rt.refused.step, policy: rt.settings.policy };
  // Text the shell ran (eval, source, a trap) held a construct safe-run does not run: the step that
  // ran it is the last one that ran.
  if (rt.stoppedBy?.kind !== 'refused') return null;
  const last = [...rt.recorder.steps].reverse().find((step) => step.skipped === undefined);
  return last ? { kind: 'refused-step', step: last.index, policy: rt.settings.policy } : null;
}
