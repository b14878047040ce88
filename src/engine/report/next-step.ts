import { explainExit } from '../../contracts/explain-exit.js';
import { leadThread } from '../../hang/explain.js';
import { adviceText } from '../../outcome-text/render.js';
import type { Wordings } from '../../outcome-text/wordings.js';
import type { Advice, Report, StageRef, StageResult, StderrClue } from '../../types.js';

type ReportSoFar = Omit<Report, 'next' | 'output' | 'checks'>;

// The advice is chosen from facts (statuses, stop causes, error codes, exit contracts), never from
// the words of a reason: rewording a message cannot change it. adviceText renders it.

function ref(stage: StageResult): StageRef {
  return { index: stage.index, name: stage.name };
}

function forBlamed(stage: StageResult, report: ReportSoFar): Advice {
  const { settings, stages } = report;
  const at = ref(stage);
  switch (stage.status) {
    case 'not-started':
      if (stage.error?.during === 'redirect')
        return { kind: 'redirect-failed', stage: at, message: stage.error.message };
      if (stage.error?.during === 'start')
        return { kind: 'start-refused', stage: at, code: stage.error.code, message: stage.error.message };
      return { kind: 'cannot-start', stage: at, code: stage.error?.code };
    case 'timeout':
      return forStopped(stage);
    case 'limit':
      return { kind: 'output-cap', stage: at };
    case 'sigpipe':
      return settings.sigpipe === 'fail'
        ? { kind: 'sigpipe-fail', stage: at }
        : { kind: 'sigpipe-reader', stage: at, last: stage.index >= stages.length };
    case 'signaled':
      return stage.signal === 'SIGKILL'
        ? { kind: 'out-of-memory', stage: at }
        : { kind: 'foreign-signal', stage: at, signal: stage.signal };
    case 'failed':
      return forFailed(stage, stages);
    default:
      return { kind: 'other', stage: at, status: stage.status };
  }
}

// A stage a time limit stopped, by the stop's cause: nobody answers a full-screen program or a
// question, and a longer limit does not end a deadlock.
function forStopped(stage: StageResult): Advice {
  const at = ref(stage);
  const { stop } = stage;
  if (stop?.cause.kind === 'full-screen') return { kind: 'full-screen', stage: at };
  if (stop?.cause.kind === 'prompt') return { kind: 'prompt', stage: at, reason: stop.reason };
  if (stop?.deadlock) {
    const { explanation, kind } = stop.deadlock;
    return { kind: 'deadlock', stage: at, reason: stop.reason, explanation, deadlock: kind };
  }
  // What the stage's leader was doing when the limit fired.
  const leader = stop?.snapshot.find((proc) => proc.stage === stage.index && proc.pid === stage.pid);
  const lead = leader && leadThread(leader);
  const atStop = leader
    ? { pid: leader.pid, thread: lead?.thread ?? null, explanation: lead?.rest ?? leader.explanation }
    : null;
  return { kind: 'time-limit', stage: at, reason: stop?.reason ?? null, atStop };
}

// The exit code read against the program's contract (src/contracts): a "no match" is offered as an
// accepted code, an error gets its meaning, a network hiccup is called one.
function forFailed(stage: StageResult, stages: StageResult[]): Advice {
  const code = stage.exitCode ?? -1;
  const explained = explainExit(stage.argv, code);
  const contract = explained
    ? { program: explained.program, meaning: explained.meaning, transient: explained.transient === true }
    : null;
  if (explained?.benign && contract) return { kind: 'accepted-code', stage: ref(stage), code, contract };
  return { kind: 'failed', stage: ref(stage), code, contract, stderr: stderrClue(stage, stages) };
}

// The shell's own `exit N` ended the text (the caller knows: script-advice.ts): no program failed.
export function textExit(stage: StageResult, stages: StageResult[]): Advice {
  const before = stages.slice(0, stage.index - 1).reverse();
  const said = before
    .map((earlier) => ({ stage: ref(earlier), line: lastLine(earlier.stderr.text) }))
    .find((clue): clue is { stage: StageRef; line: string } => clue.line !== null);
  const failed = before.find((earlier) => earlier.status === 'failed' && earlier.exitCode !== null);
  const after = failed ? { stage: ref(failed), code: failed.exitCode ?? -1 } : null;
  const command = stage.argv.join(' ');
  return { kind: 'text-exit', stage: ref(stage), command, said: said ?? null, after };
}

function stderrClue(stage: StageResult, stages: StageResult[]): StderrClue {
  const line = lastLine(stage.stderr.text);
  if (line !== null) return { kind: 'line', line };
  if (stage.stderr.to === 'stdout') {
    // Not captured: the stage's first stdout was the pipe into the next stage of its pipeline.
    const next = stages[stage.index];
    const piped = stage.stdout.text === null && next !== undefined && next.step === stage.step;
    return {
      kind: 'redirected',
      to: 'stdout',
      stdoutTo: stage.stdout.to ?? null,
      into: piped ? ref(next) : null,
    };
  }
  if (stage.stderr.to !== undefined) return { kind: 'redirected', to: stage.stderr.to };
  const { logFile } = stage.stderr;
  return stage.stderr.binary
    ? { kind: 'binary', bytes: stage.stderr.bytes ?? 0, logFile }
    : { kind: 'silent', logFile };
}

// Lines a program prints after the reason it failed, which say nothing about it: Node's version line
// after an uncaught error and the stack frames before it, npm's pointer to its debug log, Java's
// frames. The last line that is none of these is the clue (the last line at all when every one is).
const TRAILERS = [
  /^Node\.js v\d+\.\d+\.\d+$/,
  /^at [^ ]/,
  /^\.\.\. \d+ more$/,
  /^npm (ERR!|error) A complete log of this run can be found in/,
  /^npm (ERR!|error) +\S+\.log$/,
  /^npm (ERR!|error)( \S+)?$/,
];

function lastLine(text: string | null): string | null {
  const lines = (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.filter((line) => !TRAILERS.some((trailer) => trailer.test(line)));
  const last = telling.at(-1) ?? lines.at(-1);
  if (!last) return null;
  return last.length > 200 ? `${last.slice(0, 200)}...` : last;
}

// What to do now, as data; null when there is nothing to do.
// `streamedStdout`: the last stage's stdout was streamed whole, so its cut in the report lost nothing.
// `requested`: the run was stopped on request (job_kill, the client's cancel), not by a signal to
// safe-run: it ended as asked, and there is nothing to advise.
export function chooseAdvice(report: ReportSoFar, streamedStdout = false, requested = false): Advice | null {
  const { verdict } = report;
  if (!verdict.ok) {
    if (verdict.blamedStage === null) {
      if (verdict.exitCode === 124) return { kind: 'late-time-limit' };
      return requested ? null : { kind: 'interrupted' };
    }
    const stage = report.stages[verdict.blamedStage - 1]!;
    return forBlamed(stage, report);
  }
  const last = report.stages.length;
  const cut = report.stages.find(
    (stage) =>
      stage.stderr.truncated || (stage.stdout.truncated && !(streamedStdout && stage.index === last)),
  );
  if (cut && !cut.stdout.logFile && !cut.stderr.logFile) return { kind: 'output-cut', stage: ref(cut) };
  return null;
}

// One sentence for whoever reads the report next (an agent, most often): what to do now.
export function nextStep(
  report: ReportSoFar,
  streamedStdout = false,
  words?: Wordings,
  requested = false,
): string | null {
  const advice = chooseAdvice(report, streamedStdout, requested);
  return advice && adviceText(advice, words);
}
