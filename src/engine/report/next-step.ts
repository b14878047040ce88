import { explainExit } from '../../contracts/explain-exit.js';
import { formatBytes } from '../../format-units.js';
import { deadlockAdvice } from '../../hang/advice.js';
import type { Report, StageResult } from '../../types.js';

type ReportSoFar = Omit<Report, 'next' | 'output' | 'checks'>;

function where(stage: StageResult): string {
  return `stage ${stage.index} "${stage.name}"`;
}

function forBlamed(stage: StageResult, settings: ReportSoFar['settings'], total: number): string {
  const stream = `its stderr (stages[${stage.index - 1}].stderr in the JSON report)`;
  switch (stage.status) {
    case 'not-started':
      if (stage.error?.during === 'redirect') {
        return `${where(stage)} was not started because a redirection failed (${stage.error.message}): fix the path or its permissions`;
      }
      if (stage.error?.during === 'start') {
        return `${where(stage)} was refused by the kernel when it started (${stage.error.code}): ${stage.error.message}`;
      }
      return `${where(stage)} could not start (${stage.error?.code}): fix the machine (install the program, fix PATH or permissions); running the same command again will not help until then`;
    case 'timeout': {
      if (stage.stop?.reason.includes('a full-screen program'))
        return `${where(stage)} opened a full-screen program (an editor or a pager) that nobody can use: give what it asks for on the command line (git commit -m MESSAGE, --no-edit, --no-pager)`;
      if (stage.stop?.reason.startsWith('waiting for an answer: '))
        return `${where(stage)} asked a question and nobody can answer it (${stage.stop.reason}): use its non-interactive option (--yes, -y, --force, a config file), or give the answer on stdin`;
      if (stage.stop?.deadlock) {
        const { explanation, kind } = stage.stop.deadlock;
        return `${where(stage)} was stopped (${stage.stop.reason}) while deadlocked: ${explanation}; a longer limit will not help: ${deadlockAdvice(kind)}`;
      }
      const limit = `${where(stage)} was stopped by a time limit (${stage.stop?.reason ?? 'timeout'})`;
      return `${limit}${atTheStop(stage)}: find out why it is slow or stuck before raising the limit`;
    }
    case 'limit':
      return `${where(stage)} was stopped for writing more than its cap: raise --max-stdout/--max-stderr or use --on-limit truncate`;
    case 'sigpipe':
      return settings.sigpipe === 'fail'
        ? `${where(stage)} was killed by SIGPIPE because its reader closed early; if that is intended, run with --sigpipe tolerate`
        : `${where(stage)} was killed by SIGPIPE: its reader stopped reading${stage.index < total ? ' and did not succeed; look at the stage after it' : ' (safe-run could not write its own stdout; see warnings)'}`;

    case 'signaled':
      return stage.signal === 'SIGKILL'
        ? `${where(stage)} was killed by SIGKILL, not sent by safe-run: often the kernel's out-of-memory killer (see the system log)`
        : `${where(stage)} was killed by ${stage.signal}, not sent by safe-run; read ${stream}`;
    case 'failed':
      return forFailed(stage, stream);
    default:
      return `${where(stage)} ended as ${stage.status}; see report.verdict.reason`;
  }
}

// What the stage's leader was doing when the limit fired.
function atTheStop(stage: StageResult): string {
  const first = stage.stop?.snapshot.find((proc) => proc.stage === stage.index && proc.pid === stage.pid);
  return first ? `; at the stop, its pid ${first.pid} was ${first.explanation}` : '';
}

// The exit code read against the program's contract (src/contracts): a "no match" is offered as an
// accepted code, an error gets its meaning, a network hiccup is called one.
function forFailed(stage: StageResult, stream: string): string {
  const code = stage.exitCode ?? -1;
  const explained = explainExit(stage.argv, code);
  if (explained?.benign) {
    return `${where(stage)} exited ${code}, which for ${explained.program} means "${explained.meaning}": if that is a valid result, add --ok-codes ${stage.name}=0,${code} (or contract: lenient on the stage in a spec); otherwise read ${stream}`;
  }
  const saved = stage.stderr.logFile ? ` (whole stream: ${stage.stderr.logFile})` : '';
  const last = lastLine(stage.stderr.text);
  const said = last
    ? `; its last stderr line: ${JSON.stringify(last)}`
    : stage.stderr.binary
      ? `; its stderr (${formatBytes(stage.stderr.bytes ?? 0)}) is not text${saved}`
      : `; it wrote nothing to stderr${saved}`;
  if (!explained) return `${where(stage)} failed with exit ${code}${said}`;
  const retry = explained.transient ? ' (often transient: a retry may succeed)' : '';
  return `${where(stage)} failed with exit ${code}, which for ${explained.program} means "${explained.meaning}"${retry}${said}`;
}

function lastLine(text: string | null): string | null {
  const lines = (text ?? '').split('\n').map((line) => line.trim());
  const last = lines.filter(Boolean).pop();
  if (!last) return null;
  return last.length > 200 ? `${last.slice(0, 200)}...` : last;
}

// One sentence for whoever reads the report next (an agent, most often): what to do now.
// `streamedStdout`: the last stage's stdout was streamed whole, so its cut in the report lost nothing.
export function nextStep(report: ReportSoFar, streamedStdout = false): string | null {
  const { verdict } = report;
  if (!verdict.ok) {
    if (verdict.blamedStage === null) {
      return verdict.exitCode === 124
        ? 'a time limit fired after every stage had exited, while processes they left behind still held the output: see leftovers[]'
        : 'safe-run was interrupted: run again when you mean to';
    }
    const stage = report.stages[verdict.blamedStage - 1]!;
    return forBlamed(stage, report.settings, report.stages.length);
  }
  const last = report.stages.length;
  const cut = report.stages.find(
    (stage) =>
      stage.stderr.truncated || (stage.stdout.truncated && !(streamedStdout && stage.index === last)),
  );
  if (cut && !cut.stdout.logFile && !cut.stderr.logFile) {
    return `ok; ${where(cut)} wrote more than the cap and only head and tail were kept: rerun with --log-dir DIR to keep everything`;
  }
  return null;
}
