import type { Report, StageResult, StreamReport } from '../types.js';
import type { Reporter } from './reporter.js';

// `--json compact`: the report an agent reads on every call, on one line. The full report (settings,
// paths, per-stream flags) stays `--json`; this keeps what decides the next step.
interface CompactStream {
  bytes: number;
  text: string | null;
  // Bytes cut out of the middle of `text`; present only when something was cut.
  omitted?: number;
  binary?: true;
}

interface CompactStage {
  name: string;
  status: StageResult['status'];
  exitCode: number | null;
  signal?: string;
  ms: number | null;
  // Absent when the stream went into the next stage's pipe or the stage printed nothing on it.
  stdout?: CompactStream;
  stderr?: CompactStream;
  stop?: string;
  error?: string;
  hint?: string;
}

interface CompactReport {
  ok: boolean;
  exitCode: number;
  reason: string;
  next: string | null;
  ms: number;
  stages: CompactStage[];
  leftovers?: { pid: number; command: string; action: string }[];
  warnings?: string[];
}

function compactStream(stream: StreamReport): CompactStream | undefined {
  if (stream.bytes === null || stream.bytes === 0) return undefined;
  const out: CompactStream = { bytes: stream.bytes, text: stream.text };
  if (stream.omittedBytes > 0) out.omitted = stream.omittedBytes;
  if (stream.binary) out.binary = true;
  return out;
}

function compactStage(stage: StageResult): CompactStage {
  const out: CompactStage = {
    name: stage.name,
    status: stage.status,
    exitCode: stage.exitCode,
    ms: stage.durationMs,
  };
  if (stage.signal !== null) out.signal = stage.signal;
  const stdout = compactStream(stage.stdout);
  const stderr = compactStream(stage.stderr);
  if (stdout) out.stdout = stdout;
  if (stderr) out.stderr = stderr;
  if (stage.stop) out.stop = stage.stop.reason;
  if (stage.error) out.error = stage.error.message;
  if (stage.hint) out.hint = stage.hint;
  return out;
}

export function compactReport(report: Report): CompactReport {
  const out: CompactReport = {
    ok: report.ok,
    exitCode: report.exitCode,
    reason: report.verdict.reason,
    next: report.next,
    ms: report.durationMs,
    stages: report.stages.map(compactStage),
  };
  if (report.leftovers.length > 0) {
    out.leftovers = report.leftovers.map(({ pid, command, action }) => ({ pid, command, action }));
  }
  if (report.warnings.length > 0) out.warnings = report.warnings;
  return out;
}

// `--json compact`: the compact document on one line of stdout.
export function compactReporter(): Reporter {
  return {
    name: 'json-compact',
    destination: { kind: 'stdout' },
    render: (report) => `${JSON.stringify(compactReport(report))}\n`,
  };
}
