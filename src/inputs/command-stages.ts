import { RequestError } from '../errors.js';
import type { StageSpec } from '../types.js';
import { parseInline } from './inline-grammar.js';
import { checkStageCount, checkTextSize } from './limits.js';
import { assignStageNames } from './stage-names.js';

// The stages of a command given on the command line or to the library: one argv, or an inline
// pipeline. Spec files make theirs in src/spec-file/to-spec-input.ts.

export function blankStage(): Omit<StageSpec, 'name' | 'argv'> {
  return {
    env: {},
    cwd: null,
    okCodes: [0],
    optional: false,
    timeoutMs: null,
    maxStdout: null,
    maxStderr: null,
  };
}

// An empty program name is bad input (exit 125 before anything starts), as in a spec file: no
// machine could run it, so it is no environment problem to remember.
export function stagesFromArgv(argv: string[]): StageSpec[] {
  if (argv[0] === '') {
    throw new RequestError(
      'usage.no-pipeline',
      'the program name after -- is empty; give the program to run as the first word after --',
    );
  }
  const [name] = assignStageNames([argv[0] ?? '']);
  return [{ ...blankStage(), name: name!, argv }];
}

// Throws RequestError for what the grammar refuses.
export function stagesFromInline(text: string): StageSpec[] {
  checkTextSize(text, '-c');
  const parsed = parseInline(text);
  checkStageCount(parsed.length, '-c');
  const names = assignStageNames(parsed.map((stage) => stage.argv[0]!));
  return parsed.map((stage, i) => ({ ...blankStage(), name: names[i]!, argv: stage.argv, env: stage.env }));
}
