import { openFifos } from '../../engine/kernel-pipes.js';
import { ExpansionError } from '../expand/env.js';
import type { Command, Pipeline } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { Collected, RunnerApi } from './api.js';
import { noteElement } from './bash-command.js';
import { BUILTINS } from './builtins/registry.js';
import { type Member, memberOf, pipelineStatus, runMembers } from './external.js';
import { type FdRef, OpenFile } from './fds.js';
import { runShellElement } from './pipe-element.js';
import { failedTarget } from './pipeline-targets.js';
import { recordCut, recordPipeline } from './record-pipeline.js';
import { checkDirectory, MemberRefused, markRefused } from './refuse-step.js';
import { traceCommand } from './trace.js';

// One element of a pipeline, in the subshell bash would give it: a program (run by the engine with
// its neighbours that are programs too), or anything else (a builtin, a function, a compound
// command) run by the interpreter with pipe ends as its descriptors.
type Element =
  | { kind: 'program'; member: Member; sub: RunnerApi }
  | { kind: 'shell'; command: Command; sub: RunnerApi; args: Bytes[] | null; failed?: ExpansionError };

export async function runPipeline(r: RunnerApi, pipeline: Pipeline): Promise<number> {
  const step = r.place.collect ? null : r.rt.recorder.reserve();
  const parts: Collected[][] = pipeline.commands.map(() => []);
  let statuses: number[];
  const progress = { started: false };
  try {
    statuses = await runWhole(r, pipeline, step, parts, progress);
  } catch (error) {
    // A stop while its words were expanded (the time limit in a `$(< fifo)`) or while it ran (in a
    // `while` element) ends the text: its reserved step still says which pipeline it was.
    if (step !== null && r.rt.recorder.pending(step)) recordCut(r, pipeline, { step, parts, ...progress });
    throw error;
  }
  r.sh.pipestatus = statuses;
  const status = pipelineStatus(r, statuses);
  recordPipeline(r, pipeline, step, parts, statuses, status);
  return status;
}

async function runWhole(
  r: RunnerApi,
  pipeline: Pipeline,
  step: number | null,
  parts: Collected[][],
  progress: { started: boolean },
): Promise<number[]> {
  const count = pipeline.commands.length;
  const order = r.rt.support.take(count - 1);
  await order.made;
  const pipes = openFifos(order.batch);
  r.rt.support.release(order);
  const elements: Element[] = [];
  try {
    for (const [i, command] of pipeline.commands.entries()) {
      const collect = (part: Collected) => parts[i]!.push(part);
      elements.push(await classify(r, command, { parentStep: step ?? r.place.parentStep, collect }, i > 0));
    }
    r.checkStopped();
    if (elements.some((element) => element.kind === 'program'))
      checkDirectory(r, pipeline, step ?? undefined);
  } catch (error) {
    for (const pipe of pipes)
      for (const fd of [pipe.readFd, pipe.writeFd]) new OpenFile(fd, { kind: 'pipe' }).release();
    for (const element of elements) element.sub.sh.fds.release();
    throw error;
  }
  progress.started = true;
  return runElements(r, pipeline, elements, pipes);
}

// Expands a simple command's words in its own subshell to learn whether it runs a program. A
// simple command's stage goes to the pipeline's step; a compound one's commands are steps of their
// own under it.
async function classify(
  r: RunnerApi,
  command: Command,
  place: { parentStep: number | null; collect: (part: Collected) => void },
  later: boolean,
): Promise<Element> {
  const simple = command.kind === 'simple';
  const element = { node: command, collect: place.collect };
  noteElement(r, command);
  const sub = r.subshell(
    undefined,
    simple ? place : { parentStep: place.parentStep, collect: undefined, element },
  );
  if (simple) sub.sh.seeJobsOf(r.sh);
  if (later) sub.sh.fds.set(0, { kind: 'run', fd: 0, pending: true });
  if (!simple) place.collect({ stages: [] });
  if (!simple) sub.sh.loopDepth = 0; // (as a ( ) subshell: compound.ts)
  if (command.kind !== 'simple' || command.declArgs || command.assigns.length > 0)
    return { kind: 'shell', command, sub, args: null };
  sub.sh.lineno = sub.sh.lineOf(command);
  let args: Bytes[];
  try {
    args = await sub.ex.fields(command.words);
    const failed = await failedTarget(sub, command);
    if (failed) throw failed;
  } catch (error) {
    if (!(error instanceof ExpansionError)) throw error;
    // bash's forked child fails alone (127 for an unset parameter); the others run.
    sub.sh.bareCommand = r.sh.subshell === 0;
    return { kind: 'shell', command, sub, args: null, failed: error };
  }
  if (args.length > 0) await traceCommand(sub, args);
  const name = args[0];
  if (name === undefined || (!name.includes('/') && (sub.sh.functions.has(name) || BUILTINS.has(name)))) {
    sub.sh.bareCommand = r.sh.subshell === 0;
    return { kind: 'shell', command, sub, args };
  }
  return { kind: 'program', member: { command, args, env: {}, redirects: [] }, sub };
}

