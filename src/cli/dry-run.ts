import { preflight } from '../engine/preflight.js';
import type { Resolution } from '../engine/resolve-program.js';
import { stageEnvironment } from '../engine/stage-env.js';
import { newStageRun } from '../engine/stage-run.js';
import { formatBytes, formatDuration } from '../inputs/units.js';
import { EXIT_NOT_EXECUTABLE, EXIT_NOT_FOUND } from '../policy/verdict.js';
import type { Plan } from '../types.js';
import type { CliIO } from './main.js';

export interface DryRunStage {
  index: number;
  name: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  okCodes: number[];
  optional: boolean;
  resolvedPath: string | null;
  interpreter: string | null;
  ok: boolean;
  error: { code: string; message: string } | null;
  warnings: string[];
}

// Validates and resolves a plan without starting anything: exit 0, or 126/127 when preflight would fail.
export function dryRun(plan: Plan, json: boolean, io: CliIO): number {
  const runs = plan.stages.map((spec, i) => newStageRun(spec, i + 1, stageEnvironment(spec, 'dry-run')));
  const failed = preflight(runs);
  const stages: DryRunStage[] = runs.map((run) => {
    const resolution = run.resolution as Resolution | null;
    return {
      index: run.index,
      name: run.spec.name,
      argv: run.spec.argv,
      env: run.spec.env,
      cwd: run.cwd,
      okCodes: run.spec.okCodes,
      optional: run.spec.optional,
      resolvedPath: run.resolvedPath,
      interpreter: resolution?.interpreter ?? null,
      ok: run.preflightError === null,
      error: run.preflightError,
      warnings: resolution?.ok ? resolution.warnings : [],
    };
  });
  const blamed = runs.find((run) => run.preflightError !== null);
  const exitCode = !failed
    ? 0
    : blamed?.preflightError?.code === 'ENOENT'
      ? EXIT_NOT_FOUND
      : EXIT_NOT_EXECUTABLE;
  if (json) {
    const document = {
      schemaVersion: 1,
      dryRun: true,
      ok: !failed,
      exitCode,
      stages,
      settings: plan.settings,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return exitCode;
  }
  const lines: string[] = [];
  for (const stage of stages) {
    const where = stage.resolvedPath ?? '(not found)';
    lines.push(
      `${stage.index}  ${stage.name}: ${JSON.stringify(stage.argv)} -> ${where}${stage.interpreter ? ` (via ${stage.interpreter})` : ''}`,
    );
    if (stage.error) lines.push(`   ${stage.error.code}: ${stage.error.message}`);
    for (const warning of stage.warnings) lines.push(`   warning: ${warning}`);
  }
  const s = plan.settings;
  lines.push(
    `settings: policy ${s.policy}, sigpipe ${s.sigpipe}, stdin ${s.stdin.kind === 'file' ? s.stdin.path : s.stdin.kind}, ` +
      `timeout ${s.timeoutMs === null ? 'none' : formatDuration(s.timeoutMs)}, max-stdout ${formatBytes(s.maxStdout)}, ` +
      `max-stderr ${formatBytes(s.maxStderr)}`,
  );
  lines.push(failed ? `dry run: would not start (exit ${exitCode})` : 'dry run: ok, nothing was started');
  io.stdout.write(`${lines.join('\n')}\n`);
  return exitCode;
}
