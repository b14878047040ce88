import type { RunFacts } from '../facts/run-facts.js';
import { monotonicMs } from '../monotonic-ms.js';
import { stopReason } from '../outcome-text/render.js';
import type { OwnGroups } from '../teardown/own-groups.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { StageError } from '../types.js';
import { applyRedirects } from './apply-redirects.js';
import { notFoundAsBash } from './bash-messages.js';
import type { OpenStop } from './fifo-open.js';
import { closeQuietly } from './kernel-pipes.js';
import { type PipelinePipes, stageStdio } from './pipeline-pipes.js';
import { type StageFds, spawnStage } from './spawn-stage.js';
import { factsStageOf, type StageRun } from './stage-run.js';
import type { Supervisor } from './supervisor.js';

interface StartContext {
  pipes: PipelinePipes;
  supervisor: Supervisor;
  watchdog: Watchdog;
  groups: OwnGroups;
  facts: RunFacts | null;
  // Ends a redirection's wait for a FIFO's other end (src/engine/fifo-open.ts).
  stop: Promise<OpenStop> | null;
}

// Spawns every stage, in order, each into its own process group, and hands it to the supervisor and
// the watchdog. A stage the kernel refuses to start is recorded as data on its StageRun.
// Once one is refused, the stages after it are not spawned (they are skipped) and those already
// running are stopped: a pipeline with a hole in it would wait forever on the missing stage's pipes.
// A -c stage whose redirection fails, or whose program is missing, fails alone instead, as in bash.
export async function startStages(runs: readonly StageRun[], ctx: StartContext): Promise<void> {
  for (const [i, run] of runs.entries()) {
    if (runs.some((other) => other.spawnError?.during === 'start')) run.markNotSpawned();
    else await startStage(run, i, ctx);
  }
  const refused = runs.find((run) => run.spawnError?.during === 'start');
  if (refused) ctx.supervisor.onStartRefused(refused);
}

// Redirections (-c text) are applied here, as bash applies them in the child just before exec. A
// failed one, or a program a -c stage cannot find, is said on the stage's stderr as bash says it, and
// the stage does not start. Null: the stage will not run.
async function stdioOf(run: StageRun, i: number, ctx: StartContext): Promise<StageFds | null> {
  const base = stageStdio(ctx.pipes, i);
  const runStdout = stageStdio(ctx.pipes, ctx.pipes.errPipes.length - 1).stdout;
  const redirected = await applyRedirects(
    [base.stdin, base.stdout, base.stderr],
    run.spec.redirects ?? [],
    run.cwd,
    ctx.stop,
    runStdout,
    stageStdio(ctx.pipes, 0).stdin,
    run.spec.shell,
  );
  run.redirectedTo = redirected.to.slice(0, 3);
  run.openedFds = redirected.opened;
  if (redirected.stopped) {
    // Under bash the stage would have started and waited in its open: it is stopped as it would be.
    const { as, cause, afterMs } = redirected.stopped;
    run.stoppedAs = as;
    const fifo = { kind: 'redirect' } as const;
    const reason = stopReason(cause, fifo);
    const rest = { signals: [], snapshot: [], deadlock: null, waitingForStage: null };
    run.stopDetail = { reason, cause, fifo, afterMs, ...rest };
    ctx.pipes.closeLinkReader(i);
    return null;
  }
  if (!redirected.failure && !run.preflightError) {
    const [stdin = 'ignore', stdout = 'ignore', stderr = 'ignore', ...further] = redirected.fds;
    return { stdin, stdout, stderr, further };
  }
  run.spawnError = redirected.failure
    ? { ...redirected.failure, exitCode: 1, during: 'redirect' }
    : await notFoundAsBash(run, redirected.fds[2] ?? 'ignore', ctx.stop);
  run.preflightError = null;
  ctx.pipes.closeLinkReader(i);
  return null;
}

async function startStage(run: StageRun, i: number, ctx: StartContext): Promise<void> {
  const { supervisor, watchdog, facts, groups } = ctx;
  const stdio = await stdioOf(run, i, ctx);
  const resolution = run.resolution;
  if (stdio && resolution?.ok) {
    try {
      const spawned = groups.spawn(() => spawnStage(run.spec, resolution, stdio, run.env));
      run.child = spawned.child;
      run.pid = spawned.pid;
    } catch (error) {
      run.spawnError = spawnFailure(error as NodeJS.ErrnoException);
    }
  }
  for (const fd of run.openedFds) closeQuietly(fd);
  run.startedAt = new Date();
  run.startNs = monotonicMs();
  const child = run.child;
  if (!child) {
    run.markExited(null, null);
    return;
  }
  child.on('error', (error: NodeJS.ErrnoException) => {
    // Only a failure to create the process; a started stage's fate comes from 'exit'.
    if (run.pid === null) {
      run.spawnError = spawnFailure(error);
      run.markExited(null, null);
      supervisor.onStartRefused(run);
    }
  });
  child.on('exit', (code, signal) => {
    // First: the leader was reaped a moment ago, in this very call.
    if (run.pid !== null) groups.leaderReaped(run.pid);
    run.endNs = monotonicMs();
    run.markExited(code, signal);
    supervisor.onStageExit(run);
  });
  if (run.pid !== null) {
    facts?.recordStarted(factsStageOf(run));
    watchdog.watchGroup(run.pid, groups.add(run.pid));
    supervisor.watch(run);
  }
}

// The kernel refused to start a program that preflight accepted (E2BIG, ETXTBSY, ENOMEM...).
function spawnFailure(error: NodeJS.ErrnoException): StageError {
  const code = error.code ?? 'EUNKNOWN';
  return {
    code,
    message: `the kernel refused to start it: ${error.message}`,
    exitCode: code === 'ENOENT' ? 127 : 126,
    during: 'start',
  };
}
