import { resolve } from 'node:path';
import { lenientCodes } from '../contracts/explain-exit.js';
import type { SpecDelivery, SpecInput } from '../inputs/assemble-plan.js';
import { assignStageNames } from '../inputs/stage-names.js';
import { settingsFromSpec } from '../settings/derive.js';
import type { StageSpec } from '../types.js';
import type { ParsedSpec } from './schema.js';

export type { SpecInput } from '../inputs/assemble-plan.js';

// Relative paths in a spec are relative to the spec file's directory (baseDir), so a file means the
// same thing whichever directory safe-run is started from; a stage's `cwd` is relative to stageDir
// (--cwd when given, else baseDir too).
export function toSpecInput(spec: ParsedSpec, baseDir: string, stageDir = baseDir): SpecInput {
  // Unnamed stages are named as on the command line: the program's basename, made unique (cat, cat-2).
  const names = assignStageNames(
    spec.stages.map((stage) => stage.run.argv[0]!),
    spec.stages.map((stage) => stage.name),
  );
  const stages = spec.stages.map(
    (stage, index): StageSpec => ({
      name: names[index]!,
      argv: [...stage.run.argv],
      env: { ...stage.run.env, ...stage.env },
      cwd: stage.cwd === undefined ? null : resolve(stageDir, stage.cwd),
      okCodes: withContract(stage['ok-codes'] ?? [0], stage.contract, stage.run.argv),
      optional: stage.optional ?? false,
      // 0, as for the pipeline's timeout, is no limit of its own.
      timeoutMs: stage.timeout || null,
      maxStdout: stage['max-stdout'] ?? null,
      maxStderr: stage['max-stderr'] ?? null,
    }),
  );
  return { stages, settings: settingsFromSpec(spec, baseDir), delivery: toDelivery(spec, baseDir) };
}

// `contract: lenient` adds the codes the program's contract calls not an error to the accepted ones.
function withContract(codes: number[], contract: string | undefined, argv: readonly string[]): number[] {
  if (contract !== 'lenient') return codes;
  return [...new Set([...codes, ...(lenientCodes(argv) ?? [])])];
}

function toDelivery(spec: ParsedSpec, baseDir: string): SpecDelivery {
  const commands = spec['expect-cmd'];
  return {
    output: spec.output === undefined ? undefined : resolve(baseDir, spec.output),
    keepPartial: spec['keep-partial'],
    expect: spec.expect ?? [],
    expectCmd: commands === undefined ? [] : Array.isArray(commands) ? commands : [commands],
  };
}
