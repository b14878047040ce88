import { Writable } from 'node:stream';
import { startRun } from '../../engine/run-pipeline.js';
import { assignStageNames } from '../../inputs/stage-names.js';
import { monotonicMs } from '../../monotonic-ms.js';
import type { Plan, Report, StageRedirect, StageSpec } from '../../types.js';
import { bashPath } from '../bash-path.js';
import { stageShellCode } from '../bash-status.js';
import { ExpansionError } from '../expand/env.js';
import { scalarOf, type Variable } from '../expand/variable.js';
import type { SimpleCommand } from '../syntax/nodes.js';
import { type Bytes, fromBytes, isUtf8 } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { trackInJob } from './background.js';
import type { FdRef } from './fds.js';
import { iterationOf, sourceOf } from './record-step.js';
import { checkDirectory, refuseStep } from './refuse-step.js';
import { stageRedirects } from './stage-redirects.js';
import { graced } from './wait-stop.js';

// A program of the text, ready for the engine.
export interface Member {
  command: SimpleCommand;
  args: Bytes[];
  env: Record<string, string>;
  redirects: StageRedirect[];
  // `exec PROG`: run as the file found, as bash's exec builtin runs it ($0 is its full path).
  found?: true;
}

// One simple command that runs a program: one engine run of one stage.
// `found`: told whether the program was found (a path that exists, or one PATH gave).
export async function runExternal(
  r: RunnerApi,
  command: SimpleCommand,
  args: Bytes[],
  tell: { found?: (found: boolean) => void; exec?: true } = {},
): Promise<number> {
  checkDirectory(r, command);
  let member: Member | string;
  try {
    member = await memberOf(r, command, args);
  } catch (error) {
    // A redirection's target that fails to expand: bash's child says so and ends, the shell goes on
    // (the child's status is a fatal error's: 1 under set -e, in a script file or a subshell).
    if (!(error instanceof ExpansionError)) throw error;
    await r.error(error.message);
    return r.sh.fatalStatus(error.status);
  }
  r.checkStopped(command);
  if (typeof member === 'string') refuseStep(r, command, member);
  if (tell.exec) member.found = true;
  const { statuses, report } = await runMembers(r, [member], r.sh.fds.get(1), command);
  const found = report.stages[0]?.resolvedPath;
  tell.found?.(Boolean(found));
  if (found && !args[0]!.includes('/'))
    r.sh.hashed.note(args[0]!, found, scalarOf(r.sh.vars.get('PATH')), true);
  return statuses[0]!;
}

// The stage's argv, environment (the shell's exported variables, its own prefixes among them) and
// descriptors; a string says why it cannot be given to a program.
export async function memberOf(
  r: RunnerApi,
  command: SimpleCommand,
  args: Bytes[],
  runStdout: FdRef = r.sh.fds.get(1),
): Promise<Member | string> {
  const bad = args.find((arg) => !isUtf8(arg));
  if (bad !== undefined)
    return 'has an argument with bytes that are not UTF-8, which safe-run cannot pass to a program unchanged';
  const line = r.sh.lineOf(command);
  const redirects = await stageRedirects(r, r.sh.fds, command.redirects, line, runStdout);
  if (typeof redirects === 'string') return redirects;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.sh.vars.environment())) env[name] = fromBytes(value);
  return { command, args, env, redirects };
}

// Programs linked by pipes, as one engine run; `stdout` is where the last one's output goes (the
// run's own stdout, a command substitution's collector, or a held descriptor among its redirections).
export async function runMembers(
  r: RunnerApi,
  members: readonly Member[],
  stdout: FdRef,
  node: SimpleCommand | { start: SimpleCommand['start']; end: SimpleCommand['end'] },
): Promise<{ statuses: number[]; report: Report }> {
  const { rt, sh } = r;
  const grace = graced(rt, r.place) ? rt.grace : null;
  const plan = membersPlan(r, members, grace);
  // In the EXIT trap after a stop, its time is what is left of the trap's.
  const since = grace ? { limitSince: monotonicMs() } : {};
  const io = { ...rt.io, ...since, stdout: stdoutStream(r, stdout) };
  const handle = startRun(plan, io, { support: rt.support, more: true, stdin: rt.stdin });
  rt.running.add(handle);
  if (rt.cancelled && !grace) handle.cancel(rt.cancelled.signal, rt.cancelled.by);
  const untrack = trackInJob(r, handle, members);
  let report: Report;
  try {
    report = await handle.report;
  } finally {
    rt.running.delete(handle);
    untrack();
  }
  const statuses = report.stages.map(stageShellCode);
  if (!r.place.job) sh.jobs.forgetEnded();
  noteStops(r, report);
  if (r.place.collect) {
    r.place.collect({ stages: report.stages, report });
    return { statuses, report };
  }
  rt.recorder.add({
    text: sourceOf(r, node),
    line: node.start.line,
    parent: r.place.parentStep,
    iteration: iterationOf(r),
    cwd: sh.cwd,
    status: pipelineStatus(r, statuses),
    stages: report.stages,
    verdict: report.verdict,
    leftovers: report.leftovers,
    facts: report.facts,
    warnings: report.warnings,
    expansions: [],
  });
  return { statuses, report };
}

