import { promptIn } from '../agent/prompt-line.js';
import { formatDuration } from '../format-units.js';
import { compactReport } from '../reporters/compact.js';
import { secondsToMs } from './call-settings.js';
import type { Job } from './jobs.js';
import type { Session } from './session.js';
import { failure, type ToolResult } from './tool-result.js';
import { renderOutput, renderVerdict } from './tool-text.js';

// A job quiet this long after printing a question is said to wait for an answer (the prompt wait of a
// foreground call; a job is not stopped for it).
const PROMPT_QUIET_MS = 2000;
// After job_input, how long the job's output is given to settle before it is shown.
const SETTLE_MS = 150;

function find(session: Session, id: number): Job | ToolResult {
  const job = session.jobs.get(id);
  if (job) return job;
  const known = session.jobs.list().map((each) => each.id);
  return failure(
    `no job ${id}; ${known.length > 0 ? `the jobs are ${known.join(', ')}` : 'no job was started'}`,
  );
}

// What a job is doing, in one line: running (and what it may wait for), or how it ended.
function jobStatus(job: Job): string {
  const took = formatDuration(job.elapsedMs());
  if (job.failure) return `job ${job.id} failed inside safe-run after ${took}: ${job.failure}`;
  if (!job.running) {
    const report = job.outcome!.report;
    return `job ${job.id} ended after ${took}, ${report.ok ? 'ok' : 'not ok'}, exit ${report.exitCode}: ${job.start.command}`;
  }
  const pids = job.pids();
  const running = `job ${job.id} is running (${took}${pids.length > 0 ? `, pid ${pids.join(' ')}` : ''}): ${job.start.command}`;
  const question = waitingFor(job);
  if (question === null) return running;
  return `${running}\njob ${job.id} is waiting for an answer: ${question} (quiet for ${formatDuration(job.start.transcript.quietMs())}); answer with job_input {"job": ${job.id}, "text": "...\\n"}`;
}

function waitingFor(job: Job): string | null {
  const { transcript } = job.start;
  if (transcript.quietMs() < PROMPT_QUIET_MS) return null;
  return promptIn(transcript.lastLines(3));
}

// The output since the last read and the job's status; when it ended, its per-stage table and verdict.
function jobResult(job: Job): ToolResult {
  const { transcript } = job.start;
  const output = renderOutput(
    { text: transcript.takeUnread(), file: transcript.spilled() },
    'output since the last read',
  );
  const ended = !job.running && job.outcome !== null;
  const verdict = ended ? renderVerdict(job.outcome!.report) : '';
  const text = `${output}${jobStatus(job)}\n${verdict}`;
  const structured: Record<string, unknown> = {
    job: { id: job.id, running: job.running, waitingFor: job.running ? waitingFor(job) : null },
    ...(ended ? compactReport(job.outcome!.report) : {}),
  };
  return {
    content: [{ type: 'text', text }],
    structuredContent: structured,
    isError: job.failure !== null || (ended && !job.outcome!.report.ok),
  };
}

// Waits until the job ends or `ms` pass.
async function until(job: Job, ms: number | null): Promise<void> {
  if (ms === null || !job.running) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([job.ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export async function jobOutput(
  session: Session,
  args: { job: number; wait?: number | undefined },
): Promise<ToolResult> {
  const job = find(session, args.job);
  if (!('id' in job)) return job;
  try {
    await until(job, args.wait === undefined ? null : secondsToMs(args.wait, 'wait'));
  } catch (error) {
    return failure((error as Error).message);
  }
  // An ended job's output is complete once its transcript is closed.
  if (!job.running) await job.ended;
  return jobResult(job);
}

// Writes to the job's stdin, then shows what it printed in answer (until it is quiet a moment, ends,
// or `wait` seconds pass).
export async function jobInput(
  session: Session,
  args: { job: number; text: string; eof?: boolean | undefined; wait?: number | undefined },
): Promise<ToolResult> {
  const job = find(session, args.job);
  if (!('id' in job)) return job;
  if (!job.running) return failure(`${jobStatus(job)}\nnothing was written: the job has ended`);
  const { stdin, transcript } = job.start;
  if (!stdin) {
    return failure(
      `job ${job.id} was not started with "background": true, so its stdin is not open for input (a call that became a job keeps the stdin it had)`,
    );
  }
  const written = stdin.write(args.text, args.eof === true);
  if (!written.ok) return failure(`job ${job.id}: ${written.bytes} bytes written; ${written.why}`);
  const before = transcript.bytes;
  const deadline = Date.now() + (args.wait === undefined ? 2000 : (secondsToMs(args.wait, 'wait') ?? 0));
  while (job.running && Date.now() < deadline) {
    if (transcript.bytes > before && transcript.quietMs() >= SETTLE_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const result = jobResult(job);
  const said = `wrote ${written.bytes} bytes to job ${job.id}'s stdin${written.closed ? ' and closed it' : ''}\n`;
  return { ...result, content: [{ type: 'text', text: said + result.content[0]!.text }] };
}

// Stops the job's whole tree and answers once the run's teardown is over: "killed" is said only then.
export async function jobKill(session: Session, args: { job: number }): Promise<ToolResult> {
  const job = find(session, args.job);
  if (!('id' in job)) return job;
  if (!job.running) return jobResult(job);
  await job.kill();
  const result = jobResult(job);
  const kept = job.outcome?.report.leftovers.filter((left) => left.action === 'kept') ?? [];
  const said =
    kept.length === 0
      ? `job ${job.id} killed: its stages and every process they started are gone\n`
      : `job ${job.id} stopped, but ${kept.length} process(es) were kept alive: ${kept.map((left) => left.pid).join(' ')}\n`;
  return {
    ...result,
    content: [{ type: 'text', text: said + result.content[0]!.text }],
    isError: kept.length > 0,
  };
}

export function listJobs(session: Session): ToolResult {
  const jobs = session.jobs.list();
  const text = jobs.length === 0 ? 'no jobs\n' : `${jobs.map((job) => jobStatus(job)).join('\n')}\n`;
  const structured = jobs.map((job) => ({
    id: job.id,
    command: job.start.command,
    running: job.running,
    exitCode: job.outcome?.report.exitCode ?? null,
    ms: Math.round(job.elapsedMs()),
  }));
  return { content: [{ type: 'text', text }], structuredContent: { jobs: structured } };
}
