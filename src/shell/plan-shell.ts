import { assignStageNames } from '../inputs/stage-names.js';
import type { Script, SimpleCommand } from '../model/shell-syntax.js';
import type { FallbackInfo, Plan, StageSpec } from '../types.js';
import { assignmentOf } from './assignment.js';
import { mayBraceExpand } from './brace-scan.js';
import { builtinKind } from './builtins.js';
import { checkExportWords } from './export-args.js';
import { parseShell } from './parse-shell.js';
import { isRefusal, refuseConstruct } from './refuse.js';

export interface ParsedText {
  script: Script | null;
  fallback: FallbackInfo | null;
}

// Parses -c text and checks what can be checked before anything runs (refused builtins written as
// such). A refusal becomes a fallback when the user asked for one.
export function parseText(text: string, fallback: 'bash' | null): ParsedText {
  try {
    const script = parseShell(text);
    checkBuiltins(script);
    return { script, fallback: null };
  } catch (error) {
    if (fallback === 'bash' && isRefusal(error)) {
      return { script: null, fallback: { construct: error.construct, column: error.column ?? 1 } };
    }
    throw error;
  }
}

function checkBuiltins(script: Script): void {
  for (const { pipeline } of script.items) {
    for (const command of pipeline.commands) {
      const name = command.words[0]?.literal;
      const alone = pipeline.commands.length === 1;
      if (name) builtinKind(name, command, alone, command.words[0]!.col);
      // Both the state change and the redirection would have to happen: safe-run does one or the other.
      const stateStep = name === 'export' || (command.words.length === 0 && command.assignments.length > 0);
      if (alone && stateStep && command.redirects.length > 0) {
        const what = name === 'export' ? 'export' : 'NAME=value';
        refuseConstruct(
          'syntax.redirect',
          `${what} with a redirection`,
          command.redirects[0]!.col,
          'changes the shell and opens a file at once',
        );
      }
      if (name === 'export') checkExportBraces(command);
      if (alone && name === 'export') checkExportWords(command);
      if (alone && name === 'export' && command.assignments.length > 0) {
        refuseConstruct(
          'syntax.assignment',
          'NAME=value before export',
          command.col,
          'makes that assignment last in bash (export is a special builtin), which safe-run does not do',
        );
      }
      if (!alone && command.words.length === 0 && command.assignments.length > 0) {
        refuseConstruct(
          'syntax.assignment',
          'NAME=value in a pipeline',
          command.col,
          'assigns in a subshell that ends at once',
        );
      }
    }
  }
}

// bash brace-expands export's NAME=value arguments (`export X={a,b}` is `export X=a X=b`) but
// neither splits nor globs them: no expansion request gives that mix.
function checkExportBraces(command: SimpleCommand): void {
  for (const word of command.words.slice(1)) {
    const brace = word.parts.find((part) => part.kind === 'pattern' && part.text === '{');
    if (brace && assignmentOf(word) && mayBraceExpand(word)) {
      refuseConstruct(
        'syntax.brace',
        `{ in export ${word.raw}`,
        brace.col,
        'is brace-expanded in an export argument',
      );
    }
  }
}

// One stage per command as written, for --ok-codes by name or index: its program when literal.
export function writtenStages(script: Script, blank: () => Omit<StageSpec, 'name' | 'argv'>): StageSpec[] {
  const commands = script.items.flatMap((item) => item.pipeline.commands);
  const programs = commands.map(
    (c) => c.words[0]?.literal ?? c.words[0]?.raw ?? c.assignments[0]?.name ?? '?',
  );
  const names = assignStageNames(programs);
  return commands.map((_, i) => ({ ...blank(), name: names[i]!, argv: [programs[i]!] }));
}

// --fallback bash: the whole text as one stage of bash, with the policy's own pipefail setting.
export function fallbackStages(
  text: string,
  policy: Plan['settings']['policy'],
  blank: () => Omit<StageSpec, 'name' | 'argv'>,
): StageSpec[] {
  const argv = policy === 'last' ? ['bash', '-c', text] : ['bash', '-o', 'pipefail', '-c', text];
  return [{ ...blank(), name: 'bash', argv }];
}