async function runElements(
  r: RunnerApi,
  pipeline: Pipeline,
  elements: Element[],
  pipes: { readFd: number; writeFd: number }[],
): Promise<number[]> {
  const statuses: Promise<number>[] = [];
  let i = 0;
  while (i < elements.length) {
    const element = elements[i]!;
    const stdin: FdRef | number = i === 0 ? r.sh.fds.get(0) : pipes[i - 1]!.readFd;
    if (element.kind === 'shell') {
      const stdout: FdRef | number = i === elements.length - 1 ? r.sh.fds.get(1) : pipes[i]!.writeFd;
      const writer = statuses[statuses.length - 1] ?? null;
      statuses.push(runShellElement(element, { stdin, stdout, writer }, pipeline.pipeAll[i] ?? false));
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < elements.length && elements[end + 1]!.kind === 'program') end++;
    const group = elements.slice(i, end + 1) as Extract<Element, { kind: 'program' }>[];
    // The engine links consecutive programs itself: the pipes made for those links are not used.
    for (const pipe of pipes.slice(i, end))
      for (const fd of [pipe.readFd, pipe.writeFd]) new OpenFile(fd, { kind: 'pipe' }).release();
    const stdout: FdRef | number = end === elements.length - 1 ? r.sh.fds.get(1) : pipes[end]!.writeFd;
    statuses.push(...runProgramGroup(r, group, stdin, stdout, pipeline));
    i = end + 1;
  }
  return Promise.all(statuses);
}

// Consecutive programs as one engine run: the first reads `stdin`, the last writes `stdout`. A pipe
// end goes to its stage (the engine closes safe-run's copy once the stage holds it: a reader that
// exits early must leave its writer alone with SIGPIPE).
function runProgramGroup(
  r: RunnerApi,
  group: Extract<Element, { kind: 'program' }>[],
  stdin: FdRef | number,
  stdout: FdRef | number,
  pipeline: Pipeline,
): Promise<number>[] {
  const pipeEnds = [stdin, stdout].filter((end): end is number => typeof end === 'number');
  // The run's stdout: the pipeline's, also when this group writes into a shell element after it (a
  // stage's stderr may still be sent there: `{ a | while ...; } 2>&1`).
  const runStdout = typeof stdout === 'number' ? r.sh.fds.get(1) : stdout;
  const run = (async () => {
    const members: Member[] = [];
    try {
      for (const [k, element] of group.entries())
        members.push(await prepare(element, k, group.length, { stdin, stdout, runStdout }, pipeline));
      // (A substitution in a redirection the limit stopped: `cat > "$(slow)".log | ...`.)
      r.checkStopped();
    } catch (error) {
      for (const fd of pipeEnds) new OpenFile(fd, { kind: 'pipe' }).release();
      for (const element of group) element.sub.sh.fds.release();
      if (error instanceof MemberRefused) {
        // The run ends at this pipeline, refused (its other elements ran).
        markRefused(r, pipeline, error.why, r.place.parentStep ?? r.rt.recorder.steps.length);
        return group.map(() => 125);
      }
      throw error;
    }
    const first = group[0]!.sub;
    const node = { start: group[0]!.member.command.start, end: group.at(-1)!.member.command.end };
    for (const element of group.slice(1)) element.sub.place.collect?.({ stages: [], covered: true });
    try {
      return (await runMembers(first, members, runStdout, node)).statuses;
    } finally {
      for (const element of group) element.sub.sh.fds.release();
    }
  })();
  return group.map((_, k) => run.then((statuses) => statuses[k] ?? 1));
}

async function prepare(
  element: Extract<Element, { kind: 'program' }>,
  k: number,
  size: number,
  ends: { stdin: FdRef | number; stdout: FdRef | number; runStdout: FdRef },
  pipeline: Pipeline,
): Promise<Member> {
  const { stdin, stdout, runStdout } = ends;
  const { sub } = element;
  const first = k === 0;
  const last = k === size - 1;
  // A pipe between two members is the engine's to plug in: the shell's own 0 or 1 (a held file when
  // the pipeline's group is redirected: `f() { a | b; }; f > out`) must not be handed over there.
  sub.sh.fds.set(0, first && typeof stdin !== 'number' ? stdin : { kind: 'run', fd: 0 });
  sub.sh.fds.set(1, last && typeof stdout !== 'number' ? stdout : { kind: 'run', fd: 1 });
  const member = await memberOf(sub, element.member.command, element.member.args, runStdout);
  if (typeof member === 'string') throw new MemberRefused(member);
  if (first && typeof stdin === 'number')
    member.redirects.unshift({ kind: 'descriptor', fd: 0, from: stdin, owned: true, what: { kind: 'pipe' } });
  if (last && typeof stdout === 'number')
    member.redirects.unshift({
      kind: 'descriptor',
      fd: 1,
      from: stdout,
      owned: true,
      what: { kind: 'pipe' },
    });
  if (pipeline.pipeAll[pipeline.commands.indexOf(element.member.command)])
    member.redirects.push({ kind: 'dup', fd: 2, from: 1 });
  return member;
}
