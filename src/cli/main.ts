import type { RunHandle } from '../engine/run-pipeline.js';
import { RunSupport } from '../engine/run-support.js';
import { RequestError } from '../errors.js';
import { monotonicMs } from '../monotonic-ms.js';
import { stopReason } from '../outcome-text/render.js';
import type { DeliveryPlan } from '../output/deliver.js';
import { writeReports } from '../reporters/write-reports.js';
import { startSupportedRun } from '../run.js';
import { closeSession, openSession, type SessionRun } from '../session/session-file.js';
import type { ShellState } from '../session/state-files.js';
import type { ScriptHandle } from '../shell/interp/run-script.js';
import type { Plan, Report } from '../types.js';
import { answerFailure, type CliResult, refuseUnsupportedPlatform } from './answer-failure.js';
import { buildDelivery } from './build-delivery.js';
import { buildPlan, checkOneInput } from './build-plan.js';
import { refuseBlockingPaths } from './check-paths.js';
import { chooseReporters, type ReporterChoice } from './choose-reporters.js';
import { CiSession } from './ci-session.js';
import { type CiSettings, resolveCiSettings } from './ci-settings.js';
import type { CliIO } from './cli-io.js';
import { startDelivery } from './deliver-run.js';
import { applyEnvOptions } from './env-options.js';
import { parseCli } from './options.js';
import { refuseNonUtf8 } from './raw-bytes.js';
import { loadSpecBounded } from './read-spec.js';
import { listenForSignals } from './run-signals.js';
import { watchStdoutReader } from './stdout-state.js';
import { BACKGROUND_WARNING, isBackgroundOnTerminal } from './terminal-job.js';
import { needsWidePool, widenThreadPool } from './thread-pool.js';

declare const SAFE_RUN_VERSION: string;

// A FIFO or a pipe with no writer cannot keep safe-run waiting for ever (docs/cli.md, -f).
const FIFO_WAIT_MS = 60_000;

async function runSubcommand(args: string[], io: CliIO): Promise<number | null> {
  if (args[0] === 'schema') {
    if (args.length > 1) {
      throw new RequestError(
        'commander.excessArguments',
        `schema takes no arguments; got ${JSON.stringify(args[1])} (usage: safe-run schema)`,
      );
    }
    const { specJsonSchema } = await import('../spec-file/schema.js');
    io.stdout.write(`${JSON.stringify(specJsonSchema(), null, 2)}\n`);
    return 0;
  }
  if (args[0] === 'mcp') {
    const { mcpCommand } = await import('./mcp-command.js');
    return mcpCommand(args.slice(1), io);
  }
  if (args[0] === 'inspect') {
    const { inspectCommand } = await import('../hang/inspect-command.js');
    return inspectCommand(args.slice(1), io);
  }
  if (args[0] === 'facts') {
    const { factsCommand } = await import('./facts-command.js');
    return factsCommand(args.slice(1), io);
  }
  return null;
}

async function execute(
  plan: Plan,
  choice: ReporterChoice,
  ci: CiSettings,
  delivery: DeliveryPlan | null,
  io: CliIO,
  sessionRun: SessionRun | null = null,
): Promise<CliResult> {
  const { json } = choice;
  // One watchdog for the run (every step of a -c text) and for the CLI's own guard, which removes a
  // staged output or a report's temporary file if safe-run is killed.
  const support = new RunSupport();
  const guard = delivery || choice.reportFile ? support.lease(null) : null;
  const t0 = monotonicMs();
  const staging = openStaging(delivery, guard, plan, support);
  const signals = listenForSignals(io);
  if (plan.settings.stdin.kind === 'inherit' && isBackgroundOnTerminal()) io.stderr.write(BACKGROUND_WARNING);
  const session = new CiSession(ci, io, json);
  const shown = session.prepare(plan);
  const stdout = staging?.stdout ?? io.stdout;
  const runIO = json ? { ...(staging?.stdout ? { stdout } : {}), masks: shown.masks } : { stdout, ...shown };
  // --atomic-redirects: the text's final `> FILE` writes the staged file instead.
  const staged = staging?.shell ? { ...plan, shell: staging.shell } : plan;
  const handle = startSupportedRun(staged, runIO, io.env, support);
  session.watch(handle);
  signals.attach(handle);
  const stopWatchingReader = json && !staging ? watchStdoutReader(() => onReaderGone(handle, io)) : () => {};
  let report: Report | null = null;
  try {
    report = await handle.report;
    if (sessionRun) report = await closeSession(sessionRun, report, await finalState(handle));
    await session.stop();
    if (staging) report = await staging.settle(report, { plan, t0, stop: signals.stopped, env: io.env });
    report = session.masked(report);
    const files = {
      guard,
      waitMs: plan.settings.timeoutMs ?? FIFO_WAIT_MS,
      stop: signals.stopped.then((signal) => stopReason({ kind: 'signal', signal })),
    };
    await writeReports(report, chooseReporters(choice, session, io), io, files, (text) => session.mask(text));
  } finally {
    stopWatchingReader();
    await session.stop();
    signals.release();
    guard?.disarm();
    support.close();
    // What happened to the watchdog during the run is in the report's warnings already.
    const told = new Set(report?.warnings);
    for (const problem of guard?.problems ?? []) {
      if (!told.has(problem)) io.stderr.write(`safe-run: warning: ${problem}\n`);
    }
  }
  return { code: report.exitCode, hurry: report.verdict.exitCode === 124 || signals.received() > 0 };
}

