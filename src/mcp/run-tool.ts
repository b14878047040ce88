import fs from 'node:fs';
import path from 'node:path';
import { maskText, secretValuesFromEnv } from '../capture/mask.js';
import { isRequestError } from '../errors.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { Report, Settings } from '../types.js';
import {
  callSettings,
  checkBudget,
  checkEnv,
  type RunArgs,
  type ServerOptions,
  secondsToMs,
} from './call-settings.js';
import { forgottenFunctionAdvice } from './function-advice.js';
import { becameJob, jobStarted } from './job-answers.js';
import { JobStdin } from './job-stdin.js';
import { withLimitFields } from './limit-advice.js';
import { type ProgressSink, reportProgress } from './progress.js';
import {
  type CommandHandle,
  type CommandOutcome,
  type PlannedCommand,
  planCommand,
  startCommand,
} from './run-command.js';
import type { Session } from './session.js';
import { structuredRun } from './structured.js';
import { failure, type ToolResult } from './tool-result.js';
import { renderToolText } from './tool-text.js';
import { Transcript } from './transcript.js';

// What the run tool needs of the request beyond its arguments.
interface CallContext {
  signal: AbortSignal;
  progress: ProgressSink;
}

// A call checked and planned, before it waits for its turn.
interface Prepared {
  args: RunArgs;
  settings: Settings;
  budget: number;
  env: Record<string, string>;
  planned: PlannedCommand;
}

// `run`: a call is checked and parsed before it waits for its turn (call-queue.ts), so that a bad one is
// answered at once and nothing is run ("nothing was run: ..."); then it runs from the session's state.
export async function runTool(
  session: Session,
  options: ServerOptions,
  args: RunArgs,
  context: CallContext,
): Promise<ToolResult> {
  let prepared: Prepared;
  try {
    const budget = checkBudget(args.budget, options.budget);
    const env = checkEnv(args.env);
    const settings = callSettings(options, args, budget);
    if (args.stdin !== undefined && !args.background) {
      settings.stdin = { kind: 'file', path: session.writeStdin(args.stdin) };
    }
    const planned = planCommand(args.command, settings, session.stateFiles);
    prepared = { args, settings, budget, env, planned };
  } catch (error) {
    if (!isRequestError(error)) throw error;
    const secrets = secretValuesFromEnv(
      { ...process.env, ...session.state.env, ...args.env },
      masked(options),
    );
    return failure(`nothing was run: ${maskText(error.message, secrets)}`);
  }
  const writes = prepared.planned.writes && !args.background;
  return session.order.schedule(writes, () => execute(session, options, prepared, context));
}

function masked(options: ServerOptions): string[] {
  return options.settings.mask ?? [];
}

async function execute(
  session: Session,
  options: ServerOptions,
  prepared: Prepared,
  context: CallContext,
): Promise<ToolResult> {
  const { args, env } = prepared;
  const cwd = args.cwd === undefined ? session.state.cwd : path.resolve(session.state.cwd, args.cwd);
  // A session whose directory was removed still runs (`cd /tmp` works there, as in bash); a `cwd` the
  // call names must exist.
  if (args.cwd !== undefined && !isDirectory(cwd)) {
    const secrets = secretValuesFromEnv({ ...process.env, ...session.state.env, ...env }, masked(options));
    return failure(
      `cwd ${maskText(cwd, secrets)}: no such directory; nothing was run (give "cwd" to start elsewhere)`,
    );
  }
  const state = { ...session.state, cwd };
  const secrets = secretValuesFromEnv({ ...process.env, ...state.env, ...env }, masked(options));
  const transcript = new Transcript({
    budget: prepared.budget,
    secrets,
    spillPath: () => session.outputPath(),
    maxFileBytes: prepared.settings.maxLog,
  });
  const stdin = args.background ? JobStdin.open(session.dir, session.jobs.nextId) : null;
  if (stdin) prepared.planned.plan.settings.stdin = { kind: 'file', path: stdin.path };
  const startedAt = monotonicMs();
  const handle = startCommand(prepared.planned, {
    state,
    env,
    stateFiles: session.stateFiles,
    support: session.runSupport(),
    io: transcript.io,
    vouched: (pid) => session.jobs.owns(pid),
  });
  const start = { command: args.command, handle, transcript, stdin, startedAt };
  if (args.background) return jobStarted(session.jobs.add(start), cwd);

  const stopOnAbort = cancelOn(AbortSignal.any([context.signal, session.signal]), handle);
  const stopProgress = reportProgress(context.progress, transcript, startedAt);
  try {
    const ended = await untilYield(handle, args.yield);
    if (!ended) return becameJob(session.jobs.add(start), transcript, session.state.cwd);
    return await finishCall(session, options, { prepared, outcome: ended, transcript });
  } finally {
    stopProgress();
    stopOnAbort();
    session.readyForNext();
  }
}

// The outcome, or null when the call is still running at its yield time (then it becomes a job).
async function untilYield(
  handle: CommandHandle,
  yieldSeconds: number | undefined,
): Promise<CommandOutcome | null> {
  const yieldMs = yieldSeconds === undefined ? null : secondsToMs(yieldSeconds, 'yield');
  if (yieldMs === null) return handle.outcome;
  let timer: NodeJS.Timeout | undefined;
  const yielded = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), yieldMs);
  });
  try {
    return await Promise.race([handle.outcome, yielded]);
  } finally {
    clearTimeout(timer);
  }
}

// A cancelled call (the client's notifications/cancelled, or the client gone): SIGTERM to its stages,
// SIGKILL half a second later to what is left. Returns the function that stops listening.
function cancelOn(signal: AbortSignal, handle: Pick<CommandHandle, 'cancel'>): () => void {
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    handle.cancel('SIGTERM', 'client');
    timer = setTimeout(() => handle.cancel('SIGKILL', 'client'), 500);
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  return () => {
    signal.removeEventListener('abort', stop);
    clearTimeout(timer);
  };
}

interface Finished {
  prepared: Prepared;
  outcome: CommandOutcome;
  transcript: Transcript;
}

async function finishCall(session: Session, options: ServerOptions, finished: Finished): Promise<ToolResult> {
  const { prepared, outcome, transcript } = finished;
  const output = await transcript.finish();
  session.state = outcome.state;
  const env = { ...process.env, ...outcome.state.env, ...prepared.env };
  const m = (text: string) => maskText(text, secretValuesFromEnv(env, masked(options)));
  const report = withLimitFields(
    forgottenFunctionAdvice(withoutCutAdvice(outcome.report, outcome.fallback !== null), session.functions),
  );
  for (const name of outcome.functions) session.functions.add(name);
  const fallback = outcome.fallback ? { ...outcome.fallback, reason: m(outcome.fallback.reason) } : null;
  const text = renderToolText({ ...outcome, report, fallback, output });
  return {
    content: [{ type: 'text', text: m(text) }],
    structuredContent: structuredRun({
      report,
      cwd: m(outcome.state.cwd),
      fallback,
      stateKnown: outcome.stateKnown,
      output,
      full: prepared.args.report === 'full',
    }),
    isError: !report.ok,
  };
}

// The only advice an ok bash fallback run gets is that a stream was cut and --log-dir would keep it
// all (next-step.ts); here the output shows where the whole of it is, and `run` has no --log-dir. An
// ok interpreted text's advice (background jobs stopped at its end) is kept.
function withoutCutAdvice(report: Report, byBash: boolean): Report {
  return report.ok && byBash ? { ...report, next: null } : report;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
