import type { OpenStop } from '../../engine/fifo-open.js';
import { stopReason } from '../../outcome-text/render.js';
import type { StageResult, StepReport, StreamReport } from '../../types.js';
import type { Span, Stmt } from '../syntax/nodes.js';
import { fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import type { StepRecord } from './recorder.js';
import type { RedirectFailure } from './redirect-failure.js';

export const NOTHING: StreamReport = {
  bytes: 0,
  truncated: false,
  omittedBytes: 0,
  text: '',
  binary: false,
  logFile: null,
};

// The source of a node, as the report shows it.
export function sourceOf(r: RunnerApi, node: Span): string {
  return fromBytes(r.place.source.slice(node.start.offset, node.end.offset)).trim();
}

// Which pass of the loops around the command this is ("3", or "2.5" inside two loops).
export function iterationOf(r: RunnerApi): string | null {
  return r.sh.iterations.length === 0 ? null : r.sh.iterations.join('.');
}

// One step the text ran without an engine run of its own (a builtin, an assignment): its one stage.
export async function recordStep(
  r: RunnerApi,
  node: Span,
  step: {
    status: number;
    stages: StageResult[];
    // Set for a builtin whose own redirection failed: it never ran.
    failure?: RedirectFailure | null;
    // Where it ran, when it moved the shell (cd): the directory before it.
    cwd?: string;
    builtin?: string;
    argv?: string[];
    stdout?: StreamReport;
    stderr?: StreamReport;
  },
  collect = r.place.collect,
): Promise<number> {
  const stages = step.stages.length > 0 || !step.builtin ? step.stages : [builtinStage(step)];
  if (collect) {
    collect({ stages });
    return -1;
  }
  return r.rt.recorder.add(ownStep(r, node, { status: step.status, stages, cwd: step.cwd }));
}

// The record of a step at `node` in this shell (its text, line, pass, directory) with what it gave;
// no verdict, leftovers or facts, which only an engine run adds.
export function ownStep(
  r: RunnerApi,
  node: Span,
  got: { status: number; stages: StageResult[]; cwd?: string | undefined },
): StepRecord {
  return {
    text: sourceOf(r, node),
    line: node.start.line,
    parent: r.place.parentStep,
    iteration: iterationOf(r),
    cwd: got.cwd ?? r.sh.cwd,
    status: got.status,
    stages: got.stages,
    verdict: null,
    leftovers: [],
    facts: [],
    warnings: [],
    expansions: [],
  };
}

// What records the step of a command that never ran because its own redirection failed or was
// stopped waiting for a FIFO (a compound command's, a function call's: `{ ...; } > dir/`), so that
// the report names it and the verdict finds it, as for a builtin's.
export function recordUnredirected(
  r: RunnerApi,
  node: Span,
  name: string,
  builtin: 'compound command' | 'shell function',
): (failure: RedirectFailure) => Promise<void> {
  // (A pipeline's element: its stage in the pipeline's step, not a step of its own.)
  const element = r.place.element?.node === node ? r.place.element : null;
  return async (failure) => {
    await recordStep(r, node, { status: 1, stages: [], failure, builtin, argv: [name] }, element?.collect);
  };
}

function builtinStage(step: {
  status: number;
  failure?: RedirectFailure | null;
  builtin?: string;
  argv?: string[];
  stdout?: StreamReport;
  stderr?: StreamReport;
}): StageResult {
  const argv = step.argv ?? [];
  return {
    index: 1,
    name: argv[0] ?? step.builtin ?? 'builtin',
    argv,
    resolvedPath: null,
    status: statusOf(step.status, step.failure ?? null),
    succeeded: step.status === 0,
    exitCode: step.status,
    signal: null,
    pid: null,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    optional: false,
    stdout: step.stdout ?? NOTHING,
    stderr: step.stderr ?? NOTHING,
    stop: step.failure?.kind === 'stopped' ? stopOf(step.failure.stop, step.failure.reading) : null,
    error:
      step.failure?.kind === 'error'
        ? { code: step.failure.code, message: step.failure.message, exitCode: 1, during: 'redirect' }
        : null,
    hint: null,
    meaning: null,
    builtin: step.builtin ?? 'shell builtin',
  };
}

function statusOf(status: number, failure: RedirectFailure | null): StageResult['status'] {
  if (failure?.kind === 'error') return 'not-started';
  if (failure?.kind === 'stopped') return failure.stop.as === 'timeout' ? 'timeout' : 'cancelled';
  return status === 0 ? 'ok' : 'failed';
}

// A builtin stopped in the open of a FIFO, as the engine says it of a stage (start-stages.ts), or
// while it read (`reading`: a pipe, a FIFO or a terminal that gave no input).
function stopOf(stop: OpenStop, reading = false): StageResult['stop'] {
  const { cause, afterMs } = stop;
  const rest = { signals: [], snapshot: [], deadlock: null, waitingForStage: null };
  if (reading) return { reason: stopReason(cause), cause, afterMs, ...rest };
  const fifo = { kind: 'redirect' } as const;
  return { reason: stopReason(cause, fifo), cause, fifo, afterMs, ...rest };
}

// A command the text did not run, in the report (not inside a pipeline element, whose stages are
// the element's).
export function recordSkipped(
  r: RunnerApi,
  node: Span,
  connector: '&&' | '||' | null,
  because?: StepReport['skippedBecause'],
): void {
  if (r.place.collect) return;
  r.rt.recorder.skip({
    text: sourceOf(r, node),
    line: node.start.line,
    parent: r.place.parentStep,
    iteration: iterationOf(r),
    cwd: r.sh.cwd,
    connector,
    ...(because ? { because } : {}),
  });
}

// A statement the text did not run: its first pipeline, then each after `&&` or `||`.
export function recordSkippedStmt(r: RunnerApi, stmt: Stmt, because: StepReport['skippedBecause']): void {
  recordSkipped(r, stmt.body.first, null, because);
  for (const { op, pipeline } of stmt.body.rest) recordSkipped(r, pipeline, op, because);
}
