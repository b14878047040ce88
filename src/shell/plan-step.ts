import os from 'node:os';
import path from 'node:path';
import { assignStageNames } from '../inputs/stage-names.js';
import type { Pipeline, Redirect, SimpleCommand, Word } from '../model/shell-syntax.js';
import type { StageRedirect, StageSpec } from '../types.js';
import { assignmentOf } from './assignment.js';
import { bashPath } from './bash-path.js';
import { type BuiltinKind, builtinKind, builtinScript, cdScript } from './builtins.js';
import { type ExpansionRequest, expandWords } from './expand-words.js';
import type { ShellState } from './shell-state.js';

// A word and what it expanded to, for --dry-run and the report.
export interface Expansion {
  word: string;
  fields: string[];
}

// One step ready to run: engine stages, or a state change safe-run makes itself (NAME=value, export).
export interface PlannedStep {
  stages: StageSpec[];
  kinds: BuiltinKind[];
  // For a `cd` step: the file where bash leaves $PWD and $OLDPWD.
  stateFile: string | null;
  // For NAME=value and export steps: the variables set, and whether they are exported.
  assigns: { name: string; value: string | null; exported: boolean }[] | null;
  expansions: Expansion[];
  helperMs: number;
}

interface CommandRequests {
  // Per word, in order: its request, and for export's NAME=value arguments the name (the value is
  // one word, neither split nor globbed, as bash treats a declaration builtin's assignments).
  words: { request: number; name: string | null }[];
  assignments: number | null;
  exports: number[];
  redirects: number[];
}

const CREATES = new Set<Redirect['op']>(['>', '>>', '>|', '&>', '&>>']);

// A target whose fields can depend on which files exist: an unquoted pattern, or an unquoted
// expansion whose value bash globs.
function mayGlob(word: Word): boolean {
  return word.parts.some(
    (part) =>
      (part.kind === 'pattern' && part.text !== '{') ||
      part.kind === 'parameter' ||
      part.kind === 'heredoc-substitution',
  );
}

// Targets bash expands only when it reaches them, after earlier redirections of the pipeline may
// have created the file a pattern matches (`> a.txt 2> *.txt`): the engine expands these at that point.
function deferredTargets(pipeline: Pipeline): Set<Redirect> {
  const deferred = new Set<Redirect>();
  let created = false;
  for (const command of pipeline.commands) {
    for (const redirect of command.redirects) {
      if (created && redirect.target && mayGlob(redirect.target)) deferred.add(redirect);
      if (CREATES.has(redirect.op)) created = true;
    }
  }
  return deferred;
}

function requestsOf(
  command: SimpleCommand,
  isExport: boolean,
  requests: ExpansionRequest[],
  deferred: Set<Redirect>,
): CommandRequests {
  const add = (request: ExpansionRequest) => requests.push(request) - 1;
  const out: CommandRequests = { words: [], assignments: null, exports: [], redirects: [] };
  if (command.assignments.length > 0)
    out.assignments = add({ kind: 'values', assignments: command.assignments });
  command.words.forEach((word, i) => {
    const assignment = isExport && i > 0 ? assignmentOf(word) : null;
    if (assignment) {
      const request = add({ kind: 'values', assignments: [assignment] });
      out.exports.push(request);
      out.words.push({ request, name: assignment.name });
    } else out.words.push({ request: add({ kind: 'fields', word }), name: null });
  });
  for (const redirect of command.redirects) {
    if (redirect.target && !deferred.has(redirect))
      out.redirects.push(add({ kind: 'fields', word: redirect.target }));
  }
  return out;
}

function redirectsOf(
  command: SimpleCommand,
  fields: string[][],
  line: number | undefined,
  later: { deferred: Set<Redirect>; state: ShellState },
): StageRedirect[] {
  let next = 0;
  return command.redirects.flatMap((r: Redirect): StageRedirect[] => {
    if (r.op === 'dup') return [{ kind: 'dup', fd: r.fd, from: r.dupFrom! }];
    if (r.op === '<<' || r.op === '<<-') return [{ kind: 'heredoc', fd: r.fd, body: r.body ?? '' }];
    const mode = r.op === '<' ? 'read' : r.op === '>>' || r.op === '&>>' ? 'append' : 'write';
    let file: StageRedirect;
    if (later.deferred.has(r)) {
      const word = r.target!;
      const expand = async () => (await expandWords([{ kind: 'fields', word }], later.state)).results[0]!;
      file = { kind: 'file', fd: r.fd, path: word.raw, mode, line, expand };
    } else {
      const target = fields[next++]!;
      if (target.length !== 1) return [{ kind: 'ambiguous', fd: r.fd, word: r.target!.raw, line }];
      file = { kind: 'file', fd: r.fd, path: target[0]!, mode, line };
    }
    return r.op === '&>' || r.op === '&>>' ? [file, { kind: 'dup', fd: 2, from: 1 }] : [file];
  });
}

