import { z } from 'zod';
import { groupDigits } from '../capture/cut-points.js';
import { MAX_DURATION_MS } from '../settings/read-units.js';
import { limitsText, MAX_BUDGET, MIN_BUDGET, type ServerOptions } from './call-settings.js';

const MAX_SECONDS = Math.floor(MAX_DURATION_MS / 1000);

// The run tool's arguments. Durations are checked by the tool itself (call-settings.ts), so that a
// bad one gets a sentence saying what is allowed instead of a schema error.
export const RUN_INPUT_SHAPE = {
  command: z.string().min(1).describe('the command line, as you would type it in bash'),
  cwd: z.string().optional().describe('directory to start in (relative to the session directory)'),
  timeout: z
    .number()
    .optional()
    .describe(
      `time limit in seconds for this call (at most ${MAX_SECONDS}; 0: none); it also lifts the idle limit`,
    ),
  idleTimeout: z.number().optional().describe('stop after this many seconds without output (0: never)'),
  env: z.record(z.string(), z.string()).optional().describe('variables for this call only'),
  stdin: z.string().optional().describe('text given on stdin (otherwise stdin is closed)'),
  budget: z
    .number()
    .int()
    .optional()
    .describe(`bytes of output the result shows, head and tail (${MIN_BUDGET} to ${MAX_BUDGET})`),
  background: z
    .boolean()
    .optional()
    .describe('start it as a job and answer at once with its id (servers, watchers, long builds)'),
  yield: z
    .number()
    .optional()
    .describe('seconds after which a call still running goes on as a job instead of being waited for'),
  report: z
    .enum(['compact', 'full'])
    .optional()
    .describe('"full": the whole JSON report in structuredContent'),
};

// What the model reads about `run`: every limit it can meet, what ends a call, and how to change each.
export function runDescription(options: ServerOptions): string {
  const limits = limitsText(options);
  return [
    'Run one shell command line (pipes, &&, ;, cd, export, redirections; loops and other bash run under bash) under',
    'safe-run, which supervises every stage and reports each one, so a failure inside a pipeline is not hidden.',
    'The directory and exported variables persist to the next call, like a terminal; "cwd" is where to start instead.',
    `Limits: time ${limits.time} per call ("timeout" seconds; giving it also lifts the idle limit); idle ${limits.idle}`,
    `without any output ("idleTimeout"); stdin is closed unless you pass "stdin", and a command quiet for`,
    `${limits.prompt} after printing a question ("[y/N]", "Password:") is stopped as "waiting for an answer": pass`,
    'the answer in "stdin", use a non-interactive flag (-y, --yes), or run it with "background": true and answer',
    'with job_input. A stop by any of these limits ends the whole call not ok (exit 124), the later steps skipped.',
    `Output: everything printed (each step's stdout and stderr, in order) up to ${groupDigits(options.budget)} bytes, head`,
    'and tail ("budget" changes it); the rest is in a file the cut marker names, to read with sed or grep.',
    'Result: the output, a table with one row per stage (STATUS, EXIT), "ok, exit N" or "not ok, exit N (why)",',
    '"next:" with what to look at, and "cwd:". Jobs: "background": true starts a server or watcher and answers',
    'at once with a job id; "yield": N turns a call still running after N seconds into a job. Read jobs with',
    'job_output, answer with job_input, stop with job_kill, list with jobs; every job ends with the session.',
    'PAGER=cat, NO_COLOR=1, GIT_TERMINAL_PROMPT=0, GIT_EDITOR=false are set (git commit needs -m).',
  ].join(' ');
}
