import fs from 'node:fs';
import type { Span } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { iterationOf, sourceOf } from './record-step.js';
import { ExitSignal } from './signals.js';

// A command safe-run cannot run as bash would, found when it is reached: the text ends there, not
// ok (125), its step shown as refused and the report saying why.
export function refuseStep(r: RunnerApi, node: Span, why: string, slot?: number): never {
  const text = sourceOf(r, node);
  const step = {
    text,
    line: node.start.line,
    parent: r.place.parentStep,
    iteration: iterationOf(r),
    cwd: r.sh.cwd,
    connector: null,
    because: 'refused' as const,
  };
  if (!r.place.collect) r.rt.recorder.skip(step, slot);
  markRefused(r, node, why, slot ?? r.rt.recorder.steps.length);
  throw new ExitSignal(125, 'stopped');
}

// Notes that the run ends, refused, at `step` (a pipeline whose element was refused: its other
// elements ran, its step is recorded as it ends); the next command does not start.
export function markRefused(r: RunnerApi, node: Span, why: string, step: number): void {
  const text = sourceOf(r, node);
  r.rt.refused ??= { step, why: `${text} at line ${node.start.line}, column ${node.start.col} ${why}` };
}

// A program cannot be started in a directory that is gone (bash's children inherit it; a new
// process cannot be given it by path): the step that needs it is refused.
export function checkDirectory(r: RunnerApi, node: Span, slot?: number): void {
  if (fs.existsSync(r.sh.cwd)) return;
  refuseStep(r, node, `runs in ${r.sh.cwd}, which an earlier step removed`, slot);
}

// A program of a pipeline the interpreter refuses when it is reached (`why`, in words).
export class MemberRefused extends Error {
  constructor(readonly why: string) {
    super(`refused: ${why}`);
  }
}
