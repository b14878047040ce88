import { formatDuration } from '../format-units.js';
import { deadlockAdvice } from '../hang/advice.js';
import type {
  Advice,
  AdviceKind,
  CancelSource,
  FifoWait,
  StageRef,
  StopCause,
  StopCauseKind,
  StreamTarget,
} from '../types.js';
import { said, textExit, who } from './clues.js';

// The one table of the words safe-run says about a run's outcome: why a stage was stopped, how a
// stage ended (in the verdict, in a CI title, in the table), where a stream went, and what to do
// next. Every sentence is rendered from data through it (render.ts); nothing reads these words back.

type Of<U, K> = Extract<U, { kind: K }>;

export interface Wordings {
  // The report's `stop.reason`, by cause; then the open of a FIFO the stop cut short.
  stop: { [K in StopCauseKind]: (cause: Of<StopCause, K>) => string };
  fifo: { [K in FifoWait['kind']]: (reason: string, wait: Of<FifoWait, K>) => string };
  // How a stage ended, as a clause of the verdict; `who` is `stage 2 "grep"`.
  outcome: {
    who(stage: StageRef): string;
    failed(who: string, exitCode: number | null): string;
    killed(who: string, signal: string | null): string;
    failedAlone(who: string, message: string): string;
    notStarted(who: string, code: string): string;
    stopped(who: string, reason: string): string;
    cancelled(who: string): string;
    stoppedAs(who: string, status: string): string;
    endedAs(who: string, status: string): string;
  };
  // The verdict's reason around the blamed stage's outcome.
  verdict: {
    // `by`: who asked, when it was not a signal to safe-run.
    interrupted(signal: string, by?: CancelSource): string;
    preflight(outcome: string): string;
    startRefused(outcome: string, started: readonly number[]): string;
    lateTimeLimit(limit: string): string;
    satisfied(policy: string, notDeciding: number): string;
    byPolicy(policy: string, outcome: string): string;
    exitedBeforeStop(who: string, exitCode: number | null): string;
    onlyWaiting(who: string, stage: number): string;
    // A dry run's: every stage could start, or the one that cannot.
    startable: string;
    cannotStart(who: string, code: string): string;
  };
  // A -c text's verdict where it is not one pipeline's: `negated`'s `step` is null when the text
  // ran one step, its `failed` null when the negated pipeline succeeded.
  text: {
    refused(step: number, why: string): string;
    timedOutBefore(limit: string, step: number): string;
    limitDuring(limit: string, step: number): string;
    refusedWhenReached(why: string): string;
    lastStep(step: number, reason: string): string;
    exited(status: number): string;
    errexit(failed: { text: string; line: number | undefined } | null, status: number): string;
    lastCommand(status: number): string;
    shellError(line: number | null, message: string | null, status: number): string;
    negated(step: number | null, failed: string | null): string;
  };
  // How a stage ended, in a few words: CI group titles, annotations, JUnit.
  phrase: {
    ok: string;
    skipped: string;
    failed(exitCode: number | null): string;
    notStarted(code: string, message: string): string;
    killed(signal: string | null): string;
    sigpipe(tolerated: boolean): string;
    stoppedAs(status: string, reason: string | null): string;
  };
  // The table's cells and lines about a stage.
  table: {
    status(status: string, how: 'tolerated' | 'optional' | null): string;
    target(target: StreamTarget): string;
    stopped(after: string, reason: string, signals: readonly string[]): string;
  };
  // The report's `to`: where a redirection sent a stream; and how JUnit says it.
  target(target: StreamTarget): string;
  sentTo(target: StreamTarget): string;
  // The report's `next`.
  advice: { [K in AdviceKind]: (advice: Of<Advice, K>) => string };
}

const stream = (stage: StageRef) => `its stderr (stages[${stage.index - 1}].stderr in the JSON report)`;
const targetText = (target: StreamTarget) => (target.kind === 'file' ? `file ${target.path}` : target.kind);

// Who asked for a stop that was not a signal to safe-run.
const REQUESTED: Record<CancelSource, string> = {
  kill: "the text's kill",
  job_kill: 'stopped with job_kill',
  client: 'the MCP client cancelled the call',
  'text-end': 'the text ended while this background job ran',
};