// Where the engine streams the last stage's stdout: the run's own, or a command substitution's.
function stdoutStream(r: RunnerApi, ref: FdRef): NodeJS.WritableStream | null {
  if (ref.kind === 'capture') {
    return new Writable({
      write(chunk: Buffer, _encoding, done) {
        // A copy: the engine writes from pooled buffers, reused once `done` is called (a kept view
        // read "cann" where ls had written "ls: ", overwritten by its next write).
        ref.sink.append(Buffer.from(chunk));
        done();
      },
    });
  }
  return ref.kind === 'run' ? (r.rt.io.stdout ?? null) : null;
}

// A stop by one of safe-run's own limits (time, idle, prompt, output cap) ends the text there. Once the
// text has ended, a stop of a list it left running (an idle limit while it gets its while to end) is
// that list's, not the text's.
function noteStops(r: RunnerApi, report: Report): void {
  if (r.rt.stepsOfText !== null) return;
  const stopped = report.stages.find((stage) => stage.status === 'timeout' || stage.status === 'limit');
  const lateLimit = report.exitCode === 124 && report.verdict.blamedStage === null;
  const byTime = stopped?.stop?.cause?.kind === 'pipeline-timeout' || lateLimit;
  if ((stopped || lateLimit) && !r.rt.stoppedBy)
    r.rt.stoppedBy = byTime ? { kind: 'limit', byTime } : { kind: 'limit' };
}

// $? of a pipeline: the rightmost non-zero status under pipefail, else the last one's.
export function pipelineStatus(r: RunnerApi, statuses: readonly number[]): number {
  if (!r.sh.option('pipefail')) return statuses.at(-1) ?? 0;
  return statuses.reduce((status, code) => (code !== 0 ? code : status), 0);
}

// The engine's plan for programs run as one pipeline: their argv, environment and descriptors, the
// run's settings with the time left.
function membersPlan(r: RunnerApi, members: readonly Member[], grace: { until: number } | null): Plan {
  const { rt, sh } = r;
  const names = assignStageNames(members.map((m) => fromBytes(m.args[0]!)));
  const stages: StageSpec[] = members.map((member, i) => ({
    name: names[i]!,
    argv: member.args.map(fromBytes),
    env: member.env,
    cwd: fromBytes(sh.cwd),
    okCodes: rt.okCodesFor(member.command) ?? [0],
    optional: false,
    timeoutMs: null,
    maxStdout: null,
    maxStderr: null,
    redirects: member.redirects,
    line: sh.lineOf(member.command),
    shell: fromBytes(sh.messageName()),
    ...(member.found ? { execFound: true as const } : {}),
    noShebangShell: bashPath(),
    ...searchPathOf(sh.vars.get('PATH')),
  }));
  // The text's limit, counted from the text's start (rt.io.limitSince), not from this step's; in the
  // EXIT trap after a stop, the trap's time left, from now.
  // (With no idle limit and no second wait after SIGTERM: the trap's time is all it gets.)
  const left = grace
    ? { timeoutMs: Math.max(1, Math.round(grace.until - monotonicMs())), killAfterMs: 0, idleTimeoutMs: null }
    : {};
  return {
    source: 'inline',
    stages,
    settings: { ...rt.settings, ...left },
    env: {},
    startEach: true,
  };
}

// The PATH a program is looked up on, when not the environment's: the shell's own, not exported
// (bash's default one when started without PATH), or none at all once the text unset it.
function searchPathOf(path: Variable | undefined): { searchPath?: string } {
  const value = path?.value;
  if (!value || (value.kind === 'scalar' && value.value === '')) return { searchPath: '' };
  if (path.attrs.exported) return {};
  return { searchPath: value.kind === 'scalar' ? fromBytes(value.value) : '' };
}
