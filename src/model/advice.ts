import type { DeadlockKind } from './hang.js';
import type { Policy } from './setting-values.js';

// What to do next, chosen from a report's facts (src/engine/report/next-step.ts, and for a -c text
// src/shell/interp/script-report.ts). The report's `next` sentence is rendered from it
// (src/outcome-text/): rewording a message never changes which advice is given.

export interface StageRef {
  // 1-based, as the report numbers stages.
  index: number;
  name: string;
}

// What a failed stage's stderr says about the failure: its last line, or why there is none.
export type StderrClue =
  | { kind: 'line'; line: string }
  | { kind: 'binary'; bytes: number; logFile: string | null }
  | { kind: 'silent'; logFile: string | null }
  // A redirection sent it elsewhere (`2>&1`, `2>file`): "stdout", "file out.log" (StreamReport.to).
  // For "stdout" (the stdout the stage had when `2>&1` copied it): `stdoutTo`, where a later
  // redirection sent the stage's stdout itself (`2>&1 >/dev/null`), and `into`, the stage that the
  // first stdout was piped into (null when safe-run captured it).
  | { kind: 'redirected'; to: string; stdoutTo?: string | null; into?: StageRef | null };

// An exit code read against the program's contract (src/contracts).
export interface ContractMeaning {
  program: string;
  meaning: string;
  transient: boolean;
}

export type Advice =
  // Runs that failed with no stage to blame.
  | { kind: 'interrupted' }
  | { kind: 'late-time-limit' }
  // The blamed stage, by what happened to it. `reason` quotes the stop's reason as the report has it.
  | { kind: 'redirect-failed'; stage: StageRef; message: string }
  | { kind: 'start-refused'; stage: StageRef; code: string; message: string }
  | { kind: 'cannot-start'; stage: StageRef; code: string | undefined }
  | { kind: 'full-screen'; stage: StageRef }
  | { kind: 'prompt'; stage: StageRef; reason: string }
  | { kind: 'deadlock'; stage: StageRef; reason: string; explanation: string; deadlock: DeadlockKind }
  // `atStop`: what the stage's leader was doing when the limit fired, when known; `thread` names the
  // thread it is told by ("thread 9 `node`") when that is not its main thread.
  | {
      kind: 'time-limit';
      stage: StageRef;
      reason: string | null;
      atStop: { pid: number; thread: string | null; explanation: string } | null;
    }
  | { kind: 'output-cap'; stage: StageRef }
  // Killed by SIGPIPE under --sigpipe fail.
  | { kind: 'sigpipe-fail'; stage: StageRef }
  // Killed by SIGPIPE, tolerated but not earned: `last`, it was the last stage (safe-run's stdout).
  | { kind: 'sigpipe-reader'; stage: StageRef; last: boolean }
  | { kind: 'out-of-memory'; stage: StageRef }
  | { kind: 'foreign-signal'; stage: StageRef; signal: string | null }
  // An exit code the program's contract calls a valid result ("no match").
  | { kind: 'accepted-code'; stage: StageRef; code: number; contract: ContractMeaning }
  | {
      kind: 'failed';
      stage: StageRef;
      code: number;
      contract: ContractMeaning | null;
      stderr: StderrClue;
    }
  // The text's own `exit N` ended it (`command`, as run): `said` is the last stderr line a stage wrote
  // before it, the usual reason a script gives for giving up; else `after`, the last stage before it
  // that failed (`test -f x || exit 3`).
  | {
      kind: 'text-exit';
      stage: StageRef;
      command: string;
      said: { stage: StageRef; line: string } | null;
      after: { stage: StageRef; code: number } | null;
    }
  | { kind: 'other'; stage: StageRef; status: string }
  // An ok run whose stage wrote more than the cap, with no log of the whole stream.
  | { kind: 'output-cut'; stage: StageRef }
  // An ok -c text that left background jobs (`cmd &`) running at its end: safe-run stopped them
  // (`more`: how many other stages were stopped so).
  | { kind: 'background-stopped'; stage: StageRef; more: number }
  // A -c text: the time limit ran out between steps; it ran out in a step where safe-run itself
  // waited (no stage to stop); a step was refused when reached; the last step is negated by `!`.
  | { kind: 'steps-timed-out'; step: number }
  | { kind: 'limit-during'; step: number }
  | { kind: 'refused-step'; step: number; policy: Policy }
  | { kind: 'negated'; step: number }
  // The text's shell ended with no stage to blame: on an error bash ends on too (`message`, an unset
  // variable under set -u, ${x:?}), or by set -e after a command that is no stage ([[ ]], a builtin).
  | { kind: 'shell-error'; line: number; message: string }
  | { kind: 'errexit-here'; line: number; status: number };

export type AdviceKind = Advice['kind'];
