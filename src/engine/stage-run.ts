import type { ChildProcess } from 'node:child_process';
import { PromptWatch } from '../agent/prompt-line.js';
import type { FactsStage } from '../facts/run-facts.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { Settings, StageError, StageSpec, StageStop, StreamTarget } from '../types.js';
import type { Resolution } from './resolve/resolve-program.js';
import type { ResolvedStage } from './resolve-plan.js';
import type { StreamReader } from './stream-reader.js';
import type { StreamSinks } from './stream-sinks.js';

// The engine's mutable record of one stage while it runs; turned into a StageResult at the end.
export class StageRun {
  readonly spec: StageSpec;
  readonly index: number;
  readonly env: Record<string, string>;
  // The directory it runs in as a string, for messages; spawning uses spec.cwd (null: inherit).
  readonly cwd: string;
  readonly resolvedPath: string | null;
  // What preflight found: the file to execute, or why it cannot start (null: no such directory).
  readonly resolution: Resolution | null;
  // Cleared when a -c stage fails alone instead (then spawnError says why, as bash would).
  preflightError: StageError | null;
  spawnError: StageError | null = null;
  child: ChildProcess | null = null;
  pid: number | null = null;
  startedAt: Date | null = null;
  startNs: number | null = null;
  endNs: number | null = null;
  exit: { code: number | null; signal: string | null } | null = null;
  stoppedAs: 'timeout' | 'limit' | 'cancelled' | null = null;
  // Where redirections sent stdin, stdout and stderr (null: not moved).
  redirectedTo: (StreamTarget | null)[] = [null, null, null];
  // Files its redirections opened, closed once the stage holds them.
  openedFds: number[] = [];
  stopDetail: StageStop | null = null;
  readers: StreamReader[] = [];
  stdoutSinks: StreamSinks | null = null;
  stderrSinks: StreamSinks | null = null;
  // The tail of what this stage printed where safe-run sees it, for --prompt-wait.
  readonly prompt = new PromptWatch();
  readonly exited: Promise<void>;
  private resolveExited: () => void = () => {};
  // Resolves once safe-run decided to stop this stage (a limit, a signal to safe-run, --fail-fast).
  readonly stopRequested: Promise<'stopped'>;
  private resolveStop: () => void = () => {};

  constructor(stage: ResolvedStage) {
    this.spec = stage.spec;
    this.index = stage.index;
    this.env = stage.env;
    this.cwd = stage.cwd;
    this.resolution = stage.resolution;
    this.resolvedPath = stage.resolution?.path ?? null;
    this.preflightError = stage.error;
    if (stage.resolution?.ok) {
      for (const warning of stage.resolution.warnings)
        this.warnings.push(`stage "${stage.spec.name}": ${warning}`);
    }
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

  // Never spawned because an earlier stage could not start: nothing to wait for, no exit to report.
  markNotSpawned(): void {
    this.resolveExited();
  }

  markExited(code: number | null, signal: string | null): void {
    if (this.exit !== null) return;
    this.endNs ??= monotonicMs();
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

// The stage as the facts ledger sees it: plain data, so facts never depend on the engine.
export function factsStageOf(run: StageRun): FactsStage {
  const resolution = run.resolution;
  return {
    index: run.index,
    program: run.spec.argv[0]!,
    cwd: run.cwd,
    env: run.env,
    resolvedPath: run.resolvedPath,
    notStarted: resolution !== null && !resolution.ok ? resolution : null,
  };
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