const BLANK = { cwd: null, okCodes: [0], optional: false, timeoutMs: null, maxStdout: null, maxStderr: null };

// Expands a pipeline's words in the current state and turns its commands into stages.
export async function planStep(
  pipeline: Pipeline,
  state: ShellState,
  execsLast = false,
): Promise<PlannedStep> {
  const alone = pipeline.commands.length === 1;
  const requests: ExpansionRequest[] = [];
  const isExport = (c: SimpleCommand) => c.words[0]?.literal === 'export';
  const deferred = deferredTargets(pipeline);
  const perCommand = pipeline.commands.map((c) => requestsOf(c, isExport(c), requests, deferred));
  const { results, helperMs } = await expandWords(requests, state);
  const expansions: Expansion[] = requests.flatMap((request, i) =>
    request.kind === 'fields'
      ? request.word.literal === null
        ? [{ word: request.word.raw, fields: results[i]! }]
        : []
      : request.assignments
          .filter((a) => a.value.literal === null)
          .map((a, k) => ({ word: a.raw, fields: [results[i]![k]!] })),
  );
  const step: PlannedStep = { stages: [], kinds: [], stateFile: null, assigns: null, expansions, helperMs };
  const [only] = pipeline.commands;
  const argvOf = (c: number): string[] =>
    perCommand[c]!.words.flatMap(({ request, name }) =>
      name === null ? results[request]! : [`${name}=${results[request]![0]!}`],
    );
  const onlyArgv = argvOf(0);
  if (alone && onlyArgv.length === 0 && only!.assignments.length > 0 && only!.redirects.length === 0) {
    const values = results[perCommand[0]!.assignments!]!;
    step.assigns = only!.assignments.map((a, k) => ({
      name: a.name,
      value: values[k]!,
      exported: a.name in state.env,
    }));
    return step;
  }
  if (alone && isExport(only!) && only!.redirects.length === 0) {
    const named = only!.words
      .slice(1)
      .map((word, k): { name: string; value: string | null; exported: boolean } => {
        const assignment = assignmentOf(word);
        return assignment
          ? { name: assignment.name, value: results[perCommand[0]!.exports[k]!]![0]!, exported: true }
          : { name: word.literal!, value: null, exported: true };
      });
    step.assigns = named;
    return step;
  }
  const argvs = pipeline.commands.map((_, c) => argvOf(c));
  const names = assignStageNames(argvs.map((argv) => argv[0] ?? 'empty'));
  pipeline.commands.forEach((command, c) => {
    const argv = argvs[c]!;
    const req = perCommand[c]!;
    const env: Record<string, string> = {};
    if (req.assignments !== null) {
      command.assignments.forEach((a, k) => {
        env[a.name] = results[req.assignments!]![k]!;
      });
    }
    const kind = argv.length === 0 ? 'bash' : builtinKind(argv[0]!, command, alone, command.col);
    const direct = pipeline.commands.every(
      (cmd) => cmd.redirects.length === 0 && cmd.assignments.length === 0,
    );
    const line = kind === null && execsLast && direct ? undefined : command.line;
    const spec: StageSpec = {
      ...BLANK,
      name: names[c]!,
      argv,
      env,
      cwd: state.cwd,
      ...(line === undefined ? {} : { line }),
      redirects: redirectsOf(
        command,
        req.redirects.map((i) => results[i]!),
        line,
        { deferred, state },
      ),
    };
    if (kind === 'cd') {
      step.stateFile = path.join(
        os.tmpdir(),
        `safe-run-cd-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      );
      spec.launch = [
        bashPath(),
        '--norc',
        '--noprofile',
        '-c',
        cdScript(command.line),
        'bash',
        step.stateFile,
        ...argv.slice(1),
      ];
    } else if (kind !== null) {
      const script = argv.length === 0 ? ':' : builtinScript(command.line);
      spec.launch = [bashPath(), '--norc', '--noprofile', '-c', script, 'bash', ...argv];
    }
    step.stages.push(spec);
    step.kinds.push(kind);
  });
  return step;
}

export function wordsOf(command: SimpleCommand): Word[] {
  return command.words;
}