// --output's staged file, made before anything starts; the run's support is closed if it cannot be.
function openStaging(
  delivery: DeliveryPlan | null,
  guard: ReturnType<RunSupport['lease']> | null,
  plan: Plan,
  support: RunSupport,
): ReturnType<typeof startDelivery> | null {
  try {
    return delivery ? startDelivery(delivery, guard, plan.shell) : null;
  } catch (error) {
    support.close();
    throw error;
  }
}

// The state a -c text ended in (src/shell/run-shell.ts), or null for a run of one bash stage.
async function finalState(handle: RunHandle): Promise<ShellState | null> {
  if (!('result' in handle)) return null;
  return (await (handle as ScriptHandle).result).state;
}

// What bash's pipeline does when the reader exits: the writer gets SIGPIPE. Under --json the report is
// the only output and it comes at the end, so no write would ever tell the stages.
function onReaderGone(handle: RunHandle | null, io: CliIO): void {
  io.stderr.write(
    'safe-run: the reader of stdout is gone: the report cannot be read; stopping the stages with SIGPIPE\n',
  );
  handle?.cancel('SIGPIPE');
}

// `safe-run -- echo hi >&-` printed into the /dev/null Node puts in place of a closed descriptor and
// exited 0 (bash: exit 1, "Bad file descriptor"). Node's stdio 'ignore' looks the same from inside
// (src/cli/stdout-state.ts), so only what cannot be meant is refused: a JSON report that would be
// lost. Otherwise the loss is said on stderr before anything starts.
function checkClosedStdout(io: CliIO, json: boolean, reportFile: boolean, delivered: boolean): void {
  if (!io.stdoutClosed) return;
  if (json && !reportFile) {
    throw new RequestError(
      'stdout.closed',
      'stdout is closed (>&-): the JSON report would be lost; give it somewhere to go (>file, or --report FILE)',
    );
  }
  if (!json && !delivered) {
    io.stderr.write(
      "safe-run: warning: stdout is closed (>&-, or Node's stdio 'ignore'): the last stage's output is discarded\n",
    );
  }
}

// The whole CLI: parse, plan, run, report. Returns the exit code; only bin/ calls process.exit.
export async function main(args: string[], io: CliIO): Promise<CliResult> {
  const result = await dispatch(args, io);
  return typeof result === 'number' ? { code: result, hurry: false } : result;
}

async function dispatch(args: string[], io: CliIO): Promise<number | CliResult> {
  try {
    refuseUnsupportedPlatform();
    const sub = await runSubcommand(args, io);
    if (sub !== null) return sub;
    refuseNonUtf8(io.raw ?? null);
    const { options: parsed, answered } = parseCli(
      args,
      typeof SAFE_RUN_VERSION === 'string' ? SAFE_RUN_VERSION : '0.0.0',
    );
    if (answered !== null) {
      io.stdout.write(answered);
      return 0;
    }
    // libuv's pool is sized here, by what the run can need (src/cli/thread-pool.ts): nothing before
    // these lines uses it, nor does building the plan (a spec file is read on it: widened first).
    const { options, defaults } = applyEnvOptions(parsed, io.env);
    checkOneInput(options);
    if (options.file !== undefined) widenThreadPool();
    const spec = options.file !== undefined ? await loadSpecBounded(options, FIFO_WAIT_MS) : null;
    const plan = buildPlan(options, spec, io.env, defaults);
    if (needsWidePool(plan)) widenThreadPool();
    refuseBlockingPaths(plan);
    const delivery = buildDelivery(options, spec?.delivery, plan, io.env);
    const ci = resolveCiSettings(options, io.env);
    const json = Boolean(options.json) || options.jsonFormat !== undefined;
    checkClosedStdout(io, json, options.report !== undefined, delivery !== null);
    if (options.dryRun) {
      const { dryRun } = await import('./dry-run.js');
      return await dryRun(plan, Boolean(options.json), io, delivery);
    }
    const sessionRun = options.session === undefined ? null : openSession(options.session, plan, io.env);
    const choice = {
      json: Boolean(options.json) || options.jsonFormat !== undefined,
      jsonFormat: options.jsonFormat ?? 'full',
      quiet: Boolean(options.quiet),
      reportFile: options.report,
      junit: ci.junit,
    } as const;
    return await execute(plan, choice, ci, delivery, io, sessionRun);
  } catch (error) {
    return answerFailure(error, args, io);
  }
}
