import type { RunHandle } from '../../engine/run-pipeline.js';
import type { CancelSource, Interruption } from '../../types.js';

// A command the text started with `&`: its number (%N), its processes, and its end.
export class Job {
  // $!: the last process of the job's first pipeline of programs, as bash's (null before it started).
  pid: number | null = null;
  // Every process the job started, in order (jobs -l, jobs -p; wait and kill find the job by any).
  readonly pids: number[] = [];
  status: number | null = null;
  cancelled: Interruption | null = null;
  // A process substitution's list, not a `&` job: it gets a while to end at the text's end.
  substitution = false;
  // Set once `wait` or `jobs` told the text of its end: bash forgets a job then.
  reported = false;
  // Set by a `wait` for all jobs: bash discards the statuses then, its pids no longer answer either.
  discarded = false;
  // Signals ignored (trap '' SIG) when it started: its processes inherit that, so kill 0 spares it.
  ignored: ReadonlySet<string> = new Set();
  readonly running = new Set<RunHandle>();
  // The shell that is the job's process, as bash's subshell is (its traps are those kill %N runs);
  // `adopt`: a lone `( list )` body, whose subshell bash runs in that same process (job-signals.ts).
  shell: { readonly traps: ReadonlyMap<string, string> } | null = null;
  adopt: object | null = null;
  // Trapped signals sent to that shell, whose traps run once its current command ends (one mark per
  // signal, as bash keeps them: the same signal twice runs its trap once).
  readonly pending = new Set<string>();
  // Set while the shell runs its EXIT trap after a kill: its commands run, as bash's do.
  exiting = false;
  private onSignal: (() => void)[] = [];
  done: Promise<number> = Promise.resolve(0);
  private notePid: (pid: number | null) => void = () => {};
  private noteWaiting: () => void = () => {};
  // Resolves with $! once the job has it (or null when it ended without a process).
  readonly firstPid: Promise<number | null>;
  // Resolves when $! is not to wait for the job's first process: the job waits on something before it
  // can start one (a FIFO's open), or runs a command inside safe-run first (bash's $! is then its
  // subshell's, which a stand-in gives: job-stand-in.ts).
  readonly waiting: Promise<void>;
  // Resolves with the job's stop once cancel() is called: ends a FIFO open of its shell's (redirect.ts).
  readonly stopped: Promise<Interruption>;
  private noteStopped: (stop: Interruption) => void = () => {};

  constructor(
    readonly id: number,
    readonly text: string,
  ) {
    this.firstPid = new Promise((resolve) => {
      this.notePid = resolve;
    });
    this.waiting = new Promise((resolve) => {
      this.noteWaiting = resolve;
    });
    this.stopped = new Promise((resolve) => {
      this.noteStopped = resolve;
    });
  }

  // An engine run of the job: cancelled with it, and its processes' ids noted as they start. Returns
  // what to call once the run ended.
  track(handle: RunHandle): () => void {
    this.running.add(handle);
    if (this.cancelled && !this.exiting) handle.cancel(this.cancelled.signal, this.cancelled.by);
    let ended = false;
    void handle.report.then(
      () => this.notePids(handle),
      () => {},
    );
    const poll = (delayMs: number) => {
      if (ended || this.notePids(handle)) return;
      setTimeout(() => poll(Math.min(delayMs * 2, 20)), delayMs);
    };
    setImmediate(() => poll(1));
    return () => {
      ended = true;
      this.notePids(handle);
      this.running.delete(handle);
    };
  }

  // Notes the run's process ids once every stage started (or ended without starting); true then.
  private notePids(handle: RunHandle): boolean {
    const stages = handle.progress();
    if (stages.length === 0 || stages.some((stage) => stage.state === 'waiting')) return false;
    const pids = stages.flatMap((stage) => (stage.pid === null ? [] : [stage.pid]));
    for (const pid of pids) if (!this.pids.includes(pid)) this.pids.push(pid);
    if (this.pid === null && pids.length > 0) {
      this.pid = pids.at(-1)!;
      this.notePid(this.pid);
    }
    return true;
  }

