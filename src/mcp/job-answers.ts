import { formatDuration } from '../format-units.js';
import type { Job } from './jobs.js';
import type { ToolResult } from './tool-result.js';
import { renderOutput, type ShownOutput } from './tool-text.js';
import type { Transcript } from './transcript.js';

// What `run` answers when a call goes on as a job: started with "background": true, or still running
// at its "yield" time.

export function jobStarted(job: Job, cwd: string): ToolResult {
  const text = [
    `job ${job.id} started in ${cwd}: ${job.start.command}`,
    `read its output with job_output {"job": ${job.id}} (add "wait": seconds to wait for it to end),`,
    `answer it with job_input {"job": ${job.id}, "text": "..."}, stop it with job_kill {"job": ${job.id}}.`,
    'It runs until it ends, is killed, or the session ends.',
  ].join('\n');
  return { content: [{ type: 'text', text: `${text}\n` }], structuredContent: jobShape(job, cwd, null) };
}

// A call that became a job: where the session is, what it printed so far, and the job.
function jobShape(job: Job, cwd: string, shown: ShownOutput | null): Record<string, unknown> {
  const text = shown?.text;
  const output = {
    bytes: text?.bytes ?? 0,
    cut: text?.binary ? text.bytes : (text?.cut?.bytes ?? 0),
    file: text?.cut || text?.binary ? (shown?.file?.path ?? null) : null,
  };
  return { cwd, output, job: { id: job.id, running: job.running } };
}

export function becameJob(job: Job, transcript: Transcript, cwd: string): ToolResult {
  const shown = { text: transcript.takeUnread(), file: transcript.spilled() };
  const output = renderOutput(shown, 'output so far');
  const text = [
    `still running after ${formatDuration(job.elapsedMs())}: it goes on as job ${job.id}.`,
    `read the rest with job_output {"job": ${job.id}, "wait": 30}, stop it with job_kill {"job": ${job.id}}.`,
  ].join('\n');
  return {
    content: [{ type: 'text', text: `${output}${text}\n` }],
    structuredContent: jobShape(job, cwd, shown),
  };
}
