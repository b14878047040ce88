import type { Pipeline, Redirect, SimpleCommand } from '../model/shell-syntax.js';
import { assignmentOf } from './assignment.js';
import { type ExpansionRequest, expandWords } from './expand-words.js';
import type { ShellState } from './shell-state.js';

// A word and what it expanded to, for --dry-run and the report.
export interface Expansion {
  word: string;
  fields: string[];
}

// Where one command's expansions are among the step's results.
interface CommandRequests {
  // Per word, in order: its request, and for export's NAME=value arguments the name (the value is
  // one word, neither split nor globbed, as bash treats a declaration builtin's assignments).
  words: { request: number; name: string | null }[];
  assignments: number | null;
  redirects: number[];
}

// A pipeline's words as bash expanded them in the state the step starts in: one helper run for the
// whole step, and per command, where its words, NAME=value prefixes and targets are in `results`.
export interface ExpandedStep {
  perCommand: CommandRequests[];
  results: string[][];
  // The words that were not literal, for --dry-run and the report.
  expansions: Expansion[];
  helperMs: number;
}

export function isExport(command: SimpleCommand): boolean {
  return command.words[0]?.literal === 'export';
}

// Expands every word of the pipeline but the redirection targets in `deferred`, which the engine
// expands when it reaches them.
export async function expandStep(
  pipeline: Pipeline,
  state: ShellState,
  deferred: Set<Redirect>,
): Promise<ExpandedStep> {
  const requests: ExpansionRequest[] = [];
  const perCommand = pipeline.commands.map((c) => requestsOf(c, isExport(c), requests, deferred));
  const { results, helperMs } = await expandWords(requests, state);
  return { perCommand, results, expansions: expansionsOf(requests, results), helperMs };
}

// Command `c`'s argv: its words' fields, and export's NAME=value arguments as one field each.
export function argvOf(expanded: ExpandedStep, c: number): string[] {
  return fieldsPerWord(expanded, c).flat();
}

// The fields each word of command `c` became, in the order written.
export function fieldsPerWord(expanded: ExpandedStep, c: number): string[][] {
  const { perCommand, results } = expanded;
  return perCommand[c]!.words.map(({ request, name }) =>
    name === null ? results[request]! : [`${name}=${results[request]![0]!}`],
  );
}

function requestsOf(
  command: SimpleCommand,
  isExport: boolean,
  requests: ExpansionRequest[],
  deferred: Set<Redirect>,
): CommandRequests {
  const add = (request: ExpansionRequest) => requests.push(request) - 1;
  const out: CommandRequests = { words: [], assignments: null, redirects: [] };
  if (command.assignments.length > 0)
    out.assignments = add({ kind: 'values', assignments: command.assignments });
  command.words.forEach((word, i) => {
    const assignment = isExport && i > 0 ? assignmentOf(word) : null;
    if (assignment) {
      out.words.push({ request: add({ kind: 'values', assignments: [assignment] }), name: assignment.name });
    } else out.words.push({ request: add({ kind: 'fields', word }), name: null });
  });
  for (const redirect of command.redirects) {
    if (redirect.op === '<<<') out.redirects.push(add({ kind: 'here-string', word: redirect.target! }));
    else if (redirect.target && !deferred.has(redirect))
      out.redirects.push(add({ kind: 'fields', word: redirect.target }));
  }
  return out;
}

function expansionsOf(requests: ExpansionRequest[], results: string[][]): Expansion[] {
  return requests.flatMap((request, i) =>
    request.kind !== 'values'
      ? request.word.literal === null
        ? [{ word: request.word.raw, fields: results[i]! }]
        : []
      : request.assignments
          .filter((a) => a.value.literal === null)
          .map((a, k) => ({ word: a.raw, fields: [results[i]![k]!] })),
  );
}
