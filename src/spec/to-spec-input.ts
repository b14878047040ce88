import { resolve } from 'node:path';
import { lenientCodes } from '../contracts/explain-exit.js';
import { assignStageNames } from '../inputs/stage-names.js';
import type { Settings, StageSpec, StdinSource } from '../types.js';
import type { ParsedSpec } from './schema.js';

// What a spec file contributes to a Plan: its stages, and only the settings it sets, so that
// command-line flags can override them and DEFAULT_SETTINGS fill in the rest.
export interface SpecInput {
  stages: StageSpec[];
  settings: Partial<Settings>;
  // output, keep-partial, expect, expect-cmd as written (output resolved against baseDir).
  delivery?: SpecDelivery;
}

export interface SpecDelivery {
  output?: string;
  keepPartial?: boolean;
  expect: string[];
  expectCmd: string[];
}

// Relative paths in a spec are relative to the spec file's directory (baseDir), so a file means the
// same thing whichever directory safe-run is started from.
export function toSpecInput(spec: ParsedSpec, baseDir: string): SpecInput {
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
      cwd: stage.cwd === undefined ? null : resolve(baseDir, stage.cwd),
      okCodes: withContract(stage['ok-codes'] ?? [0], stage.contract, stage.run.argv),
      optional: stage.optional ?? false,
      timeoutMs: stage.timeout ?? null,
      maxStdout: stage['max-stdout'] ?? null,
      maxStderr: stage['max-stderr'] ?? null,
    }),
  );
  return { stages, settings: toSettings(spec, baseDir), delivery: toDelivery(spec, baseDir) };
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

function toSettings(spec: ParsedSpec, baseDir: string): Partial<Settings> {
  const settings: Partial<Settings> = {};
  const set = <K extends keyof Settings>(key: K, value: Settings[K] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  set('policy', spec.policy);
  set('sigpipe', spec.sigpipe);
  set('stdin', spec.stdin === undefined ? undefined : toStdin(spec.stdin, baseDir));
  set('timeoutMs', spec.timeout);
  set('idleTimeoutMs', spec['idle-timeout']);
  set('killAfterMs', spec['kill-after']);
  set('drainTimeoutMs', spec['drain-timeout']);
  set('maxStdout', spec['max-stdout']);
  set('maxStderr', spec['max-stderr']);
  set('maxLog', spec['max-log']);
  set('onLimit', spec['on-limit']);
  set('liveStdout', spec['live-stdout']);
  set('logDir', spec['log-dir'] === undefined ? undefined : resolve(baseDir, spec['log-dir']));
  set('leftovers', spec.leftovers);
  set('failFast', spec['fail-fast']);
  set('mask', spec.mask);
  return settings;
}

// "inherit" and "null" are words; anything else is a file (write ./null for a file named null).
function toStdin(text: string, baseDir: string): StdinSource {
  if (text === 'inherit') return { kind: 'inherit' };
  if (text === 'null') return { kind: 'null' };
  return { kind: 'file', path: resolve(baseDir, text) };
}