const ADVICE: Wordings['advice'] = {
  interrupted: () => 'safe-run was interrupted: run again when you mean to',
  'late-time-limit': () =>
    'a time limit fired after every stage had exited, while processes they left behind still held the output: see leftovers[]',
  'redirect-failed': (a) =>
    `${who(a.stage)} was not started because a redirection failed (${a.message}): fix the path or its permissions`,
  'start-refused': (a) =>
    `${who(a.stage)} was refused by the kernel when it started (${a.code}): ${a.message}`,
  'cannot-start': (a) =>
    `${who(a.stage)} could not start (${a.code}): fix the machine (install the program, fix PATH or permissions); running the same command again will not help until then`,
  'full-screen': (a) =>
    `${who(a.stage)} opened a full-screen program (an editor or a pager) that nobody can use: give what it asks for on the command line (git commit -m MESSAGE, --no-edit, --no-pager)`,
  prompt: (a) =>
    `${who(a.stage)} asked a question and nobody can answer it (${a.reason}): use its non-interactive option (--yes, -y, --force, a config file), or give the answer on stdin`,
  deadlock: (a) =>
    `${who(a.stage)} was stopped (${a.reason}) while deadlocked: ${a.explanation}; a longer limit will not help: ${deadlockAdvice(a.deadlock)}`,
  'time-limit': (a) => {
    const thread = a.atStop?.thread ? ` (${a.atStop.thread})` : '';
    const at = a.atStop ? `; at the stop, its pid ${a.atStop.pid}${thread} was ${a.atStop.explanation}` : '';
    return `${who(a.stage)} was stopped by a time limit (${a.reason ?? 'timeout'})${at}: find out why it is slow or stuck before raising the limit`;
  },
  'output-cap': (a) =>
    `${who(a.stage)} was stopped for writing more than its cap: raise --max-stdout/--max-stderr or use --on-limit truncate`,
  'sigpipe-fail': (a) =>
    `${who(a.stage)} was killed by SIGPIPE because its reader closed early; if that is intended, run with --sigpipe tolerate`,
  'sigpipe-reader': (a) =>
    `${who(a.stage)} was killed by SIGPIPE: its reader stopped reading${a.last ? ' (safe-run could not write its own stdout; see warnings)' : ' and did not succeed; look at the stage after it'}`,
  'out-of-memory': (a) =>
    `${who(a.stage)} was killed by SIGKILL, not sent by safe-run: often the kernel's out-of-memory killer (see the system log)`,
  'foreign-signal': (a) =>
    `${who(a.stage)} was killed by ${a.signal}, not sent by safe-run; read ${stream(a.stage)}`,
  'accepted-code': (a) =>
    `${who(a.stage)} exited ${a.code}, which for ${a.contract.program} means "${a.contract.meaning}": if that is a valid result, add --ok-codes ${a.stage.name}=0,${a.code} (or contract: lenient on the stage in a spec); otherwise read ${stream(a.stage)}`,
  failed: (a) => {
    if (!a.contract) return `${who(a.stage)} failed with exit ${a.code}${said(a.stderr)}`;
    const retry = a.contract.transient ? ' (often transient: a retry may succeed)' : '';
    return `${who(a.stage)} failed with exit ${a.code}, which for ${a.contract.program} means "${a.contract.meaning}"${retry}${said(a.stderr)}`;
  },
  other: (a) => `${who(a.stage)} ended as ${a.status}; see report.verdict.reason`,
  'background-stopped': (a) =>
    `${who(a.stage)}${a.more > 0 ? ` and ${a.more} more` : ''} ran in the background (&) and ${a.more > 0 ? 'were' : 'was'} stopped when the text ended, as safe-run stops whatever a text leaves running: to keep a server up for later commands, start it alone as a job (safe-run mcp: "background": true); to use it in this text, put the commands that need it after it, in the same text`,
  'output-cut': (a) =>
    `ok; ${who(a.stage)} wrote more than the cap and only head and tail were kept: rerun with --log-dir DIR to keep everything`,
  'limit-during': (a) =>
    `the time limit ran out in step ${a.step} while safe-run itself waited there, not a program (for the other end of a FIFO, or for input that did not come, as in $(< fifo)): find out why nothing came before raising the limit`,
  'steps-timed-out': (a) =>
    `step ${a.step} and the steps after it did not run because the time limit ran out first: raise --timeout if the text needs more time`,
  'refused-step': (a) =>
    `${a.step > 1 ? `the steps before step ${a.step} ran, it and the steps after it did not` : 'step 1 and the steps after it did not run'}: to run such a text, give it whole to bash as one supervised stage: safe-run -- ${a.policy === 'last' ? 'bash -c' : 'bash -o pipefail -c'} 'TEXT'`,
  'shell-error': (a) =>
    `the text ended at line ${a.line} on an error that ends bash too (${a.message}): fix that line${a.message.endsWith('unbound variable') ? ' (set the variable, or write ${name:-default})' : ''} and run again`,
  'text-exit': textExit,
  'errexit-here': (a) =>
    `set -e ended the text at line ${a.line}, where a test or builtin failed with status ${a.status}: if that failure is expected there, write it as a condition (if ...; then, or ... || true)`,
  negated: (a) =>
    `nothing failed: the last step (${a.step}) is negated by !, so its success is a failure, as in bash; drop the ! if success was meant`,
};

