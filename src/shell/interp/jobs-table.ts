import type { RunHandle } from '../../engine/run-pipeline.js';

// A command the text started with `&`: its number (%N), its first process, and its end.
export class Job {
  pid: number | null = null;
  status: number | null = null;
  cancelled: NodeJS.Signals | null = null;
  readonly running = new Set<RunHandle>();
  done: Promise<number> = Promise.resolve(0);
  private notePid: (pid: number | null) => void = () => {};
  // Resolves with the job's first process id once it has one (or null when it ended without one).
  readonly firstPid: Promise<number | null>;

  constructor(
    readonly id: number,
    readonly text: string,
  ) {
    this.firstPid = new Promise((resolve) => {
      this.notePid = resolve;
    });
  }

  started(pid: number): void {
    if (this.pid === null) {
      this.pid = pid;
      this.notePid(pid);
    }
  }

  finished(status: number): void {
    this.status = status;
    this.notePid(null);
  }

  cancel(signal: NodeJS.Signals): void {
    this.cancelled ??= signal;
    for (const handle of this.running) handle.cancel(signal);
  }
}

// The jobs of one run, in the order they were started.
export class Jobs {
  readonly list: Job[] = [];

  create(text: string): Job {
    const job = new Job(this.list.length + 1, text);
    this.list.push(job);
    return job;
  }

  // %N, %%, %+, %-, or a process id.
  find(spec: string): Job | undefined {
    if (spec === '%%' || spec === '%+' || spec === '%') return this.list.at(-1);
    if (spec === '%-') return this.list.at(-2);
    if (/^%[0-9]+$/.test(spec)) return this.list[Number(spec.slice(1)) - 1];
    if (/^[0-9]+$/.test(spec)) return this.list.find((job) => job.pid === Number(spec));
    return undefined;
  }

  running(): Job[] {
    return this.list.filter((job) => job.status === null);
  }
}
