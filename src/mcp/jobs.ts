import fs from 'node:fs';
import { monotonicMs } from '../monotonic-ms.js';
import type { JobStdin } from './job-stdin.js';
import type { CommandHandle, CommandOutcome } from './run-command.js';
import type { ShownOutput } from './tool-text.js';
import type { Transcript } from './transcript.js';

// How long a job is given after SIGTERM before SIGKILL, when killed or when the session ends.
const KILL_GRACE_MS = 500;

interface JobStart {
  command: string;
  handle: CommandHandle;
  transcript: Transcript;
  stdin: JobStdin | null;
  // When its run started (monotonicMs()): a call that became a job started before it did.
  startedAt: number;
}

// A supervised run of a call's whole text that goes on after the call returned: started with
// `background: true`, or a call still running at its `yield` time. It never changes the session's
// directory or variables (it started from a copy, as `( ... ) &` does in bash).
export class Job {
  outcome: CommandOutcome | null = null;
  // The whole output once it ended.
  shown: ShownOutput | null = null;
  // Why the run failed inside safe-run, if it did.
  failure: string | null = null;
  endedAt: number | null = null;
  // Resolves once the run ended and its output is closed.
  readonly ended: Promise<void>;
  private killTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: number,
    readonly start: JobStart,
  ) {
    this.ended = start.handle.outcome
      .then(
        async (outcome) => {
          this.outcome = outcome;
        },
        (error: unknown) => {
          this.failure = error instanceof Error ? error.message : String(error);
        },
      )
      .then(async () => {
        this.endedAt = monotonicMs();
        this.shown = await start.transcript.finish();
        if (this.killTimer) clearTimeout(this.killTimer);
        start.stdin?.dispose();
      });
  }

  get running(): boolean {
    return this.endedAt === null;
  }

  elapsedMs(): number {
    return (this.endedAt ?? monotonicMs()) - this.start.startedAt;
  }

  // The pids of the stages running now.
  pids(): number[] {
    return this.start.handle
      .progress()
      .filter((stage) => stage.state === 'running' && stage.pid !== null)
      .map((stage) => stage.pid!);
  }

  // SIGTERM to every stage, SIGKILL to whatever is left half a second later; resolves once the run
  // ended, its teardown done (every process of the run seen gone or listed as a leftover).
  kill(): Promise<void> {
    if (this.running && !this.killTimer) {
      this.start.handle.cancel('SIGTERM', 'job_kill');
      this.killTimer = setTimeout(() => this.start.handle.cancel('SIGKILL', 'job_kill'), KILL_GRACE_MS);
    }
    return this.ended;
  }
}

// The session's jobs, by id (1, 2, ...), kept until the session ends.
export class JobTable {
  private readonly jobs = new Map<number, Job>();
  private next = 1;

  // The id the next job gets.
  get nextId(): number {
    return this.next;
  }

  add(start: JobStart): Job {
    const job = new Job(this.next, start);
    this.jobs.set(job.id, job);
    this.next += 1;
    return job;
  }

  get(id: number): Job | undefined {
    return this.jobs.get(id);
  }

  list(): Job[] {
    return [...this.jobs.values()];
  }

  // Files a listed job's output goes to: kept while the session lists the job.
  outputFiles(): string[] {
    return this.list().flatMap((job) => job.start.transcript.spilled()?.path ?? []);
  }

  // Whether a process is one of a running job's: a stage, or a process below one. A later call's
  // `kill PID` may signal it (the pid job_output shows), as the agent's own shell would.
  owns(pid: number): boolean {
    const stages = new Set(this.list().flatMap((job) => (job.running ? job.pids() : [])));
    for (let at = pid, hops = 0; at > 1 && hops < 64; at = parentOf(at), hops += 1) {
      if (stages.has(at)) return true;
    }
    return false;
  }

  async killAll(): Promise<void> {
    await Promise.all(this.list().map((job) => job.kill()));
  }
}

// The parent of a process (0 when it is gone or cannot be read).
function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) || 0;
  } catch {
    return 0;
  }
}
