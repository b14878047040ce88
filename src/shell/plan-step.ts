import fs from 'node:fs';
import type { Pipeline, SimpleCommand, Word } from '../model/shell-syntax.js';
import type { StageSpec } from '../types.js';
import type { BuiltinKind } from './builtins.js';
import { exportArgOf } from './export-args.js';
import { escapeText, refuseConstruct } from './refuse.js';
import { isExported, type ShellState, type StateAssign } from './shell-state.js';
import {
  argvOf,
  type ExpandedStep,
  type Expansion,
  expandStep,
  fieldsPerWord,
  isExport,
} from './step-expansion.js';
import { deferredTargets, stagesOf } from './step-stages.js';

// One step ready to run: engine stages, or a state change safe-run makes itself (NAME=value, export).
export interface PlannedStep {
  stages: StageSpec[];
  kinds: BuiltinKind[];
  // For a `cd` step: the file where bash leaves $PWD and $OLDPWD.
  stateFile: string | null;
  // For NAME=value and export steps: the variables set, and whether they are exported.
  assigns: StateAssign[] | null;
  expansions: Expansion[];
  helperMs: number;
}

// Expands a pipeline's words in the current state and turns its commands into stages.
export async function planStep(
  pipeline: Pipeline,
  state: ShellState,
  execsLast = false,
): Promise<PlannedStep> {
  checkDirectory(pipeline, state);
  const deferred = deferredTargets(pipeline);
  const expanded = await expandStep(pipeline, state, deferred);
  const { expansions, helperMs } = expanded;
  const assigns = assignsOf(pipeline, expanded, state);
  if (assigns !== null) return { stages: [], kinds: [], stateFile: null, assigns, expansions, helperMs };
  const { stages, kinds, stateFile } = stagesOf(pipeline, expanded, state, { execsLast, deferred });
  return { stages, kinds, stateFile, assigns: null, expansions, helperMs };
}

// bash runs a step in its directory even after an earlier step removed it (relative paths fail there,
// the rest works), but no process can be started in a directory that is gone: the step is refused.
function checkDirectory(pipeline: Pipeline, state: ShellState): void {
  if (fs.statSync(state.cwd, { throwIfNoEntry: false })?.isDirectory()) return;
  refuseConstruct(
    'shell.directory-gone',
    pipeline.text,
    pipeline.col,
    `runs in ${escapeText(state.cwd)}, which an earlier step removed`,
  );
}

// What a step that safe-run carries out itself sets: NAME=value with no command, or export, alone in
// their pipeline and without redirections. Null for a step that runs processes.
function assignsOf(pipeline: Pipeline, expanded: ExpandedStep, state: ShellState): StateAssign[] | null {
  const only = pipeline.commands[0]!;
  if (pipeline.commands.length !== 1 || only.redirects.length > 0) return null;
  const requests = expanded.perCommand[0]!;
  const { results } = expanded;
  if (argvOf(expanded, 0).length === 0 && only.assignments.length > 0) {
    const values = results[requests.assignments!]!;
    return only.assignments.map((a, k) => ({
      name: a.name,
      value: values[k]!,
      exported: isExported(state, a.name),
    }));
  }
  if (!isExport(only)) return null;
  return exportAssigns(only, fieldsPerWord(expanded, 0).slice(1), state);
}

// export's arguments as its builtin reads them once expanded: every field of every word, in order
// (NAME=value written as an assignment is one field). Each earlier NAME=value counts as held for
// the arguments after it.
function exportAssigns(command: SimpleCommand, fields: string[][], state: ShellState): StateAssign[] {
  const known = new Set<string>();
  return fields.flatMap((args, k) =>
    args.map((arg) => {
      const assign = exportArgOf(arg, command.words[k + 1]!.col, state, known);
      if (assign.value !== null) known.add(assign.name);
      return assign;
    }),
  );
}

export function wordsOf(command: SimpleCommand): Word[] {
  return command.words;
}
