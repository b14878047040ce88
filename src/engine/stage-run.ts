import type { ChildProcess } from 'node:child_process';
import type { Settings, StageError, StageSpec, StageStop } from '../types.js';
import type { StreamReader } from './stream-reader.js';
import type { StreamSinks } from './stream-sinks.js';

// The engine's mutable record of one stage while it runs; turned into a StageResult at the end.
export class StageRun {
  readonly spec: StageSpec;
  readonly index: number;
  readonly env: Record<string, string>;
  readonly cwd: string;
  resolvedPath: string | null = null;
  resolution: unknown = null;
  preflightError: StageError | null = null;
  spawnError: StageError | null = null;
  child: ChildProcess | null = null;
  pid: number | null = null;
  startedAt: Date | null = null;
  startNs: number | null = null;
  endNs: number | null = null;
  exit: { code: number | null; signal: string | null } | null = null;
  stoppedAs: 'timeout' | 'limit' | 'cancelled' | null = null;
  // Where redirections sent stdin, stdout and stderr (null: not moved).
  redirectedTo: (string | null)[] = [null, null, null];
  stopDetail: StageStop | null = null;
  readers: StreamReader[] = [];
  stdoutSinks: StreamSinks | null = null;
  stderrSinks: StreamSinks | null = null;
  readonly exited: Promise<void>;
  private resolveExited: () => void = () => {};
  // Resolves once safe-run decided to stop this stage (a limit, a signal to safe-run, --fail-fast).
  readonly stopRequested: Promise<'stopped'>;
  private resolveStop: () => void = () => {};

  constructor(spec: StageSpec, index: number, env: Record<string, string>) {
    this.spec = spec;
    this.index = index;
    this.env = env;
    this.cwd = spec.cwd ?? process.cwd();
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    this.stopRequested = new Promise((resolve) => {
      this.resolveStop = () => resolve('stopped');
    });
  }

  requestStop(): void {
    this.resolveStop();
  }

  markExited(code: number | null, signal: string | null): void {
    if (this.exit !== null) return;
    this.endNs ??= performance.now();
    this.exit = { code, signal };
    this.resolveExited();
  }

  get running(): boolean {
    return this.pid !== null && this.exit === null;
  }

  readFds: number[] = [];
  // Things worth saying about this stage that are not failures (e.g. found through a relative PATH entry).
  readonly warnings: string[] = [];

  openReadFds(): number[] {
    return this.readFds.filter((_, i) => this.readers[i]?.isOpen());
  }

  get streamsOpen(): boolean {
    return this.readers.some((reader) => reader.isOpen());
  }
}

export function newStageRun(spec: StageSpec, index: number, env: Record<string, string>): StageRun {
  return new StageRun(spec, index, env);
}

export interface DrainWatcher {
  // Called when a stage's leader exited but its output pipes stayed open past the drain timeout.
  onDrainTimeout(run: StageRun): Promise<void>;
}

// A stage is finished when its leader exited and its output pipes reached EOF, or, when something
// else still holds them, once the drain timeout has passed and the holders were dealt with.
export async function stageFinished(run: StageRun, settings: Settings, watcher: DrainWatcher): Promise<void> {
  await run.exited;
  const drained = Promise.all(run.readers.map((reader) => reader.ended));
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), settings.drainTimeoutMs);
    });
    const outcome = await Promise.race([drained.then(() => 'drained' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'drained') return;
    // safe-run itself paused reading (whoever reads its output, or the log's disk, is slow): nobody
    // else holds the pipes. Wait until it reads again, then give the drain timeout a full new run.
    const held = [run.stdoutSinks, run.stderrSinks].filter((sinks) => sinks?.held === true);
    if (held.length > 0) {
      const next = await Promise.race([
        drained.then(() => 'drained' as const),
        Promise.all(held.map((sinks) => sinks!.released())).then(() => 'released' as const),
        run.stopRequested,
      ]);
      if (next === 'drained') return;
      if (next === 'released') continue;
      // safe-run is ending this stage (a limit, a signal): stop waiting for output it had paused.
      for (const reader of run.readers) reader.abandon();
      return;
    }
    await watcher.onDrainTimeout(run);
    for (const reader of run.readers) reader.abandon();
    return;
  }
}
