import { pushAll } from '../../arrays.js';
import { decideVerdict } from '../../policy/verdict.js';
import type { StageResult } from '../../types.js';
import type { Pipeline } from '../syntax/nodes.js';
import type { Collected, RunnerApi } from './api.js';
import { iterationOf, NOTHING, ownStep, sourceOf } from './record-step.js';
import { stopReason } from './stops.js';

// A pipeline is one step: its stages in order (a builtin or compound element as one stage, programs
// as the engine ran them, the stages of substitutions in an element's words before it), its verdict
// by the policy over the elements' own stages, as for a pipeline of programs.
export function recordPipeline(
  r: RunnerApi,
  pipeline: Pipeline,
  step: number | null,
  parts: Collected[][],
  statuses: number[],
  status: number,
): void {
  const stages: StageResult[] = [];
  const judged: StageResult[] = [];
  parts.forEach((collected, i) => {
    if (collected.some((part) => part.covered)) return;
    const substituted = collected.filter((part) => part.substitution).flatMap((part) => part.stages);
    const given = collected.filter((part) => !part.substitution).flatMap((part) => part.stages);
    const own = given.length > 0 ? given : [elementStage(r, pipeline, i, statuses[i] ?? 1)];
    pushAll(stages, substituted);
    pushAll(stages, own);
    pushAll(judged, own);
  });
  stages.forEach((stage, i) => {
    stage.index = i + 1;
  });
  const reports = parts.flat().flatMap((part) => (part.report ? [part.report] : []));
  const verdict = decideVerdict(judged, {
    policy: r.rt.settings.policy,
    sigpipe: r.rt.settings.sigpipe,
    stdoutReaderGone: false,
    interruptedBy: null,
  });
  const record = {
    ...ownStep(r, pipeline, { status, stages }),
    verdict,
    leftovers: reports.flatMap((report) => report.leftovers),
    facts: reports.flatMap((report) => report.facts),
    warnings: reports.flatMap((report) => report.warnings),
  };
  if (r.place.collect) r.place.collect({ stages });
  else if (step !== null) r.rt.recorder.fill(step, record);
}

// A pipeline that a stop ended: its text, the stages its elements had recorded (programs' stages; a
// compound element's commands are steps of their own) and those of the substitutions in its words
// that did not end ok (the one stopped among them; not the thousands a loop in one may have run).
// One that had not started its elements and has no such stage did not run.
export function recordCut(
  r: RunnerApi,
  pipeline: Pipeline,
  cut: { step: number; parts: Collected[][]; started: boolean },
): void {
  const { step, parts, started } = cut;
  const stages = parts
    .flat()
    .flatMap((part) =>
      part.substitution ? part.stages.filter((stage) => stage.status !== 'ok') : part.stages,
    );
  if (stages.length === 0 && !started) {
    const because = stopReason(r.rt);
    const at = { line: pipeline.start.line, parent: r.place.parentStep, iteration: iterationOf(r) };
    const skipped = { text: sourceOf(r, pipeline), ...at, cwd: r.sh.cwd, connector: null };
    r.rt.recorder.skip(because ? { ...skipped, because } : skipped, step);
    // (The time ran out between the commands of a loop in its words: it is the step kept from starting.)
    if (r.rt.timedOutBefore !== null && r.rt.timedOutBefore > step) r.rt.timedOutBefore = step;
    return;
  }
  stages.forEach((stage, i) => {
    stage.index = i + 1;
  });
  r.rt.recorder.fill(step, ownStep(r, pipeline, { status: 1, stages }));
}

// A compound element (a loop, a group), as one stage with its status.
function elementStage(r: RunnerApi, pipeline: Pipeline, i: number, status: number): StageResult {
  const command = pipeline.commands[i]!;
  return {
    index: i + 1,
    name: command.kind === 'simple' ? 'command' : command.kind,
    argv: [sourceOf(r, command)],
    resolvedPath: null,
    status: status === 0 ? 'ok' : status === 141 ? 'sigpipe' : 'failed',
    succeeded: status === 0,
    exitCode: status,
    signal: status === 141 ? 'SIGPIPE' : null,
    pid: null,
    startedAt: null,
    durationMs: null,
    optional: false,
    stdout: NOTHING,
    stderr: NOTHING,
    stop: null,
    error: null,
    hint: null,
    meaning: null,
    builtin: 'compound command',
  };
}
