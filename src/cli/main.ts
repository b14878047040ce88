import { Chalk } from 'chalk';
import { type RunHandle, startRun } from '../engine/run-pipeline.js';
import { isRequestError, RequestError } from '../errors.js';
import { EXIT_REQUEST } from '../policy/verdict.js';
import { renderNotices, renderTable } from '../report/table.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { startShellRun } from '../shell/run-shell.js';
import { initialState } from '../shell/shell-state.js';
import type { Plan, Report } from '../types.js';
import { buildPlan, checkOneInput, type SpecInput } from './build-plan.js';
import { parseCli } from './options.js';

declare const SAFE_RUN_VERSION: string;

export interface CliIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function colorLevel(io: CliIO): 0 | 1 {
  if (io.env.NO_COLOR) return 0;
  if (io.env.FORCE_COLOR && io.env.FORCE_COLOR !== '0') return 1;
  return io.stderr.isTTY ? 1 : 0;
}

async function loadSpecInput(file: string): Promise<SpecInput> {
  const { loadSpec } = await import('../spec/load-spec.js');
  return loadSpec(file);
}

async function runSubcommand(args: string[], io: CliIO): Promise<number | null> {
  if (args[0] === 'schema') {
    const { specJsonSchema } = await import('../spec/schema.js');
    io.stdout.write(`${JSON.stringify(specJsonSchema(), null, 2)}\n`);
    return 0;
  }
  if (args[0] === 'facts') {
    const { factsCommand } = await import('./facts-command.js');
    return factsCommand(args.slice(1), io);
  }
  return null;
}

async function execute(
  plan: Plan,
  json: boolean,
  quiet: boolean,
  reportFile: string | undefined,
  io: CliIO,
): Promise<CliResult> {
  // Handlers go in before any stage starts: a signal that arrives while there is no handler kills
  // safe-run outright and leaves the stages to the watchdog, without a report.
  let received = 0;
  let handle: RunHandle | null = null;
  let early: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    received += 1;
    // A second interrupt means "now": skip the grace period.
    const sent = received > 1 ? 'SIGKILL' : signal;
    if (handle) handle.cancel(sent);
    else early = sent;
  };
  for (const signal of FORWARDED) process.on(signal, onSignal);
  const runIO = json ? {} : { stdout: io.stdout, stderr: io.stderr };
  handle = plan.shell
    ? startShellRun(plan.shell, initialState(plan.cwd ?? process.cwd(), io.env), plan.settings, runIO)
    : startRun(plan, runIO);
  if (early) handle.cancel(early);
  let report: Report;
  try {
    report = await handle.report;
    const document = `${JSON.stringify(report, null, 2)}\n`;
    const problems: string[] = [];
    if (reportFile) {
      try {
        writeFileAtomic(reportFile, document);
      } catch (error) {
        // The run happened: its outcome stands, and the report that could not be saved is said.
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        problems.push(
          `safe-run: warning: --report ${reportFile} could not be written (${code}); nothing was left there\n`,
        );
      }
    }
    if (json) io.stdout.write(document);
    const chalk = new Chalk({ level: colorLevel(io) });
    if (!json && !(quiet && report.ok))
      io.stderr.write(`${separator(report, io)}${renderTable(report, chalk)}`);
    // Quiet and ok: no table, but what needs attention (held pipes, leftovers, PATH warnings) is still said.
    else if (!json) io.stderr.write(renderNotices(report, chalk));
    for (const problem of problems) io.stderr.write(problem);
  } finally {
    for (const signal of FORWARDED) process.off(signal, onSignal);
  }
  return { code: report.exitCode, hurry: report.verdict.exitCode === 124 || received > 0 };
}

// On a terminal, stdout and stderr share the screen: start the table on a line of its own when the
// last stage's output did not end one.
function separator(report: Report, io: CliIO): string {
  const out = report.stages[report.stages.length - 1]?.stdout;
  const text = out?.text ?? '';
  return io.stdout.isTTY && io.stderr.isTTY && text.length > 0 && !text.endsWith('\n') ? '\n' : '';
}

// The whole CLI: parse, plan, run, report. Returns the exit code; only bin/ calls process.exit.
export interface CliResult {
  code: number;
  // A time limit fired or safe-run was signalled: do not wait long for a stalled reader of its output.
  hurry: boolean;
}

export async function main(args: string[], io: CliIO): Promise<CliResult> {
  const result = await dispatch(args, io);
  return typeof result === 'number' ? { code: result, hurry: false } : result;
}

async function dispatch(args: string[], io: CliIO): Promise<number | CliResult> {
  try {
    if (process.platform === 'win32') {
      throw new RequestError(
        'platform.unsupported',
        'Windows is not supported: safe-run needs POSIX process groups, signals and pipes; run it under WSL',
      );
    }
    const sub = await runSubcommand(args, io);
    if (sub !== null) return sub;
    const { options, answered } = parseCli(
      args,
      typeof SAFE_RUN_VERSION === 'string' ? SAFE_RUN_VERSION : '0.0.0',
    );
    if (answered !== null) {
      io.stdout.write(answered);
      return 0;
    }
    checkOneInput(options);
    const spec = options.file !== undefined ? await loadSpecInput(options.file) : null;
    const plan = buildPlan(options, spec, io.env);
    if (options.dryRun) {
      const { dryRun } = await import('./dry-run.js');
      return await dryRun(plan, Boolean(options.json), io);
    }
    return await execute(plan, Boolean(options.json), Boolean(options.quiet), options.report, io);
  } catch (error) {
    if (isRequestError(error)) {
      // A caller that asked for JSON parses stdout: it gets a JSON document even for a refusal.
      if (wantsJson(args)) io.stdout.write(`${JSON.stringify(errorDocument(error), null, 2)}\n`);
      io.stderr.write(
        `${error.message
          .split('\n')
          .map((line) => `safe-run: ${line}`)
          .join('\n')}\n`,
      );
      return EXIT_REQUEST;
    }
    const text = error instanceof Error ? error.message : String(error);
    io.stderr.write(`safe-run: internal error: ${text}\n`);
    return EXIT_REQUEST;
  }
}

// --json among safe-run's own flags (before `--`, which starts the command).
function wantsJson(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

// The document printed on stdout under --json when the request is refused (docs/json-report.md).
export function errorDocument(error: RequestError): object {
  return {
    schemaVersion: 1,
    ok: false,
    exitCode: EXIT_REQUEST,
    error: { code: error.code, column: error.column, message: error.message },
  };
}
