import { textExit } from '../../engine/report/next-step.js';
import type { Advice, StageResult, Verdict } from '../../types.js';
import type { Runtime } from './runtime.js';
import type { Ending } from './signals.js';

// The text's own `exit N` ended it (not a subshell's, not one in a pipeline: those end only
// themselves), and the verdict blames that builtin: what it said before, not "exit failed".
export function exitAdvice(verdict: Verdict, ending: Ending, stages: StageResult[]): Advice | null {
  if (ending.why !== 'exit' || verdict.blamedStage === null) return null;
  const stage = stages[verdict.blamedStage - 1];
  if (!stage?.builtin || stage.argv[0] !== 'exit') return null;
  return textExit(stage, stages);
}

// What to do when the shell itself ended the text and no stage is to blame.
export function shellEndAdvice(verdict: Verdict, ending: Ending): Advice | null {
  const { at } = ending;
  if (verdict.blamedStage !== null || !at) return null;
  if (ending.why === 'error' || ending.why === 'end')
    return { kind: 'shell-error', line: at.line, message: at.message ?? 'an error' };
  if (ending.why === 'errexit') return { kind: 'errexit-here', line: at.line, status: ending.status };
  return null;
}

// What to do when the run failed only because its last step is negated: nothing failed.
export function negatedAdvice(rt: Runtime, verdict: Verdict): Advice | null {
  const last = [...rt.recorder.steps].reverse().find((step) => step.skipped === undefined);
  if (!last?.negated || verdict.ok || last.status === 0) return null;
  return { kind: 'negated', step: last.index };
}

// An ok text that left background jobs running at its end: they were stopped, which the exit code
// (bash's, 0) does not tell; whoever expected a server to stay up is told.
export function backgroundAdvice(stages: StageResult[]): Advice | null {
  const stopped = stages.filter(
    (stage) => stage.stop?.cause.kind === 'requested' && stage.stop.cause.by === 'text-end',
  );
  const first = stopped[0];
  if (!first) return null;
  return {
    kind: 'background-stopped',
    stage: { index: first.index, name: first.name },
    more: stopped.length - 1,
  };
}