export const WORDINGS: Wordings = {
  stop: {
    'pipeline-timeout': (c) => `the pipeline timeout (${formatDuration(c.limitMs)})`,
    'stage-timeout': (c) => `the stage timeout (${formatDuration(c.limitMs)})`,
    'idle-timeout': (c) => `the idle timeout (${formatDuration(c.limitMs)} without output)`,
    prompt: (c) => `waiting for an answer: ${c.line}`,
    'full-screen': () =>
      'waiting for an answer: a full-screen program (an editor or a pager) opened the terminal screen',
    deadlock: () => '--on-deadlock stop: its processes were deadlocked',
    'output-limit': () => 'its output crossed the cap',
    'fail-fast': (c) => `--fail-fast: stage "${c.stage}" ${c.status}`,
    'start-refused': (c) => `stage ${c.stage} "${c.name}" could not be started (${c.code})`,
    signal: (c) => `safe-run received ${c.signal}`,
    requested: (c) => REQUESTED[c.by],
    'internal-error': () => 'safe-run failed internally',
  },
  fifo: {
    redirect: (reason) => `${reason}, while a redirection waited for the other end of a FIFO`,
    stdin: (reason, wait) => `${reason}, while the stdin FIFO ${wait.path} still had no writer`,
  },
  outcome: {
    who,
    failed: (w, code) => `${w} failed with exit ${code}`,
    killed: (w, signal) => `${w} was killed by ${signal}`,
    failedAlone: (w, message) => `${w} failed: ${message}`,
    notStarted: (w, code) => `${w} could not be started (${code})`,
    stopped: (w, reason) => `${w} was stopped: ${reason}`,
    cancelled: (w) => `${w} was cancelled`,
    stoppedAs: (w, status) => `${w} was stopped (${status})`,
    endedAs: (w, status) => `${w} ended as ${status}`,
  },
  verdict: {
    interrupted: (signal, by) =>
      by === undefined
        ? `safe-run was stopped by ${signal}; running stages were cancelled`
        : `${REQUESTED[by]} (${signal}); running stages were cancelled`,
    preflight: (outcome) => `preflight: ${outcome}; nothing was started`,
    startRefused: (outcome, started) => {
      if (started.length === 0) return `${outcome}: the kernel refused it; nothing else was started`;
      const many = started.length > 1;
      return `${outcome}: the kernel refused it after stage${many ? 's' : ''} ${started.join(', ')} had started; safe-run stopped ${many ? 'them' : 'it'}`;
    },
    lateTimeLimit: (limit) =>
      `${limit} fired after the stages had exited; processes they left behind were stopped`,
    satisfied: (policy, n) =>
      `policy ${policy}: satisfied${n > 0 ? `; ${n} non-deciding stage(s) did not succeed` : ''}`,
    byPolicy: (policy, outcome) => `policy ${policy}: ${outcome}`,
    exitedBeforeStop: (w, code) => `${w} exited ${code} before the stop`,
    onlyWaiting: (w, stage) => `${w} was only waiting for input from stage ${stage}`,
    startable: 'every program was found and can be started',
    cannotStart: (w, code) => `${w} cannot be started: ${code}`,
  },
  text: {
    refused: (step, why) => `step ${step} was refused: ${why}`,
    timedOutBefore: (limit, step) => `${limit} ran out before step ${step} could start`,
    limitDuring: (limit, step) => `${limit} ran out during step ${step}`,
    refusedWhenReached: (why) => `a command was refused when it was reached: ${why}`,
    lastStep: (step, reason) => `step ${step} (the last that ran): ${reason}`,
    exited: (status) => `the text ended with exit ${status}`,
    errexit: (failed, status) =>
      `errexit (set -e): ${failed ? `"${failed.text}" at line ${failed.line} failed` : 'a command failed'} with status ${status}`,
    lastCommand: (status) => `the text's last command failed with status ${status}`,
    shellError: (line, message, status) =>
      `the shell ended on an error${line === null ? '' : ` at line ${line}`}${message === null ? '' : ` (${message})`}, with status ${status}`,
    negated: (step, failed) =>
      `${step === null ? 'the pipeline' : `step ${step} (the last that ran)`} is negated by !, and ${failed === null ? 'it succeeded' : `it failed: ${failed}`}`,
  },
  phrase: {
    ok: 'ok',
    skipped: 'skipped: another stage could not start',
    failed: (code) => `failed with exit ${code}`,
    notStarted: (code, message) => `could not start (${code}: ${message})`,
    killed: (signal) => `killed by ${signal}`,
    sigpipe: (tolerated) => (tolerated ? 'killed by SIGPIPE (tolerated)' : 'killed by SIGPIPE'),
    stoppedAs: (status, reason) => (reason === null ? status : `${status}: ${reason}`),
  },
  table: {
    status: (status, how) => (how === null ? status : `${status} (${how})`),
    target: (target) => `> ${target.kind === 'file' ? target.path : target.kind}`,
    stopped: (after, reason, signals) =>
      `stopped after ${after}: ${reason}${signals.length > 0 ? ` (${signals.join(' then ')})` : ''}`,
  },
  target: targetText,
  sentTo: (target) => `(sent to ${targetText(target)})`,
  advice: ADVICE,
};
