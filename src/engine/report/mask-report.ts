import { maskShortened } from '../../capture/mask-cut.js';
import { maskProcess } from '../../hang/mask-hang.js';
import type {
  Report,
  ReportFact,
  Settings,
  StageResult,
  StageStop,
  StopCause,
  StreamReport,
} from '../../types.js';

type Mask = (text: string) => string;
type MaskNullable = (text: string | null) => string | null;

// Masks secrets in the report's free text (a value shortened with an ellipsis included): argv, names, paths, messages, reasons, commands,
// warnings, settings that are paths. Keys, numbers, statuses and other enumerated values (codes,
// causes, signals, process states) are never touched, so a masked value (even a one-letter --mask
// value) cannot change what the report says happened, nor its exit code. The streams' kept text is
// masked when it is captured.
export function maskReport(report: Report, secrets: readonly string[]): Report {
  if (!secrets.some((secret) => secret.length > 0)) return report;
  const m: Mask = (text) => maskShortened(text, secrets);
  const n: MaskNullable = (text) => (text === null ? null : m(text));
  return {
    ...report,
    verdict: { ...report.verdict, reason: m(report.verdict.reason) },
    next: n(report.next),
    warnings: report.warnings.map(m),
    leftovers: report.leftovers.map((item) => ({
      ...item,
      command: m(item.command),
      how: m(item.how),
      stage: n(item.stage),
    })),
    facts: report.facts.map((fact) => ({ ...maskFact(fact, m, n), summary: m(fact.summary) })),
    ...(report.steps
      ? {
          steps: report.steps.map((step) => ({
            ...step,
            text: m(step.text),
            cwd: m(step.cwd),
            ...(step.expansions
              ? { expansions: step.expansions.map((e) => ({ word: m(e.word), fields: e.fields.map(m) })) }
              : {}),
          })),
        }
      : {}),
    stages: report.stages.map((stage) => maskStage(stage, m, n)),
    settings: maskSettings(report.settings, m, n),
    output: report.output
      ? {
          ...report.output,
          file: m(report.output.file),
          staged: m(report.output.staged),
          kept: n(report.output.kept),
          reason: m(report.output.reason),
        }
      : null,
    checks: report.checks.map((check) => ({ ...check, check: m(check.check), detail: m(check.detail) })),
  };
}

// The free text of a fact, as the report shows it and as the ledger stores it.
export function maskFact<T extends Omit<ReportFact, 'stage' | 'summary'>>(
  fact: T,
  m: Mask,
  n: MaskNullable,
): T {
  return {
    ...fact,
    program: m(fact.program),
    cwd: m(fact.cwd),
    found: n(fact.found),
    message: m(fact.message),
    interpreter: n(fact.interpreter),
    pathVar: n(fact.pathVar),
    resolvedPath: n(fact.resolvedPath),
  };
}

function maskStage(stage: StageResult, m: Mask, n: MaskNullable): StageResult {
  return {
    ...stage,
    name: m(stage.name),
    argv: stage.argv.map(m),
    resolvedPath: n(stage.resolvedPath),
    stdout: maskStream(stage.stdout, n),
    stderr: maskStream(stage.stderr, n),
    error: stage.error ? { ...stage.error, message: m(stage.error.message) } : null,
    hint: n(stage.hint),
    meaning: n(stage.meaning),
    stop: stage.stop ? maskStop(stage.stop, m) : null,
  };
}

// The text was masked when it was kept; the log file's name can hold a stage name or a directory,
// and a redirection's target a path.
function maskStream(stream: StreamReport, n: MaskNullable): StreamReport {
  const { to, target } = stream;
  return {
    ...stream,
    logFile: n(stream.logFile),
    ...(to ? { to: n(to)! } : {}),
    ...(target?.kind === 'file' ? { target: { ...target, path: n(target.path)! } } : {}),
  };
}

// A cause's words (a prompt's line, a stage name, a path) are free text; its kind is not.
function maskCause(cause: StopCause, m: Mask): StopCause {
  if (cause.kind === 'prompt') return { ...cause, line: m(cause.line) };
  if (cause.kind === 'fail-fast') return { ...cause, stage: m(cause.stage) };
  if (cause.kind === 'start-refused') return { ...cause, name: m(cause.name) };
  return cause;
}

function maskStop(stop: StageStop, m: Mask): StageStop {
  return {
    ...stop,
    reason: m(stop.reason),
    cause: maskCause(stop.cause, m),
    ...(stop.fifo?.kind === 'stdin' ? { fifo: { ...stop.fifo, path: m(stop.fifo.path) } } : {}),
    snapshot: stop.snapshot.map((proc) => maskProcess(proc, m)),
    deadlock: stop.deadlock ? { ...stop.deadlock, explanation: m(stop.deadlock.explanation) } : null,
  };
}

// Settings that are paths (a log directory, a stdin file, the ledger) are free text; the --mask
// names and every enumerated or numeric setting stay as they are.
export function maskSettings(settings: Settings, m: Mask, n: MaskNullable): Settings {
  const { stdin } = settings;
  return {
    ...settings,
    stdin: stdin.kind === 'file' ? { ...stdin, path: m(stdin.path) } : stdin,
    logDir: n(settings.logDir),
    facts: n(settings.facts),
  };
}
