import { z } from 'zod';
import { compactReport } from '../reporters/compact.js';
import type { Report } from '../types.js';
import type { ShownOutput } from './tool-text.js';

// `run`'s structuredContent: the compact report (`--json compact`) without the stage texts, which the
// text content already shows in the order printed, plus the session's directory and where the whole
// output is. The full report only when the call asks for it (`report: "full"`): it was 5.6x the text.

const stream = z.looseObject({
  bytes: z.number(),
  omitted: z.number().optional(),
  binary: z.literal(true).optional(),
});

export const RUN_OUTPUT_SHAPE = {
  // Absent when the call became a job: job_output gives them when it ends.
  ok: z.boolean().optional().describe('the verdict: false when any stage failed or safe-run stopped one'),
  exitCode: z.number().optional().describe("safe-run's exit code: the pipeline's, 124 for a stop by a limit"),
  reason: z.string().optional().describe('the verdict in one sentence'),
  next: z.string().nullable().optional().describe('what to do next, or null'),
  ms: z.number().optional(),
  stages: z
    .array(
      z.looseObject({
        name: z.string(),
        status: z.string(),
        exitCode: z.number().nullable(),
        ms: z.number().nullable(),
        signal: z.string().optional(),
        stdout: stream.optional(),
        stderr: stream.optional(),
        stop: z.string().optional(),
        error: z.string().optional(),
        hint: z.string().optional(),
      }),
    )
    .optional(),
  leftovers: z.array(z.looseObject({ pid: z.number(), command: z.string(), action: z.string() })).optional(),
  warnings: z.array(z.string()).optional(),
  cwd: z.string().describe('where the session is now'),
  fallback: z.looseObject({ interpreter: z.string(), reason: z.string() }).nullable().optional(),
  stateKnown: z.boolean().optional(),
  output: z.looseObject({
    bytes: z.number().describe('bytes the call printed, all streams'),
    cut: z.number().describe('bytes the text leaves out (0: nothing)'),
    file: z.string().nullable().describe('where the whole output is, when something was cut'),
  }),
  job: z
    .looseObject({ id: z.number(), running: z.boolean() })
    .optional()
    .describe('set when the call became a job (background, or still running at its yield time)'),
  report: z.record(z.string(), z.unknown()).optional().describe('the full JSON report, with report: "full"'),
};

interface StructuredCall {
  report: Report;
  cwd: string;
  fallback: { interpreter: string; reason: string } | null;
  stateKnown: boolean;
  output: ShownOutput;
  full: boolean;
}

export function structuredRun(call: StructuredCall): Record<string, unknown> {
  const compact = compactReport(call.report);
  const stages = compact.stages.map(({ stdout, stderr, ...stage }) => ({
    ...stage,
    ...(stdout ? { stdout: withoutText(stdout) } : {}),
    ...(stderr ? { stderr: withoutText(stderr) } : {}),
  }));
  const { text, file } = call.output;
  return {
    ...compact,
    stages,
    cwd: call.cwd,
    fallback: call.fallback,
    stateKnown: call.stateKnown,
    output: {
      bytes: text.bytes,
      // Data is not shown at all.
      cut: text.binary ? text.bytes : (text.cut?.bytes ?? 0),
      file: text.cut || text.binary ? (file?.path ?? null) : null,
    },
    ...(call.full ? { report: call.report } : {}),
  };
}

function withoutText<T extends { text: string | null }>(value: T): Omit<T, 'text'> {
  const { text: _text, ...rest } = value;
  return rest;
}