  mayWait(): void {
    this.noteWaiting();
  }

  // A process that stands for the job's subshell: $!, found by wait and kill as the job's.
  standIn(pid: number): void {
    this.pid ??= pid;
    this.pids.unshift(pid);
    this.notePid(pid);
  }

  finished(status: number): void {
    this.status = status;
    this.notePid(null);
  }

  // A signal the job's shell has a trap for: noted, and a `wait` of that shell returns.
  deliver(signal: string): void {
    this.pending.add(signal);
    for (const wake of this.onSignal.splice(0)) wake();
  }

  // Resolves once a trapped signal is delivered (see deliver); `forget` lets it go unresolved.
  signalled(): { signalled: Promise<void>; forget: () => void } {
    let wake = () => {};
    const signalled = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.onSignal.push(wake);
    const forget = () => {
      const at = this.onSignal.indexOf(wake);
      if (at !== -1) this.onSignal.splice(at, 1);
    };
    return { signalled, forget };
  }

  // `by`: who asked, when it is not a signal to safe-run (the text's kill, the text's end).
  cancel(signal: NodeJS.Signals, by?: CancelSource): void {
    // A stop while it runs its EXIT trap after a kill ends the trap too.
    if (this.exiting) this.cancelled = { signal, by };
    else this.cancelled ??= { signal, by };
    this.exiting = false;
    this.noteStopped(this.cancelled);
    for (const handle of this.running) handle.cancel(signal, by);
  }
}

// Jobs in the order they were started: a shell's own (a subshell starts with none, as bash's), or
// every job of the run (what a signal to safe-run and the run's end stop).
export class Jobs {
  readonly list: Job[] = [];

  // A job is numbered one past the highest still known (%1 again once all are gone). Known: not
  // reaped by `wait`, and not ended before a foreground command or a `wait` of the shell's own
  // finished (forgetEnded): bash forgets those then, and not earlier (a job that ended while only
  // builtins ran keeps its number, or `kill %1` would signal the next job).
  create(text: string): Job {
    let top = 0;
    for (const job of this.list) if (!job.reported) top = Math.max(top, job.id);
    const job = new Job(top + 1, text);
    this.list.push(job);
    return job;
  }

  // A foreground command of the shell (a program, `wait`) finished: bash has seen the jobs that ended
  // meanwhile, and forgets them (their pids still answer `wait`).
  forgetEnded(): void {
    for (const job of this.list) if (job.status !== null) job.reported = true;
  }

  add(job: Job): void {
    this.list.push(job);
  }

  // Jobs that left the table (disown), by their last process's id: the status each had then (0 while
  // it ran), which `wait PID` gives at once, as bash keeps it among its saved background statuses.
  private readonly saved = new Map<number, number>();

  // disown: the job leaves the table (it runs on, as one of the run's jobs).
  remove(job: Job): void {
    const at = this.list.indexOf(job);
    if (at !== -1) this.list.splice(at, 1);
    const last = job.pids.at(-1) ?? job.pid;
    if (last !== null && last !== undefined) this.saved.set(last, job.status ?? 0);
  }

  savedStatus(pid: number): number | undefined {
    return this.saved.get(pid);
  }

  // A `wait` for all jobs discards the saved statuses too.
  discardSaved(): void {
    this.saved.clear();
  }

  // %N, %%, %+, %-, or a process id. A job the text was told has ended is no longer found by %N.
  find(spec: string): Job | undefined {
    const known = this.list.filter((job) => !job.reported);
    if (spec === '%%' || spec === '%+' || spec === '%') return known.at(-1);
    if (spec === '%-') return known.at(-2);
    if (/^%[0-9]+$/.test(spec)) return known.find((job) => job.id === Number(spec.slice(1)));
    if (/^[0-9]+$/.test(spec))
      return this.list.find((job) => !job.discarded && job.pids.includes(Number(spec)));
    return undefined;
  }

  running(): Job[] {
    return this.list.filter((job) => job.status === null);
  }
}
