// The data that flows through safe-run: inputs become a Plan, the engine turns a Plan into a Report.
// Nothing downstream of the engine reaches back into it. The types live in src/model/, which
// imports nothing else of safe-run, so that every part can import them one way; this is the one
// place the rest of the code imports them from.

export type { Advice, AdviceKind, ContractMeaning, StageRef, StderrClue } from './model/advice.js';
export type { Fact, ReportFact, Sighting } from './model/fact.js';
export type {
  BlockedOn,
  BlockedOp,
  BlockedProcess,
  Deadlock,
  DeadlockKind,
  PipePeer,
  StageStop,
  ThreadState,
  WaitKind,
} from './model/hang.js';
export type {
  FallbackInfo,
  Plan,
  Settings,
  ShellPlan,
  StageRedirect,
  StageSpec,
  StdinSource,
} from './model/plan.js';
export type {
  CheckResult,
  Leftover,
  OutputReport,
  Report,
  StageError,
  StageResult,
  StageStatus,
  StepReport,
  StreamReport,
  Verdict,
} from './model/report.js';
export type { RequestErrorCode } from './model/request-error-codes.js';
export type {
  LeftoversMode,
  LiveStdoutMode,
  OnDeadlock,
  OnLimit,
  Policy,
  SigpipeMode,
} from './model/setting-values.js';
export type {
  CancelSource,
  FifoWait,
  Interruption,
  StopCause,
  StopCauseKind,
  StopFacts,
} from './model/stop-cause.js';
export type { StreamTarget } from './model/stream-target.js';
