import os from 'node:os';
import path from 'node:path';
import { assignStageNames } from '../inputs/stage-names.js';
import type { Pipeline, Redirect, SimpleCommand, Word } from '../model/shell-syntax.js';
import type { StageRedirect, StageSpec } from '../types.js';
import { bashPath } from './bash-path.js';
import { type BuiltinKind, builtinKind, builtinScript, cdScript, exitScript } from './builtins.js';
import { expandWords } from './expand-words.js';
import { refuseConstruct } from './refuse.js';
import type { ShellState } from './shell-state.js';
import { argvOf, type ExpandedStep } from './step-expansion.js';

// The stages of a step that runs processes, one per command of its pipeline.
export interface StepStages {
  stages: StageSpec[];
  kinds: BuiltinKind[];
  // For a `cd` step: the file where bash leaves $PWD and $OLDPWD.
  stateFile: string | null;
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
export function deferredTargets(pipeline: Pipeline): Set<Redirect> {
  const deferred = new Set<Redirect>();
  let created = false;
  for (const command of pipeline.commands) {
    for (const redirect of command.redirects) {
      if (created && redirect.op !== '<<<' && redirect.target && mayGlob(redirect.target))
        deferred.add(redirect);
      if (CREATES.has(redirect.op)) created = true;
    }
  }
  return deferred;
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
    if (r.op === '<<<') return [{ kind: 'heredoc', fd: r.fd, body: fields[next++]![0]! }];
    const mode = r.op === '<' ? 'read' : r.op === '>>' || r.op === '&>>' ? 'append' : 'write';
    let file: StageRedirect;
    if (later.deferred.has(r)) {
      const word = r.target!;
      // Expanded by the engine as it reaches it, too late to turn it into a descriptor: not taken.
      if (r.decidedByExpansion) {
        refuseConstruct('syntax.redirect', r.raw, r.col, 'is a descriptor or a file only once expanded');
      }
      const expand = async () => (await expandWords([{ kind: 'fields', word }], later.state)).results[0]!;
      file = { kind: 'file', fd: r.fd, path: word.raw, mode, line, expand };
    } else {
      const target = fields[next++]!;
      if (target.length !== 1) return [{ kind: 'ambiguous', fd: r.fd, word: r.target!.raw, line }];
      if (r.decidedByExpansion && /^([0-9]+|-)$/.test(target[0]!)) {
        refuseConstruct('syntax.redirect', r.raw, r.col, `names a descriptor once expanded ("${target[0]}")`);
      }
      file = { kind: 'file', fd: r.fd, path: target[0]!, mode, line };
    }
    return r.op === '&>' || r.op === '&>>' ? [file, { kind: 'dup', fd: 2, from: 1 }] : [file];
  });
}

const BLANK = { cwd: null, okCodes: [0], optional: false, timeoutMs: null, maxStdout: null, maxStderr: null };

// Turns each command of the pipeline into a stage: a program, or a builtin that bash runs.
export function stagesOf(
  pipeline: Pipeline,
  expanded: ExpandedStep,
  state: ShellState,
  later: { execsLast: boolean; deferred: Set<Redirect> },
): StepStages {
  const { perCommand, results } = expanded;
  const alone = pipeline.commands.length === 1;
  const argvs = pipeline.commands.map((_, c) => argvOf(expanded, c));
  const names = assignStageNames(argvs.map((argv) => argv[0] ?? 'empty'));
  const direct = pipeline.commands.every((cmd) => cmd.redirects.length === 0 && cmd.assignments.length === 0);
  const step: StepStages = { stages: [], kinds: [], stateFile: null };
  pipeline.commands.forEach((command, c) => {
    const argv = argvs[c]!;
    const req = perCommand[c]!;
    const kind = argv.length === 0 ? 'bash' : builtinKind(argv[0]!, command, alone, command.col);
    const line = kind === null && later.execsLast && direct ? undefined : command.line;
    const spec: StageSpec = {
      ...BLANK,
      name: names[c]!,
      argv,
      env: envOf(command, expanded, c),
      cwd: state.cwd,
      ...(line === undefined ? {} : { line }),
      redirects: redirectsOf(
        command,
        req.redirects.map((i) => results[i]!),
        line,
        { deferred: later.deferred, state },
      ),
    };
    if (kind === 'cd') {
      step.stateFile = cdStateFile();
      spec.launch = bashRunning(cdScript(command.line), [step.stateFile, ...argv.slice(1)]);
    } else if (kind === 'exit' && argv.length === 1) {
      spec.launch = bashRunning(exitScript(command.line, state.status), argv);
    } else if (kind !== null) {
      spec.launch = bashRunning(argv.length === 0 ? ':' : builtinScript(command.line), argv);
    }
    step.stages.push(spec);
    step.kinds.push(kind);
  });
  return step;
}

// Command `c`'s NAME=value prefixes, as what its stage adds to the environment.
function envOf(command: SimpleCommand, expanded: ExpandedStep, c: number): Record<string, string> {
  const env: Record<string, string> = {};
  const values = expanded.perCommand[c]!.assignments;
  if (values !== null) {
    command.assignments.forEach((a, k) => {
      env[a.name] = expanded.results[values]![k]!;
    });
  }
  return env;
}

// bash running a builtin stage: no startup files, the script, then $0 and the arguments.
function bashRunning(script: string, args: string[]): string[] {
  return [bashPath(), '--norc', '--noprofile', '-c', script, 'bash', ...args];
}

function cdStateFile(): string {
  return path.join(
    os.tmpdir(),
    `safe-run-cd-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
}
